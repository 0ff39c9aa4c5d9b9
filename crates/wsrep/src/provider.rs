//! The provider interface: what the DBMS side (executor) asks of replication.
//!
//! As in Galera's wsrep API, the executor runs transactions and hands their write-sets to a
//! *provider*, which orders, certifies and applies them and reports the node's state. The
//! executor knows nothing of Raft; the replication layer knows nothing of SQL sessions.

use std::time::Duration;

use crate::{NodeId, Seqno, WriteSet};

/// Why a schema change failed; identical on every node (it ran at the same point).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DdlFailure {
    /// `CREATE DATABASE` of an existing database.
    #[error("Can't create database '{0}'; database exists")]
    DatabaseExists(String),
    /// The database does not exist.
    #[error("Unknown database '{0}'")]
    UnknownDatabase(String),
    /// `DROP DATABASE` of a missing database.
    #[error("Can't drop database '{0}'; database doesn't exist")]
    DropMissingDatabase(String),
    /// SQLite refused a statement (extended result code and message).
    #[error("{message}")]
    Sqlite {
        /// SQLite's extended result code.
        code: i32,
        /// SQLite's message.
        message: String,
    },
}

/// Why a write-set did not commit (or why its fate is unknown).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplicateError {
    /// Certification failed: another write-set changed the same rows first.
    #[error("certification failed")]
    CertificationFailed,
    /// The schema change failed on every node.
    #[error("{0}")]
    Ddl(DdlFailure),
    /// The node cannot commit now (not in a primary component, or not synced).
    #[error("{0}")]
    NotReady(String),
    /// The write-set may or may not have committed: its fate was not known in time.
    #[error("commit outcome unknown: {0}")]
    Unknown(String),
    /// The node is shutting down.
    #[error("server shutdown in progress")]
    Shutdown,
}

/// Observes ordered write-sets just before they are applied locally.
///
/// The executor uses it for brute-force aborts: a local transaction holding rows that an
/// ordered write-set changes can no longer commit, so it is aborted at once and its row
/// locks released, as Galera's BF abort does.
pub trait ApplyObserver: Send + Sync {
    /// Called with the write-sets of one batch (with their seqnos), before the batch is
    /// applied; returns how many local transactions were aborted (`wsrep_local_bf_aborts`).
    fn before_apply(&self, batch: &[(Seqno, &WriteSet)]) -> usize;
}

/// A write-set applied on this node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replicated {
    /// Its place in the total order.
    pub seqno: Seqno,
    /// Rows a schema change copied (an ALTER TABLE that rebuilds the table reports them
    /// as its affected rows, as MariaDB's copy does); 0 for row changes.
    pub rows: u64,
}

/// What replication offers the executor. All calls may block; the executor runs on
/// blocking threads.
pub trait Provider: Send + Sync {
    /// This node's id (the origin of its write-sets).
    fn node_id(&self) -> NodeId;
    /// Fails with the reason when the node may not serve queries (non-Primary, joining).
    fn check_ready(&self) -> Result<(), ReplicateError>;
    /// Orders, certifies and applies a write-set; returns its seqno once it is applied on
    /// this node.
    fn replicate(&self, ws: WriteSet) -> Result<Replicated, ReplicateError>;
    /// Causal-read barrier: waits until this node has applied everything committed in the
    /// cluster before the call (`wsrep_sync_wait`).
    fn sync_wait(&self, timeout: Duration) -> Result<(), ReplicateError>;
    /// Status variables (`wsrep_*`), in display order.
    fn status(&self) -> Vec<(String, String)>;
    /// `@@wsrep_provider_options`: `key = value; ...`.
    fn options(&self) -> String;
    /// Sets one provider option (`SET GLOBAL wsrep_provider_options='k=v'`, `wsrep_desync`).
    fn set_option(&self, key: &str, value: &str) -> Result<(), String>;
    /// (`auto_increment_offset`, `auto_increment_increment`) for this node now.
    fn auto_increment(&self) -> (u64, u64);
    /// Registers the observer of ordered write-sets (called once at startup).
    fn set_observer(&self, observer: std::sync::Arc<dyn ApplyObserver>);
}
