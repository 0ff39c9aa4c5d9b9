//! Replication: total order, certification, the applier, and the provider interface.
//!
//! A write-set goes from the executor ([`Provider::replicate`]) to the orderer, which
//! certifies it (first committer wins, [`certification`]) and gives it a seqno; the
//! [`applier`] applies committed entries in order in batches and wakes the waiting
//! transaction. The orderer is the Raft leader in a cluster; a node alone uses the local
//! sequencer, which does the same without a network.

pub mod applier;
pub mod certification;
pub mod counters;
pub mod entry;
mod local;
pub mod waiters;

use crossbeam_channel::Sender;
use parking_lot::{Mutex, RwLock};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;
use tutti_storage::Storage;
use tutti_wsrep::{ApplyObserver, NodeId, NodeState, Provider, ReplicateError, Seqno, WriteSet};

use applier::{AppliedWatch, ApplierShared, Committed};
use counters::Counters;
use waiters::Waiters;

/// Settings of the replication layer.
#[derive(Clone, Debug)]
pub struct ReplicationConfig {
    /// This node's id.
    pub node_id: NodeId,
    /// This node's name (`wsrep_node_name`).
    pub node_name: String,
    /// The address clients use (`wsrep_incoming_addresses`).
    pub incoming_address: String,
    /// How many recent write-sets certification remembers.
    pub cert_window: usize,
    /// How long a commit waits for its outcome before reporting it unknown.
    pub commit_timeout: Duration,
}

/// The replication layer of one node.
pub struct Replication {
    config: ReplicationConfig,
    shared: Arc<ApplierShared>,
    order: Mutex<local::LocalOrder>,
    applier_tx: Mutex<Option<Sender<Committed>>>,
    applier_thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    shutting_down: std::sync::atomic::AtomicBool,
    conf_id: RwLock<u64>,
}

impl Replication {
    /// Starts replication for a node alone in its cluster.
    pub fn start_single(config: ReplicationConfig, storage: Arc<Storage>) -> Arc<Replication> {
        let applied = storage.applied();
        let shared = Arc::new(ApplierShared {
            node_id: config.node_id,
            storage,
            waiters: Arc::new(Waiters::default()),
            counters: Arc::new(Counters::default()),
            observer: RwLock::new(None),
            applied: AppliedWatch::new(applied),
            inconsistent: Mutex::new(None),
            queue: Default::default(),
        });
        let (tx, thread) = applier::start(shared.clone());
        Arc::new(Replication {
            order: Mutex::new(local::LocalOrder::new(applied, config.cert_window)),
            config,
            shared,
            applier_tx: Mutex::new(Some(tx)),
            applier_thread: Mutex::new(Some(thread)),
            shutting_down: Default::default(),
            conf_id: RwLock::new(1),
        })
    }

    /// The node's state in Galera's terms.
    pub fn state(&self) -> NodeState {
        if self.shared.inconsistent.lock().is_some() {
            NodeState::Open
        } else {
            NodeState::Synced
        }
    }

    /// The seqno of the last applied entry.
    pub fn applied(&self) -> Seqno {
        self.shared.applied.get()
    }

    /// The counters.
    pub fn counters(&self) -> &Counters {
        &self.shared.counters
    }

    /// Why the node cannot serve, if it cannot.
    pub fn not_ready_reason(&self) -> Option<String> {
        if self.shutting_down.load(Relaxed) {
            return Some("shutting down".into());
        }
        self.shared
            .inconsistent
            .lock()
            .as_ref()
            .map(|e| format!("node is inconsistent: {e}"))
    }

    /// Stops accepting write-sets, lets the applier finish what was ordered, and joins it.
    pub fn shutdown(&self) {
        self.shutting_down.store(true, Relaxed);
        let tx = self.applier_tx.lock().take();
        drop(tx);
        if let Some(t) = self.applier_thread.lock().take() {
            let _ = t.join();
        }
        self.shared.waiters.fail_all(ReplicateError::Shutdown);
    }
}

impl Provider for Replication {
    fn node_id(&self) -> NodeId {
        self.config.node_id
    }

    fn check_ready(&self) -> Result<(), ReplicateError> {
        match self.not_ready_reason() {
            Some(r) => Err(ReplicateError::NotReady(r)),
            None => Ok(()),
        }
    }

    fn replicate(&self, ws: WriteSet) -> Result<Seqno, ReplicateError> {
        self.check_ready()?;
        let trx = ws.trx_id;
        let bytes = ws.payload_len() as u64;
        let rx = self.shared.waiters.register(trx);
        {
            let tx = self.applier_tx.lock();
            let Some(tx) = tx.as_ref() else {
                self.shared.waiters.forget(trx);
                return Err(ReplicateError::Shutdown);
            };
            self.shared.queue.fetch_add(1, Relaxed);
            self.order.lock().submit(ws, tx);
        }
        Counters::inc(&self.shared.counters.replicated);
        Counters::add(&self.shared.counters.replicated_bytes, bytes);
        match rx.recv_timeout(self.config.commit_timeout) {
            Ok(outcome) => outcome,
            Err(_) => {
                self.shared.waiters.forget(trx);
                Err(ReplicateError::Unknown(format!(
                    "no outcome within {:?}",
                    self.config.commit_timeout
                )))
            }
        }
    }

    fn sync_wait(&self, timeout: Duration) -> Result<(), ReplicateError> {
        let target = self.order.lock().last();
        if self.shared.applied.wait_for(target, timeout) {
            Ok(())
        } else {
            Err(ReplicateError::Unknown("causal read timed out".into()))
        }
    }

    fn status(&self) -> Vec<(String, String)> {
        let c = &self.shared.counters;
        let state = self.state();
        let ready = self.not_ready_reason().is_none();
        let on = |b: bool| if b { "ON" } else { "OFF" }.to_string();
        let v = |k: &str, v: String| (k.to_string(), v);
        vec![
            v(
                "wsrep_local_state_uuid",
                self.shared.storage.cluster_uuid().to_string(),
            ),
            v("wsrep_last_committed", self.applied().to_string()),
            v("wsrep_replicated", Counters::get(&c.replicated).to_string()),
            v(
                "wsrep_replicated_bytes",
                Counters::get(&c.replicated_bytes).to_string(),
            ),
            v("wsrep_received", Counters::get(&c.received).to_string()),
            v(
                "wsrep_received_bytes",
                Counters::get(&c.received_bytes).to_string(),
            ),
            v(
                "wsrep_local_commits",
                Counters::get(&c.local_commits).to_string(),
            ),
            v(
                "wsrep_local_cert_failures",
                Counters::get(&c.local_cert_failures).to_string(),
            ),
            v(
                "wsrep_local_bf_aborts",
                Counters::get(&c.local_bf_aborts).to_string(),
            ),
            v("wsrep_local_send_queue", "0".into()),
            v(
                "wsrep_local_recv_queue",
                self.shared.queue.load(Relaxed).to_string(),
            ),
            v("wsrep_local_state", state.code().to_string()),
            v("wsrep_local_state_comment", state.comment().to_string()),
            v("wsrep_cluster_conf_id", self.conf_id.read().to_string()),
            v("wsrep_cluster_size", "1".into()),
            v(
                "wsrep_cluster_state_uuid",
                self.shared.storage.cluster_uuid().to_string(),
            ),
            v("wsrep_cluster_status", "Primary".into()),
            v("wsrep_connected", on(true)),
            v("wsrep_ready", on(ready)),
            v(
                "wsrep_incoming_addresses",
                self.config.incoming_address.clone(),
            ),
            v("wsrep_node_name", self.config.node_name.clone()),
            v("wsrep_provider_name", "tutti".into()),
            v("wsrep_provider_vendor", "tutti".into()),
            v("wsrep_provider_version", env!("CARGO_PKG_VERSION").into()),
            v(
                "wsrep_applier_batches",
                Counters::get(&c.applied_batches).to_string(),
            ),
        ]
    }

    fn options(&self) -> String {
        String::new()
    }

    fn set_option(&self, key: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown provider option '{key}'"))
    }

    fn auto_increment(&self) -> (u64, u64) {
        (1, 1)
    }

    fn set_observer(&self, observer: Arc<dyn ApplyObserver>) {
        *self.shared.observer.write() = Some(observer);
    }
}

#[cfg(test)]
mod tests;
