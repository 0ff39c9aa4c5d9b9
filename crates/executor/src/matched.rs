//! The rows an UPDATE rewrote, changed or not.
//!
//! A changeset omits a row whose new values equal its old ones, but under snapshot
//! isolation such a row was written all the same: two transactions that read a counter at
//! 0 and both set it to 1 are a lost update, and the second must fail (1020 / 1213) like
//! any writer of a row changed after its read view. SQLite's update hook fires for every
//! row an UPDATE rewrites; this module collects them for the duration of one statement
//! (the session extension owns the pre-update hook, the update hook is free) and reads
//! their current values, from which the executor computes their primary-key keys.

use rusqlite::{ffi, Connection};
use std::ffi::{c_char, c_int, c_void, CStr};
use tutti_wsrep::Value;

use crate::sqlite::from_ref;
use crate::ExecError;

/// (table, rowid) of rewritten rows, boxed so its address stays put while SQLite holds it.
struct Collected(Vec<(String, i64)>);

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
        rows.push((name.into_owned(), rowid));
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
    /// row), as one list: the rowid first.
    pub fn finish(mut self) -> Result<Vec<(String, Vec<Value>)>, ExecError> {
        self.stop();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (table, rowid) in std::mem::take(&mut self.rows.0) {
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
        Ok(out)
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
