//! Executor errors: every reason a statement fails, in MySQL's categories.
//!
//! SQLite's errors are classified here (by extended code and message) into variants the
//! MySQL front-end maps to error codes in one place.

use tutti_sql::SqlError;
use tutti_wsrep::{DdlFailure, ReplicateError};

/// Why a statement failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// The statement could not be translated.
    #[error(transparent)]
    Sql(#[from] SqlError),
    /// Certification failed, a BF abort, or a local lock deadlock: the transaction is gone.
    #[error("Deadlock found when trying to get lock; try restarting transaction")]
    Deadlock,
    /// A row lock was not granted in time; the statement (not the transaction) failed.
    #[error("Lock wait timeout exceeded; try restarting transaction")]
    LockWaitTimeout,
    /// Snapshot isolation: the statement would lock or change a row that another
    /// transaction changed after this transaction's read view (MariaDB's ER_CHECKREAD,
    /// `innodb_snapshot_isolation`); the statement failed, the transaction goes on.
    #[error("Record has changed since last read in table '{0}'")]
    RecordChanged(String),
    /// The node may not serve now (non-Primary, joining, inconsistent).
    #[error("WSREP has not yet prepared node for application use")]
    NotReady(String),
    /// The commit's fate is unknown (no outcome in time).
    #[error("{0}")]
    CommitUnknown(String),
    /// The server is shutting down.
    #[error("Server shutdown in progress")]
    Shutdown,
    /// Table does not exist.
    #[error("Table '{0}' doesn't exist")]
    NoSuchTable(String),
    /// Table already exists.
    #[error("Table '{0}' already exists")]
    TableExists(String),
    /// DROP of a missing table.
    #[error("Unknown table '{0}'")]
    UnknownTable(String),
    /// DROP TABLE of missing tables, after it dropped the others: final (a retry would
    /// find those missing too).
    #[error("Unknown table '{0}'")]
    DroppedOthers(String),
    /// DROP VIEW of what is no view, after it dropped the others: final.
    #[error("Unknown VIEW: '{0}'")]
    UnknownView(String),
    /// DROP TABLE of a view.
    #[error("'{0}' is a view")]
    IsView(String),
    /// Column does not exist.
    #[error("Unknown column '{0}' in 'field list'")]
    UnknownColumn(String),
    /// A column name matches columns of several tables in the statement.
    #[error("Column '{0}' in SELECT is ambiguous")]
    AmbiguousColumn(String),
    /// A subquery or row used as one value has several columns.
    #[error("Operand should contain 1 column(s)")]
    OperandColumns,
    /// A WITH column list of another length than its query's (MariaDB 4002).
    #[error("WITH column list and SELECT field list have different column counts")]
    CteColumns,
    /// A window function outside the select list and ORDER BY (MariaDB 4015).
    #[error("Window function is allowed only in SELECT list and ORDER BY clause")]
    WindowPlacement,
    /// `SELECT *` without a table (MySQL 1096).
    #[error("No tables used")]
    NoTablesUsed,
    /// `SELECT ... INTO @v` found more than one row.
    #[error("Result consisted of more than one row")]
    TooManyRows,
    /// A scalar subquery returned more than one row.
    #[error("Subquery returns more than 1 row")]
    SubqueryRows,
    /// The SELECTs of a UNION have different numbers of columns.
    #[error("The used SELECT statements have a different number of columns")]
    UnionColumns,
    /// Duplicate column in DDL.
    #[error("Duplicate column name '{0}'")]
    DuplicateColumn(String),
    /// Duplicate index name in DDL.
    #[error("Duplicate key name '{0}'")]
    DuplicateKeyName(String),
    /// Unique or primary key violation: MySQL's message, `Duplicate entry '<value>' for key
    /// '<key>'` (the value is missing where only SQLite's own check caught it: an UPDATE).
    #[error("{0}")]
    DuplicateKey(String),
    /// NOT NULL violation.
    #[error("Column '{0}' cannot be null")]
    NotNull(String),
    /// Inserting/updating a child row whose parent is missing.
    #[error("Cannot add or update a child row: a foreign key constraint fails")]
    ForeignKeyChild,
    /// Deleting/updating a parent row that children reference.
    #[error("Cannot delete or update a parent row: a foreign key constraint fails")]
    ForeignKeyParent,
    /// CHECK constraint violation.
    #[error("CONSTRAINT `{0}` failed")]
    Check(String),
    /// A value of the wrong type for the column.
    #[error("Incorrect value: {0}")]
    DataType(String),
    /// A value that does not fit its column (strict mode).
    #[error("{0}")]
    OutOfRange(String),
    /// A string with a numeric prefix and more, for a numeric column (strict mode).
    #[error("{0}")]
    Truncated(String),
    /// A text that is not a number for a numeric column (strict mode).
    #[error("{0}")]
    IncorrectValue(String),
    /// A value that is no date, datetime or time for a temporal column (strict mode).
    #[error("{0}")]
    IncorrectTemporal(String),
    /// A text that is not a number, copied into a numeric column by ALTER TABLE (1292).
    #[error("{0}")]
    TruncatedIncorrect(String),
    /// A DATE, TIME or TIMESTAMP literal that is no such value (MySQL 1525), with message.
    #[error("{0}")]
    WrongLiteral(String),
    /// A string longer than its column (strict mode).
    #[error("{0}")]
    TooLong(String),
    /// Unknown SQL function.
    #[error("FUNCTION {0} does not exist")]
    NoSuchFunction(String),
    /// Unknown database.
    #[error("Unknown database '{0}'")]
    UnknownDatabase(String),
    /// CREATE DATABASE of an existing one.
    #[error("Can't create database '{0}'; database exists")]
    DatabaseExists(String),
    /// DROP DATABASE of a missing one.
    #[error("Can't drop database '{0}'; database doesn't exist")]
    DropMissingDatabase(String),
    /// A write in a READ ONLY transaction.
    #[error("Cannot execute statement in a READ ONLY transaction.")]
    ReadOnlyTransaction,
    /// Wrong number of parameters for a prepared statement.
    #[error("Incorrect arguments to {command}: expected {expected} parameters, got {got}")]
    WrongParamCount {
        /// Parameters the statement has.
        expected: usize,
        /// Parameters the client sent.
        got: usize,
        /// `mysqld_stmt_execute` (binary protocol) or `EXECUTE`.
        command: &'static str,
    },
    /// Unknown prepared statement (an id of the binary protocol or an SQL name).
    #[error("Unknown prepared statement handler ({handler}) given to {command}")]
    UnknownStatement {
        /// The id or name.
        handler: String,
        /// `mysqld_stmt_execute`, `EXECUTE` or `DEALLOCATE PREPARE`.
        command: &'static str,
    },
    /// A prepared statement must be exactly one statement.
    #[error("This command is not supported in the prepared statement protocol yet")]
    NotPreparable,
    /// Wrong value for a variable.
    #[error("Variable '{0}' can't be set to the value of '{1}'")]
    WrongValueForVar(String, String),
    /// `SET time_zone` to a zone tutti does not know (MariaDB's zone tables are empty too).
    #[error("Unknown or incorrect time zone: '{0}'")]
    UnknownTimeZone(String),
    /// SET of a read-only variable.
    #[error("Variable '{0}' is a read only variable")]
    ReadOnlyVariable(String),
    /// SET SESSION of a global-only variable.
    #[error("Variable '{0}' is a GLOBAL variable and should be set with SET GLOBAL")]
    GlobalOnly(String),
    /// SET GLOBAL of a session-only variable.
    #[error("Variable '{0}' is a SESSION variable and can't be used with SET GLOBAL")]
    SessionOnly(String),
    /// The statement was killed (KILL QUERY) or the connection is being killed.
    #[error("Query execution was interrupted")]
    Interrupted,
    /// KILL of an unknown connection.
    #[error("Unknown thread id: {0}")]
    NoSuchThread(u64),
    /// An aggregate where MySQL allows none (WHERE, GROUP BY, nested aggregates).
    #[error("Invalid use of group function")]
    InvalidGroupFunction,
    /// A built-in function called with the wrong number of arguments.
    #[error("Incorrect parameter count in the call to native function '{0}'")]
    NativeArgumentCount(String),
    /// A numeric result out of its type's range (`EXP(750)`).
    #[error("{0}")]
    ValueOutOfRange(String),
    /// Incorrect arguments to a construct (`ESCAPE 'xy'`, a negative `LIMIT ?`).
    #[error("Incorrect arguments to {0}")]
    IncorrectArguments(String),
    /// `GROUP_CONCAT(… LIMIT ?)` bound to a non-integer (4107).
    #[error("Limit only accepts integer values")]
    LimitNotInteger,
    /// Any other SQLite error, with its message.
    #[error("{0}")]
    Sqlite(String),
}

impl ExecError {
    /// True when the error says a schema object exists or does not: a schema change
    /// ordered just before, on another node, may not be applied here yet.
    pub fn depends_on_schema(&self) -> bool {
        use tutti_sql::SqlError;
        matches!(
            self,
            ExecError::Sql(
                SqlError::UnknownDatabase(_) | SqlError::NoSuchTable(_) | SqlError::NoSuchIndex(_)
            ) | ExecError::NoSuchTable(_)
                | ExecError::TableExists(_)
                | ExecError::UnknownTable(_)
                | ExecError::UnknownColumn(_)
                | ExecError::DuplicateColumn(_)
                | ExecError::DuplicateKeyName(_)
                | ExecError::UnknownDatabase(_)
                | ExecError::DatabaseExists(_)
                | ExecError::DropMissingDatabase(_)
        )
    }
}

impl From<ReplicateError> for ExecError {
    fn from(e: ReplicateError) -> ExecError {
        match e {
            ReplicateError::CertificationFailed => ExecError::Deadlock,
            ReplicateError::Ddl(f) => f.into(),
            ReplicateError::NotReady(r) => ExecError::NotReady(r),
            ReplicateError::Unknown(r) => ExecError::CommitUnknown(format!(
                "tutti: the outcome of this COMMIT is unknown ({r}); it may or may not have been applied"
            )),
            ReplicateError::Shutdown => ExecError::Shutdown,
        }
    }
}

impl From<DdlFailure> for ExecError {
    fn from(f: DdlFailure) -> ExecError {
        match f {
            DdlFailure::DatabaseExists(n) => ExecError::DatabaseExists(n),
            DdlFailure::UnknownDatabase(n) => ExecError::UnknownDatabase(n),
            DdlFailure::DropMissingDatabase(n) => ExecError::DropMissingDatabase(n),
            DdlFailure::Sqlite { code, message } => classify(code, &message, false),
        }
    }
}

impl From<rusqlite::Error> for ExecError {
    fn from(e: rusqlite::Error) -> ExecError {
        from_sqlite(&e, false)
    }
}

/// The binary protocol's execute command, as MySQL names it in errors.
pub const BINARY_EXECUTE: &str = "mysqld_stmt_execute";

/// Classifies a SQLite error; `deleting` says the statement removes rows (for FKs).
pub fn from_sqlite(e: &rusqlite::Error, deleting: bool) -> ExecError {
    match e {
        rusqlite::Error::SqliteFailure(f, msg) => {
            classify(f.extended_code, msg.as_deref().unwrap_or(""), deleting)
        }
        rusqlite::Error::SqlInputError { error, msg, .. } => {
            classify(error.extended_code, msg, deleting)
        }
        rusqlite::Error::InvalidParameterCount(got, expected) => ExecError::WrongParamCount {
            expected: *expected,
            got: *got,
            command: BINARY_EXECUTE,
        },
        other => ExecError::Sqlite(other.to_string()),
    }
}

/// Strips SQLite's quoting (and its hint about string literals) from an object name in a
/// message.
fn object(s: &str) -> String {
    let s = s.split(" - should this be").next().unwrap_or(s);
    s.trim().trim_matches('"').trim_matches('\'').to_string()
}

/// The last part of a dotted name (`main.a.id` → `id`).
fn last_part(s: &str) -> String {
    let s = object(s);
    s.rsplit('.').next().unwrap_or(&s).to_string()
}

fn after<'a>(msg: &'a str, prefix: &str) -> Option<&'a str> {
    msg.find(prefix).map(|i| &msg[i + prefix.len()..])
}

fn classify(code: i32, msg: &str, deleting: bool) -> ExecError {
    use rusqlite::ffi;
    match code {
        ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
            let key = object(after(msg, "failed: ").unwrap_or("PRIMARY"));
            return ExecError::DuplicateKey(format!("Duplicate entry for key '{key}'"));
        }
        ffi::SQLITE_CONSTRAINT_NOTNULL => {
            let col = after(msg, "failed: ").unwrap_or("?");
            let col = col.rsplit('.').next().unwrap_or(col);
            return ExecError::NotNull(object(col));
        }
        ffi::SQLITE_CONSTRAINT_FOREIGNKEY => {
            return if deleting {
                ExecError::ForeignKeyParent
            } else {
                ExecError::ForeignKeyChild
            }
        }
        ffi::SQLITE_CONSTRAINT_CHECK => {
            return check_failed(&object(after(msg, "failed: ").unwrap_or("?")))
        }
        ffi::SQLITE_INTERRUPT => return ExecError::Interrupted,
        ffi::SQLITE_MISMATCH => return ExecError::DataType(msg.to_string()),
        _ => {}
    }
    if msg.starts_with(tutti_storage::DUPLICATE_ENTRY) {
        return ExecError::DuplicateKey(msg.to_string());
    }
    if let Some(t) = after(msg, "no such table: ") {
        return ExecError::NoSuchTable(object(t));
    }
    if let Some(rest) = after(msg, "table ") {
        if let Some(name) = rest.strip_suffix(" already exists") {
            return ExecError::TableExists(object(name));
        }
    }
    if let Some(rest) = after(msg, "index ") {
        if let Some(name) = rest.strip_suffix(" already exists") {
            let name = object(name);
            return ExecError::DuplicateKeyName(
                name.rsplit('.').next().unwrap_or(&name).to_string(),
            );
        }
    }
    if let Some(c) = after(msg, "no such column: ") {
        return ExecError::UnknownColumn(object(c));
    }
    if let Some(c) = after(msg, "ambiguous column name: ") {
        return ExecError::AmbiguousColumn(last_part(c));
    }
    if msg.starts_with(&format!("table {} has ", tutti_sql::QUANTIFIED_CTE)) {
        // `x > ALL (SELECT * FROM t)` of a table of several columns
        return ExecError::OperandColumns;
    }
    // A WITH column list: "table t has 1 values for 2 columns" (tutti's own WITH around an
    // INSERT's SELECT, see `stored`, is the INSERT's column count).
    if msg.starts_with("table ")
        && msg.contains(" values for ")
        && !msg.starts_with("table tutti_src ")
    {
        return ExecError::CteColumns;
    }
    // "table t has 3 columns but 1 values were supplied", "1 values for 2 columns"
    if msg.contains("values were supplied") || msg.contains(" values for ") {
        return ExecError::Sql(SqlError::ColumnCount(1));
    }
    if msg.starts_with("misuse of window function") {
        return ExecError::WindowPlacement;
    }
    if msg == "no tables specified" {
        return ExecError::NoTablesUsed;
    }
    if msg.starts_with("sub-select returns") || msg.starts_with("row value misused") {
        return ExecError::OperandColumns;
    }
    if msg.contains(tutti_sql::TOO_MANY_ROWS) {
        return ExecError::SubqueryRows;
    }
    if msg.contains("do not have the same number of result columns") {
        return ExecError::UnionColumns;
    }
    if let Some(c) = after(msg, "duplicate column name: ") {
        return ExecError::DuplicateColumn(object(c));
    }
    if msg.starts_with(tutti_storage::OUT_OF_RANGE) {
        return ExecError::OutOfRange(msg.to_string());
    }
    if let Some(rest) = msg.strip_prefix(tutti_storage::INCORRECT_LITERAL) {
        return ExecError::WrongLiteral(format!("Incorrect {rest}"));
    }
    if tutti_storage::INCORRECT_TEMPORAL
        .iter()
        .any(|p| msg.starts_with(p))
    {
        return ExecError::IncorrectTemporal(msg.to_string());
    }
    if msg.starts_with(tutti_storage::TRUNCATED_INCORRECT) {
        return ExecError::TruncatedIncorrect(msg.to_string());
    }
    if msg.starts_with(tutti_storage::DATA_TOO_LONG) {
        return ExecError::TooLong(msg.to_string());
    }
    if msg.starts_with(tutti_storage::INCORRECT_VALUE) && msg.contains(" value: '") {
        return ExecError::IncorrectValue(msg.to_string());
    }
    if msg.starts_with(tutti_storage::DATA_TRUNCATED) {
        return ExecError::Truncated(msg.to_string());
    }
    if let Some(f) = after(msg, "no such function: ") {
        return ExecError::NoSuchFunction(object(f));
    }
    mysql_equivalent(msg).unwrap_or_else(|| ExecError::Sqlite(msg.to_string()))
}

/// A failed CHECK constraint; an ENUM column's member check is a value that is not a
/// member, which MySQL reports as truncated data.
fn check_failed(name: &str) -> ExecError {
    match name.strip_suffix(tutti_sql::ENUM_CHECK_SUFFIX) {
        Some(column) => {
            ExecError::Truncated(format!("Data truncated for column '{column}' at row 1"))
        }
        None => ExecError::Check(name.to_string()),
    }
}

/// The MySQL error for what SQLite reports in its own words (nothing a user types may get
/// a SQLite message): MySQL's code and text where MySQL has the error, a clear 1235 where
/// tutti cannot run what MySQL would.
fn mysql_equivalent(msg: &str) -> Option<ExecError> {
    use tutti_sql::SqlError;
    let unsupported = |what: String| Some(ExecError::Sql(SqlError::Unsupported(what)));
    if let Some(near) = after(msg, "near ").and_then(|r| r.strip_suffix(": syntax error")) {
        return Some(ExecError::Sql(SqlError::syntax_near(&object(near), 1)));
    }
    if let Some(token) = after(msg, "unrecognized token: ") {
        return Some(ExecError::Sql(SqlError::syntax_near(&object(token), 1)));
    }
    if let Some(name) = after(msg, "view ").and_then(|r| r.strip_suffix(" already exists")) {
        return Some(ExecError::TableExists(object(name)));
    }
    if let Some(name) =
        after(msg, "no such view: ").or_else(|| after(msg, "use DROP VIEW to delete view "))
    {
        return Some(ExecError::UnknownTable(object(name)));
    }
    if let Some(name) =
        after(msg, "cannot modify ").and_then(|r| r.strip_suffix(" because it is a view"))
    {
        return unsupported(format!("writing through the view {}", object(name)));
    }
    if msg == tutti_storage::WAIT_ON_WRITER {
        return unsupported(msg.to_string());
    }
    if let Some(rest) = after(msg, "has no column named ") {
        return Some(ExecError::UnknownColumn(object(rest)));
    }
    if msg.starts_with("misuse of aggregate")
        || msg.starts_with("aggregate functions are not allowed")
    {
        return Some(ExecError::InvalidGroupFunction);
    }
    if let Some(f) = after(msg, "wrong number of arguments to function ") {
        return Some(ExecError::NativeArgumentCount(
            f.trim_end_matches("()").to_ascii_lowercase(),
        ));
    }
    if let Some(f) = after(
        msg,
        "Incorrect parameter count in the call to native function ",
    ) {
        return Some(ExecError::NativeArgumentCount(object(f)));
    }
    if msg.starts_with(tutti_storage::LIMIT_NOT_INTEGER) {
        return Some(ExecError::LimitNotInteger);
    }
    if msg.starts_with(tutti_storage::LIMIT_NEGATIVE) {
        return Some(ExecError::IncorrectArguments("EXECUTE".into()));
    }
    if msg.starts_with("ESCAPE expression must be a single character") {
        return Some(ExecError::IncorrectArguments("ESCAPE".into()));
    }
    if msg.contains(" value is out of range in ") {
        return Some(ExecError::ValueOutOfRange(msg.to_string()));
    }
    if let Some(c) = after(msg, "Check constraint ").and_then(|r| r.strip_suffix(" is violated.")) {
        return Some(check_failed(&object(c)));
    }
    let refused = [
        (
            "ORDER BY term does not match any column",
            "this ORDER BY of a UNION",
        ),
        (
            "HAVING clause on a non-aggregate query",
            "HAVING with an aggregate in a query without one elsewhere",
        ),
        (
            "DISTINCT is not supported for window functions",
            "DISTINCT in a window function",
        ),
        (
            "may not be used as a window function",
            "this aggregate as a window function",
        ),
        (
            "Cannot add a NOT NULL column with default value NULL",
            "ALTER TABLE ... ADD COLUMN ... NOT NULL without a DEFAULT",
        ),
        ("may not be altered", "RENAME of a view"),
    ];
    refused
        .iter()
        .find(|(sqlite, _)| msg.contains(sqlite))
        .and_then(|(_, what)| unsupported(what.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail(code: i32, msg: &str) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), Some(msg.into()))
    }

    #[test]
    fn sqlite_wording_never_reaches_the_client() {
        use rusqlite::ffi::SQLITE_ERROR;
        use tutti_sql::SqlError;
        let e = |m: &str| ExecError::from(fail(SQLITE_ERROR, m));
        assert!(
            matches!(e("near \"FROM\": syntax error"), ExecError::Sql(SqlError::Syntax(s)) if s.contains("near 'FROM'"))
        );
        assert!(matches!(
            e("unrecognized token: \":\""),
            ExecError::Sql(SqlError::Syntax(_))
        ));
        assert_eq!(
            e("misuse of aggregate: COUNT()"),
            ExecError::InvalidGroupFunction
        );
        assert_eq!(
            e("wrong number of arguments to function CRC32()"),
            ExecError::NativeArgumentCount("crc32".into())
        );
        assert_eq!(
            e("no such view: d.v1"),
            ExecError::UnknownTable("d.v1".into())
        );
        assert_eq!(
            e("table \"d.t\" has no column named a"),
            ExecError::UnknownColumn("a".into())
        );
        assert!(matches!(
            e("cannot modify d.v1 because it is a view"),
            ExecError::Sql(SqlError::Unsupported(w)) if w == "writing through the view d.v1"
        ));
        assert_eq!(
            e("some other failure"),
            ExecError::Sqlite("some other failure".into())
        );
    }

    #[test]
    fn sqlite_errors_become_mysql_categories() {
        use rusqlite::ffi::*;
        assert_eq!(
            ExecError::from(fail(SQLITE_ERROR, "no such table: db.t")),
            ExecError::NoSuchTable("db.t".into())
        );
        assert_eq!(
            ExecError::from(fail(
                SQLITE_CONSTRAINT_PRIMARYKEY,
                "UNIQUE constraint failed: db.t.id"
            )),
            ExecError::DuplicateKey("Duplicate entry for key 'db.t.id'".into())
        );
        assert_eq!(
            ExecError::from(fail(
                SQLITE_CONSTRAINT_NOTNULL,
                "NOT NULL constraint failed: db.t.c"
            )),
            ExecError::NotNull("c".into())
        );
        assert_eq!(
            ExecError::from(fail(SQLITE_ERROR, "table \"db.t\" already exists")),
            ExecError::TableExists("db.t".into())
        );
        assert_eq!(
            from_sqlite(
                &fail(
                    SQLITE_CONSTRAINT_FOREIGNKEY,
                    "FOREIGN KEY constraint failed"
                ),
                true
            ),
            ExecError::ForeignKeyParent
        );
        assert_eq!(
            ExecError::from(fail(SQLITE_ERROR, "no such column: x")),
            ExecError::UnknownColumn("x".into())
        );
        for (msg, want) in [
            (
                "no such column: \"nope\" - should this be a string literal in single-quotes?",
                ExecError::UnknownColumn("nope".into()),
            ),
            (
                "ambiguous column name: main.a.id",
                ExecError::AmbiguousColumn("id".into()),
            ),
            (
                "table acct has 3 columns but 1 values were supplied",
                ExecError::Sql(SqlError::ColumnCount(1)),
            ),
            ("1 values for 2 columns", ExecError::Sql(SqlError::ColumnCount(1))),
            ("table t has 1 values for 2 columns", ExecError::CteColumns),
            (
                "table tutti_src has 1 values for 2 columns",
                ExecError::Sql(SqlError::ColumnCount(1)),
            ),
            ("misuse of window function rank()", ExecError::WindowPlacement),
            ("no tables specified", ExecError::NoTablesUsed),
            (
                "Out of range value for column 'd' at row 2",
                ExecError::OutOfRange("Out of range value for column 'd' at row 2".into()),
            ),
            (
                "Data truncated for column 'd' at row 1",
                ExecError::Truncated("Data truncated for column 'd' at row 1".into()),
            ),
            (
                "Data too long for column 'c' at row 1",
                ExecError::TooLong("Data too long for column 'c' at row 1".into()),
            ),
            (
                "Incorrect date value: '2024-02-30' for column `d`.`t`.`d` at row 1",
                ExecError::IncorrectTemporal(
                    "Incorrect date value: '2024-02-30' for column `d`.`t`.`d` at row 1".into(),
                ),
            ),
            (
                "Incorrect decimal value: 'x' for column 'd' at row 1",
                ExecError::IncorrectValue(
                    "Incorrect decimal value: 'x' for column 'd' at row 1".into(),
                ),
            ),
            (
                "sub-select returns 2 columns - expected 1",
                ExecError::OperandColumns,
            ),
            (
                "SELECTs to the left and right of UNION do not have the same number of result columns",
                ExecError::UnionColumns,
            ),
        ] {
            assert_eq!(ExecError::from(fail(SQLITE_ERROR, msg)), want, "{msg}");
        }
        assert_eq!(
            ExecError::from(ReplicateError::CertificationFailed),
            ExecError::Deadlock
        );
    }
}
