//! Name resolution: MySQL `db.table` names → tutti's SQLite names, and identifier quoting.
//!
//! Every MySQL database lives in one SQLite file, so table `db.t` is the SQLite table `"db.t"`
//! and index `i` on it is `"db.t.i"`. Unqualified names resolve against the session's current
//! database. The MySQL system schemas (`information_schema`, `mysql`, `performance_schema`,
//! `sys`) have no tables in tutti: naming one is a clear "unsupported" error rather than a
//! confusing "no such table". Identifiers are always printed double-quoted, so MySQL names
//! that are SQLite keywords (or contain odd characters) never clash.

use sqlparser::ast::{Ident, ObjectName, ObjectNamePart};

use crate::{Env, SqlError, TableName};

/// Schemas MySQL clients may name that tutti does not provide.
const SYSTEM_SCHEMAS: [&str; 4] = ["information_schema", "mysql", "performance_schema", "sys"];

/// An identifier printed double-quoted.
pub(crate) fn quoted(value: impl Into<String>) -> Ident {
    let value = value.into();
    Ident::with_quote(quote_for(&value), value)
}

/// The quote character sqlparser prints `name` with faithfully: `"` unless the name has
/// `\"` or `""` in it (sqlparser's printer takes those for escaped already and leaves them
/// alone), then a backquote, then brackets (all three are SQLite identifier quotes).
fn quote_for(name: &str) -> char {
    let misprinted =
        |q: char| name.contains(&format!("\\{q}")) || name.contains(&format!("{q}{q}"));
    ['"', '`']
        .into_iter()
        .find(|q| !misprinted(*q))
        .unwrap_or('[')
}

/// Makes an existing identifier print double-quoted (backticks become double quotes).
pub(crate) fn quote(ident: &mut Ident) {
    ident.quote_style = Some(quote_for(&ident.value));
}

/// A double-quoted SQL identifier as text, for statements built as strings.
pub fn quote_str(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The current database, or `NoDatabaseSelected`.
/// A string as an SQLite literal: `'it''s'`.
pub(crate) fn quote_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

pub(crate) fn current_db(env: &dyn Env) -> Result<String, SqlError> {
    let db = env.current_db().ok_or(SqlError::NoDatabaseSelected)?;
    check_schema(db)?;
    Ok(db.to_string())
}

/// Rejects the MySQL system schemas.
pub(crate) fn check_schema(db: &str) -> Result<(), SqlError> {
    match SYSTEM_SCHEMAS.iter().find(|s| s.eq_ignore_ascii_case(db)) {
        Some(s) => Err(SqlError::Unsupported(s.to_string())),
        None => Ok(()),
    }
}

/// The identifiers of an object name (functions in names are not MySQL).
pub(crate) fn parts(name: &ObjectName) -> Result<Vec<&Ident>, SqlError> {
    name.0
        .iter()
        .map(|p| match p {
            ObjectNamePart::Identifier(i) => Ok(i),
            ObjectNamePart::Function(_) => Err(SqlError::Unsupported(format!("the name {name}"))),
        })
        .collect()
}

/// Resolves `t` or `db.t`.
pub(crate) fn resolve(env: &dyn Env, name: &ObjectName) -> Result<TableName, SqlError> {
    resolve_parts(env, &parts(name)?)
}

/// Resolves a name given as identifiers.
pub(crate) fn resolve_parts(env: &dyn Env, parts: &[&Ident]) -> Result<TableName, SqlError> {
    match parts {
        [table] => Ok(TableName::new(current_db(env)?, table.value.clone())),
        [db, table] => {
            check_schema(&db.value)?;
            Ok(TableName::new(db.value.clone(), table.value.clone()))
        }
        _ => Err(SqlError::Unsupported(format!(
            "the name {} (names have at most two parts: database.table)",
            parts
                .iter()
                .map(|p| p.value.as_str())
                .collect::<Vec<_>>()
                .join(".")
        ))),
    }
}

/// The SQLite table as an object name: one double-quoted identifier `"db.t"`.
pub(crate) fn sqlite_object(table: &TableName) -> ObjectName {
    ObjectName(vec![ObjectNamePart::Identifier(quoted(
        table.sqlite_name(),
    ))])
}

/// The SQLite name of index `index` on `table`: `db.t.index`.
pub(crate) fn index_sqlite_name(table: &TableName, index: &str) -> String {
    format!("{}.{}.{}", table.db, table.table, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testenv::TestEnv;

    #[test]
    fn identifiers_print_as_they_are() {
        for (name, printed) in [
            ("a", "\"a\""),
            ("hex('\"x\\\"y\"')", "`hex('\"x\\\"y\"')`"),
            ("a\"\"b", "`a\"\"b`"),
            ("a\"\"b``c", "[a\"\"b``c]"),
        ] {
            assert_eq!(quoted(name).to_string(), printed);
        }
    }

    fn name(parts: &[&str]) -> ObjectName {
        ObjectName(
            parts
                .iter()
                .map(|p| ObjectNamePart::Identifier(Ident::new(*p)))
                .collect(),
        )
    }

    #[test]
    fn resolves_against_current_db() {
        let env = TestEnv::new().with_db("app");
        assert_eq!(
            resolve(&env, &name(&["t"])).unwrap(),
            TableName::new("app", "t")
        );
        assert_eq!(
            resolve(&env, &name(&["o", "t"])).unwrap(),
            TableName::new("o", "t")
        );
        let none = TestEnv::new();
        assert_eq!(
            resolve(&none, &name(&["t"])),
            Err(SqlError::NoDatabaseSelected)
        );
        assert_eq!(
            resolve(&none, &name(&["o", "t"])).unwrap(),
            TableName::new("o", "t")
        );
    }

    #[test]
    fn system_schemas_are_unsupported() {
        let env = TestEnv::new().with_db("app");
        assert_eq!(
            resolve(&env, &name(&["INFORMATION_SCHEMA", "tables"])),
            Err(SqlError::Unsupported("information_schema".into()))
        );
        let env = TestEnv::new().with_db("mysql");
        assert_eq!(
            resolve(&env, &name(&["user"])),
            Err(SqlError::Unsupported("mysql".into()))
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(quote_str("a\"b"), "\"a\"\"b\"");
        assert_eq!(
            sqlite_object(&TableName::new("d", "t")).to_string(),
            "\"d.t\""
        );
        assert_eq!(
            index_sqlite_name(&TableName::new("d", "t"), "k_1"),
            "d.t.k_1"
        );
    }
}
