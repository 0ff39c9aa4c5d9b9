//! The translated forms of statements, and what translation needs to know ([`Env`]).

use tutti_wsrep::{Ddl, Value};

/// A MySQL table name, fully qualified.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TableName {
    /// The MySQL database.
    pub db: String,
    /// The table within it.
    pub table: String,
}

impl TableName {
    /// A qualified name.
    pub fn new(db: impl Into<String>, table: impl Into<String>) -> Self {
        TableName {
            db: db.into(),
            table: table.into(),
        }
    }
    /// The SQLite table name: `db.table`.
    pub fn sqlite_name(&self) -> String {
        format!("{}.{}", self.db, self.table)
    }
    /// Splits a SQLite table name back (None for system tables, which have no dot).
    pub fn from_sqlite_name(name: &str) -> Option<TableName> {
        let (db, table) = name.split_once('.')?;
        Some(TableName::new(db, table))
    }
}

impl std::fmt::Display for TableName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.db, self.table)
    }
}

/// `@@session.x` or `@@global.x` (a bare `@@x` asks for the session value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarScope {
    /// This connection's value.
    Session,
    /// The server-wide value.
    Global,
}

/// One column of a user table, as SQLite declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnInfo {
    /// Column name.
    pub name: String,
    /// Declared type, which keeps the MySQL type name (`INT UNSIGNED`, `VARCHAR(20)`, ...).
    pub decl_type: String,
    /// NOT NULL constraint.
    pub not_null: bool,
    /// Position in the primary key (1-based), 0 when not part of it.
    pub pk: u32,
    /// The DEFAULT expression as SQLite stores it.
    pub default: Option<String>,
    /// A column of a view or derived table that its query computes: the MySQL type MariaDB
    /// gives the expression (`decimal(11,2)`, `datetime(3)`); `decl_type` is then the
    /// SQLite form expressions over the column are typed by.
    pub computed: Option<String>,
}

/// One index of a user table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexInfo {
    /// The MySQL name (`PRIMARY` for the primary key).
    pub name: String,
    /// The SQLite index name (`db.t.name`, or an `sqlite_autoindex_*`).
    pub sqlite_name: String,
    /// UNIQUE index (or primary key).
    pub unique: bool,
    /// Indexed columns in order.
    pub columns: Vec<String>,
}

/// A user table as the catalog knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableInfo {
    /// Qualified name.
    pub name: TableName,
    /// Columns in declaration order.
    pub columns: Vec<ColumnInfo>,
    /// The AUTO_INCREMENT column (always the single-column INTEGER PRIMARY KEY), if any;
    /// [`INVISIBLE_KEY`] for a table without a PRIMARY KEY.
    pub autoinc: Option<String>,
    /// Indexes, primary key first when it has its own index.
    pub indexes: Vec<IndexInfo>,
    /// The table's SQLite definition (`sqlite_schema.sql`).
    pub create_sql: String,
    /// Another table's FOREIGN KEY references this one.
    pub referenced: bool,
}

/// The invisible key of a table created without a PRIMARY KEY: SQLite's rowid, which
/// `SELECT *` and an INSERT without a column list leave out. Its values are handed out
/// like AUTO_INCREMENT ids (node-safe), without becoming LAST_INSERT_ID.
pub const INVISIBLE_KEY: &str = "_rowid_";

impl TableInfo {
    /// True for a view.
    pub fn is_view(&self) -> bool {
        self.create_sql
            .trim_start()
            .get(..11)
            .is_some_and(|s| s.eq_ignore_ascii_case("CREATE VIEW"))
    }

    /// Its unique keys, the PRIMARY KEY included (not an invisible key).
    pub fn unique_keys(&self) -> usize {
        self.indexes.iter().filter(|i| i.unique).count()
    }

    /// True when a REPLACE that meets a row equal to the new one deletes it and inserts the
    /// new one (2 affected rows), as every engine but InnoDB does, and InnoDB where the
    /// table has more than one unique key; InnoDB with one updates the row in place and
    /// counts nothing for it.
    pub fn replace_deletes_same(&self) -> bool {
        self.unique_keys() > 1
            || crate::table_engine(&self.create_sql) != crate::create_table::DEFAULT_ENGINE
    }

    /// True for a table without a PRIMARY KEY (keyed by [`INVISIBLE_KEY`]).
    pub fn has_invisible_key(&self) -> bool {
        self.autoinc.as_deref() == Some(INVISIBLE_KEY)
    }
}

/// What translation asks of the session and the catalog.
pub trait Env {
    /// The current database (`USE db`), if any.
    fn current_db(&self) -> Option<&str>;
    /// Value of `@@name` in the given scope; None when the variable does not exist.
    fn system_variable(&self, scope: VarScope, name: &str) -> Option<Value>;
    /// Value of the user variable `@name` (NULL when unset).
    fn user_variable(&self, name: &str) -> UserValue;
    /// Value of a session function with no arguments, by lower-case name: `database`,
    /// `schema`, `last_insert_id`, `connection_id`, `user`, `current_user`, `session_user`,
    /// `system_user`, `version`, `row_count`, `found_rows`. None if not a session function.
    fn session_function(&self, name: &str) -> Option<Value>;
    /// The table, if it exists.
    fn table(&self, name: &TableName) -> Option<TableInfo>;
    /// Whether the database exists.
    fn database_exists(&self, name: &str) -> bool;
    /// A database's default collation (None: the server's, `utf8mb4_general_ci`).
    fn database_collation(&self, _name: &str) -> Option<String> {
        None
    }
    /// Whether `name` is one of the session's temporary tables (which hide a table of the
    /// same name, as in MySQL).
    fn is_temporary(&self, _name: &TableName) -> bool {
        false
    }
    /// `value` as a column of temporal `kind` (`date`, `datetime`, `time`) with `fsp`
    /// fraction digits stores it: Some(None) when it is no such value; None when this
    /// environment cannot tell (the value is then kept as written).
    fn temporal_default(&self, _value: &Value, _kind: &str, _fsp: u32) -> Option<Option<String>> {
        None
    }
}

/// One translated statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// Something SQLite runs: a SELECT, or a row write (INSERT/UPDATE/DELETE/REPLACE).
    Query(Query),
    /// A schema change, replicated and executed in total order on every node.
    Ddl(DdlStmt),
    /// `BEGIN` / `START TRANSACTION [READ ONLY | READ WRITE | WITH CONSISTENT SNAPSHOT]`.
    Begin {
        /// `READ ONLY` was given.
        read_only: bool,
        /// `WITH CONSISTENT SNAPSHOT`: the read view starts now, not at the first read.
        consistent_snapshot: bool,
    },
    /// `COMMIT [WORK]`.
    Commit,
    /// `ROLLBACK [WORK]`.
    Rollback,
    /// `USE db`.
    Use(String),
    /// `SET ...` (one or more assignments).
    Set(Vec<SetVar>),
    /// `SET STATEMENT var = value [, ...] FOR sql`: `sql` runs with the session variables
    /// set, which then get their values back.
    SetStatement {
        /// The session assignments.
        vars: Vec<SetVar>,
        /// The statement, translated when it runs.
        sql: String,
    },
    /// `SHOW ...`, `DESCRIBE t`.
    Show(Show),
    /// `FLUSH ...` (the words after FLUSH, upper case, e.g. "STATUS", "TABLES", "PRIVILEGES").
    Flush(String),
    /// `KILL [CONNECTION | QUERY] id`.
    Kill {
        /// The connection id.
        id: u64,
        /// `KILL QUERY`: stop the statement, keep the connection.
        query_only: bool,
    },
    /// `DROP TABLE|VIEW` naming what does not exist or is of the other kind.
    DropTables(DropTables),
    /// `CREATE TABLE table LIKE source`: the executor copies the source's definition.
    CreateLike {
        /// The new table.
        table: TableName,
        /// The table whose columns, keys and checks it gets.
        source: TableName,
        /// `IF NOT EXISTS`.
        if_not_exists: bool,
        /// `CREATE TEMPORARY TABLE ... LIKE`.
        temporary: bool,
    },
    /// A change to the session's temporary tables (see [`TempDdl`]).
    Temporary(TempDdl),
    /// `CREATE TABLE ... SELECT` (see [`CreateSelect`]).
    CreateSelect(crate::CreateSelect),
    /// `PREPARE name FROM text`: a named prepared statement of the session.
    Prepare {
        /// Lower-case name.
        name: String,
        /// The statement text.
        text: SetValue,
    },
    /// `EXECUTE name [USING v, ...]`.
    Execute {
        /// Lower-case name.
        name: String,
        /// Values bound to the `?` placeholders, in order.
        using: Vec<SetValue>,
    },
    /// `EXECUTE IMMEDIATE text [USING v, ...]`: prepare, execute once, forget.
    ExecuteImmediate {
        /// The statement text.
        text: SetValue,
        /// Values bound to the `?` placeholders, in order.
        using: Vec<SetValue>,
    },
    /// `DEALLOCATE PREPARE name`, `DROP PREPARE name`.
    Deallocate(String),
    /// `SELECT ... INTO @a, @b`: the SELECT's one row is assigned to the user variables (in
    /// order); more rows are an error (1172), none a warning (1329).
    SelectInto {
        /// The SELECT without its INTO clause.
        query: Query,
        /// The user variables' names, as written.
        vars: Vec<String>,
        /// INTO stood after FROM or a UNION: MariaDB warns that this is deprecated (1287).
        deprecated_place: bool,
    },
    /// `DO expr, ...`: the expressions evaluated as this SELECT, its rows dropped.
    Do(String),
    /// Accepted and without effect in tutti (`UNLOCK TABLES`, `ANALYZE TABLE`, `DO 1`, an
    /// empty statement, ...); the text says what it was.
    Noop(String),
    /// An ALTER TABLE that leaves this table as it is here (`FORCE`, the same `ENGINE`,
    /// `ORDER BY`): answered as MariaDB answers its rebuild, `Records: 0` (a temporary
    /// table's rows, which MariaDB copies).
    Unaltered(TableName),
    /// A statement with the notes MariaDB gives with it (`CREATE TABLE IF NOT EXISTS` of
    /// an existing table, `ALTER TABLE ... DROP COLUMN IF EXISTS` of a missing column).
    Noted {
        /// The notes.
        notes: Vec<Note>,
        /// What runs.
        stmt: Box<Stmt>,
    },
}

/// A note (`SHOW WARNINGS` level `Note`).
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// MySQL's code.
    pub code: u16,
    /// MySQL's text.
    pub message: String,
    /// Raised at the Warning level rather than as a Note.
    pub warning: bool,
}

impl Stmt {
    /// `self` with `notes` (itself when there are none).
    pub fn noted(self, notes: Vec<Note>) -> Stmt {
        if notes.is_empty() {
            return self;
        }
        Stmt::Noted {
            notes,
            stmt: Box::new(self),
        }
    }
}

/// What kind of SQLite statement a [`Query`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    /// Returns rows, changes nothing.
    Select,
    /// INSERT (including INSERT IGNORE and INSERT ... SELECT).
    Insert,
    /// INSERT ... ON DUPLICATE KEY UPDATE.
    Upsert,
    /// REPLACE.
    Replace,
    /// UPDATE.
    Update,
    /// DELETE.
    Delete,
}

impl QueryKind {
    /// True for statements that change rows.
    pub fn is_write(self) -> bool {
        !matches!(self, QueryKind::Select)
    }
}

/// What the AUTO_INCREMENT ids of an INSERT or REPLACE depend on; the executor's generator
/// turns it into InnoDB's reservations (see `tutti_storage`'s `autoinc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InsertIds {
    /// The rows of its `VALUES` list (None: the rows come from a SELECT).
    pub values: Option<u64>,
    /// The table's engine takes each id as its row is written (MyISAM, Aria, MEMORY)
    /// instead of reserving intervals as InnoDB does.
    pub one_at_a_time: bool,
    /// A row may be skipped (IGNORE) or become an update (ON DUPLICATE KEY UPDATE), and
    /// SQLite inserts each row before computing the next (it does not read its target): a
    /// row that is not inserted gives its id back to the next.
    pub restore: bool,
}

/// A statement for SQLite.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// SQLite SQL; parameters are numbered `?1`, `?2`, ... in the order of the client's `?`.
    pub sql: String,
    /// What it does.
    pub kind: QueryKind,
    /// Number of `?` parameters the client must bind.
    pub params: usize,
    /// The table a write changes (None for SELECT).
    pub target: Option<TableName>,
    /// The SQL calls `tutti_autoinc(x)` to generate AUTO_INCREMENT values for `target`,
    /// which returns x unless x is NULL or 0, in which case it returns the next id for this
    /// node. The executor prepares the function's state before running the statement.
    pub autoinc: Option<InsertIds>,
    /// `SELECT ... FOR UPDATE` / `LOCK IN SHARE MODE` (the clause is removed from `sql`).
    pub locking: bool,
    /// For a locking SELECT: how to find and lock the rows it reads.
    pub row_lock: Option<RowLock>,
    /// The tables the statement reads, when known (None when it reads a view or anything
    /// else whose tables are not known here).
    pub reads: Option<Vec<TableName>>,
    /// Session values (`@@x`, `@x`, `LAST_INSERT_ID()`, ...) were substituted into `sql`, so
    /// it must be translated again for each execution.
    pub volatile: bool,
    /// Result columns (by name) that are computed DECIMALs: sent as DECIMAL, though SQLite
    /// sees text (stored DECIMAL columns are known by their declared type).
    pub decimal_columns: Vec<String>,
    /// Result columns (by name) that are doubles MariaDB shows with fixed decimals (`SUM`
    /// of a DOUBLE(M,D) column: `100.00`), and how many.
    pub fixed_decimals: Vec<(String, u8)>,
    /// MariaDB's column types for the result columns, where derived (see `result_types`;
    /// empty when not derived at all), for `CREATE TABLE ... SELECT`.
    pub result_types: Vec<Option<crate::ResultType>>,
    /// Result columns (by position) that are computed dates, times or DECIMALs: sent as
    /// MariaDB types them (`NOW()` a DATETIME, `DATE(x)` a DATE, `LAG(price)` a DECIMAL with
    /// its scale), though SQLite sees text.
    pub computed_types: Vec<(usize, ComputedType)>,
    /// `SELECT SQL_CALC_FOUND_ROWS ... LIMIT n`: SQLite SQL (same parameters) counting the
    /// rows the query would return without its LIMIT, for `FOUND_ROWS()`.
    pub found_rows_sql: Option<String>,
    /// A SELECT's literal `OFFSET n` (n > 0): MariaDB's `FOUND_ROWS()` counts the rows it
    /// skipped too (`LIMIT 2, 3` of 10 rows is 5); when no row is returned,
    /// `found_rows_sql` counts the query's first n rows.
    pub found_rows_offset: Option<u64>,
    /// `INSERT|REPLACE ... VALUES`: the rows offered.
    pub values_rows: Option<u64>,
    /// `INSERT IGNORE`: each row offered and not inserted was a duplicate key MariaDB warns
    /// of (1062).
    pub ignore: bool,
    /// An UPDATE or upsert whose assignments mark the rows they change
    /// (`tutti_changed_to`, see storage's `changed`): the executor counts affected rows from
    /// the marks instead of reading the statement's own changeset.
    pub marks_changes: bool,
    /// `INSERT ... SELECT`: `FOUND_ROWS()` is then the rows its SELECT produced, each of
    /// them inserted, replaced or updated (a row `INSERT IGNORE` skipped is not counted).
    pub counts_selected: bool,
}

/// The type MariaDB gives a computed result column, where SQLite's value does not say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComputedType {
    /// DATE.
    Date,
    /// DATETIME with this many fraction digits.
    Datetime(u8),
    /// TIMESTAMP with this many fraction digits.
    Timestamp(u8),
    /// TIME with this many fraction digits.
    Time(u8),
    /// DOUBLE(length, decimals): shown with a fixed number of decimals (`STD(d)`).
    Double {
        /// Display length.
        length: u8,
        /// Digits after the point.
        decimals: u8,
    },
    /// DECIMAL(precision, scale).
    Decimal {
        /// Total digits.
        precision: u8,
        /// Digits after the point.
        scale: u8,
        /// UNSIGNED.
        unsigned: bool,
    },
}

/// The rows a locking SELECT reads, and how to lock them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowLock {
    /// `FOR UPDATE` (exclusive); `FOR SHARE` / `LOCK IN SHARE MODE` (shared).
    pub exclusive: bool,
    /// `NOWAIT`: fail at once rather than wait for another transaction's lock.
    pub nowait: bool,
    /// SQLite SQL (same parameters as the SELECT) returning the primary-key values of every
    /// row the SELECT reads: for each table of `tables`, its key columns in key order.
    pub keys_sql: String,
    /// The tables locked, with the number of key columns of each, in column order.
    pub tables: Vec<(TableName, usize)>,
}

/// A translated schema change.
#[derive(Clone, Debug, PartialEq)]
pub struct DdlStmt {
    /// What every node executes.
    pub ddl: Ddl,
    /// Tables it creates, drops or changes (for certification and cache invalidation).
    pub tables: Vec<TableName>,
    /// What its OK packet counts.
    pub records: DdlRecords,
}

/// What the OK packet of a schema change counts, as MariaDB's does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DdlRecords {
    /// Nothing: CREATE, DROP, RENAME, an ALTER TABLE that only renames.
    #[default]
    None,
    /// `Records: 0`, no rows affected: an ALTER TABLE InnoDB does in place (ADD/DROP
    /// COLUMN, a DEFAULT, a longer VARCHAR, more ENUM members), CREATE or DROP INDEX.
    InPlace,
    /// The rows it copied, as its affected rows and its `Records:`: an ALTER TABLE that
    /// MariaDB runs by copying (a column's type changed).
    Copied,
}

/// A change to the session's temporary tables: never replicated (as in Galera), run by the
/// session on its own connection, where SQLite's `temp` schema holds them.
#[derive(Clone, Debug, PartialEq)]
pub struct TempDdl {
    /// SQLite statements: `CREATE TEMP TABLE "db.t"`, `CREATE INDEX temp."db.t.i"`; others
    /// name the table unqualified (SQLite looks in `temp` first).
    pub statements: Vec<String>,
    /// The temporary tables it creates, drops or changes.
    pub tables: Vec<TableName>,
    /// What runs after it: the rest of a `DROP TABLE` that also names other tables.
    pub then: Option<Box<Stmt>>,
    /// What its OK packet counts.
    pub records: DdlRecords,
}

/// `DROP TABLE|VIEW` naming objects that do not exist, or are of the other kind: those
/// that do are dropped (`ddl`, which may drop nothing), then the statement fails naming
/// `unknown` (1051, or 4092 for views), or notes them with `IF EXISTS`.
#[derive(Clone, Debug, PartialEq)]
pub struct DropTables {
    /// Drops what exists (with `IF EXISTS`, also the unknown ones: another node may have
    /// created them meanwhile).
    pub ddl: DdlStmt,
    /// What does not exist (for DROP VIEW, also the tables of `wrong_kind`).
    pub unknown: Vec<TableName>,
    /// Views named in DROP TABLE (1965), tables named in DROP VIEW (warning 1347).
    pub wrong_kind: Vec<TableName>,
    /// `DROP VIEW`.
    pub views: bool,
    /// `IF EXISTS`.
    pub if_exists: bool,
    /// `DROP TEMPORARY TABLE`: `unknown` are no temporary tables of the session (final).
    pub temporary: bool,
}

/// Where a SET assignment goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetScope {
    /// `SET x`, `SET SESSION x`, `SET @@x`, `SET @@session.x`, `SET LOCAL x`.
    Session,
    /// `SET GLOBAL x`, `SET @@global.x`.
    Global,
    /// `SET @x` (user variable).
    User,
}

/// The value assigned by SET.
#[derive(Clone, Debug, PartialEq)]
pub enum SetValue {
    /// A constant (identifiers such as `ON` or `utf8mb4` come as `Value::Text`).
    Value(Value),
    /// `DEFAULT`.
    Default,
    /// An expression: a SQLite `SELECT <expr>` whose single value is assigned.
    Query(String),
    /// A DECIMAL expression assigned to a user variable: a SQLite `SELECT` whose single
    /// value is its digits (all a quotient holds), kept as a [`UserValue::Decimal`].
    Decimal(String),
}

/// A user variable's value. MariaDB keeps the type of what was assigned: a DECIMAL stays
/// a DECIMAL, exact in later arithmetic and comparisons and shown with its digits (`SET @a
/// = 1.10` shows `1.10`; as a double it showed `1.1`, and `@a * 3` was a double's digits).
#[derive(Clone, Debug, PartialEq)]
pub enum UserValue {
    /// A value of any other type (NULL for a variable never assigned).
    Plain(Value),
    /// A DECIMAL: its digits, canonical text (`-12.50`).
    Decimal(String),
}

impl UserValue {
    /// The value as the session holds it (a DECIMAL's text).
    pub fn value(&self) -> Value {
        match self {
            UserValue::Plain(v) => v.clone(),
            UserValue::Decimal(d) => Value::Text(d.clone()),
        }
    }
}

/// One SET assignment.
#[derive(Clone, Debug, PartialEq)]
pub struct SetVar {
    /// Where it goes.
    pub scope: SetScope,
    /// Lower-case variable name. `SET NAMES x [COLLATE y]` is `names` = x;
    /// `SET CHARACTER SET x` is `character_set` = x; `SET [SESSION|GLOBAL] TRANSACTION
    /// ISOLATION LEVEL l` is `transaction_isolation` = l (e.g. "REPEATABLE-READ");
    /// `SET TRANSACTION READ ONLY|WRITE` is `transaction_read_only` = 1|0.
    pub name: String,
    /// The value.
    pub value: SetValue,
}

/// A LIKE pattern or WHERE condition on a SHOW result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Filter {
    /// `LIKE 'pattern'` on the first column (MySQL wildcards `%` and `_`).
    Like(String),
    /// `WHERE expr`: a SQLite expression over the SHOW result's column names.
    Where(String),
}

/// The SHOW family (and DESCRIBE).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Show {
    /// `SHOW DATABASES|SCHEMAS`.
    Databases {
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW [FULL] TABLES [FROM db]`.
    Tables {
        /// The database (the current one when not given).
        db: String,
        /// FULL adds the Table_type column.
        full: bool,
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW [FULL] COLUMNS|FIELDS FROM t`, `DESCRIBE t`, `DESC t`, `EXPLAIN t`.
    Columns {
        /// The table.
        table: TableName,
        /// FULL adds Collation, Privileges, Comment.
        full: bool,
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW INDEX|INDEXES|KEYS FROM t`.
    Index {
        /// The table.
        table: TableName,
    },
    /// `SHOW CREATE TABLE t`.
    CreateTable(TableName),
    /// `SHOW CREATE VIEW v`.
    CreateView(TableName),
    /// `SHOW CREATE DATABASE db`.
    CreateDatabase(String),
    /// `SHOW [GLOBAL|SESSION] VARIABLES`.
    Variables {
        /// GLOBAL was given.
        global: bool,
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW [GLOBAL|SESSION] STATUS`.
    Status {
        /// GLOBAL was given.
        global: bool,
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW TABLE STATUS [FROM db]`.
    TableStatus {
        /// The database.
        db: String,
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW [FULL] PROCESSLIST`.
    Processlist {
        /// FULL: whole statement text.
        full: bool,
    },
    /// `SHOW WARNINGS`.
    Warnings,
    /// `SHOW COUNT(*) WARNINGS` / `SHOW COUNT(*) ERRORS`.
    Count {
        /// ERRORS.
        errors: bool,
    },
    /// `SHOW ERRORS`.
    Errors,
    /// `SHOW [STORAGE] ENGINES`.
    Engines,
    /// `SHOW COLLATION`.
    Collation {
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW CHARACTER SET` / `SHOW CHARSET`.
    CharacterSet {
        /// LIKE / WHERE.
        filter: Option<Filter>,
    },
    /// `SHOW GRANTS`.
    Grants,
    /// Anything else SHOW knows but tutti answers with an empty result (MASTER STATUS,
    /// SLAVE STATUS, BINARY LOGS, PLUGINS, TRIGGERS, ...); the text is the upper-case kind.
    Empty(String),
}
