//! `tutti_duplicate(key, v1, v2, ...)`: MySQL's duplicate-key error (1062) with the key's
//! name and the duplicated values, `Duplicate entry '1-a' for key 'uk'`.
//!
//! SQLite's own UNIQUE failure names columns, not the key, and never the value. The SQL
//! front-end therefore gives an INSERT into a table with unique keys one
//! `ON CONFLICT(key columns) DO UPDATE` clause per key whose update calls this function
//! with the key's name and the new row's (`excluded`) values: the statement fails with
//! MySQL's text, naming the first key the row duplicates.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};

use super::double_text;

/// The start of the message the function fails with (the executor recognises it).
pub const DUPLICATE_ENTRY: &str = "Duplicate entry '";

/// The longest value text the message carries (MySQL cuts it short too).
const MAX_VALUE: usize = 192;

/// The key's values as MySQL prints them in the message: joined by `-`, NULL as `NULL`.
fn entry(values: &[ValueRef<'_>]) -> String {
    let parts: Vec<String> = values
        .iter()
        .map(|v| match v {
            ValueRef::Null => "NULL".to_string(),
            ValueRef::Integer(i) => i.to_string(),
            ValueRef::Real(r) => double_text(*r),
            ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
        })
        .collect();
    let mut s = parts.join("-");
    if s.chars().count() > MAX_VALUE {
        s = s.chars().take(MAX_VALUE - 3).collect::<String>() + "...";
    }
    s
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function(
        "tutti_duplicate",
        -1,
        super::VOLATILE,
        |ctx| -> Result<i64> {
            let key: String = ctx.get(0)?;
            let values: Vec<ValueRef<'_>> = (1..ctx.len()).map(|i| ctx.get_raw(i)).collect();
            Err(Error::UserFunctionError(
                format!("{DUPLICATE_ENTRY}{}' for key '{key}'", entry(&values)).into(),
            ))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fails_with_mysqls_duplicate_entry_text() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        let err = |sql: &str| {
            c.query_row(sql, [], |r| r.get::<_, i64>(0))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("SELECT tutti_duplicate('PRIMARY', 1)"),
            "Duplicate entry '1' for key 'PRIMARY'"
        );
        assert_eq!(
            err("SELECT tutti_duplicate('uk', 'a@x.com', 2.5, NULL)"),
            "Duplicate entry 'a@x.com-2.5-NULL' for key 'uk'"
        );
        assert!(err(&format!(
            "SELECT tutti_duplicate('k', '{}')",
            "x".repeat(300)
        ))
        .contains("xxx...'"));
    }
}
