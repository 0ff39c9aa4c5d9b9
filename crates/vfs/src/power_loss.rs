//! Power loss for tests: a simulated disk under one directory, and the cut.
//!
//! [`PowerLoss::install`] puts a directory (a node's datadir) under a simulated disk: from
//! then on every write through this crate (and through SQLite, once the shim is registered,
//! which `install` does when the `sqlite` feature is on) is recorded until fsynced.
//! [`PowerLoss::cut`] takes back what was not durable and kills every handle opened before:
//! the node's old in-memory objects can still be dropped, but nothing they do reaches the
//! disk any more, as if their process had died with the power. Files that existed before
//! `install` count as durable. [`PowerLoss::skip_sync`] removes one fsync, so a test can
//! show that a check fails without it.
//!
//! Uninstalled on drop; the stash (removed files waiting for a directory fsync) is a
//! sibling directory `<root>.powerloss`, removed then too.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::hook;
use crate::undo::{Disk, Rng};
use crate::SyncPoint;

pub use crate::undo::Pending;

/// How much unsynced data a cut keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Nothing that was not fsynced survives.
    Everything,
    /// Each file keeps a random prefix of its unsynced writes (the next one maybe torn),
    /// each directory a random prefix of its unsynced operations; same seed, same result.
    RandomPrefix(u64),
}

/// A simulated disk under one directory, installed until dropped.
pub struct PowerLoss {
    root: PathBuf,
    stash: PathBuf,
    disk: hook::SharedDisk,
}

impl PowerLoss {
    /// Puts `root` (an existing directory) under a simulated disk.
    pub fn install(root: &Path) -> io::Result<PowerLoss> {
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{} is not a directory", root.display()),
            ));
        }
        let stash = crate::file::sibling(root, ".powerloss")?;
        std::fs::create_dir_all(&stash)?;
        #[cfg(any(test, feature = "sqlite"))]
        crate::sqlite::register();
        let disk = Arc::new(Mutex::new(Disk::new(stash.clone())));
        hook::install(root, disk.clone());
        Ok(PowerLoss {
            root: root.to_path_buf(),
            stash,
            disk,
        })
    }

    /// The directory under the simulated disk.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Removes an fsync: from now on syncs at `point` make nothing durable (test-only:
    /// this is how a test shows a durability claim rests on that fsync).
    pub fn skip_sync(&self, point: SyncPoint) {
        self.disk
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .skip(point);
    }

    /// What is not durable yet.
    pub fn pending(&self) -> Pending {
        self.disk
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pending()
    }

    /// Loses power: what was not durable goes (see [`Cut`]); handles opened before are
    /// dead. The node must not run on across a cut: crash it first, restart it after.
    pub fn cut(&self, how: Cut) -> io::Result<()> {
        let mut rng = match how {
            Cut::Everything => None,
            Cut::RandomPrefix(seed) => Some(Rng::new(seed)),
        };
        let epoch = hook::next_epoch();
        self.disk
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .cut(rng.as_mut(), epoch)
    }
}

impl Drop for PowerLoss {
    fn drop(&mut self) {
        hook::uninstall(&self.root);
        let _ = std::fs::remove_dir_all(&self.stash);
    }
}

/// True when `path` is under an installed simulated disk (where an fsync costs nothing).
pub fn installed(path: &Path) -> bool {
    hook::find(path).is_some()
}

#[cfg(test)]
mod tests;
