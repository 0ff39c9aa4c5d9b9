//! Applying a SQLite session changeset the way replication needs it.
//!
//! rusqlite wraps only `sqlite3changeset_apply` (v1, no flags), so this module calls
//! `sqlite3changeset_apply_v2` directly with `SQLITE_CHANGESETAPPLY_FKNOACTION`: a
//! changeset already contains the rows that foreign-key actions (ON DELETE CASCADE, SET
//! NULL) changed when the transaction ran, so those actions must not fire a second time
//! when it is applied. Any conflict aborts the apply: after certification a write-set must
//! apply cleanly, so a conflict means the data differs and is reported, never papered over.

use rusqlite::{ffi, Connection};
use std::ffi::{c_char, c_int, c_void, CStr};

/// Why a changeset did not apply.
#[derive(Debug)]
pub enum ChangesetConflict {
    /// A row conflicted: (conflict kind, table name).
    Row(&'static str, String),
    /// Foreign keys would be violated after the apply.
    ForeignKey,
    /// SQLite failed for another reason.
    Sqlite(rusqlite::Error),
}

impl std::fmt::Display for ChangesetConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChangesetConflict::Row(kind, table) => write!(f, "{kind} conflict on table {table}"),
            ChangesetConflict::ForeignKey => f.write_str("foreign key violation"),
            ChangesetConflict::Sqlite(e) => write!(f, "{e}"),
        }
    }
}

struct Ctx {
    conflict: Option<ChangesetConflict>,
}

unsafe extern "C" fn on_conflict(
    ctx: *mut c_void,
    kind: c_int,
    it: *mut ffi::sqlite3_changeset_iter,
) -> c_int {
    // SAFETY: ctx is the &mut Ctx passed to sqlite3changeset_apply_v2 below, alive for the
    // whole call; `it` is valid during this callback.
    let ctx = unsafe { &mut *(ctx as *mut Ctx) };
    ctx.conflict = Some(if kind == ffi::SQLITE_CHANGESET_FOREIGN_KEY {
        ChangesetConflict::ForeignKey
    } else {
        let mut tab: *const c_char = std::ptr::null();
        let (mut ncol, mut op, mut indirect) = (0, 0, 0);
        let table = unsafe {
            if ffi::sqlite3changeset_op(it, &mut tab, &mut ncol, &mut op, &mut indirect)
                == ffi::SQLITE_OK
                && !tab.is_null()
            {
                CStr::from_ptr(tab).to_string_lossy().into_owned()
            } else {
                "?".into()
            }
        };
        let what = match kind {
            ffi::SQLITE_CHANGESET_DATA => "data",
            ffi::SQLITE_CHANGESET_NOTFOUND => "row not found",
            ffi::SQLITE_CHANGESET_CONFLICT => "row exists",
            ffi::SQLITE_CHANGESET_CONSTRAINT => "constraint",
            _ => "unknown",
        };
        ChangesetConflict::Row(what, table)
    });
    ffi::SQLITE_CHANGESET_ABORT
}

/// Applies `changeset` to the connection's current transaction; on any conflict nothing
/// of this changeset is applied and the conflict is returned.
pub fn apply_changeset(conn: &Connection, changeset: &[u8]) -> Result<(), ChangesetConflict> {
    if changeset.is_empty() {
        return Ok(());
    }
    let len = c_int::try_from(changeset.len()).map_err(|_| {
        ChangesetConflict::Sqlite(rusqlite::Error::ToSqlConversionFailure(
            "changeset larger than 2 GiB".into(),
        ))
    })?;
    let mut ctx = Ctx { conflict: None };
    // SAFETY: the handle belongs to `conn`, which we borrow for the whole call; SQLite only
    // reads the changeset buffer (the API takes *mut for historical reasons); ctx outlives
    // the call and is only touched by on_conflict during it.
    let rc = unsafe {
        ffi::sqlite3changeset_apply_v2(
            conn.handle(),
            len,
            changeset.as_ptr() as *mut c_void,
            None,
            Some(on_conflict),
            &mut ctx as *mut Ctx as *mut c_void,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            ffi::SQLITE_CHANGESETAPPLY_FKNOACTION as c_int,
        )
    };
    if let Some(c) = ctx.conflict {
        return Err(c);
    }
    if rc != ffi::SQLITE_OK {
        // SAFETY: reading the connection's last error message right after the failing call.
        let msg = unsafe {
            let m = ffi::sqlite3_errmsg(conn.handle());
            (!m.is_null()).then(|| CStr::from_ptr(m).to_string_lossy().into_owned())
        };
        return Err(ChangesetConflict::Sqlite(rusqlite::Error::SqliteFailure(
            ffi::Error::new(rc),
            msg,
        )));
    }
    Ok(())
}
