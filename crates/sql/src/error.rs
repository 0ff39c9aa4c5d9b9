//! Why a statement cannot be translated.

/// A statement tutti cannot run, with enough detail for the client's error message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SqlError {
    /// Not valid MySQL syntax (MySQL 1064). The text is the parser's explanation.
    #[error("{0}")]
    Syntax(String),
    /// Valid MySQL that tutti does not support; the text names the construct (MySQL 1235).
    #[error("tutti does not support {0}")]
    Unsupported(String),
    /// An unqualified table name with no current database (MySQL 1046).
    #[error("No database selected")]
    NoDatabaseSelected,
    /// A database that does not exist (MySQL 1049).
    #[error("Unknown database '{0}'")]
    UnknownDatabase(String),
    /// CREATE TABLE of a name that is taken (MySQL 1050): a SEQUENCE engine table's name.
    #[error("Table '{0}' already exists")]
    TableExists(String),
    /// A table that does not exist (MySQL 1146), as `db.table`.
    #[error("Table '{0}' doesn't exist")]
    NoSuchTable(String),
    /// `@@name` that tutti does not know (MySQL 1193).
    #[error("Unknown system variable '{0}'")]
    UnknownSystemVariable(String),
    /// CREATE TABLE without a PRIMARY KEY, or dropping one (MySQL 1173).
    #[error("Table '{0}' has no PRIMARY KEY: tutti replicates rows by primary key, so every table needs one")]
    NoPrimaryKey(String),
    /// An index name that does not exist on the table (MySQL 1091).
    #[error("Can't DROP '{0}'; check that column/key exists")]
    NoSuchIndex(String),
    /// A column a statement names that is not there (MySQL 1054): in ALTER TABLE, or a
    /// position past the arguments in `GROUP_CONCAT(... ORDER BY n)` (in 'ORDER BY').
    #[error("Unknown column '{column}' in '{table}'")]
    UnknownColumn { column: String, table: String },
    /// A NOT NULL column without DEFAULT left out of an INSERT in strict mode (MySQL 1364).
    #[error("Field '{0}' doesn't have a default value")]
    NoDefault(String),
    /// DROP COLUMN of a column the table does not have (MySQL 1091).
    #[error("Can't DROP COLUMN `{0}`; check that it exists")]
    NoSuchColumnToDrop(String),
    /// A DECIMAL precision above 65 (MySQL 1426), with the column (or expression) named.
    #[error("Too big precision specified for '{0}'. Maximum is 65")]
    TooBigPrecision(String),
    /// A scale above the type's most (MySQL 1425): 38 for DECIMAL, 30 for FLOAT/DOUBLE.
    #[error("Too big scale specified for '{column}'. Maximum is {max}")]
    TooBigScale { column: String, max: u64 },
    /// A scale above its precision (MySQL 1427).
    #[error("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '{0}')")]
    ScaleAbovePrecision(String),
    /// A BIT wider than 64 or a FLOAT/DOUBLE(M,D) wider than 255 (MySQL 1439).
    #[error("Display width out of range for '{column}' (max = {max})")]
    TooBigDisplayWidth { column: String, max: u64 },
    /// A CHAR, VARCHAR, BINARY or VARBINARY longer than its type holds (MySQL 1074).
    #[error("Column length too big for column '{column}' (max = {max}); use BLOB or TEXT instead")]
    ColumnTooLong { column: String, max: u64 },
    /// A view reading a table or column that no longer exists (MySQL 1356).
    #[error("View '{0}' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them")]
    InvalidView(String),
    /// A FLOAT(p) with p above 53 (MySQL 1063).
    #[error("Incorrect column specifier for column '{0}'")]
    WrongFieldSpec(String),
    /// An ENUM or SET that lists a member twice (MySQL 1291).
    #[error("Column '{column}' has duplicated value '{member}' in {kind}")]
    DuplicatedMember {
        column: String,
        member: String,
        kind: &'static str,
    },
    /// A SET member with a comma (MySQL 1367).
    #[error("Illegal set '{0}' value found during parsing")]
    IllegalSetMember(String),
    /// A SET of more than 64 members (MySQL 1097).
    #[error("Too many strings for column {0} and SET")]
    TooManySetMembers(String),
    /// A DEFAULT the column cannot hold (MySQL 1067), with the column's name (empty until
    /// [`SqlError::in_column`] names it).
    #[error("Invalid default value for '{0}'")]
    InvalidDefault(String),
    /// `ON UPDATE` other than CURRENT_TIMESTAMP, or on a column that is no TIMESTAMP or
    /// DATETIME (MySQL 1294).
    #[error("Invalid ON UPDATE clause for '{0}' column")]
    InvalidOnUpdate(String),
    /// A FOREIGN KEY on a temporary table (MySQL 1005, errno 150), as `` `db`.`t` ``.
    #[error(
        "Can't create table {0} (errno: 150 \"Foreign key constraint is incorrectly formed\")"
    )]
    TemporaryForeignKey(String),
    /// A view reading a temporary table (MySQL 1352).
    #[error("View's SELECT refers to a temporary table '{0}'")]
    ViewOfTemporary(String),
    /// A wrong value or argument (MySQL 1231 / 1210), with explanation.
    #[error("{0}")]
    WrongArguments(String),
    /// A SET column that several tables of a multi-table UPDATE have (MySQL 1052).
    #[error("Column '{0}' in SET is ambiguous")]
    AmbiguousColumn(String),
    /// A row value as a function's argument (MariaDB 4079).
    #[error("Illegal parameter data type row for operation '{0}'")]
    RowArgument(String),
    /// An INSERT row with another number of values than columns (MySQL 1136), with the
    /// row's number (from 1).
    #[error("Column count doesn't match value count at row {0}")]
    ColumnCount(usize),
    /// Two PRIMARY KEYs in one table (MySQL 1068).
    #[error("Multiple primary key defined")]
    MultiplePrimaryKey,
    /// A literal's bytes are no text in its introducer's character set (MySQL 1300), as
    /// `(charset, hex of the first bad bytes)`.
    #[error("Invalid {0} character string: '{1}'")]
    InvalidCharacterString(String, String),
    /// A key names a column the table lacks (MySQL 1072); also MariaDB's answer to
    /// dropping a column of a multi-column primary key.
    #[error("Key column '{0}' doesn't exist in table")]
    KeyColumnMissing(String),
    /// An object of another kind than the statement names (MySQL 1347): `SHOW CREATE VIEW`
    /// of a table.
    #[error("'{object}' is not of type '{kind}'")]
    WrongObject { object: String, kind: &'static str },
    /// The AUTO_INCREMENT column left without its key (MySQL 1075).
    #[error("Incorrect table definition; there can be only one auto column and it must be defined as a key")]
    AutoColumnNotKey,
    /// Two indexes of one name (MySQL 1061).
    #[error("Duplicate key name '{0}'")]
    DuplicateKeyName(String),
    /// Two clauses MySQL does not allow together (MySQL 1221).
    #[error("Incorrect usage of {0} and {1}")]
    WrongUsage(&'static str, &'static str),
    /// A view that cannot be written (MySQL 1288).
    #[error("The target table {table} of the {what} is not updatable")]
    NonUpdatableTable {
        /// The view.
        table: String,
        /// The statement.
        what: &'static str,
    },
    /// A view column that is not a table's column (MySQL 1348).
    #[error("Column '{0}' is not updatable")]
    NonUpdatableColumn(String),
    /// A storage engine MariaDB does not know (MySQL 1286).
    #[error("Unknown storage engine '{0}'")]
    UnknownStorageEngine(String),
    /// A view with computed columns given to INSERT (MySQL 1471).
    #[error("The target table {0} of the INSERT is not insertable-into")]
    NonInsertableTable(String),
    /// A character set MariaDB does not know (MySQL 1115).
    #[error("Unknown character set: '{0}'")]
    UnknownCharset(String),
    /// A collation MariaDB does not know (MySQL 1273).
    #[error("Unknown collation: '{0}'")]
    UnknownCollation(String),
    /// A collation given to text of another character set (MySQL 1253).
    #[error("COLLATION '{collation}' is not valid for CHARACTER SET '{charset}'")]
    CollationCharsetMismatch { collation: String, charset: String },
}

impl SqlError {
    /// A type error with the column (or expression) it is about named: the type checks
    /// ([`crate::DecimalType::new`]) do not know the name.
    pub(crate) fn in_column(self, name: &str) -> SqlError {
        let column = name.to_string();
        match self {
            SqlError::TooBigPrecision(_) => SqlError::TooBigPrecision(column),
            SqlError::TooBigScale { max, .. } => SqlError::TooBigScale { column, max },
            SqlError::ScaleAbovePrecision(_) => SqlError::ScaleAbovePrecision(column),
            SqlError::TooBigDisplayWidth { max, .. } => {
                SqlError::TooBigDisplayWidth { column, max }
            }
            SqlError::WrongFieldSpec(_) => SqlError::WrongFieldSpec(column),
            SqlError::InvalidDefault(_) => SqlError::InvalidDefault(column),
            other => other,
        }
    }

    /// A type error in a CAST of `expr`: MariaDB names the expression, except in 1427.
    pub(crate) fn in_cast(self, expr: &str) -> SqlError {
        match self {
            SqlError::ScaleAbovePrecision(_) => SqlError::ScaleAbovePrecision(String::new()),
            other => other.in_column(expr),
        }
    }

    /// MySQL's 1064 message for a syntax error at `near` (the text from there on) on `line`.
    pub fn syntax_near(near: &str, line: u64) -> SqlError {
        SqlError::Syntax(format!(
            "You have an error in your SQL syntax; check the manual that corresponds to your \
             MariaDB server version for the right syntax to use near '{near}' at line {line}"
        ))
    }
}
