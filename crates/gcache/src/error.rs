//! The gcache's errors: one enum for the crate, so callers can tell what Raft's storage
//! contract needs apart (compacted, unavailable) from I/O failure and corruption.

use std::path::PathBuf;

/// Why the gcache could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum GcacheError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Damage in the middle of the log (not a torn tail): the history cannot be trusted.
    #[error("{}: corrupt at offset {offset}: {reason}", file.display())]
    Corrupt {
        /// The segment file.
        file: PathBuf,
        /// Where.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The entry was purged (it is at or below the compaction point).
    #[error("entry {index} was purged (log starts at {first})")]
    Compacted {
        /// The entry asked for.
        index: u64,
        /// The first entry still held.
        first: u64,
    },
    /// The entry is beyond the end of the log.
    #[error("entry {index} is not in the log yet (last is {last})")]
    Unavailable {
        /// The entry asked for.
        index: u64,
        /// The last entry held.
        last: u64,
    },
    /// Entries to append do not continue the log.
    #[error("cannot append entry {index}: the log holds {first}..={last}")]
    Gap {
        /// The first entry given.
        index: u64,
        /// The first entry held.
        first: u64,
        /// The last entry held.
        last: u64,
    },
    /// Entries to append do not follow one another.
    #[error("entries to append are not consecutive: got {index}, expected {expected}")]
    NotConsecutive {
        /// The index found.
        index: u64,
        /// The index that should have been there.
        expected: u64,
    },
    /// An entry is too large for one record.
    #[error("entry {index} is too large for the log ({bytes} bytes)")]
    TooLarge {
        /// The entry.
        index: u64,
        /// Its record body size.
        bytes: u64,
    },
}
