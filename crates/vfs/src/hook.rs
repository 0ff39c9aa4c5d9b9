//! Which directories are under a simulated disk: a process-wide list of roots.
//!
//! Production code never installs one, so [`find`] returns at the first atomic load. The
//! list is process-wide (not passed down through every constructor) because SQLite's VFS is
//! process-wide too: both the Rust file layer and the SQLite shim find a path's disk here,
//! by the longest installed root that contains it.
//!
//! Handles outlive power cuts: a file opened before its root's last cut belongs to a
//! "process" that died, and may not touch the disk again. [`epoch`] stamps handles at open;
//! the disk compares the stamp with the epoch of its last cut.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::undo::Disk;

/// A simulated disk, shared by every handle under its root.
pub(crate) type SharedDisk = Arc<Mutex<Disk>>;

/// How many roots are installed (0: take the fast path).
static ACTIVE: AtomicUsize = AtomicUsize::new(0);
/// The installed roots: (root as given, root canonicalised, its disk).
static ROOTS: RwLock<Vec<(PathBuf, PathBuf, SharedDisk)>> = RwLock::new(Vec::new());
/// Power cuts so far, process-wide.
static CUTS: AtomicU64 = AtomicU64::new(0);

/// The epoch a handle opened now belongs to.
pub(crate) fn epoch() -> u64 {
    CUTS.load(Ordering::Acquire)
}

/// Starts a new epoch (a power cut) and returns it.
pub(crate) fn next_epoch() -> u64 {
    CUTS.fetch_add(1, Ordering::AcqRel) + 1
}

/// The disk `path` lives on, if it is under an installed root.
pub(crate) fn find(path: &Path) -> Option<SharedDisk> {
    if ACTIVE.load(Ordering::Relaxed) == 0 {
        return None;
    }
    let roots = ROOTS.read().unwrap_or_else(|e| e.into_inner());
    roots
        .iter()
        .filter(|(root, canon, _)| path.starts_with(root) || path.starts_with(canon))
        .max_by_key(|(root, _, _)| root.components().count())
        .map(|(_, _, disk)| disk.clone())
}

/// Puts `root` under `disk`.
pub(crate) fn install(root: &Path, disk: SharedDisk) {
    let canon = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut roots = ROOTS.write().unwrap_or_else(|e| e.into_inner());
    roots.push((root.to_path_buf(), canon, disk));
    ACTIVE.store(roots.len(), Ordering::Relaxed);
}

/// Takes `root` out again.
pub(crate) fn uninstall(root: &Path) {
    let mut roots = ROOTS.write().unwrap_or_else(|e| e.into_inner());
    roots.retain(|(r, _, _)| r != root);
    ACTIVE.store(roots.len(), Ordering::Relaxed);
}
