//! The simulated disk: what has not been fsynced yet, and how to take it back.
//!
//! Writes go to the real files at once; before each one the bytes it overwrites (and the
//! file's length) are saved in the file's undo log. An fsync of the file makes its content
//! durable: the log is dropped. Creations, renames and removals are real too, but logged
//! per directory until that directory is fsynced; a removed (or renamed-over) file is moved
//! aside to a stash outside the root, so it can come back. A power cut replays the undo
//! records backwards: every file loses its unsynced writes (or all but a random prefix of
//! them, the first dropped one possibly torn), then every directory loses its unsynced
//! operations (or all but a random prefix). What remains is what a disk that honours
//! fsync, and nothing more, could hold after losing power.
//!
//! Both the Rust file layer and the SQLite shim call into this one type; nothing else
//! knows how undo works. Files are known by their current path (a rename moves the log).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::SyncPoint;

/// What one write or length change overwrote.
struct Undo {
    /// Where it wrote.
    offset: u64,
    /// The bytes it overwrote (those that existed, within the file's old length).
    old: Vec<u8>,
    /// The file's length before.
    old_len: u64,
    /// How many bytes it wrote (0 for a length change).
    written: u64,
}

/// The unsynced history of one file.
#[derive(Default)]
struct FileLog {
    /// A read handle, kept so the log follows the file across renames.
    reader: Option<fs::File>,
    /// Undo records, oldest first.
    undo: Vec<Undo>,
}

/// A directory operation not yet made durable by an fsync of its directory.
#[derive(Debug)]
enum DirOp {
    /// A file was created.
    Created(PathBuf),
    /// A directory was created.
    MadeDir(PathBuf),
    /// A file was removed (kept at `stash` until the removal is durable).
    Removed { path: PathBuf, stash: PathBuf },
    /// A file was renamed, replacing the file now at `replaced` (in the stash) if any.
    Renamed {
        from: PathBuf,
        to: PathBuf,
        replaced: Option<PathBuf>,
    },
}

impl DirOp {
    /// The directory whose fsync makes it durable.
    fn dir(&self) -> &Path {
        let p = match self {
            DirOp::Created(p) | DirOp::MadeDir(p) => p,
            DirOp::Removed { path, .. } => path,
            DirOp::Renamed { to, .. } => to,
        };
        p.parent().unwrap_or(Path::new("/"))
    }
}

/// A small deterministic generator for the kept prefixes.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// A number in `0..=n`.
    fn upto(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % (n + 1)
    }
}

/// What is pending on a disk, for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// Files with unsynced writes, and how many.
    pub writes: Vec<(PathBuf, usize)>,
    /// Directory operations not made durable.
    pub dir_ops: usize,
}

/// One simulated disk (the directory tree under one root).
pub(crate) struct Disk {
    /// Where removed files wait until their removal is durable (outside the root).
    stash: PathBuf,
    next_stash: u64,
    files: HashMap<PathBuf, FileLog>,
    ops: Vec<DirOp>,
    /// fsyncs removed by the test.
    skipped: HashSet<SyncPoint>,
    /// The epoch of the last power cut (handles opened before it are dead).
    cut_epoch: u64,
}

fn dead() -> io::Error {
    io::Error::other("the node lost power: this handle's process is gone")
}

impl Disk {
    /// An empty disk whose stash directory is `stash`.
    pub(crate) fn new(stash: PathBuf) -> Disk {
        Disk {
            stash,
            next_stash: 0,
            files: HashMap::new(),
            ops: Vec::new(),
            skipped: HashSet::new(),
            cut_epoch: 0,
        }
    }

    /// Fails for a handle opened (at `epoch`) before the last power cut.
    pub(crate) fn check_alive(&self, epoch: u64) -> io::Result<()> {
        if epoch < self.cut_epoch {
            Err(dead())
        } else {
            Ok(())
        }
    }

    /// Removes an fsync: from now on `point` makes nothing durable.
    pub(crate) fn skip(&mut self, point: SyncPoint) {
        self.skipped.insert(point);
    }

    fn log(&mut self, path: &Path) -> io::Result<(&mut Vec<Undo>, &fs::File)> {
        let log = self.files.entry(path.to_path_buf()).or_default();
        if log.reader.is_none() {
            log.reader = Some(fs::File::open(path)?);
        }
        let FileLog { reader, undo } = log;
        Ok((undo, reader.as_ref().expect("opened above")))
    }

    /// Records what a write of `len` bytes at `offset` into `path` will overwrite.
    pub(crate) fn before_write(&mut self, path: &Path, offset: u64, len: u64) -> io::Result<()> {
        let (undo, f) = self.log(path)?;
        let old_len = f.metadata()?.len();
        let end = offset.saturating_add(len).min(old_len);
        let mut old = vec![0u8; end.saturating_sub(offset) as usize];
        f.read_exact_at(&mut old, offset)?;
        undo.push(Undo {
            offset,
            old,
            old_len,
            written: len,
        });
        Ok(())
    }

    /// Records what setting `path`'s length to `new_len` will change (a length it may grow
    /// to, for size hints, is recorded the same way).
    pub(crate) fn before_set_len(&mut self, path: &Path, new_len: u64) -> io::Result<()> {
        let (undo, f) = self.log(path)?;
        let old_len = f.metadata()?.len();
        let mut old = vec![0u8; old_len.saturating_sub(new_len) as usize];
        f.read_exact_at(&mut old, new_len.min(old_len))?;
        undo.push(Undo {
            offset: new_len.min(old_len),
            old,
            old_len,
            written: 0,
        });
        Ok(())
    }

    /// An fsync of `path` at `point`: its content is durable (unless the test removed it).
    pub(crate) fn synced(&mut self, path: &Path, point: SyncPoint) {
        if self.skipped.contains(&point) {
            return;
        }
        if let Some(log) = self.files.get_mut(path) {
            log.undo.clear();
        }
    }

    /// A file was just created at `path`.
    pub(crate) fn created(&mut self, path: &Path) {
        self.files.remove(path);
        self.ops.push(DirOp::Created(path.to_path_buf()));
    }

    /// A directory was just created at `path`.
    pub(crate) fn made_dir(&mut self, path: &Path) {
        self.ops.push(DirOp::MadeDir(path.to_path_buf()));
    }

    fn stash_path(&mut self) -> PathBuf {
        self.next_stash += 1;
        self.stash.join(format!("{}", self.next_stash))
    }

    fn move_log(&mut self, from: &Path, to: &Path) {
        if let Some(log) = self.files.remove(from) {
            self.files.insert(to.to_path_buf(), log);
        }
    }

    /// Removes the file at `path` (it waits in the stash until the removal is durable).
    pub(crate) fn remove(&mut self, path: &Path) -> io::Result<()> {
        if !path.is_file() {
            // Let std report the error (not found, a directory, ...).
            return fs::remove_file(path);
        }
        let stash = self.stash_path();
        fs::rename(path, &stash)?;
        self.move_log(path, &stash);
        self.ops.push(DirOp::Removed {
            path: path.to_path_buf(),
            stash,
        });
        Ok(())
    }

    /// Renames `from` to `to`, replacing any file at `to`.
    pub(crate) fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        fs::metadata(from)?;
        let replaced = if to.is_file() {
            let stash = self.stash_path();
            fs::rename(to, &stash)?;
            self.move_log(to, &stash);
            Some(stash)
        } else {
            None
        };
        if let Err(e) = fs::rename(from, to) {
            if let Some(stash) = &replaced {
                fs::rename(stash, to)?;
                self.move_log(stash, to);
            }
            return Err(e);
        }
        self.move_log(from, to);
        self.ops.push(DirOp::Renamed {
            from: from.to_path_buf(),
            to: to.to_path_buf(),
            replaced,
        });
        Ok(())
    }

    /// An fsync of directory `dir` at `point`: its operations are durable.
    pub(crate) fn dir_synced(&mut self, dir: &Path, point: SyncPoint) {
        if self.skipped.contains(&point) {
            return;
        }
        let (done, keep): (Vec<DirOp>, Vec<DirOp>) = std::mem::take(&mut self.ops)
            .into_iter()
            .partition(|op| op.dir() == dir);
        self.ops = keep;
        for op in done {
            self.forget(&op);
        }
    }

    /// A durable operation: what it took away is gone for good.
    fn forget(&mut self, op: &DirOp) {
        let gone = match op {
            DirOp::Removed { stash, .. } => Some(stash),
            DirOp::Renamed {
                replaced: Some(stash),
                ..
            } => Some(stash),
            _ => None,
        };
        if let Some(stash) = gone {
            self.files.remove(stash);
            let _ = fs::remove_file(stash);
        }
    }

    /// Takes an operation back.
    fn revert(&mut self, op: &DirOp) -> io::Result<()> {
        let ignore_missing = |r: io::Result<()>| match r {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            r => r,
        };
        match op {
            DirOp::Created(p) => {
                self.files.remove(p);
                ignore_missing(fs::remove_file(p))
            }
            DirOp::MadeDir(p) => {
                self.files.retain(|f, _| !f.starts_with(p));
                ignore_missing(fs::remove_dir_all(p))
            }
            DirOp::Removed { path, stash } => {
                self.move_log(stash, path);
                ignore_missing(fs::rename(stash, path))
            }
            DirOp::Renamed { from, to, replaced } => {
                self.move_log(to, from);
                ignore_missing(fs::rename(to, from))?;
                if let Some(stash) = replaced {
                    self.move_log(stash, to);
                    ignore_missing(fs::rename(stash, to))?;
                }
                Ok(())
            }
        }
    }

    /// What is pending, for reports.
    pub(crate) fn pending(&self) -> Pending {
        let mut writes: Vec<(PathBuf, usize)> = self
            .files
            .iter()
            .filter(|(_, l)| !l.undo.is_empty())
            .map(|(p, l)| (p.clone(), l.undo.len()))
            .collect();
        writes.sort();
        Pending {
            writes,
            dir_ops: self.ops.len(),
        }
    }

    /// Loses power: every file keeps only its durable content (with `rng`: plus a random
    /// prefix of its unsynced writes, the next one possibly torn), every directory only
    /// its durable operations (with `rng`: plus a random prefix of the others). Handles
    /// opened before now are dead from here on.
    pub(crate) fn cut(&mut self, mut rng: Option<&mut Rng>, epoch: u64) -> io::Result<()> {
        let mut paths: Vec<PathBuf> = self.files.keys().cloned().collect();
        paths.sort();
        for path in paths {
            let log = self.files.remove(&path).expect("listed above");
            let n = log.undo.len() as u64;
            if n == 0 {
                continue;
            }
            let keep = rng.as_mut().map_or(0, |r| r.upto(n)) as usize;
            let torn = match (rng.as_mut(), log.undo.get(keep)) {
                (Some(r), Some(u)) => r.upto(u.written),
                _ => 0,
            };
            let f = match fs::OpenOptions::new().write(true).open(&path) {
                Ok(f) => f,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            };
            for (i, u) in log.undo.iter().enumerate().skip(keep).rev() {
                // Keep the first `t` bytes of the first dropped write (a torn write).
                let t = if i == keep { torn } else { 0 };
                if (t as usize) < u.old.len() {
                    f.write_all_at(&u.old[t as usize..], u.offset + t)?;
                }
                let len = if t > 0 {
                    u.old_len.max(u.offset + t)
                } else {
                    u.old_len
                };
                f.set_len(len)?;
            }
        }
        let ops = std::mem::take(&mut self.ops);
        let mut per_dir: HashMap<PathBuf, (u64, u64)> = HashMap::new();
        for op in &ops {
            per_dir.entry(op.dir().to_path_buf()).or_default().0 += 1;
        }
        let mut kept_in_dir: HashMap<PathBuf, u64> = HashMap::new();
        let mut dirs: Vec<&PathBuf> = per_dir.keys().collect();
        dirs.sort();
        for d in dirs {
            let n = per_dir[d].0;
            kept_in_dir.insert(d.clone(), rng.as_mut().map_or(0, |r| r.upto(n)));
        }
        let kept: Vec<bool> = ops
            .iter()
            .map(|op| {
                let seen = &mut per_dir.get_mut(op.dir()).expect("counted").1;
                *seen += 1;
                *seen <= kept_in_dir[op.dir()]
            })
            .collect();
        for (op, keep) in ops.iter().zip(&kept).rev() {
            if !keep {
                self.revert(op)?;
            }
        }
        for (op, keep) in ops.iter().zip(&kept) {
            if *keep {
                self.forget(op);
            }
        }
        self.files.clear();
        self.cut_epoch = epoch;
        Ok(())
    }
}
