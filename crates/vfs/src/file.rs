//! Files and directory operations: `std::fs`, or the simulated disk of an installed root.
//!
//! Every mutating operation asks [`hook::find`] whether its path is under a simulated
//! disk. If not (production), it is the plain `std::fs` call, and a sync is a real fsync.
//! If so, the disk records how to undo it first, and a sync marks data durable in the
//! simulation instead of calling fsync (the simulation, not the real disk, is what the
//! test's power cut consults, so a real fsync would only cost time).

use std::fs;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::MutexGuard;

use crate::hook;
use crate::undo::Disk;
use crate::SyncPoint;

fn lock(d: &hook::SharedDisk) -> MutexGuard<'_, Disk> {
    d.lock().unwrap_or_else(|e| e.into_inner())
}

/// An open file, read and written at explicit offsets.
#[derive(Debug)]
pub struct File {
    inner: fs::File,
    path: PathBuf,
    /// The epoch it was opened in (see `hook`).
    epoch: u64,
}

impl File {
    /// Opens an existing file for reading and writing.
    pub fn open(path: &Path) -> io::Result<File> {
        let epoch = hook::epoch();
        let inner = fs::OpenOptions::new().read(true).write(true).open(path)?;
        Ok(File {
            inner,
            path: path.to_path_buf(),
            epoch,
        })
    }

    /// Creates a file for reading and writing, emptying it if it exists.
    pub fn create(path: &Path) -> io::Result<File> {
        let epoch = hook::epoch();
        let open = || {
            fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
        };
        let inner = match hook::find(path) {
            None => open()?,
            Some(d) => {
                let mut d = lock(&d);
                let existed = path.exists();
                if existed {
                    d.before_set_len(path, 0)?;
                }
                let f = open()?;
                if !existed {
                    d.created(path);
                }
                f
            }
        };
        Ok(File {
            inner,
            path: path.to_path_buf(),
            epoch,
        })
    }

    /// Its path (as opened).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes all of `buf` at `offset`.
    pub fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        match hook::find(&self.path) {
            None => self.inner.write_all_at(buf, offset),
            Some(d) => {
                let mut d = lock(&d);
                d.check_alive(self.epoch)?;
                d.before_write(&self.path, offset, buf.len() as u64)?;
                self.inner.write_all_at(buf, offset)
            }
        }
    }

    /// Reads exactly `buf.len()` bytes at `offset`.
    pub fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.inner.read_exact_at(buf, offset)
    }

    /// The whole content.
    pub fn read_all(&self) -> io::Result<Vec<u8>> {
        let len = self.inner.metadata()?.len();
        let mut buf = vec![0u8; len as usize];
        self.inner.read_exact_at(&mut buf, 0)?;
        Ok(buf)
    }

    /// Cuts or extends the file to `len` bytes.
    pub fn set_len(&self, len: u64) -> io::Result<()> {
        match hook::find(&self.path) {
            None => self.inner.set_len(len),
            Some(d) => {
                let mut d = lock(&d);
                d.check_alive(self.epoch)?;
                d.before_set_len(&self.path, len)?;
                self.inner.set_len(len)
            }
        }
    }

    /// Makes the content durable (fsync; `fdatasync` when `data_only`).
    pub fn sync(&self, point: SyncPoint, data_only: bool) -> io::Result<()> {
        match hook::find(&self.path) {
            None if data_only => self.inner.sync_data(),
            None => self.inner.sync_all(),
            Some(d) => {
                let mut d = lock(&d);
                d.check_alive(self.epoch)?;
                d.synced(&self.path, point);
                Ok(())
            }
        }
    }
}

/// Reads a whole file.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    fs::read(path)
}

/// Removes a file.
pub fn remove_file(path: &Path) -> io::Result<()> {
    match hook::find(path) {
        None => fs::remove_file(path),
        Some(d) => lock(&d).remove(path),
    }
}

/// Renames a file, replacing any file at `to`.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    match hook::find(to) {
        None => fs::rename(from, to),
        Some(d) => lock(&d).rename(from, to),
    }
}

/// fsyncs a directory, making file creations, renames and removals in it durable.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    match hook::find(dir) {
        None => fs::File::open(dir)?.sync_all(),
        Some(d) => {
            lock(&d).dir_synced(dir, SyncPoint::Dir);
            Ok(())
        }
    }
}

/// Creates a directory and its missing parents, durably: each new directory's parent is
/// fsynced, so the new entry survives a power loss.
pub fn create_dir_all(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Ok(());
    }
    let mut missing = Vec::new();
    let mut p = Some(path);
    while let Some(dir) = p {
        if dir.as_os_str().is_empty() || dir.is_dir() {
            break;
        }
        missing.push(dir);
        p = dir.parent();
    }
    for dir in missing.into_iter().rev() {
        match fs::create_dir(dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => continue,
            Err(e) => return Err(e),
        }
        if let Some(d) = hook::find(dir) {
            lock(&d).made_dir(dir);
        }
        if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            sync_dir(parent)?;
        }
    }
    Ok(())
}

/// Replaces a small file atomically and durably: writes `<name>.tmp`, fsyncs it (at
/// `point`), renames it over `path`, fsyncs the directory. A crash leaves the old content
/// or the new, never a mix.
pub fn write_atomic(path: &Path, data: &[u8], point: SyncPoint) -> io::Result<()> {
    let tmp = sibling(path, ".tmp")?;
    {
        let f = File::create(&tmp)?;
        f.write_all_at(data, 0)?;
        f.sync(point, false)?;
    }
    rename(&tmp, path)?;
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => sync_dir(dir),
        None => sync_dir(Path::new(".")),
    }
}

/// `path` with `suffix` appended to its last component (`raft.state` → `raft.state.tmp`).
pub(crate) fn sibling(path: &Path, suffix: &str) -> io::Result<PathBuf> {
    let mut name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{} has no file name", path.display())))?
        .to_os_string();
    name.push(suffix);
    Ok(path.with_file_name(name))
}
