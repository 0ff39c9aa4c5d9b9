//! tutti's gcache: the replicated log on disk, segmented and checksummed.
//!
//! The log (Raft's entries, each a write-set, a schema change or a membership change) is
//! kept in segment files `<first index>.seg` under one directory, each record length-
//! prefixed and CRC-checked. The compaction point (the index and term just before the
//! first entry held) is in `meta`, written atomically. What a node holds here is what it
//! can give a returning node as incremental state transfer (IST), so how much is kept is
//! decided by policy ([`policy`]); purging drops whole old segments.
//!
//! Invariants: entries are consecutive from `first_index()` to `last_index()` across
//! segments; an append that overlaps the log replaces its suffix (a Raft conflict); a torn
//! record at the very end (a crash during append) is cut off on open, damage anywhere
//! else is an error, never silently skipped. Recent entries are also kept in memory, so
//! Raft's reads of the tail do not touch the disk.

mod error;
pub mod policy;
mod record;

pub use error::GcacheError;

use std::collections::VecDeque;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// What a log entry is, for Raft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EntryKind {
    /// Data (a write-set, a schema change) or an empty leader entry.
    Normal = 0,
    /// A membership change.
    ConfChange = 1,
    /// A joint membership change.
    ConfChangeV2 = 2,
}

/// One entry of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// Its index (the seqno).
    pub index: u64,
    /// The Raft term it was proposed in.
    pub term: u64,
    /// Its kind.
    pub kind: EntryKind,
    /// Its payload.
    pub data: Vec<u8>,
    /// Raft's context bytes.
    pub context: Vec<u8>,
}

/// Settings.
#[derive(Clone, Debug)]
pub struct GcacheOptions {
    /// A new segment file is started once the active one holds this many bytes.
    pub segment_bytes: u64,
    /// fsync on [`Gcache::sync`] (tests may turn it off).
    pub sync: bool,
    /// Bytes of recent entries also kept in memory.
    pub memory_bytes: u64,
}

impl Default for GcacheOptions {
    fn default() -> Self {
        GcacheOptions {
            segment_bytes: 64 << 20,
            sync: true,
            memory_bytes: 32 << 20,
        }
    }
}

/// One segment as the policy sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentInfo {
    /// Its first index.
    pub first: u64,
    /// Its last index (first - 1 when empty).
    pub last: u64,
    /// Its size on disk.
    pub bytes: u64,
    /// When its first entry was appended (unix ms).
    pub oldest_ms: u64,
    /// When its last entry was appended (unix ms).
    pub newest_ms: u64,
}

/// What [`Gcache::open`] found.
#[derive(Clone, Debug, Default)]
pub struct Recovery {
    /// Bytes of a torn tail cut off.
    pub truncated_bytes: u64,
    /// Segment files.
    pub segments: usize,
    /// Entries held.
    pub entries: u64,
}

struct Segment {
    first: u64,
    path: PathBuf,
    file: File,
    bytes: u64,
}

#[derive(Clone, Copy)]
struct Loc {
    segment: usize,
    offset: u64,
    len: u32,
    term: u64,
    appended_ms: u64,
}

/// The log on disk.
pub struct Gcache {
    dir: PathBuf,
    opts: GcacheOptions,
    compacted: (u64, u64),
    /// Segments in order; `Loc::segment` indexes this vector.
    segments: Vec<Segment>,
    /// Where each entry from `first_index()` on lives.
    locs: VecDeque<Loc>,
    /// The newest entries, ending at `last_index()`.
    cache: VecDeque<LogEntry>,
    cache_bytes: u64,
    dir_dirty: bool,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> GcacheError + '_ {
    move |source| GcacheError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

const META: &str = "meta";

impl Gcache {
    /// Opens (or creates) the gcache in `dir`, repairing a torn tail.
    pub fn open(dir: &Path, opts: GcacheOptions) -> Result<(Gcache, Recovery), GcacheError> {
        fs::create_dir_all(dir).map_err(io(dir))?;
        let meta = dir.join(META);
        let compacted = match fs::read(&meta) {
            Ok(b) if b.len() == 20 && crc32fast::hash(&b[..16]).to_le_bytes() == b[16..20] => (
                u64::from_le_bytes(b[0..8].try_into().unwrap()),
                u64::from_le_bytes(b[8..16].try_into().unwrap()),
            ),
            Ok(_) => {
                return Err(GcacheError::Corrupt {
                    file: meta,
                    offset: 0,
                    reason: "damaged compaction point".into(),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (0, 0),
            Err(e) => return Err(io(&meta)(e)),
        };
        let mut names: Vec<(u64, PathBuf)> = Vec::new();
        for ent in fs::read_dir(dir).map_err(io(dir))? {
            let p = ent.map_err(io(dir))?.path();
            let first = p
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".seg"))
                .and_then(|n| n.parse::<u64>().ok());
            if let Some(first) = first {
                names.push((first, p));
            }
        }
        names.sort();
        let mut g = Gcache {
            dir: dir.to_path_buf(),
            opts,
            compacted,
            segments: Vec::new(),
            locs: VecDeque::new(),
            cache: VecDeque::new(),
            cache_bytes: 0,
            dir_dirty: false,
        };
        let mut rec = Recovery::default();
        let count = names.len();
        for (i, (first, path)) in names.into_iter().enumerate() {
            rec.truncated_bytes += g.load_segment(first, path, i + 1 == count)?;
        }
        // Segments wholly at or below the compaction point (a purge interrupted by a
        // crash after its meta write) are dropped now.
        while g.segments.len() > 1 && g.segment_last(0) <= g.compacted.0 {
            g.drop_first_segment()?;
        }
        rec.segments = g.segments.len();
        rec.entries = g.locs.len() as u64;
        Ok((g, rec))
    }

    fn load_segment(&mut self, first: u64, path: PathBuf, last: bool) -> Result<u64, GcacheError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        let mut buf = Vec::new();
        file.read_to_end(&mut buf).map_err(io(&path))?;
        let corrupt = |offset: usize, reason: &str| GcacheError::Corrupt {
            file: path.clone(),
            offset: offset as u64,
            reason: reason.to_string(),
        };
        if buf.len() < record::HEADER.len() || buf[..8] != record::HEADER {
            if last && buf.len() < record::HEADER.len() {
                // Created but never written: a crash right after rolling.
                drop(file);
                fs::remove_file(&path).map_err(io(&path))?;
                return Ok(buf.len() as u64);
            }
            return Err(corrupt(0, "bad segment header"));
        }
        let seg = self.segments.len();
        let mut expected = first;
        if !self.locs.is_empty() {
            if first != self.last_index() + 1 {
                return Err(corrupt(0, "gap between segments"));
            }
        } else if first > self.compacted.0 + 1 && self.compacted.0 > 0 {
            return Err(corrupt(
                0,
                "first segment starts after the compaction point",
            ));
        }
        let mut off = record::HEADER.len();
        let mut cut = None;
        while off < buf.len() {
            let step = record::prefix(&buf[off..]).and_then(|(len, crc)| {
                let end = off + record::PREFIX + len;
                if end > buf.len() {
                    return Err("torn record");
                }
                record::decode(&buf[off + record::PREFIX..end], crc).map(|d| (d, end))
            });
            match step {
                Ok((d, end)) => {
                    if d.entry.index != expected {
                        return Err(corrupt(off, "entry index out of sequence"));
                    }
                    expected += 1;
                    if d.entry.index > self.compacted.0 {
                        if self.locs.is_empty() && d.entry.index != self.compacted.0 + 1 {
                            return Err(corrupt(off, "log does not start after compaction point"));
                        }
                        self.locs.push_back(Loc {
                            segment: seg,
                            offset: off as u64,
                            len: (end - off) as u32,
                            term: d.entry.term,
                            appended_ms: d.appended_ms,
                        });
                        self.cache_push(d.entry);
                    }
                    off = end;
                }
                Err(reason) if last => {
                    tracing::warn!(
                        "gcache: cutting a torn tail of {} bytes from {} ({reason})",
                        buf.len() - off,
                        path.display()
                    );
                    cut = Some(off);
                    break;
                }
                Err(reason) => return Err(corrupt(off, reason)),
            }
        }
        let mut truncated = 0;
        if let Some(at) = cut {
            file.set_len(at as u64).map_err(io(&path))?;
            file.sync_all().map_err(io(&path))?;
            truncated = (buf.len() - at) as u64;
        }
        self.segments.push(Segment {
            first,
            path,
            file,
            bytes: cut.unwrap_or(buf.len()) as u64,
        });
        Ok(truncated)
    }

    /// (index, term) just before the first entry held.
    pub fn compacted(&self) -> (u64, u64) {
        self.compacted
    }

    /// The first index held (one past the compaction point).
    pub fn first_index(&self) -> u64 {
        self.compacted.0 + 1
    }

    /// The last index held (the compaction point when empty).
    pub fn last_index(&self) -> u64 {
        self.compacted.0 + self.locs.len() as u64
    }

    fn loc(&self, index: u64) -> Result<&Loc, GcacheError> {
        if index <= self.compacted.0 {
            return Err(GcacheError::Compacted {
                index,
                first: self.first_index(),
            });
        }
        self.locs
            .get((index - self.compacted.0 - 1) as usize)
            .ok_or(GcacheError::Unavailable {
                index,
                last: self.last_index(),
            })
    }

    /// The term of an entry (also of the compaction point).
    pub fn term(&self, index: u64) -> Result<u64, GcacheError> {
        if index == self.compacted.0 {
            return Ok(self.compacted.1);
        }
        self.loc(index).map(|l| l.term)
    }

    /// When an entry was appended (unix ms).
    pub fn appended_at(&self, index: u64) -> Option<u64> {
        self.loc(index).ok().map(|l| l.appended_ms)
    }

    /// Entries `[lo, hi)`, stopping after `max_bytes` (at least one entry).
    pub fn entries(
        &self,
        lo: u64,
        hi: u64,
        max_bytes: Option<u64>,
    ) -> Result<Vec<LogEntry>, GcacheError> {
        if lo <= self.compacted.0 {
            return Err(GcacheError::Compacted {
                index: lo,
                first: self.first_index(),
            });
        }
        if hi > self.last_index() + 1 {
            return Err(GcacheError::Unavailable {
                index: hi - 1,
                last: self.last_index(),
            });
        }
        let max = max_bytes.unwrap_or(u64::MAX);
        let mut out = Vec::new();
        let mut size = 0u64;
        let cache_first = self.last_index() + 1 - self.cache.len() as u64;
        for index in lo..hi {
            let e = if index >= cache_first {
                self.cache[(index - cache_first) as usize].clone()
            } else {
                self.read(index)?
            };
            size += (e.data.len() + e.context.len() + 24) as u64;
            if !out.is_empty() && size > max {
                break;
            }
            out.push(e);
        }
        Ok(out)
    }

    fn read(&self, index: u64) -> Result<LogEntry, GcacheError> {
        let l = *self.loc(index)?;
        let seg = &self.segments[l.segment];
        let mut buf = vec![0u8; l.len as usize];
        seg.file
            .read_exact_at(&mut buf, l.offset)
            .map_err(io(&seg.path))?;
        let corrupt = |reason: &str| GcacheError::Corrupt {
            file: seg.path.clone(),
            offset: l.offset,
            reason: reason.to_string(),
        };
        let (_, crc) = record::prefix(&buf).map_err(corrupt)?;
        let d = record::decode(&buf[record::PREFIX..], crc).map_err(corrupt)?;
        Ok(d.entry)
    }

    fn cache_push(&mut self, e: LogEntry) {
        self.cache_bytes += (e.data.len() + e.context.len()) as u64;
        self.cache.push_back(e);
        while self.cache_bytes > self.opts.memory_bytes && self.cache.len() > 1 {
            if let Some(old) = self.cache.pop_front() {
                self.cache_bytes -= (old.data.len() + old.context.len()) as u64;
            }
        }
    }

    /// Appends consecutive entries; an overlap replaces the log from its first index.
    pub fn append(&mut self, entries: &[LogEntry]) -> Result<(), GcacheError> {
        let Some(first) = entries.first() else {
            return Ok(());
        };
        if first.index <= self.compacted.0 || first.index > self.last_index() + 1 {
            return Err(GcacheError::Gap {
                index: first.index,
                first: self.first_index(),
                last: self.last_index(),
            });
        }
        if first.index <= self.last_index() {
            self.truncate_from(first.index)?;
        }
        let ms = now_ms();
        let mut buf = Vec::new();
        for e in entries {
            if self.segments.is_empty()
                || self
                    .segments
                    .last()
                    .is_some_and(|s| s.bytes >= self.opts.segment_bytes)
            {
                self.flush(&mut buf)?;
                self.roll(e.index)?;
            }
            let seg = self.segments.len() - 1;
            let offset = self.segments[seg].bytes + buf.len() as u64;
            let before = buf.len();
            record::encode(e, ms, &mut buf);
            self.locs.push_back(Loc {
                segment: seg,
                offset,
                len: (buf.len() - before) as u32,
                term: e.term,
                appended_ms: ms,
            });
            self.cache_push(e.clone());
            if self.segments[seg].bytes + buf.len() as u64 >= self.opts.segment_bytes {
                self.flush(&mut buf)?;
            }
        }
        self.flush(&mut buf)
    }

    fn flush(&mut self, buf: &mut Vec<u8>) -> Result<(), GcacheError> {
        if buf.is_empty() {
            return Ok(());
        }
        let seg = self.segments.last_mut().expect("a segment to write");
        seg.file
            .write_all_at(buf, seg.bytes)
            .map_err(io(&seg.path))?;
        seg.bytes += buf.len() as u64;
        buf.clear();
        Ok(())
    }

    fn roll(&mut self, first: u64) -> Result<(), GcacheError> {
        if let Some(s) = self.segments.last() {
            if self.opts.sync {
                s.file.sync_data().map_err(io(&s.path))?;
            }
        }
        let path = self.dir.join(format!("{first:020}.seg"));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(io(&path))?;
        file.write_all(&record::HEADER).map_err(io(&path))?;
        self.segments.push(Segment {
            first,
            path,
            file,
            bytes: record::HEADER.len() as u64,
        });
        self.dir_dirty = true;
        Ok(())
    }

    fn truncate_from(&mut self, index: u64) -> Result<(), GcacheError> {
        let l = *self.loc(index)?;
        while self.segments.len() > l.segment + 1 {
            let s = self.segments.pop().expect("segment");
            fs::remove_file(&s.path).map_err(io(&s.path))?;
            self.dir_dirty = true;
        }
        let keep = (index - self.compacted.0 - 1) as usize;
        self.locs.truncate(keep);
        let last = self.last_index();
        while let Some(e) = self.cache.back() {
            if e.index > last {
                let e = self.cache.pop_back().expect("entry");
                self.cache_bytes -= (e.data.len() + e.context.len()) as u64;
            } else {
                break;
            }
        }
        let seg = self.segments.last_mut().expect("segment");
        if seg.first == index {
            let s = self.segments.pop().expect("segment");
            fs::remove_file(&s.path).map_err(io(&s.path))?;
            self.dir_dirty = true;
        } else {
            seg.file.set_len(l.offset).map_err(io(&seg.path))?;
            seg.bytes = l.offset;
        }
        Ok(())
    }

    /// Makes everything appended durable.
    pub fn sync(&mut self) -> Result<(), GcacheError> {
        if !self.opts.sync {
            return Ok(());
        }
        if let Some(s) = self.segments.last() {
            s.file.sync_data().map_err(io(&s.path))?;
        }
        if self.dir_dirty {
            File::open(&self.dir)
                .and_then(|d| d.sync_all())
                .map_err(io(&self.dir))?;
            self.dir_dirty = false;
        }
        Ok(())
    }

    fn segment_last(&self, i: usize) -> u64 {
        match self.segments.get(i + 1) {
            Some(next) => next.first - 1,
            None => self.last_index(),
        }
    }

    fn write_meta(&self) -> Result<(), GcacheError> {
        let mut b = Vec::with_capacity(20);
        b.extend_from_slice(&self.compacted.0.to_le_bytes());
        b.extend_from_slice(&self.compacted.1.to_le_bytes());
        b.extend_from_slice(&crc32fast::hash(&b).to_le_bytes());
        let tmp = self.dir.join("meta.tmp");
        let path = self.dir.join(META);
        let mut f = File::create(&tmp).map_err(io(&tmp))?;
        f.write_all(&b).map_err(io(&tmp))?;
        f.sync_all().map_err(io(&tmp))?;
        fs::rename(&tmp, &path).map_err(io(&path))?;
        File::open(&self.dir)
            .and_then(|d| d.sync_all())
            .map_err(io(&self.dir))
    }

    fn drop_first_segment(&mut self) -> Result<(), GcacheError> {
        let s = self.segments.remove(0);
        let n = self.locs.iter().take_while(|l| l.segment == 0).count();
        self.locs.drain(..n);
        for l in self.locs.iter_mut() {
            l.segment -= 1;
        }
        fs::remove_file(&s.path).map_err(io(&s.path))?;
        Ok(())
    }

    /// Removes whole segments whose entries are all at or below `index`, never the newest
    /// one; returns the new first index.
    pub fn purge_through(&mut self, index: u64) -> Result<u64, GcacheError> {
        let mut n = 0;
        while n + 1 < self.segments.len() && self.segment_last(n) <= index {
            n += 1;
        }
        if n == 0 {
            return Ok(self.first_index());
        }
        let last = self.segment_last(n - 1);
        self.compacted = (last, self.term(last)?);
        self.write_meta()?;
        for _ in 0..n {
            self.drop_first_segment()?;
        }
        // The purged entries are no longer in the log; keep the cache aligned.
        let first = self.first_index();
        while self.cache.front().is_some_and(|e| e.index < first) {
            let e = self.cache.pop_front().expect("entry");
            self.cache_bytes -= (e.data.len() + e.context.len()) as u64;
        }
        Ok(first)
    }

    /// Drops the whole log: it now starts after `index` (whose term is `term`).
    pub fn reset_to(&mut self, index: u64, term: u64) -> Result<(), GcacheError> {
        self.compacted = (index, term);
        self.write_meta()?;
        for s in self.segments.drain(..) {
            fs::remove_file(&s.path).map_err(io(&s.path))?;
        }
        self.locs.clear();
        self.cache.clear();
        self.cache_bytes = 0;
        Ok(())
    }

    /// The segments, oldest first.
    pub fn segments(&self) -> Vec<SegmentInfo> {
        (0..self.segments.len())
            .map(|i| {
                let s = &self.segments[i];
                let last = self.segment_last(i);
                let ms = |idx: u64| self.appended_at(idx).unwrap_or(0);
                SegmentInfo {
                    first: s.first,
                    last,
                    bytes: s.bytes,
                    oldest_ms: ms(s.first.max(self.first_index())),
                    newest_ms: ms(last),
                }
            })
            .collect()
    }

    /// Bytes on disk.
    pub fn bytes(&self) -> u64 {
        self.segments.iter().map(|s| s.bytes).sum()
    }
}

#[cfg(test)]
mod tests;
