//! A change recorder: what a connection's statements changed, as a SQLite changeset.
//!
//! It records what SQLite's session module (`sqlite3session_*`) records, with
//! `SQLITE_SESSION_OBJCONFIG_ROWID` (a table without a PRIMARY KEY is keyed by its rowid,
//! the invisible key tutti gives such tables, see `tutti_sql`'s `create_table`), and
//! writes the same changeset: for every row touched, its values when first touched; at
//! the end, each row's current values read by its key, compared with those. It exists
//! because the write path records every statement of a transaction anew (see the
//! executor's `capture`), and the session module then prepares two statements per table
//! per statement (`PRAGMA table_xinfo` when a table is first touched, a `SELECT` when the
//! changeset is made) — a tenth of oltp_read_write's CPU. Here the `SELECT`s and the
//! table query are the connection's cached statements.
//!
//! SQLite has one pre-update hook per connection: a recorder created while another is
//! alive on the same connection (a statement's own changes inside a transaction's) chains
//! to it, and must be dropped first.

mod record;
#[cfg(test)]
mod reference;
mod table;
#[cfg(test)]
mod tests;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{ffi, Connection};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::marker::PhantomData;

use table::TableInfo;

/// Records the changes made on one connection to all tables or one table.
pub struct Session<'c> {
    recorder: Box<Recorder>,
    conn: PhantomData<&'c Connection>,
}

/// A row touched: how it was when first touched.
struct Row {
    /// It did not exist (first touched by an INSERT): `record` holds only its key.
    inserted: bool,
    /// Only triggers and foreign-key actions touched it.
    indirect: bool,
    /// Its fields (see `record`): every column, or only the key of an inserted row.
    record: Vec<u8>,
}

/// The rows of one table touched, in the order first touched.
struct Table {
    info: TableInfo,
    rows: Vec<Row>,
    /// Row index by its serialized key.
    by_key: HashMap<Vec<u8>, usize>,
}

struct Recorder {
    conn: *const Connection,
    db: *mut ffi::sqlite3,
    /// `main` or `temp`.
    schema: String,
    /// Recording: None before `attach`; Some(None) every table; Some(Some(t)) only t.
    attached: Option<Option<String>>,
    /// Tables touched, in the order first touched.
    tables: Vec<Table>,
    /// The first error met in the hook, reported by `changeset`.
    error: Option<rusqlite::Error>,
    /// Row deletions seen, each one.
    deletes: u64,
    /// The recorder whose hook this one replaced, called after this one.
    outer: *mut Recorder,
}

/// A pre-update value as a `ValueRef` (None: SQLite gave none).
///
/// # Safety
/// `v` is null or a value SQLite passed to the pre-update hook, alive for `'a`.
unsafe fn value_ref<'a>(v: *mut ffi::sqlite3_value) -> Option<ValueRef<'a>> {
    if v.is_null() {
        return None;
    }
    // SAFETY: per this function's contract.
    unsafe {
        Some(match ffi::sqlite3_value_type(v) {
            ffi::SQLITE_INTEGER => ValueRef::Integer(ffi::sqlite3_value_int64(v)),
            ffi::SQLITE_FLOAT => ValueRef::Real(ffi::sqlite3_value_double(v)),
            ffi::SQLITE_TEXT => {
                let p = ffi::sqlite3_value_text(v);
                let n = ffi::sqlite3_value_bytes(v) as usize;
                ValueRef::Text(if p.is_null() {
                    &[]
                } else {
                    std::slice::from_raw_parts(p, n)
                })
            }
            ffi::SQLITE_BLOB => {
                let p = ffi::sqlite3_value_blob(v) as *const u8;
                let n = ffi::sqlite3_value_bytes(v) as usize;
                ValueRef::Blob(if p.is_null() {
                    &[]
                } else {
                    std::slice::from_raw_parts(p, n)
                })
            }
            _ => ValueRef::Null,
        })
    }
}

/// Which pre-update values a change is read from.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Old,
    New,
}

impl Recorder {
    /// The pre-update value of column `source` (None: the rowid `rowid`).
    fn value<'a>(&self, side: Side, source: Option<i32>, rowid: i64) -> Option<ValueRef<'a>> {
        let Some(i) = source else {
            return Some(ValueRef::Integer(rowid));
        };
        let mut v: *mut ffi::sqlite3_value = std::ptr::null_mut();
        // SAFETY: called from the pre-update hook of `db`, the only time these are valid;
        // the value lives until the hook returns, longer than the caller uses it.
        unsafe {
            let rc = match side {
                Side::Old => ffi::sqlite3_preupdate_old(self.db, i, &mut v),
                Side::New => ffi::sqlite3_preupdate_new(self.db, i, &mut v),
            };
            if rc != ffi::SQLITE_OK {
                return None;
            }
            value_ref(v)
        }
    }

    /// The index of `name`'s table, read when first touched (None: not recorded).
    fn table(&mut self, name: &str) -> Result<Option<usize>, rusqlite::Error> {
        if let Some(i) = self.tables.iter().position(|t| t.info.name == name) {
            return Ok(Some(i));
        }
        // SAFETY: the connection outlives the session that owns this recorder.
        let conn = unsafe { &*self.conn };
        let Some(info) = TableInfo::read(conn, &self.schema, name)? else {
            return Ok(None);
        };
        self.tables.push(Table {
            info,
            rows: Vec::new(),
            by_key: HashMap::new(),
        });
        Ok(Some(self.tables.len() - 1))
    }

    /// Records one pre-update call of a table being recorded.
    fn on_change(&mut self, op: c_int, name: &str, key1: i64, key2: i64) {
        let t = match self.table(name) {
            Ok(Some(t)) => t,
            Ok(None) => return,
            Err(e) => {
                self.error.get_or_insert(e);
                return;
            }
        };
        // SAFETY: called from the pre-update hook of `db`.
        let (count, depth) = unsafe {
            (
                ffi::sqlite3_preupdate_count(self.db),
                ffi::sqlite3_preupdate_depth(self.db),
            )
        };
        if count != self.tables[t].info.total {
            let schema_changed = ffi::Error::new(ffi::SQLITE_SCHEMA);
            self.error
                .get_or_insert(rusqlite::Error::SqliteFailure(schema_changed, None));
            return;
        }
        let indirect = depth > 0;
        if op == ffi::SQLITE_DELETE {
            self.deletes += 1;
        }
        if op == ffi::SQLITE_INSERT {
            self.touch(t, Side::New, key2, indirect);
        } else {
            self.touch(t, Side::Old, key1, indirect);
            // An UPDATE may move the row to a new key, which it then occupies.
            if op == ffi::SQLITE_UPDATE {
                self.touch(t, Side::New, key2, indirect);
            }
        }
    }

    /// Notes row `rowid` of table `t` touched; `side` New: by an insert (it did not exist).
    fn touch(&mut self, t: usize, side: Side, rowid: i64, indirect: bool) {
        let table = &self.tables[t];
        let info = &table.info;
        let mut key = Vec::new();
        for (i, source) in info.source.iter().enumerate() {
            if info.pk[i] > 0 {
                match self.value(side, *source, rowid) {
                    // A row whose key has a NULL is not recorded, as by the session module.
                    Some(ValueRef::Null) | None => return,
                    Some(v) => record::put_value(&mut key, v),
                }
            }
        }
        if let Some(&r) = table.by_key.get(&key) {
            let row = &mut self.tables[t].rows[r];
            row.indirect &= indirect;
            return;
        }
        let mut fields = Vec::with_capacity(key.len() * 2);
        for (i, source) in info.source.iter().enumerate() {
            match (side, info.pk[i] > 0) {
                (Side::New, false) => record::put_undefined(&mut fields),
                _ => match self.value(side, *source, rowid) {
                    Some(v) => record::put_value(&mut fields, v),
                    None => record::put_undefined(&mut fields),
                },
            }
        }
        let table = &mut self.tables[t];
        table.by_key.insert(key, table.rows.len());
        table.rows.push(Row {
            inserted: side == Side::New,
            indirect,
            record: fields,
        });
    }

    /// The changeset: each touched row's change from its first values to its current ones.
    fn changeset(&self, conn: &Connection) -> rusqlite::Result<Vec<u8>> {
        if let Some(e) = &self.error {
            return Err(clone_error(e));
        }
        let mut out = Vec::new();
        for table in self.tables.iter().filter(|t| !t.rows.is_empty()) {
            let start = out.len();
            record::put_table(&mut out, &table.info.name, &table.info.pk);
            let header = out.len();
            let mut select = conn.prepare_cached(&table.info.select)?;
            for row in &table.rows {
                let fields = record::fields(&row.record);
                let mut n = 0;
                for (i, f) in fields.iter().enumerate() {
                    if table.info.pk[i] > 0 {
                        let v = f.value.unwrap_or(ValueRef::Null);
                        select.raw_bind_parameter(i + 1, ToSqlOutput::Borrowed(v))?;
                        n += 1;
                    }
                }
                debug_assert!(n > 0);
                let mut rows = select.raw_query();
                let now = rows.next()?;
                match (now, row.inserted) {
                    (Some(now), true) => {
                        out.extend([record::INSERT, u8::from(row.indirect)]);
                        for i in 0..fields.len() {
                            record::put_value(&mut out, now.get_ref(i)?);
                        }
                    }
                    (Some(now), false) => {
                        let current = (0..fields.len())
                            .map(|i| now.get_ref(i))
                            .collect::<rusqlite::Result<Vec<_>>>()?;
                        put_update(&mut out, row, &fields, &current, &table.info.pk);
                    }
                    (None, false) => {
                        out.extend([record::DELETE, u8::from(row.indirect)]);
                        out.extend_from_slice(&row.record);
                    }
                    (None, true) => {}
                }
            }
            if out.len() == header {
                out.truncate(start);
            }
        }
        Ok(out)
    }
}

/// Appends an UPDATE of `row` to its `current` values, or nothing when none changed: the
/// old record holds the key and the changed columns' old values, the new one the changed
/// columns' new values.
fn put_update(
    out: &mut Vec<u8>,
    row: &Row,
    old: &[record::Field<'_>],
    current: &[ValueRef<'_>],
    pk: &[u8],
) {
    let changed: Vec<bool> = old
        .iter()
        .zip(current)
        .map(|(f, v)| !record::same(f, *v))
        .collect();
    if !changed.iter().any(|&c| c) {
        return;
    }
    out.extend([record::UPDATE, u8::from(row.indirect)]);
    for (i, f) in old.iter().enumerate() {
        if changed[i] || pk[i] > 0 {
            out.extend_from_slice(f.bytes);
        } else {
            record::put_undefined(out);
        }
    }
    for (i, v) in current.iter().enumerate() {
        if changed[i] {
            record::put_value(out, *v);
        } else {
            record::put_undefined(out);
        }
    }
}

/// A copy of an error met in the hook (rusqlite's errors are not Clone).
fn clone_error(e: &rusqlite::Error) -> rusqlite::Error {
    match e {
        rusqlite::Error::SqliteFailure(code, msg) => {
            rusqlite::Error::SqliteFailure(*code, msg.clone())
        }
        other => {
            let code = ffi::Error::new(ffi::SQLITE_ERROR);
            rusqlite::Error::SqliteFailure(code, Some(other.to_string()))
        }
    }
}

unsafe extern "C" fn on_preupdate(
    ctx: *mut c_void,
    _db: *mut ffi::sqlite3,
    op: c_int,
    schema: *const c_char,
    table: *const c_char,
    key1: i64,
    key2: i64,
) {
    let mut next = ctx as *mut Recorder;
    while !next.is_null() {
        // SAFETY: `ctx` and each `outer` are recorders boxed in live sessions (a session
        // removes its hook, restoring its outer one, before its recorder is freed); SQLite
        // calls the hook on the thread running the statement, which holds the connection
        // and so every session on it.
        let r = unsafe { &mut *next };
        next = r.outer;
        let Some(filter) = &r.attached else {
            continue;
        };
        // SAFETY: SQLite passes NUL-terminated names valid for the call.
        let (schema, table) = unsafe { (CStr::from_ptr(schema), CStr::from_ptr(table)) };
        let (Ok(schema), Ok(table)) = (schema.to_str(), table.to_str()) else {
            continue;
        };
        let recorded = match filter {
            Some(t) => t == table,
            // SQLite's own tables (sqlite_stat1) are not replicated.
            None => !table.starts_with("sqlite_"),
        };
        if schema == r.schema && recorded {
            r.on_change(op, table, key1, key2);
        }
    }
}

impl<'c> Session<'c> {
    /// A session on `conn`'s main database, recording tables without a PRIMARY KEY by rowid.
    pub fn new(conn: &'c Connection) -> rusqlite::Result<Session<'c>> {
        Session::new_in(conn, c"main")
    }

    /// A session on one of `conn`'s databases (`main`, `temp`).
    pub fn new_in(conn: &'c Connection, schema: &CStr) -> rusqlite::Result<Session<'c>> {
        // SAFETY: the handle is valid while `conn` is borrowed, which the lifetime ensures.
        let db = unsafe { conn.handle() };
        let mut recorder = Box::new(Recorder {
            conn,
            db,
            schema: schema.to_string_lossy().into_owned(),
            attached: None,
            tables: Vec::new(),
            error: None,
            deletes: 0,
            outer: std::ptr::null_mut(),
        });
        let ctx = recorder.as_mut() as *mut Recorder as *mut c_void;
        // SAFETY: `db` is live; `ctx` stays valid until Drop removes the hook. The hook this
        // replaces, if any, is another session's (no other code sets a pre-update hook).
        let outer = unsafe { ffi::sqlite3_preupdate_hook(db, Some(on_preupdate), ctx) };
        recorder.outer = outer as *mut Recorder;
        Ok(Session {
            recorder,
            conn: PhantomData,
        })
    }

    /// Records `table` (a SQLite table name), or every table when None.
    pub fn attach(&mut self, table: Option<&str>) -> rusqlite::Result<()> {
        self.recorder.attached = Some(table.map(str::to_string));
        Ok(())
    }

    /// How many times a row was deleted while recording, each one counted: a row REPLACE
    /// deleted and inserted again with the same values is in no changeset.
    pub fn deletes(&self) -> u64 {
        self.recorder.deletes
    }

    /// The changeset of everything recorded so far.
    pub fn changeset(&mut self) -> rusqlite::Result<Vec<u8>> {
        // SAFETY: the connection is borrowed for the session's lifetime.
        let conn = unsafe { &*self.recorder.conn };
        self.recorder.changeset(conn)
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let outer = self.recorder.outer;
        let hook = (!outer.is_null()).then_some(on_preupdate as _);
        // SAFETY: the connection outlives the session; the outer recorder, if any, belongs
        // to a session still alive (sessions on a connection are dropped newest first).
        let replaced =
            unsafe { ffi::sqlite3_preupdate_hook(self.recorder.db, hook, outer as *mut c_void) };
        debug_assert_eq!(
            replaced,
            self.recorder.as_mut() as *mut Recorder as *mut c_void,
            "sessions on a connection must be dropped newest first"
        );
    }
}
