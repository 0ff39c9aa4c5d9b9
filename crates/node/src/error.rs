//! Node errors: each is one clear line for the operator.

use std::path::PathBuf;

/// Why the node cannot start or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// The configuration is invalid.
    #[error("configuration: {0}")]
    Config(String),
    /// The datadir cannot be used.
    #[error("datadir {path}: {reason}")]
    Datadir {
        /// The datadir.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A listening address cannot be bound.
    #[error("cannot listen on {addr} for {what}: {reason}")]
    Listen {
        /// The address.
        addr: String,
        /// Which service.
        what: &'static str,
        /// The OS error.
        reason: String,
    },
    /// The database could not be opened.
    #[error("storage: {0}")]
    Storage(#[from] tutti_storage::StorageError),
    /// Replication could not start.
    #[error("{0}")]
    Replication(#[from] tutti_replication::ReplicationError),
}
