//! The rows the SELECT of an `INSERT IGNORE ... SELECT` offered, for MariaDB's count of
//! the duplicates it skipped (a warning 1062 each, `Duplicates:` in the OK packet).
//!
//! SQLite counts only the rows such an INSERT inserted. The SQL front-end reads its SELECT
//! as `SELECT * FROM (<select> LIMIT -1) WHERE tutti_offered()` (the LIMIT keeps SQLite
//! from merging the condition into the SELECT's own, where it could be evaluated for rows
//! the SELECT filters out): the function counts each row and lets it through. The count
//! lives on the thread that runs the statement.

use rusqlite::{Connection, Result};
use std::cell::Cell;

use super::VOLATILE;

thread_local! {
    /// Rows offered since the last [`clear_offered`], or None when no SELECT counted them.
    static OFFERED: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Forgets the count of an earlier statement.
pub fn clear_offered() {
    OFFERED.with(|o| o.set(None));
}

/// The rows the statement's SELECT offered, if it counted them.
pub fn take_offered() -> Option<u64> {
    OFFERED.with(|o| o.take())
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_offered", 0, VOLATILE, |_| {
        OFFERED.with(|o| o.set(Some(o.get().unwrap_or(0) + 1)));
        Ok(1)
    })
}
