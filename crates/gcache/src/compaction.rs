//! Moving the compaction point: purging old segments and resetting after a snapshot.
//!
//! Both change `meta` and remove segment files, in an order chosen so a crash at any step
//! leaves a log that opens consistently. A purge writes the new point first, then removes
//! files: segments left wholly at or below the point are dead and removed on open. A
//! reset removes files first (newest first), then writes the point: a crash leaves a
//! prefix of the old log under the old point, never stale entries after the new one.

use crate::segment::{self, io};
use crate::{Gcache, GcacheError};

impl Gcache {
    /// Removes whole segments whose entries are all at or below `index`, never the newest
    /// one; moves the compaction point to the last entry removed; returns the new first
    /// index.
    pub fn purge_through(&mut self, index: u64) -> Result<u64, GcacheError> {
        let mut n = 0;
        while n + 1 < self.segments.len() && self.segment_last(n) <= index {
            n += 1;
        }
        if n == 0 {
            return Ok(self.first_index());
        }
        let last = self.segment_last(n - 1);
        let point = (last, self.term(last)?);
        // The new point is durable before any file goes: a crash in between leaves dead
        // segments that open() removes.
        segment::write_meta(&self.dir, point)?;
        self.locs.drain(..(last - self.compacted.0) as usize);
        self.compacted = point;
        for s in self.segments.drain(..n) {
            tutti_vfs::remove_file(&s.path).map_err(io(&s.path))?;
        }
        self.seg_base += n;
        self.dir_dirty = true;
        let first = self.first_index();
        while self.cache.front().is_some_and(|e| e.index < first) {
            self.cache_pop_front();
        }
        tracing::debug!(through = last, first, "gcache purged");
        Ok(first)
    }

    /// Drops the whole log, which now starts after `index` (whose term is `term`); used
    /// after a snapshot is installed. Persists the new compaction point.
    pub fn reset_to(&mut self, index: u64, term: u64) -> Result<(), GcacheError> {
        // Files go newest first and before the new point is written: a crash in between
        // leaves a prefix of the old log (or none) under the old point, never stale
        // entries after the new one.
        while let Some(s) = self.segments.pop() {
            tutti_vfs::remove_file(&s.path).map_err(io(&s.path))?;
        }
        self.seg_base = 0;
        self.locs.clear();
        self.cache.clear();
        self.cache_bytes = 0;
        segment::sync_dir(&self.dir)?;
        segment::write_meta(&self.dir, (index, term))?;
        self.compacted = (index, term);
        self.dir_dirty = false;
        Ok(())
    }
}
