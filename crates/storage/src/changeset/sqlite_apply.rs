//! Applying a changeset with SQLite's own `sqlite3changeset_apply_v2`, for schemas with
//! foreign-key actions.
//!
//! rusqlite wraps only `sqlite3changeset_apply` (v1, no flags), so this module calls
//! `sqlite3changeset_apply_v2` directly with `SQLITE_CHANGESETAPPLY_FKNOACTION`: a changeset
//! already contains the rows that foreign-key actions (ON DELETE CASCADE, SET NULL) changed
//! when the transaction ran, so those actions must not fire a second time when it is
//! applied. SQLite implements the flag by expiring every prepared statement of the
//! connection (twice per call), so it is used only when the schema needs it.

use rusqlite::{ffi, Connection};

use super::ChangesetConflict;
use std::ffi::{c_char, c_int, c_void, CStr};

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

/// Applies `changeset` with SQLite's apply, foreign-key actions disabled.
pub(super) fn apply(conn: &Connection, changeset: &[u8]) -> Result<(), ChangesetConflict> {
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
