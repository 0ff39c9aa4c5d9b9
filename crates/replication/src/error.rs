//! The replication layer's errors.

use std::path::PathBuf;

/// Why replication could not start or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum ReplicationError {
    /// The log failed.
    #[error("gcache: {0}")]
    Gcache(#[from] tutti_gcache::GcacheError),
    /// The database failed.
    #[error("storage: {0}")]
    Storage(#[from] tutti_storage::StorageError),
    /// A file could not be read or written.
    #[error("{path}: {source}", path = .0.display(), source = .1)]
    Io(PathBuf, std::io::Error),
    /// A state file is damaged.
    #[error("{}: damaged ({reason})", file.display())]
    Corrupt {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Raft refused or failed.
    #[error("raft: {0}")]
    Raft(String),
    /// The requested start is not allowed (e.g. bootstrapping a datadir that has a cluster).
    #[error("{0}")]
    Refused(String),
}

impl From<raft::Error> for ReplicationError {
    fn from(e: raft::Error) -> Self {
        ReplicationError::Raft(e.to_string())
    }
}
