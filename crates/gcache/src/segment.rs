//! Files of the gcache directory: segment files and the `meta` compaction point.
//!
//! A segment is named `<20-digit first index>.seg` and starts with [`record::HEADER`]; the
//! name is the index of its first record, so the directory listing alone orders the log.
//! `meta` holds the compaction point (index, term, crc32 of both), replaced atomically
//! (write a temporary file, fsync it, rename it over, fsync the directory), so a crash
//! leaves either the old point or the new one, never a mix. All writes go through the
//! file layer (`tutti_vfs`), so tests can cut the power under them.

use crate::record;
use crate::GcacheError;
use std::fs;
use std::path::{Path, PathBuf};
use tutti_vfs::{File, SyncPoint};

/// The compaction point's file name.
const META: &str = "meta";

/// One open segment file.
pub(crate) struct Segment {
    /// Index of its first record (from its name).
    pub first: u64,
    /// Its path.
    pub path: PathBuf,
    /// The open file, read and written at explicit offsets.
    pub file: File,
    /// Its length: header plus every complete record.
    pub bytes: u64,
}

/// Maps an I/O error on `path` to [`GcacheError::Io`].
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> GcacheError + '_ {
    move |source| GcacheError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The wall clock in unix milliseconds (0 if the clock is before 1970).
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The path of the segment whose first index is `first`.
pub(crate) fn segment_path(dir: &Path, first: u64) -> PathBuf {
    dir.join(format!("{first:020}.seg"))
}

/// Segment files in `dir` as (first index, path), ordered by first index.
pub(crate) fn list_segments(dir: &Path) -> Result<Vec<(u64, PathBuf)>, GcacheError> {
    let mut out = Vec::new();
    for ent in fs::read_dir(dir).map_err(io(dir))? {
        let path = ent.map_err(io(dir))?.path();
        let first = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".seg"))
            .filter(|n| n.len() == 20 && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u64>().ok());
        if let Some(first) = first {
            out.push((first, path));
        }
    }
    out.sort();
    Ok(out)
}

/// Creates a new segment (replacing any file of that name) holding just the header.
pub(crate) fn create_segment(dir: &Path, first: u64) -> Result<Segment, GcacheError> {
    let path = segment_path(dir, first);
    let file = File::create(&path).map_err(io(&path))?;
    file.write_all_at(&record::HEADER, 0).map_err(io(&path))?;
    Ok(Segment {
        first,
        path,
        file,
        bytes: record::HEADER.len() as u64,
    })
}

/// fsyncs the directory itself, making file creations, renames and removals durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), GcacheError> {
    tutti_vfs::sync_dir(dir).map_err(io(dir))
}

/// Reads the compaction point; (0, 0) when there is no `meta` yet.
pub(crate) fn read_meta(dir: &Path) -> Result<(u64, u64), GcacheError> {
    let path = dir.join(META);
    match fs::read(&path) {
        Ok(b) if b.len() == 20 && crc32fast::hash(&b[..16]).to_le_bytes() == b[16..20] => Ok((
            u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")),
            u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
        )),
        Ok(_) => Err(GcacheError::Corrupt {
            file: path,
            offset: 0,
            reason: "damaged compaction point".into(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((0, 0)),
        Err(e) => Err(io(&path)(e)),
    }
}

/// Replaces the compaction point atomically and durably.
pub(crate) fn write_meta(dir: &Path, point: (u64, u64)) -> Result<(), GcacheError> {
    let mut b = Vec::with_capacity(20);
    b.extend_from_slice(&point.0.to_le_bytes());
    b.extend_from_slice(&point.1.to_le_bytes());
    b.extend_from_slice(&crc32fast::hash(&b).to_le_bytes());
    let path = dir.join(META);
    tutti_vfs::write_atomic(&path, &b, SyncPoint::GcacheMeta).map_err(io(&path))
}
