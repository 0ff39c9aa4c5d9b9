//! Opening the gcache: scanning the segments and repairing a crash.
//!
//! Every segment is read in order and every record checked, rebuilding the in-memory
//! index. The only damage repaired is at the very end of the newest segment (a torn or
//! partly written record from a crash during append, which was never synced and so never
//! acknowledged): the file is cut there. Damage anywhere else, a gap or disorder between
//! segments, or a bad header is [`GcacheError::Corrupt`]: the middle of the log is never
//! silently dropped. Segments wholly at or below the compaction point (left by a crash in
//! the middle of a purge) are removed; entries at or below it in the first kept segment
//! are skipped.

use crate::segment::{self, io, Segment};
use crate::{record, Gcache, GcacheError, GcacheOptions, Loc, Recovery};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use tutti_vfs::{File, SyncPoint};

impl Gcache {
    /// Opens (creating `dir` if missing) the gcache, repairing a torn tail.
    pub fn open(dir: &Path, opts: GcacheOptions) -> Result<(Gcache, Recovery), GcacheError> {
        tutti_vfs::create_dir_all(dir).map_err(io(dir))?;
        let compacted = segment::read_meta(dir)?;
        let names = segment::list_segments(dir)?;
        let mut g = Gcache {
            dir: dir.to_path_buf(),
            opts,
            compacted,
            seg_base: 0,
            segments: Vec::new(),
            locs: VecDeque::new(),
            cache: VecDeque::new(),
            cache_bytes: 0,
            dir_dirty: false,
        };
        let mut rec = Recovery::default();
        let count = names.len();
        // The index the next segment must start at, once one has been read.
        let mut next: Option<u64> = None;
        for (i, (first, path)) in names.into_iter().enumerate() {
            let last_file = i + 1 == count;
            let corrupt = |reason: &str| GcacheError::Corrupt {
                file: path.clone(),
                offset: 0,
                reason: reason.to_string(),
            };
            match next {
                Some(n) if n != first => return Err(corrupt("gap between segments")),
                None if first > compacted.0 + 1 => {
                    return Err(corrupt("log starts after the compaction point"))
                }
                _ => {}
            }
            let (end, cut) = g.load_segment(first, path, last_file)?;
            rec.truncated_bytes += cut;
            next = Some(end);
        }
        // Segments wholly at or below the compaction point (a purge interrupted by a
        // crash after its meta write) are dead.
        while !g.segments.is_empty() && g.segment_last(0) <= g.compacted.0 {
            let s = g.segments.remove(0);
            g.seg_base += 1;
            tutti_vfs::remove_file(&s.path).map_err(io(&s.path))?;
            g.dir_dirty = true;
        }
        rec.segments = g.segments.len();
        rec.entries = g.locs.len() as u64;
        tracing::debug!(
            dir = %dir.display(),
            first = g.first_index(),
            last = g.last_index(),
            segments = rec.segments,
            "gcache opened"
        );
        Ok((g, rec))
    }

    /// Reads one segment into the index; returns (index after its last record, bytes cut
    /// from a torn tail). Only the `last` segment may have its tail cut.
    fn load_segment(
        &mut self,
        first: u64,
        path: PathBuf,
        last: bool,
    ) -> Result<(u64, u64), GcacheError> {
        let file = File::open(&path).map_err(io(&path))?;
        let buf = file.read_all().map_err(io(&path))?;
        let corrupt = |offset: usize, reason: &str| GcacheError::Corrupt {
            file: path.clone(),
            offset: offset as u64,
            reason: reason.to_string(),
        };
        if buf.len() < record::HEADER.len() && last {
            // Created but its header never fully written: a crash right after a roll.
            tracing::warn!(
                "gcache: removing segment {} with a torn header",
                path.display()
            );
            drop(file);
            tutti_vfs::remove_file(&path).map_err(io(&path))?;
            self.dir_dirty = true;
            return Ok((first, buf.len() as u64));
        }
        if buf.len() < record::HEADER.len() || buf[..8] != record::HEADER {
            return Err(corrupt(0, "bad segment header"));
        }
        let seg = self.seg_base + self.segments.len();
        let mut expected = first;
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
                        self.locs.push_back(Loc {
                            seg,
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
                        "gcache: cutting a torn tail of {} bytes at offset {off} of {} ({reason})",
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
            file.sync(SyncPoint::GcacheAppend, false)
                .map_err(io(&path))?;
            truncated = (buf.len() - at) as u64;
        }
        self.segments.push(Segment {
            first,
            path,
            file,
            bytes: cut.unwrap_or(buf.len()) as u64,
        });
        Ok((expected, truncated))
    }
}
