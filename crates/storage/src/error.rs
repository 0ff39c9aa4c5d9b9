//! Storage errors.

use tutti_wsrep::Seqno;

/// What can go wrong in the storage layer.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// SQLite reported an error.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database file is damaged or unusable.
    #[error("database is damaged: {0}")]
    Corrupt(String),
    /// A certified write-set did not apply cleanly: this node's data differs from the
    /// cluster's. The node must stop applying and be re-provisioned (SST).
    #[error("inconsistency at seqno {seqno}: {detail}")]
    Inconsistent {
        /// The write-set that failed.
        seqno: Seqno,
        /// What conflicted.
        detail: String,
    },
    /// The batch does not continue the applied sequence.
    #[error("out of order apply: applied {applied}, next item {next}")]
    OutOfOrder {
        /// The last applied seqno.
        applied: Seqno,
        /// The first seqno of the batch.
        next: Seqno,
    },
}
