//! A SQLite VFS shim that puts the database under the simulated disk (tests only).
//!
//! [`register`] makes a wrapper around SQLite's default `unix` VFS the process default.
//! Files outside every installed root pass straight through. For a file under a root
//! (the database and its `-wal`), every write, truncation and size hint is first recorded
//! in the same undo log the Rust file layer uses (`undo::Disk`), an `xSync` marks it
//! durable there instead of calling fsync ([`SyncPoint::Sqlite`]), and `xDelete` moves
//! the file aside until its directory is synced. As `unix` does, the first sync of a
//! journal or WAL it created also syncs the directory. The `-shm` index is not tracked:
//! SQLite rebuilds it from the WAL when the first connection opens the database again.
//!
//! After a power cut, handles opened before it belong to a dead process: writes, syncs,
//! locks and new shared-memory mappings fail, so the old connections, when dropped, close
//! without checkpointing or deleting anything (SQLite's close takes an exclusive lock
//! before it checkpoints; the lock fails, so it does neither).
//!
//! Safety: the wrapper's file object is `#[repr(C)]` with the `sqlite3_file` header first,
//! as SQLite requires, and owns a separately allocated `unix` file object it forwards to.
//! SQLite calls the methods of one file object from one thread at a time.

use rusqlite::ffi;
use std::ffi::{c_char, c_int, c_void, CStr, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{MutexGuard, OnceLock};

use crate::hook::{self, SharedDisk};
use crate::undo::Disk;
use crate::SyncPoint;

/// The wrapper's name.
const NAME: &CStr = c"tutti-powerloss";

/// The wrapped `unix` VFS (a pointer SQLite keeps alive for the life of the process).
struct Unix(*mut ffi::sqlite3_vfs);
// SAFETY: a registered VFS object is immutable and used by SQLite from any thread.
unsafe impl Send for Unix {}
// SAFETY: as above.
unsafe impl Sync for Unix {}

static UNIX: OnceLock<Unix> = OnceLock::new();

fn unix() -> *mut ffi::sqlite3_vfs {
    UNIX.get().expect("registered before any file is opened").0
}

/// Registers the shim as SQLite's default VFS (once per process; later calls do nothing).
/// Connections opened before keep using `unix` directly.
pub fn register() {
    UNIX.get_or_init(|| {
        // SAFETY: sqlite3_vfs_find(NULL) initialises SQLite if needed and returns the
        // default VFS, which lives for the whole process; we copy it, change what the
        // wrapper overrides, leak the copy (a registered VFS must outlive every connection)
        // and register it. The functions copied unchanged (xAccess, xFullPathname, xDl*,
        // xRandomness, xSleep, xCurrentTime*, xGetLastError, xSet/Get/NextSystemCall)
        // ignore their VFS argument in SQLite's unix implementation.
        unsafe {
            let unix = ffi::sqlite3_vfs_find(std::ptr::null());
            assert!(!unix.is_null(), "SQLite has no default VFS");
            let mut vfs: ffi::sqlite3_vfs = *unix;
            vfs.szOsFile = std::mem::size_of::<ShimFile>() as c_int;
            vfs.pNext = std::ptr::null_mut();
            vfs.zName = NAME.as_ptr();
            vfs.pAppData = std::ptr::null_mut();
            vfs.xOpen = Some(x_open);
            vfs.xDelete = Some(x_delete);
            let vfs = Box::leak(Box::new(vfs));
            let rc = ffi::sqlite3_vfs_register(vfs, 1);
            assert_eq!(rc, ffi::SQLITE_OK, "registering the power-loss VFS");
            Unix(unix)
        }
    });
}

/// What the shim knows about a file under a simulated disk.
struct Track {
    disk: SharedDisk,
    path: PathBuf,
    /// The epoch it was opened in.
    epoch: u64,
    /// Its first sync also syncs its directory (as `unix` does for journals it creates).
    dir_sync: bool,
}

impl Track {
    fn disk(&self) -> MutexGuard<'_, Disk> {
        self.disk.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The wrapper's file object: SQLite's header first, then ours.
#[repr(C)]
struct ShimFile {
    base: ffi::sqlite3_file,
    /// The `unix` file object (allocated by us: `words` u64s).
    real: *mut ffi::sqlite3_file,
    words: usize,
    /// Set for files under a simulated disk.
    track: Option<Track>,
}

static METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    // Version 2: shared memory (WAL) but no memory-mapped I/O, so every write of the
    // database goes through xWrite.
    iVersion: 2,
    xClose: Some(x_close),
    xRead: Some(x_read),
    xWrite: Some(x_write),
    xTruncate: Some(x_truncate),
    xSync: Some(x_sync),
    xFileSize: Some(x_file_size),
    xLock: Some(x_lock),
    xUnlock: Some(x_unlock),
    xCheckReservedLock: Some(x_check_reserved_lock),
    xFileControl: Some(x_file_control),
    xSectorSize: Some(x_sector_size),
    xDeviceCharacteristics: Some(x_device_characteristics),
    xShmMap: Some(x_shm_map),
    xShmLock: Some(x_shm_lock),
    xShmBarrier: Some(x_shm_barrier),
    xShmUnmap: Some(x_shm_unmap),
    xFetch: None,
    xUnfetch: None,
};

/// The path SQLite named, if any (temporary files have none).
///
/// # Safety
/// `name` is null or a NUL-terminated string valid for the call.
unsafe fn path_of(name: *const c_char) -> Option<PathBuf> {
    if name.is_null() {
        return None;
    }
    // SAFETY: per the contract above.
    let bytes = unsafe { CStr::from_ptr(name) }.to_bytes();
    Some(PathBuf::from(OsStr::from_bytes(bytes)))
}

/// Allocates a zeroed `unix` file object.
fn alloc_real() -> (*mut ffi::sqlite3_file, usize) {
    // SAFETY: `unix()` is the live default VFS.
    let size = unsafe { (*unix()).szOsFile } as usize;
    let words = size.div_ceil(8).max(1);
    let buf = vec![0u64; words].into_boxed_slice();
    (
        Box::into_raw(buf) as *mut u64 as *mut ffi::sqlite3_file,
        words,
    )
}

/// Frees what [`alloc_real`] allocated.
///
/// # Safety
/// `real` and `words` come from one call of [`alloc_real`] and are freed once.
unsafe fn free_real(real: *mut ffi::sqlite3_file, words: usize) {
    // SAFETY: rebuilds the boxed slice alloc_real leaked.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(real as *mut u64, words)) });
}

unsafe extern "C" fn x_open(
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    let unix = unix();
    // SAFETY: SQLite passes a valid name or null.
    let path = unsafe { path_of(name) };
    let disk = path.as_deref().and_then(hook::find);
    let create = flags & ffi::SQLITE_OPEN_CREATE != 0;
    let existed = path.as_deref().is_some_and(Path::exists);
    let epoch = hook::epoch();
    let (real, words) = alloc_real();
    // SAFETY: `unix` is the live default VFS and `real` a zeroed object of its size.
    let rc = unsafe { ((*unix).xOpen.expect("unix xOpen"))(unix, name, real, flags, out_flags) };
    if rc != ffi::SQLITE_OK {
        // SAFETY: per the VFS contract, a file whose pMethods was set must be closed even
        // when xOpen failed; then our allocation is ours to free, and SQLite must not call
        // our xClose (pMethods null).
        unsafe {
            let m = (*real).pMethods;
            if !m.is_null() {
                if let Some(close) = (*m).xClose {
                    close(real);
                }
            }
            free_real(real, words);
            (*file).pMethods = std::ptr::null();
        }
        return rc;
    }
    let track = match (disk, path) {
        (Some(disk), Some(path)) => {
            if create && !existed {
                disk.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .created(&path);
            }
            let journal = ffi::SQLITE_OPEN_WAL
                | ffi::SQLITE_OPEN_MAIN_JOURNAL
                | ffi::SQLITE_OPEN_SUPER_JOURNAL;
            Some(Track {
                disk,
                path,
                epoch,
                dir_sync: create && flags & journal != 0,
            })
        }
        _ => None,
    };
    // SAFETY: SQLite gives us szOsFile (= size_of::<ShimFile>()) writable bytes, aligned
    // for any type (its allocator aligns to 8), not yet initialised.
    unsafe {
        std::ptr::write(
            file as *mut ShimFile,
            ShimFile {
                base: ffi::sqlite3_file { pMethods: &METHODS },
                real,
                words,
                track,
            },
        );
    }
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_delete(
    _vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    sync_dir: c_int,
) -> c_int {
    // SAFETY: SQLite passes a valid name.
    let path = unsafe { path_of(name) };
    let Some((disk, path)) = path.and_then(|p| hook::find(&p).map(|d| (d, p))) else {
        let unix = unix();
        // SAFETY: forwarding to the live default VFS with SQLite's own arguments.
        return unsafe { ((*unix).xDelete.expect("unix xDelete"))(unix, name, sync_dir) };
    };
    let mut d = disk.lock().unwrap_or_else(|e| e.into_inner());
    match d.remove(&path) {
        Ok(()) => {
            if sync_dir != 0 {
                if let Some(dir) = path.parent() {
                    d.dir_synced(dir, SyncPoint::Sqlite);
                }
            }
            ffi::SQLITE_OK
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => ffi::SQLITE_IOERR_DELETE_NOENT,
        Err(_) => ffi::SQLITE_IOERR_DELETE,
    }
}

/// Our object and the `unix` methods of the file it wraps.
///
/// # Safety
/// `f` is a file object our `x_open` initialised and that is not closed yet.
unsafe fn parts<'a>(f: *mut ffi::sqlite3_file) -> (&'a mut ShimFile, &'a ffi::sqlite3_io_methods) {
    // SAFETY: per the contract, `f` points to a live ShimFile whose `real` was opened by
    // `unix` (so its pMethods is set).
    unsafe {
        let shim = &mut *(f as *mut ShimFile);
        let methods = &*(*shim.real).pMethods;
        (shim, methods)
    }
}

/// Runs `record` on the disk of a tracked file (failing for a dead handle) before `io`.
fn tracked(
    shim: &ShimFile,
    fail: c_int,
    record: impl FnOnce(&mut Disk, &Path) -> std::io::Result<()>,
) -> Result<Option<MutexGuard<'_, Disk>>, c_int> {
    let Some(t) = &shim.track else {
        return Ok(None);
    };
    let mut d = t.disk();
    if d.check_alive(t.epoch).is_err() || record(&mut d, &t.path).is_err() {
        return Err(fail);
    }
    Ok(Some(d))
}

unsafe extern "C" fn x_close(f: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: SQLite closes each file it opened once; after this nothing touches it.
    unsafe {
        let (shim, m) = parts(f);
        let rc = (m.xClose.expect("xClose"))(shim.real);
        free_real(shim.real, shim.words);
        std::ptr::drop_in_place(&mut shim.track);
        rc
    }
}

unsafe extern "C" fn x_read(
    f: *mut ffi::sqlite3_file,
    buf: *mut c_void,
    n: c_int,
    off: i64,
) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xRead.expect("xRead"))(shim.real, buf, n, off)
    }
}

unsafe extern "C" fn x_write(
    f: *mut ffi::sqlite3_file,
    buf: *const c_void,
    n: c_int,
    off: i64,
) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        let guard = match tracked(shim, ffi::SQLITE_IOERR_WRITE, |d, p| {
            d.before_write(p, off as u64, n as u64)
        }) {
            Ok(g) => g,
            Err(rc) => return rc,
        };
        let rc = (m.xWrite.expect("xWrite"))(shim.real, buf, n, off);
        drop(guard);
        rc
    }
}

unsafe extern "C" fn x_truncate(f: *mut ffi::sqlite3_file, size: i64) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        let guard = match tracked(shim, ffi::SQLITE_IOERR_TRUNCATE, |d, p| {
            d.before_set_len(p, size as u64)
        }) {
            Ok(g) => g,
            Err(rc) => return rc,
        };
        let rc = (m.xTruncate.expect("xTruncate"))(shim.real, size);
        drop(guard);
        rc
    }
}

unsafe extern "C" fn x_sync(f: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        let Some(t) = &mut shim.track else {
            return (m.xSync.expect("xSync"))(shim.real, flags);
        };
        let mut d = t.disk.lock().unwrap_or_else(|e| e.into_inner());
        if d.check_alive(t.epoch).is_err() {
            return ffi::SQLITE_IOERR_FSYNC;
        }
        d.synced(&t.path, SyncPoint::Sqlite);
        if std::mem::take(&mut t.dir_sync) {
            if let Some(dir) = t.path.parent() {
                d.dir_synced(dir, SyncPoint::Sqlite);
            }
        }
        ffi::SQLITE_OK
    }
}

unsafe extern "C" fn x_file_size(f: *mut ffi::sqlite3_file, size: *mut i64) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xFileSize.expect("xFileSize"))(shim.real, size)
    }
}

unsafe extern "C" fn x_lock(f: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        if let Err(rc) = tracked(shim, ffi::SQLITE_IOERR_LOCK, |_, _| Ok(())) {
            return rc;
        }
        (m.xLock.expect("xLock"))(shim.real, level)
    }
}

unsafe extern "C" fn x_unlock(f: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xUnlock.expect("xUnlock"))(shim.real, level)
    }
}

unsafe extern "C" fn x_check_reserved_lock(f: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xCheckReservedLock.expect("xCheckReservedLock"))(shim.real, out)
    }
}

unsafe extern "C" fn x_file_control(
    f: *mut ffi::sqlite3_file,
    op: c_int,
    arg: *mut c_void,
) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        let mut guard = None;
        if op == ffi::SQLITE_FCNTL_SIZE_HINT {
            // A size hint may grow the file: remember its length first.
            guard = match tracked(shim, ffi::SQLITE_IOERR_TRUNCATE, |d, p| {
                d.before_set_len(p, u64::MAX)
            }) {
                Ok(g) => g,
                Err(rc) => return rc,
            };
        }
        let rc = (m.xFileControl.expect("xFileControl"))(shim.real, op, arg);
        drop(guard);
        rc
    }
}

unsafe extern "C" fn x_sector_size(f: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: forwarding to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xSectorSize.expect("xSectorSize"))(shim.real)
    }
}

unsafe extern "C" fn x_device_characteristics(f: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: forwarding to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xDeviceCharacteristics.expect("xDeviceCharacteristics"))(shim.real)
    }
}

unsafe extern "C" fn x_shm_map(
    f: *mut ffi::sqlite3_file,
    page: c_int,
    size: c_int,
    extend: c_int,
    out: *mut *mut c_void,
) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        if let Err(rc) = tracked(shim, ffi::SQLITE_IOERR_SHMMAP, |_, _| Ok(())) {
            return rc;
        }
        (m.xShmMap.expect("xShmMap"))(shim.real, page, size, extend, out)
    }
}

unsafe extern "C" fn x_shm_lock(
    f: *mut ffi::sqlite3_file,
    offset: c_int,
    n: c_int,
    flags: c_int,
) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xShmLock.expect("xShmLock"))(shim.real, offset, n, flags)
    }
}

unsafe extern "C" fn x_shm_barrier(f: *mut ffi::sqlite3_file) {
    // SAFETY: forwarding to the wrapped file.
    unsafe {
        let (shim, m) = parts(f);
        (m.xShmBarrier.expect("xShmBarrier"))(shim.real)
    }
}

unsafe extern "C" fn x_shm_unmap(f: *mut ffi::sqlite3_file, delete: c_int) -> c_int {
    // SAFETY: forwarding SQLite's own arguments to the wrapped file; a dead handle never
    // deletes the index (its process is gone).
    unsafe {
        let (shim, m) = parts(f);
        let dead = tracked(shim, 0, |_, _| Ok(())).is_err();
        let delete = if dead { 0 } else { delete };
        (m.xShmUnmap.expect("xShmUnmap"))(shim.real, delete)
    }
}

#[cfg(test)]
mod tests;
