//! The rows an UPDATE rewrote, changed or not.
//!
//! A changeset omits a row whose new values equal its old ones, but under snapshot
//! isolation such a row was written all the same: two transactions that read a counter at
//! 0 and both set it to 1 are a lost update, and the second must fail (1020 / 1213) like
//! any writer of a row changed after its read view. SQLite's update hook fires for every
//! row an UPDATE rewrites; this module collects them for the duration of one statement
//! (the change recorder owns the pre-update hook, the update hook is free) and reads
//! their current values, from which the executor computes their primary-key keys.

use rusqlite::{ffi, Connection};
use std::ffi::{c_char, c_int, c_void, CStr};
use tutti_wsrep::Value;

use crate::sqlite::from_ref;
use crate::ExecError;

/// (table, rowid, changed) of rewritten rows, boxed so its address stays put while SQLite
/// holds it. `changed`: an assignment marked the row changed (storage's `changed`).
struct Collected(Vec<(String, i64, bool)>);

/// What a statement rewrote: each row once, the rowid first in its values; and how many
/// rewrites of the statement's table changed a row.
pub(crate) struct Rewrites {
    pub rows: Vec<(String, Vec<Value>)>,
    pub changed: u64,
}

/// Collects (table, rowid) of rewritten rows while alive.
pub(crate) struct MatchedRows<'a> {
    conn: &'a Connection,
    rows: Box<Collected>,
}

unsafe extern "C" fn on_update(
    ctx: *mut c_void,
    op: c_int,
    _db: *const c_char,
    table: *const c_char,
    rowid: i64,
) {
    if op != ffi::SQLITE_UPDATE || table.is_null() {
        return;
    }
    // SAFETY: ctx is the Collected boxed in MatchedRows, alive while the hook is
    // registered; SQLite calls the hook on the thread running the statement, which holds
    // the connection (and so the MatchedRows) exclusively.
    let rows = unsafe { &mut (*(ctx as *mut Collected)).0 };
    // SAFETY: SQLite passes a valid NUL-terminated table name for the call's duration.
    let name = unsafe { CStr::from_ptr(table) }.to_string_lossy();
    // User tables only (`db.t`); not sqlite_sequence, which AUTO_INCREMENT rewrites.
    if name.contains('.') {
        let changed = tutti_storage::take_row_changed(&name);
        rows.push((name.into_owned(), rowid, changed));
    }
}

impl<'a> MatchedRows<'a> {
    /// Starts collecting on `conn`.
    pub fn start(conn: &'a Connection) -> MatchedRows<'a> {
        let mut rows = Box::new(Collected(Vec::new()));
        let ctx = rows.as_mut() as *mut Collected as *mut c_void;
        // SAFETY: the handle belongs to `conn`, borrowed for our lifetime; the hook is
        // removed in Drop, before `rows` is freed.
        unsafe { ffi::sqlite3_update_hook(conn.handle(), Some(on_update), ctx) };
        MatchedRows { conn, rows }
    }

    /// Stops collecting and returns each rewritten row's rowid and current values (once per
    /// row), as one list: the rowid first; and how many rewrites of `target` changed a row.
    pub fn finish(mut self, target: Option<&str>) -> Result<Rewrites, ExecError> {
        self.stop();
        let rows = std::mem::take(&mut self.rows.0);
        let changed = rows
            .iter()
            .filter(|(table, _, changed)| *changed && Some(table.as_str()) == target)
            .count() as u64;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (table, rowid, _) in rows {
            if !seen.insert((table.clone(), rowid)) {
                continue;
            }
            let sql = format!(
                "SELECT _rowid_, * FROM \"{}\" WHERE rowid = ?1",
                table.replace('"', "\"\"")
            );
            let mut stmt = self.conn.prepare_cached(&sql)?;
            let mut rows = stmt.query([rowid])?;
            if let Some(r) = rows.next()? {
                // The column count after the step: a cached statement recompiles after a
                // schema change only when it runs.
                let n = r.as_ref().column_count();
                let values = (0..n)
                    .map(|i| r.get_ref(i).map(from_ref))
                    .collect::<Result<Vec<_>, _>>()?;
                out.push((table, values));
            }
        }
        Ok(Rewrites { rows: out, changed })
    }

    fn stop(&mut self) {
        // SAFETY: as in start.
        unsafe { ffi::sqlite3_update_hook(self.conn.handle(), None, std::ptr::null_mut()) };
    }
}

impl Drop for MatchedRows<'_> {
    fn drop(&mut self) {
        self.stop();
    }
}
