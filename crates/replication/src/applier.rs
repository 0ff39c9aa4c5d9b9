//! The applier: applies committed entries in order, many per SQLite transaction.
//!
//! Committed entries arrive on a channel in seqno order. The applier takes everything that
//! is waiting (up to a batch limit), lets the executor BF-abort local transactions the
//! batch conflicts with, applies the batch in one transaction, and then wakes the local
//! transactions whose write-sets were in it. Group apply is what lets a node that fell
//! behind catch up far faster than the cluster writes.
//!
//! A write-set that does not apply means this node's data differs from the cluster's: the
//! applier stops, the node reports itself inconsistent, and nothing more is applied.

use crossbeam_channel::{Receiver, Sender};
use parking_lot::{Condvar, Mutex, RwLock};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tutti_storage::{ApplyItem, ApplyOp, Outcome as StoreOutcome, Storage};
use tutti_wsrep::{Action, ApplyObserver, NodeId, ReplicateError, Replicated, Seqno, WriteSet};

use crate::certification::Verdict;
use crate::counters::Counters;
use crate::entry::Entry;
use crate::waiters::Waiters;

/// Most entries applied in one SQLite transaction.
const MAX_BATCH: usize = 2048;
/// Most bytes of changesets applied in one SQLite transaction.
const MAX_BATCH_BYTES: usize = 32 << 20;

/// A committed entry on its way to the applier.
#[derive(Debug)]
pub struct Committed {
    /// Its seqno.
    pub seqno: Seqno,
    /// The entry.
    pub entry: Entry,
}

/// The applied seqno, with a way to wait for it to reach a value.
#[derive(Default)]
pub struct AppliedWatch {
    seqno: Mutex<Seqno>,
    cond: Condvar,
}

impl AppliedWatch {
    /// A watch starting at `seqno`.
    pub fn new(seqno: Seqno) -> Self {
        AppliedWatch {
            seqno: Mutex::new(seqno),
            cond: Condvar::new(),
        }
    }
    /// The applied seqno.
    pub fn get(&self) -> Seqno {
        *self.seqno.lock()
    }
    fn set(&self, s: Seqno) {
        let mut g = self.seqno.lock();
        if s > *g {
            *g = s;
            self.cond.notify_all();
        }
    }
    /// Waits until at least `target` is applied; false on timeout.
    pub fn wait_for(&self, target: Seqno, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut g = self.seqno.lock();
        while *g < target {
            if self.cond.wait_until(&mut g, deadline).timed_out() {
                return *g >= target;
            }
        }
        true
    }
}

/// What the applier shares with the rest of replication.
pub struct ApplierShared {
    /// This node.
    pub node_id: NodeId,
    /// The database.
    pub storage: Arc<Storage>,
    /// Local transactions waiting for their outcome.
    pub waiters: Arc<Waiters>,
    /// Status counters.
    pub counters: Arc<Counters>,
    /// The executor's BF-abort hook.
    pub observer: RwLock<Option<Arc<dyn ApplyObserver>>>,
    /// The applied seqno, for causal waits.
    pub applied: AppliedWatch,
    /// Set when a write-set failed to apply: the node's data differs from the cluster's.
    pub inconsistent: Mutex<Option<String>>,
    /// Entries sent to the applier and not yet applied (`wsrep_local_recv_queue`).
    pub queue: std::sync::atomic::AtomicU64,
}

impl ApplierShared {
    /// The state of a node's applier over `storage`, starting at what it has applied.
    pub fn new(node_id: NodeId, storage: Arc<Storage>) -> ApplierShared {
        let applied = storage.applied();
        ApplierShared {
            node_id,
            storage,
            waiters: Arc::new(Waiters::default()),
            counters: Arc::new(Counters::default()),
            observer: RwLock::new(None),
            applied: AppliedWatch::new(applied),
            inconsistent: Mutex::new(None),
            queue: Default::default(),
        }
    }
}

/// Starts the applier thread; returns the sender for committed entries.
pub fn start(shared: Arc<ApplierShared>) -> (Sender<Committed>, std::thread::JoinHandle<()>) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let handle = std::thread::Builder::new()
        .name("applier".into())
        .spawn(move || run(shared, rx))
        .expect("spawn applier thread");
    (tx, handle)
}

fn run(shared: Arc<ApplierShared>, rx: Receiver<Committed>) {
    use std::sync::atomic::Ordering::Relaxed;
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        let mut bytes = 0usize;
        while batch.len() < MAX_BATCH && bytes < MAX_BATCH_BYTES {
            match rx.try_recv() {
                Ok(c) => {
                    if let Entry::WriteSet { ws, .. } = &c.entry {
                        bytes += ws.payload_len();
                    }
                    batch.push(c)
                }
                Err(_) => break,
            }
        }
        if shared.inconsistent.lock().is_some() {
            shared.queue.fetch_sub(batch.len() as u64, Relaxed);
            continue;
        }
        apply_batch(&shared, &batch);
        shared.queue.fetch_sub(batch.len() as u64, Relaxed);
    }
}

/// Applies one batch of committed entries and wakes their local waiters (the applier
/// thread calls this; the testkit calls it directly to apply deterministically).
pub fn apply_batch(shared: &ApplierShared, batch: &[Committed]) {
    let passed: Vec<(Seqno, &WriteSet)> = batch
        .iter()
        .filter_map(|c| match &c.entry {
            Entry::WriteSet {
                verdict: Verdict::Pass,
                ws,
            } => Some((c.seqno, ws)),
            _ => None,
        })
        .collect();
    if let Some(obs) = shared.observer.read().as_ref() {
        let victims = obs.before_apply(&passed);
        Counters::add(&shared.counters.local_bf_aborts, victims as u64);
    }
    let items: Vec<ApplyItem<'_>> = batch
        .iter()
        .map(|c| ApplyItem {
            seqno: c.seqno,
            op: match &c.entry {
                Entry::WriteSet {
                    verdict: Verdict::Pass,
                    ws,
                } => match &ws.action {
                    Action::Rows(cs) => ApplyOp::Rows(cs),
                    Action::Ddl(d) => ApplyOp::Ddl(d),
                },
                _ => ApplyOp::Skip,
            },
        })
        .collect();
    let result = match shared.storage.apply(&items) {
        Ok(r) => r,
        Err(e) => {
            tracing::error!("applier: cannot write the database: {e}; the node stops applying");
            *shared.inconsistent.lock() = Some(format!("storage failure: {e}"));
            shared
                .waiters
                .fail_all(ReplicateError::NotReady(format!("storage failure: {e}")));
            return;
        }
    };
    Counters::add(
        &shared.counters.applied_entries,
        result.outcomes.len() as u64,
    );
    Counters::inc(&shared.counters.applied_batches);
    // The applied seqno first: a client whose commit returns sees its write-set applied.
    shared.applied.set(result.applied);
    for (c, outcome) in batch.iter().zip(&result.outcomes) {
        let Entry::WriteSet { verdict, ws } = &c.entry else {
            continue;
        };
        if ws.origin != shared.node_id {
            if *verdict == Verdict::Pass {
                Counters::inc(&shared.counters.received);
                Counters::add(&shared.counters.received_bytes, ws.payload_len() as u64);
            }
            continue;
        }
        let result = match (verdict, outcome) {
            (Verdict::Fail, _) => {
                Counters::inc(&shared.counters.local_cert_failures);
                Err(ReplicateError::CertificationFailed)
            }
            (_, StoreOutcome::DdlFailed(f)) => Err(ReplicateError::Ddl(f.clone())),
            (_, outcome) => {
                Counters::inc(&shared.counters.local_commits);
                let rows = match outcome {
                    StoreOutcome::SchemaChanged { rows } => *rows,
                    _ => 0,
                };
                Ok(Replicated {
                    seqno: c.seqno,
                    rows,
                })
            }
        };
        shared.waiters.complete(ws.trx_id, result);
    }
    if let Some(e) = result.inconsistency {
        tracing::error!(
            "Inconsistency detected: {e}; this node stops applying and needs a state transfer"
        );
        *shared.inconsistent.lock() = Some(e.to_string());
        shared.waiters.fail_all(ReplicateError::NotReady(format!(
            "node is inconsistent: {e}"
        )));
    }
}
