//! The columns of a table as the schema has them *now*.
//!
//! A changeset names a table and gives values by column position; the apply statements
//! need the column names. They are read from a cached `SELECT * ... LIMIT 0` that is
//! stepped first: a cached statement keeps the column list it was compiled with until it
//! runs again, so after a DROP/CREATE or an ALTER its names would belong to the old table.

use rusqlite::Connection;

/// A double-quoted SQLite identifier.
pub(super) fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The quoted column names of `table`, in order, as a changeset with `n` columns has them:
/// a table without a PRIMARY KEY is recorded by rowid, as a leftmost `_rowid_` column
/// (see [`crate::Session`]).
pub(super) fn of(conn: &Connection, table: &str, n: usize) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT * FROM {} LIMIT 0", quote(table)))?;
    // Running it recompiles it if the schema changed since it was cached.
    stmt.raw_query().next()?;
    let mut names: Vec<String> = stmt.column_names().map(quote).collect();
    if names.len() + 1 == n && keyed_by_rowid(conn, table)? {
        names.insert(0, ROWID.to_string());
    }
    Ok(names)
}

/// The rowid column of a table without a PRIMARY KEY, as SQL.
const ROWID: &str = "_rowid_";

/// True when `table` has no PRIMARY KEY of its own.
fn keyed_by_rowid(conn: &Connection, table: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT NOT EXISTS (SELECT 1 FROM pragma_table_info(?1) WHERE pk > 0)")?
        .query_row([table], |r| r.get(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_follow_schema_changes_of_a_cached_statement() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch("CREATE TABLE t(a INTEGER PRIMARY KEY, b)")
            .unwrap();
        assert_eq!(of(&c, "t", 2).unwrap(), ["\"a\"", "\"b\""]);
        c.execute_batch("DROP TABLE t; CREATE TABLE t(id INTEGER PRIMARY KEY, id2, x)")
            .unwrap();
        assert_eq!(of(&c, "t", 3).unwrap(), ["\"id\"", "\"id2\"", "\"x\""]);
        c.execute_batch("ALTER TABLE t DROP COLUMN x").unwrap();
        assert_eq!(of(&c, "t", 3).unwrap(), ["\"id\"", "\"id2\""]);
    }

    #[test]
    fn a_table_without_primary_key_is_keyed_by_rowid() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch("CREATE TABLE t(a, b)").unwrap();
        assert_eq!(of(&c, "t", 3).unwrap(), ["_rowid_", "\"a\"", "\"b\""]);
        assert_eq!(of(&c, "t", 2).unwrap(), ["\"a\"", "\"b\""]);
    }
}
