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

mod compaction;
mod error;
pub mod policy;
mod record;
mod recovery;
mod segment;

pub use error::GcacheError;

use segment::{io, Segment};
use std::collections::VecDeque;
use std::path::PathBuf;
use tutti_vfs::SyncPoint;

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

/// Where one entry lives, and what reads need without touching the file.
#[derive(Clone, Copy)]
struct Loc {
    /// Segment number: `segments[seg - seg_base]`.
    seg: usize,
    /// Offset of its record in the segment file.
    offset: u64,
    /// Length of its record (prefix included).
    len: u32,
    /// Its term.
    term: u64,
    /// When it was appended (unix ms).
    appended_ms: u64,
}

/// The log on disk: segment files, an index of every entry, and a cache of the newest.
pub struct Gcache {
    dir: PathBuf,
    opts: GcacheOptions,
    /// (index, term) just before the first entry held.
    compacted: (u64, u64),
    /// The number of `segments[0]`; segments are numbered in creation order so purging
    /// the oldest does not renumber the index.
    seg_base: usize,
    /// Segments, oldest first; the last one is the active one appended to.
    segments: Vec<Segment>,
    /// Where each entry from `first_index()` to `last_index()` lives.
    locs: VecDeque<Loc>,
    /// The newest entries, ending at `last_index()`, contiguous.
    cache: VecDeque<LogEntry>,
    /// Payload bytes in `cache`.
    cache_bytes: u64,
    /// A segment file was created or removed since the last directory fsync.
    dir_dirty: bool,
}

/// Bytes an entry counts for against `max_bytes` in [`Gcache::entries`].
fn entry_size(e: &LogEntry) -> u64 {
    (e.data.len() + e.context.len() + 24) as u64
}

impl Gcache {
    /// (index, term) of the point just before the first entry held; (0, 0) initially.
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

    fn segment(&self, seg: usize) -> &Segment {
        &self.segments[seg - self.seg_base]
    }

    /// The term of an entry, or of the compaction point.
    pub fn term(&self, index: u64) -> Result<u64, GcacheError> {
        if index == self.compacted.0 {
            return Ok(self.compacted.1);
        }
        self.loc(index).map(|l| l.term)
    }

    /// When an entry was appended (unix ms), if it is held.
    pub fn appended_at(&self, index: u64) -> Option<u64> {
        self.loc(index).ok().map(|l| l.appended_ms)
    }

    /// Entries `[lo, hi)`, stopping before `max_bytes` is exceeded (at least one entry).
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
            size = size.saturating_add(entry_size(&e));
            if !out.is_empty() && size > max {
                break;
            }
            out.push(e);
        }
        Ok(out)
    }

    /// Reads one entry from its segment file, checking it again.
    fn read(&self, index: u64) -> Result<LogEntry, GcacheError> {
        let l = *self.loc(index)?;
        let seg = self.segment(l.seg);
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
        if d.entry.index != index {
            return Err(corrupt("record holds another index"));
        }
        Ok(d.entry)
    }

    fn cache_push(&mut self, e: LogEntry) {
        self.cache_bytes += (e.data.len() + e.context.len()) as u64;
        self.cache.push_back(e);
        while self.cache_bytes > self.opts.memory_bytes && self.cache.len() > 1 {
            self.cache_pop_front();
        }
    }

    fn cache_pop_front(&mut self) {
        if let Some(e) = self.cache.pop_front() {
            self.cache_bytes -= (e.data.len() + e.context.len()) as u64;
        }
    }

    /// Appends consecutive entries; if they overlap the log, its suffix from the first of
    /// them is replaced (a Raft conflict). Durable only after [`Gcache::sync`].
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
        for (k, e) in entries.iter().enumerate() {
            if e.index != first.index + k as u64 {
                return Err(GcacheError::NotConsecutive {
                    index: e.index,
                    expected: first.index + k as u64,
                });
            }
            if record::body_len(e) > record::MAX_BODY {
                return Err(GcacheError::TooLarge {
                    index: e.index,
                    bytes: record::body_len(e) as u64,
                });
            }
        }
        if first.index <= self.last_index() {
            self.truncate_from(first.index)?;
        }
        let res = self.write_entries(entries);
        if res.is_err() && self.last_index() >= first.index {
            // Leave the log as it was before this call (as far as the disk lets us).
            if let Err(e) = self.truncate_from(first.index) {
                tracing::error!("gcache: rolling back a failed append: {e}");
            }
        }
        res
    }

    fn write_entries(&mut self, entries: &[LogEntry]) -> Result<(), GcacheError> {
        let ms = segment::now_ms();
        let mut buf = Vec::new();
        for e in entries {
            let full = self
                .segments
                .last()
                .is_none_or(|s| s.bytes >= self.opts.segment_bytes);
            if full {
                self.flush(&mut buf)?;
                self.roll(e.index)?;
            }
            let seg = self.segments.len() - 1;
            let offset = self.segments[seg].bytes + buf.len() as u64;
            let before = buf.len();
            record::encode(e, ms, &mut buf);
            self.locs.push_back(Loc {
                seg: self.seg_base + seg,
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

    /// Writes `buf` at the end of the active segment.
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

    /// Starts a new active segment whose first entry is `first`. The previous one is
    /// synced first, since [`Gcache::sync`] only syncs the active segment.
    fn roll(&mut self, first: u64) -> Result<(), GcacheError> {
        if let Some(s) = self.segments.last() {
            if self.opts.sync {
                s.file
                    .sync(SyncPoint::GcacheAppend, true)
                    .map_err(io(&s.path))?;
            }
        }
        self.segments
            .push(segment::create_segment(&self.dir, first)?);
        self.dir_dirty = true;
        Ok(())
    }

    /// Removes entries from `index` on, in memory and on disk. Later segment files are
    /// removed (and that made durable) before the one holding `index` is cut, so a crash
    /// never leaves a cut segment followed by stale ones (a gap).
    fn truncate_from(&mut self, index: u64) -> Result<(), GcacheError> {
        let l = *self.loc(index)?;
        let keep = (index - self.compacted.0 - 1) as usize;
        self.locs.truncate(keep);
        while self.cache.back().is_some_and(|e| e.index >= index) {
            let e = self.cache.pop_back().expect("entry");
            self.cache_bytes -= (e.data.len() + e.context.len()) as u64;
        }
        let mut removed = false;
        while self.seg_base + self.segments.len() > l.seg + 1
            || self.segments.last().is_some_and(|s| s.first == index)
        {
            let s = self.segments.pop().expect("segment");
            tutti_vfs::remove_file(&s.path).map_err(io(&s.path))?;
            removed = true;
        }
        if removed {
            self.dir_dirty = true;
            if self.opts.sync {
                segment::sync_dir(&self.dir)?;
                self.dir_dirty = false;
            }
        }
        if self.seg_base + self.segments.len() == l.seg + 1 {
            let seg = self.segments.last_mut().expect("segment");
            if seg.bytes > l.offset {
                seg.file.set_len(l.offset).map_err(io(&seg.path))?;
                seg.bytes = l.offset;
            }
        }
        Ok(())
    }

    /// Makes everything appended durable: fsyncs the active segment, and the directory
    /// when segment files were created or removed.
    pub fn sync(&mut self) -> Result<(), GcacheError> {
        if !self.opts.sync {
            return Ok(());
        }
        if let Some(s) = self.segments.last() {
            s.file
                .sync(SyncPoint::GcacheAppend, true)
                .map_err(io(&s.path))?;
        }
        if self.dir_dirty {
            segment::sync_dir(&self.dir)?;
            self.dir_dirty = false;
        }
        Ok(())
    }

    /// The last index of `segments[i]` (its first - 1 when empty).
    fn segment_last(&self, i: usize) -> u64 {
        match self.segments.get(i + 1) {
            Some(next) => next.first - 1,
            None => self.last_index(),
        }
    }

    /// The segments, oldest first.
    pub fn segments(&self) -> Vec<SegmentInfo> {
        let ms = |idx: u64| self.appended_at(idx).unwrap_or(0);
        (0..self.segments.len())
            .map(|i| {
                let s = &self.segments[i];
                let last = self.segment_last(i);
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

    /// Total bytes of the segment files.
    pub fn bytes(&self) -> u64 {
        self.segments.iter().map(|s| s.bytes).sum()
    }
}

#[cfg(test)]
mod tests;
