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
    /// A column an ALTER TABLE names that the table does not have (MySQL 1054).
    #[error("Unknown column '{column}' in '{table}'")]
    UnknownColumn { column: String, table: String },
    /// A NOT NULL column without DEFAULT left out of an INSERT in strict mode (MySQL 1364).
    #[error("Field '{0}' doesn't have a default value")]
    NoDefault(String),
    /// DROP COLUMN of a column the table does not have (MySQL 1091).
    #[error("Can't DROP COLUMN `{0}`; check that it exists")]
    NoSuchColumnToDrop(String),
    /// A DECIMAL precision above 65 (MySQL 1426).
    #[error("Too big precision {0} specified. Maximum is 65")]
    TooBigPrecision(u64),
    /// A DECIMAL scale above 38 (MySQL 1425).
    #[error("Too big scale {0} specified. Maximum is 38")]
    TooBigScale(u64),
    /// A DECIMAL scale above its precision (MySQL 1427).
    #[error("For float(M,D), double(M,D) or decimal(M,D), M must be >= D")]
    ScaleAbovePrecision,
    /// A BIT wider than 64 (MySQL 1439), with the column's name.
    #[error("Display width out of range for '{0}' (max = 64)")]
    TooBigDisplayWidth(String),
    /// A DEFAULT the column cannot hold (MySQL 1067).
    #[error("Invalid default value")]
    InvalidDefault,
    /// A wrong value or argument (MySQL 1231 / 1210), with explanation.
    #[error("{0}")]
    WrongArguments(String),
}

impl SqlError {
    /// MySQL's 1064 message for a syntax error at `near` (the text from there on) on `line`.
    pub fn syntax_near(near: &str, line: u64) -> SqlError {
        SqlError::Syntax(format!(
            "You have an error in your SQL syntax; check the manual that corresponds to your \
             MariaDB server version for the right syntax to use near '{near}' at line {line}"
        ))
    }
}
