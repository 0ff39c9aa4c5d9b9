//! The datadir: created if missing, locked against a second process, and home of the
//! node's identity (a random id made once, kept across restarts and never copied by a
//! state transfer, since it lives outside the database).

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use tutti_wsrep::NodeId;

use crate::NodeError;

const LOCK_FILE: &str = "tutti.lock";
const ID_FILE: &str = "node.id";

/// An open, locked datadir.
pub struct Datadir {
    path: PathBuf,
    _lock: File,
}

fn err(path: &Path, reason: impl std::fmt::Display) -> NodeError {
    NodeError::Datadir {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

impl Datadir {
    /// Creates (if needed) and locks the datadir.
    pub fn open(path: &Path) -> Result<Datadir, NodeError> {
        if path.exists() && !path.is_dir() {
            return Err(err(path, "exists and is not a directory"));
        }
        tutti_vfs::create_dir_all(path).map_err(|e| err(path, format!("cannot create: {e}")))?;
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path.join(LOCK_FILE))
            .map_err(|e| err(path, format!("not writable: {e}")))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(err(path, "another tutti process is using it"));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(err(path, format!("cannot lock: {e}")))
            }
        }
        Ok(Datadir {
            path: path.to_path_buf(),
            _lock: lock,
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// This node's id, created on first start.
    pub fn node_id(&self) -> Result<NodeId, NodeError> {
        let file = self.path.join(ID_FILE);
        match fs::read_to_string(&file) {
            Ok(s) => u64::from_str_radix(s.trim(), 16)
                .ok()
                .filter(|id| *id != 0)
                .ok_or_else(|| err(&self.path, format!("{ID_FILE} is damaged"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let id = loop {
                    let id: u64 = rand::random();
                    if id != 0 {
                        break id;
                    }
                };
                write_atomic(&file, format!("{id:016x}\n").as_bytes())
                    .map_err(|e| err(&self.path, e))?;
                Ok(id)
            }
            Err(e) => Err(err(&self.path, format!("cannot read {ID_FILE}: {e}"))),
        }
    }
}

/// Writes a small file atomically (temp file, fsync, rename, fsync dir).
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    tutti_vfs::write_atomic(path, data, tutti_vfs::SyncPoint::NodeId)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_and_identity() {
        let dir = tempfile::tempdir().unwrap();
        let d = Datadir::open(dir.path()).unwrap();
        let id = d.node_id().unwrap();
        assert_eq!(d.node_id().unwrap(), id, "stable");
        let second = Datadir::open(dir.path());
        assert!(second.is_err(), "a second process is refused");
        drop(d);
        assert_eq!(Datadir::open(dir.path()).unwrap().node_id().unwrap(), id);
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        assert!(Datadir::open(&file).is_err());
    }
}
