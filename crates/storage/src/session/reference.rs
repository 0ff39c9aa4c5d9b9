//! SQLite's own session module with `SQLITE_SESSION_OBJCONFIG_ROWID` (which rusqlite's
//! `Session` cannot set): the reference the recorder's tests compare its changesets with.

use rusqlite::{ffi, Connection};
use std::marker::PhantomData;
use std::os::raw::{c_int, c_void};

/// Records the changes made on one connection to all tables or one table.
pub struct Reference<'c> {
    raw: *mut ffi::sqlite3_session,
    conn: PhantomData<&'c Connection>,
}

fn check(rc: c_int) -> rusqlite::Result<()> {
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), None))
    }
}

impl<'c> Reference<'c> {
    /// A session on one of `conn`'s databases (`main`, `temp`).
    pub fn new_in(
        conn: &'c Connection,
        schema: &std::ffi::CStr,
    ) -> rusqlite::Result<Reference<'c>> {
        let mut raw: *mut ffi::sqlite3_session = std::ptr::null_mut();
        // SAFETY: the handle is valid while `conn` is borrowed, which the lifetime ensures;
        // `schema` is NUL-terminated.
        check(unsafe { ffi::sqlite3session_create(conn.handle(), schema.as_ptr(), &mut raw) })?;
        let session = Reference {
            raw,
            conn: PhantomData,
        };
        let mut on: c_int = 1;
        // SAFETY: `raw` is a live session with no table attached yet, as the option needs.
        check(unsafe {
            ffi::sqlite3session_object_config(
                session.raw,
                ffi::SQLITE_SESSION_OBJCONFIG_ROWID,
                (&mut on as *mut c_int).cast::<c_void>(),
            )
        })?;
        Ok(session)
    }

    /// Records `table` (a SQLite table name), or every table when None.
    pub fn attach(&mut self, table: Option<&str>) -> rusqlite::Result<()> {
        let name = table
            .map(std::ffi::CString::new)
            .transpose()
            .map_err(|_| rusqlite::Error::InvalidQuery)?;
        let ptr = name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr());
        // SAFETY: `raw` is live; `ptr` is null or a NUL-terminated string that outlives the call.
        check(unsafe { ffi::sqlite3session_attach(self.raw, ptr) })
    }

    /// The changeset of everything recorded so far.
    pub fn changeset(&mut self) -> rusqlite::Result<Vec<u8>> {
        let mut n: c_int = 0;
        let mut buf: *mut c_void = std::ptr::null_mut();
        // SAFETY: `raw` is live; SQLite allocates `buf` (n bytes), freed below.
        check(unsafe { ffi::sqlite3session_changeset(self.raw, &mut n, &mut buf) })?;
        if buf.is_null() {
            return Ok(Vec::new());
        }
        // SAFETY: `buf` holds `n` bytes written by SQLite.
        let bytes = unsafe { std::slice::from_raw_parts(buf.cast::<u8>(), n as usize) }.to_vec();
        // SAFETY: allocated by SQLite, freed once.
        unsafe { ffi::sqlite3_free(buf) };
        Ok(bytes)
    }
}

impl Drop for Reference<'_> {
    fn drop(&mut self) {
        // SAFETY: created by sqlite3session_create, deleted once, before the connection goes.
        unsafe { ffi::sqlite3session_delete(self.raw) };
    }
}
