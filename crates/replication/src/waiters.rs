//! Local transactions waiting for the outcome of their write-set.
//!
//! A committing session registers its transaction id, submits the write-set and blocks.
//! The applier completes the waiter when the entry with that (origin, trx id) has been
//! applied (or has failed certification) on this node, so a client's COMMIT returns only
//! once its own node shows the change, and the outcome comes from the log itself.

use crossbeam_channel::{bounded, Receiver, Sender};
use parking_lot::Mutex;
use std::collections::HashMap;
use tutti_wsrep::{ReplicateError, Replicated, TrxId};

/// The outcome delivered to a waiting transaction.
pub type Outcome = Result<Replicated, ReplicateError>;

/// Pending local write-sets by transaction id.
#[derive(Default)]
pub struct Waiters {
    pending: Mutex<HashMap<TrxId, Sender<Outcome>>>,
}

impl Waiters {
    /// Registers a transaction before its write-set is submitted.
    pub fn register(&self, trx: TrxId) -> Receiver<Outcome> {
        let (tx, rx) = bounded(1);
        self.pending.lock().insert(trx, tx);
        rx
    }

    /// Delivers the outcome (no-op if nobody waits, e.g. after a restart).
    pub fn complete(&self, trx: TrxId, outcome: Outcome) {
        if let Some(tx) = self.pending.lock().remove(&trx) {
            let _ = tx.send(outcome);
        }
    }

    /// Gives up waiting (the client was told the fate is unknown).
    pub fn forget(&self, trx: TrxId) {
        self.pending.lock().remove(&trx);
    }

    /// Fails every waiter (shutdown).
    pub fn fail_all(&self, err: ReplicateError) {
        for (_, tx) in self.pending.lock().drain() {
            let _ = tx.send(Err(err.clone()));
        }
    }

    /// Number of transactions waiting.
    pub fn len(&self) -> usize {
        self.pending.lock().len()
    }

    /// True when nobody waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
