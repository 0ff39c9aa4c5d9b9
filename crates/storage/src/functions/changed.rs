//! Which rows an UPDATE changed, for MySQL's affected-rows count (a row set to the values
//! it already holds is matched, not affected).
//!
//! The SQL front-end wraps each assignment of a single-table UPDATE (and of an upsert's
//! update) as `col = tutti_changed_to(col, <new value>, 'db.t')`: the function returns the
//! new value unchanged and, when it differs from the old one byte for byte (`'a'` → `'A'`
//! changes a row, as MariaDB's record comparison finds), marks the row being written as
//! changed. SQLite evaluates a row's assignments right before it writes the row, and its
//! update hook then fires for that row: the executor's hook takes the mark with
//! [`take_row_changed`]. This costs one function call per assignment, where reading the
//! statement's own changeset from a second session costs a changeset generation per
//! statement.
//!
//! The marks are per table, so a row another table's write (a cascade) makes in between
//! does not take them; they live on the thread that runs the statement.

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};
use std::cell::RefCell;

use super::{text_of, VOLATILE};

thread_local! {
    /// Tables whose row being written got a changed value.
    static CHANGED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Takes the mark of the row of `table` just written: whether an assignment changed it.
pub fn take_row_changed(table: &str) -> bool {
    CHANGED.with(|c| {
        let mut c = c.borrow_mut();
        match c.iter().position(|t| t == table) {
            Some(i) => {
                c.swap_remove(i);
                true
            }
            None => false,
        }
    })
}

/// Forgets marks left by an earlier statement (one that failed mid-row).
pub fn clear_row_changed() {
    CHANGED.with(|c| c.borrow_mut().clear());
}

/// Whether a column's new value differs from its old one as stored: numbers by value
/// (SQLite's affinity turns an integer into a REAL column's double and back), everything
/// else by its bytes.
fn differs(old: ValueRef<'_>, new: ValueRef<'_>) -> bool {
    use ValueRef::*;
    match (old, new) {
        (Null, Null) => false,
        (Null, _) | (_, Null) => true,
        (Integer(a), Integer(b)) => a != b,
        (Integer(a), Real(b)) | (Real(b), Integer(a)) => a as f64 != b,
        (Real(a), Real(b)) => a != b,
        (Text(a) | Blob(a), Text(b) | Blob(b)) => a != b,
        (a, b) => text_of(a) != text_of(b),
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_changed_to", 3, VOLATILE, |ctx| {
        if differs(ctx.get_raw(0), ctx.get_raw(1)) {
            let table = ctx.get_raw(2).as_str()?;
            CHANGED.with(|c| {
                let mut c = c.borrow_mut();
                if !c.iter().any(|t| t == table) {
                    c.push(table.to_string());
                }
            });
        }
        ctx.get::<Value>(1)
    })
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    #[test]
    fn marks_rows_whose_values_change() {
        let c = Connection::open_in_memory().unwrap();
        super::super::register(&c).unwrap();
        c.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, r REAL);
             INSERT INTO t VALUES (1, 'a', 1.0), (2, 'b', 2.5);",
        )
        .unwrap();
        let changed = |sql: &str| {
            super::clear_row_changed();
            c.execute(sql, []).unwrap();
            super::take_row_changed("t")
        };
        // same value: an integer into a REAL column, the text as it is
        assert!(!changed(
            "UPDATE t SET r = tutti_changed_to(r, 1, 't'), a = tutti_changed_to(a, 'a', 't') WHERE id = 1"
        ));
        // case matters, as in MariaDB's record comparison
        assert!(changed(
            "UPDATE t SET a = tutti_changed_to(a, 'A', 't') WHERE id = 1"
        ));
        assert!(changed(
            "UPDATE t SET r = tutti_changed_to(r, NULL, 't') WHERE id = 2"
        ));
        assert!(!changed(
            "UPDATE t SET r = tutti_changed_to(r, NULL, 't') WHERE id = 2"
        ));
        // another table's mark is not this one's
        super::clear_row_changed();
        c.execute(
            "UPDATE t SET a = tutti_changed_to(a, 'z', 'u') WHERE id = 1",
            [],
        )
        .unwrap();
        assert!(!super::take_row_changed("t"));
        assert!(super::take_row_changed("u"));
        assert_eq!(
            c.query_row("SELECT a FROM t WHERE id = 1", [], |r| r
                .get::<_, String>(0))
                .unwrap(),
            "z"
        );
    }
}
