//! Galera's replication counters (`wsrep_replicated`, `wsrep_local_cert_failures`, ...).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Monotonic counters shown as status variables; `FLUSH STATUS` does not reset them.
#[derive(Default, Debug)]
pub struct Counters {
    /// Write-sets this node replicated (`wsrep_replicated`).
    pub replicated: AtomicU64,
    /// Their bytes (`wsrep_replicated_bytes`).
    pub replicated_bytes: AtomicU64,
    /// Write-sets received from other nodes (`wsrep_received`).
    pub received: AtomicU64,
    /// Their bytes (`wsrep_received_bytes`).
    pub received_bytes: AtomicU64,
    /// Local transactions committed (`wsrep_local_commits`).
    pub local_commits: AtomicU64,
    /// Local write-sets that failed certification (`wsrep_local_cert_failures`).
    pub local_cert_failures: AtomicU64,
    /// Local transactions aborted by an ordered write-set (`wsrep_local_bf_aborts`).
    pub local_bf_aborts: AtomicU64,
    /// Entries applied by this node's applier.
    pub applied_entries: AtomicU64,
    /// Batches the applier committed (entries / batches = average group size).
    pub applied_batches: AtomicU64,
}

impl Counters {
    /// Adds one to a counter.
    pub fn inc(c: &AtomicU64) {
        c.fetch_add(1, Relaxed);
    }
    /// Adds n to a counter.
    pub fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Relaxed);
    }
    /// Reads a counter.
    pub fn get(c: &AtomicU64) -> u64 {
        c.load(Relaxed)
    }
}
