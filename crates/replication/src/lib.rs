//! Replication: total order, certification, the applier, and the provider interface.
//!
//! A write-set goes from the executor ([`Provider::replicate`]) to the Raft leader, which
//! certifies it (first committer wins, [`certification`]) and appends it with its verdict
//! to the replicated log ([`raft`]); once committed, every node's [`applier`] applies it in
//! log order, in batches, and the origin wakes the waiting transaction. A node alone is a
//! one-voter Raft cluster: the same path, without a network.

pub mod applier;
pub mod certification;
pub mod counters;
pub mod entry;
mod error;
pub mod options;
pub mod raft;
pub mod throttle;
pub mod waiters;

use crossbeam_channel::Sender;
use parking_lot::{Mutex, RwLock};
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tutti_gcache::{Gcache, GcacheOptions};
use tutti_storage::Storage;
use tutti_wsrep::{
    ApplyObserver, ClusterUuid, NodeId, NodeState, Provider, ReplicateError, Seqno, WriteSet,
};

use applier::ApplierShared;
use counters::Counters;
pub use error::ReplicationError;
use options::ProviderOptions;
use raft::{Input, LogStore, Member, RaftCore, Transport, View};

/// How long an operator request (`pc.bootstrap`, `member remove`) waits for the Raft thread.
const ASK_TIMEOUT: Duration = Duration::from_secs(10);

/// Settings of the replication layer.
#[derive(Clone, Debug)]
pub struct ReplicationConfig {
    /// This node as its peers see it (id, name, peer and MySQL addresses).
    pub me: Member,
    /// Where the log (`gcache/`) and the Raft state live.
    pub datadir: PathBuf,
    /// Start a new cluster (`--bootstrap`); refused when the datadir belongs to one.
    pub bootstrap: bool,
    /// Peer addresses to ask to join through (`--join`).
    pub seeds: Vec<String>,
    /// How many recent write-sets certification remembers.
    pub cert_window: usize,
    /// How long a commit waits for its outcome before reporting it unknown.
    pub commit_timeout: Duration,
    /// Length of one Raft tick.
    pub tick: Duration,
    /// Ticks without a leader before an election.
    pub election_ticks: usize,
    /// Ticks between heartbeats.
    pub heartbeat_ticks: usize,
    /// The gcache's settings.
    pub gcache: GcacheOptions,
    /// Provider options at startup (retention policy; changeable online).
    pub options: ProviderOptions,
}

/// The replication layer of one node.
pub struct Replication {
    config: ReplicationConfig,
    shared: Arc<ApplierShared>,
    inbox: Sender<Input>,
    view: Arc<RwLock<View>>,
    options: Arc<RwLock<ProviderOptions>>,
    threads: Mutex<Vec<std::thread::JoinHandle<()>>>,
    shutting_down: std::sync::atomic::AtomicBool,
}

impl Replication {
    /// Starts replication: opens the log, decides between bootstrap, join and restart,
    /// and starts the applier and the Raft driver. `inbox` is the channel the transport
    /// delivers peer messages on (see [`raft::channel`]).
    pub fn start(
        config: ReplicationConfig,
        storage: Arc<Storage>,
        transport: Arc<dyn Transport>,
        inbox: (Sender<Input>, crossbeam_channel::Receiver<Input>),
    ) -> Result<Arc<Replication>, ReplicationError> {
        let store = open_log(&config, &storage)?;
        let applied = storage.applied();
        transport.set_cluster(storage.cluster_uuid());
        let shared = Arc::new(ApplierShared::new(config.me.id, storage));
        let core = RaftCore::new(
            raft::CoreConfig {
                me: config.me.clone(),
                election_tick: config.election_ticks,
                heartbeat_tick: config.heartbeat_ticks,
                cert_window: config.cert_window,
                seeds: config.seeds.clone(),
                tick: config.tick,
            },
            store.clone(),
            applied,
            &raft::raft_logger(),
        )?;
        let (applier_tx, applier_thread) = applier::start(shared.clone());
        let view = Arc::new(RwLock::new(View::default()));
        let options = Arc::new(RwLock::new(config.options.clone()));
        let driver = raft::start_driver(
            raft::DriverParts {
                core,
                transport,
                applier: applier_tx,
                shared: shared.clone(),
                view: view.clone(),
                tick: config.tick,
                options: options.clone(),
            },
            inbox.1,
        );
        Ok(Arc::new(Replication {
            config,
            shared,
            inbox: inbox.0,
            view,
            options,
            threads: Mutex::new(vec![driver, applier_thread]),
            shutting_down: Default::default(),
        }))
    }

    /// A node without peers (tests and tools): bootstraps, or restarts, a one-voter
    /// cluster in `datadir` and waits until it serves.
    pub fn start_alone(
        id: NodeId,
        datadir: &std::path::Path,
        storage: Arc<Storage>,
    ) -> Result<Arc<Replication>, ReplicationError> {
        let config = ReplicationConfig {
            me: Member {
                id,
                name: format!("node{id}"),
                peer_addr: String::new(),
                mysql_addr: String::new(),
            },
            datadir: datadir.to_path_buf(),
            bootstrap: false,
            seeds: Vec::new(),
            cert_window: 10_000,
            commit_timeout: Duration::from_secs(10),
            tick: Duration::from_millis(20),
            election_ticks: 10,
            heartbeat_ticks: 2,
            gcache: GcacheOptions::default(),
            options: ProviderOptions::default(),
        };
        let r = Replication::start(config, storage, Arc::new(raft::NoPeers), raft::channel())?;
        if !r.wait_ready(Duration::from_secs(10)) {
            return Err(ReplicationError::Raft(format!(
                "a node alone did not become ready: {:?}",
                r.not_ready_reason()
            )));
        }
        Ok(r)
    }

    /// Waits until the node serves clients; false on timeout.
    pub fn wait_ready(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.not_ready_reason().is_some() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    /// The node's state in Galera's terms.
    pub fn state(&self) -> NodeState {
        self.view.read().node_state()
    }

    /// The node's view of the cluster.
    pub fn view(&self) -> View {
        self.view.read().clone()
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
        if let Some(e) = self.shared.inconsistent.lock().as_ref() {
            return Some(format!("node is inconsistent: {e}"));
        }
        let v = self.view.read();
        if let Some(why) = &v.join_refused {
            return Some(format!("the cluster refused this node: {why}"));
        }
        if v.removed {
            return Some("node has left the cluster".into());
        }
        if !v.primary {
            return Some("node is not in a primary component (non-Primary)".into());
        }
        if let Some(first) = v.needs_sst {
            return Some(format!(
                "node needs a state snapshot transfer (SST): the history it lacks is gone \
                 from the cluster's gcache (oldest available seqno {first})"
            ));
        }
        match v.node_state() {
            NodeState::Synced | NodeState::Desynced => None,
            s => Some(format!("node is {} ({})", s.shift_name(), s.comment())),
        }
    }

    /// Asks the driver thread something and waits (bounded) for its answer.
    fn ask<T>(
        &self,
        make: impl FnOnce(crossbeam_channel::Sender<T>) -> Input,
        timeout: Duration,
    ) -> Option<T> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.inbox.send(make(tx)).ok()?;
        rx.recv_timeout(timeout).ok()
    }

    /// `pc.bootstrap=YES`: makes this node the primary component on its own (see
    /// [`raft`]'s bootstrap module); the line logged, or why it was refused.
    pub fn bootstrap_component(&self) -> Result<String, String> {
        self.ask(Input::Bootstrap, ASK_TIMEOUT)
            .unwrap_or_else(|| Err("replication is not running".into()))
    }

    /// Removes a member, named by `wsrep_node_name` or hex id (`tutti member remove`).
    pub fn remove_member(&self, who: &str) -> Result<String, String> {
        let view = self.view();
        let wanted = who.trim();
        let matches: Vec<&Member> = view
            .members
            .values()
            .filter(|m| {
                m.name == wanted
                    || format!("{:016x}", m.id).starts_with(&wanted.to_ascii_lowercase())
            })
            .collect();
        let m = match matches.as_slice() {
            [m] => (*m).clone(),
            [] => return Err(format!("no member named '{wanted}'")),
            _ => return Err(format!("'{wanted}' names several members: use the hex id")),
        };
        self.ask(|tx| Input::RemoveMember(m.id, tx), ASK_TIMEOUT)
            .unwrap_or_else(|| Err("replication is not running".into()))?;
        Ok(format!("removing {} ({:016x})", m.name, m.id))
    }

    /// Leaves the cluster cleanly (before a shutdown), waiting at most `timeout`.
    pub fn leave(&self, timeout: Duration) {
        self.shutting_down.store(true, Relaxed);
        if self.ask(Input::Leave, timeout).is_none() {
            tracing::warn!("could not leave the cluster cleanly within {timeout:?}");
        }
    }

    /// Stops the Raft driver and the applier (after applying what was handed to it).
    pub fn shutdown(&self) {
        self.shutting_down.store(true, Relaxed);
        let _ = self.inbox.send(Input::Stop);
        for t in self.threads.lock().drain(..) {
            let _ = t.join();
        }
        self.shared.waiters.fail_all(ReplicateError::Shutdown);
    }

    fn auto_increment_of(v: &View, me: NodeId) -> (u64, u64) {
        let mut ids: Vec<NodeId> = v.voters.iter().chain(&v.learners).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        match ids.iter().position(|i| *i == me) {
            Some(p) => (p as u64 + 1, ids.len() as u64),
            None => (1, 1),
        }
    }
}

/// Opens this node's log and Raft state and decides how it starts: restart (the datadir
/// belongs to a cluster), bootstrap (`--bootstrap`, or a new datadir without seeds), or
/// join (a new, empty datadir with seeds).
pub fn open_log(
    config: &ReplicationConfig,
    storage: &Storage,
) -> Result<LogStore, ReplicationError> {
    let (gcache, recovery) = Gcache::open(&config.datadir.join("gcache"), config.gcache.clone())?;
    if recovery.truncated_bytes > 0 {
        tracing::warn!(
            "gcache: repaired a torn tail ({} bytes) left by a crash",
            recovery.truncated_bytes
        );
    }
    let (store, existed) = LogStore::open(&config.datadir, gcache)?;
    let applied = storage.applied();
    if existed {
        if config.bootstrap {
            return Err(ReplicationError::Refused(format!(
                "--bootstrap refused: this datadir already belongs to cluster {} \
                 (bootstrapping it again would split the cluster in two); start it \
                 without --bootstrap to rejoin",
                storage.cluster_uuid()
            )));
        }
        let s = store.state();
        tracing::info!(
            "restarting as member of cluster {} at seqno {applied} (log {}..={}), {} voter(s){}",
            storage.cluster_uuid(),
            store.0.read().gcache.first_index(),
            store.0.read().gcache.last_index(),
            s.voters.len(),
            if s.left {
                ", rejoining after a clean leave"
            } else {
                ""
            }
        );
    } else if config.bootstrap || config.seeds.is_empty() {
        bootstrap(config, storage, &store, applied)?;
    } else {
        if applied > 0 {
            return Err(ReplicationError::Refused(
                "this datadir holds data but no cluster state: it cannot join a cluster \
                 (move it away or start it with --bootstrap)"
                    .into(),
            ));
        }
        tracing::info!("joining through {}", config.seeds.join(", "));
    }
    Ok(store)
}

fn bootstrap(
    config: &ReplicationConfig,
    storage: &Storage,
    store: &LogStore,
    applied: Seqno,
) -> Result<(), ReplicationError> {
    if storage.cluster_uuid().is_nil() {
        storage.set_cluster_uuid(ClusterUuid::new_random())?;
    }
    if applied > 0 {
        // A database from before clustering: the log starts after what it holds.
        store.0.write().gcache.reset_to(applied, 1)?;
    }
    // The first entry makes this node the first voter, so the log itself says who was
    // in the cluster from the start: a joiner replaying it learns the whole membership.
    let first = applied + 1;
    store.append(&[raft::first_member_entry(first, &config.me)])?;
    let me = config.me.clone();
    store.update(|s| {
        s.term = s.term.max(1);
        s.commit = first;
        s.voters = vec![me.id];
        s.learners.clear();
        s.members.clear();
        s.members.insert(me.id, me);
        s.left = false;
    })?;
    tracing::info!(
        "bootstrapped new cluster {} at seqno {applied}",
        storage.cluster_uuid()
    );
    Ok(())
}

impl Provider for Replication {
    fn node_id(&self) -> NodeId {
        self.config.me.id
    }

    fn check_ready(&self) -> Result<(), ReplicateError> {
        match self.not_ready_reason() {
            Some(r) => Err(ReplicateError::NotReady(r)),
            None => Ok(()),
        }
    }

    fn replicate(&self, ws: WriteSet) -> Result<tutti_wsrep::Replicated, ReplicateError> {
        self.check_ready()?;
        let trx = ws.trx_id;
        let bytes = ws.payload_len() as u64;
        let rx = self.shared.waiters.register(trx);
        let timeout = self.config.commit_timeout;
        if self.inbox.send(Input::Submit(ws, timeout)).is_err() {
            self.shared.waiters.forget(trx);
            return Err(ReplicateError::Shutdown);
        }
        Counters::inc(&self.shared.counters.replicated);
        Counters::add(&self.shared.counters.replicated_bytes, bytes);
        match rx.recv_timeout(timeout) {
            Ok(outcome) => outcome,
            Err(_) => {
                self.shared.waiters.forget(trx);
                Err(ReplicateError::Unknown(format!(
                    "no outcome within {timeout:?} (the cluster may have lost its primary component)"
                )))
            }
        }
    }

    fn sync_wait(&self, timeout: Duration) -> Result<(), ReplicateError> {
        let deadline = Instant::now() + timeout;
        let (tx, rx) = crossbeam_channel::bounded(1);
        if self.inbox.send(Input::Read(tx)).is_err() {
            return Err(ReplicateError::Shutdown);
        }
        let late = || ReplicateError::Unknown("causal read timed out (wsrep_sync_wait)".into());
        let target = rx.recv_timeout(timeout).map_err(|_| late())?;
        let left = deadline.saturating_duration_since(Instant::now());
        if self.shared.applied.wait_for(target, left) {
            Ok(())
        } else {
            Err(late())
        }
    }

    fn status(&self) -> Vec<(String, String)> {
        let c = &self.shared.counters;
        let view = self.view();
        let state = view.node_state();
        let ready = self.not_ready_reason().is_none();
        let on = |b: bool| if b { "ON" } else { "OFF" }.to_string();
        let v = |k: &str, v: String| (k.to_string(), v);
        let n = |k: &str, x: &std::sync::atomic::AtomicU64| v(k, Counters::get(x).to_string());
        let uuid = self.shared.storage.cluster_uuid().to_string();
        let addresses: Vec<String> = view
            .alive
            .iter()
            .filter_map(|id| view.members.get(id))
            .map(|m| m.mysql_addr.clone())
            .collect();
        let leader = view
            .members
            .get(&view.leader)
            .map(|m| m.name.clone())
            .unwrap_or_default();
        let send_queue = view.last_index.saturating_sub(view.commit);
        vec![
            v("wsrep_local_state_uuid", uuid.clone()),
            v("wsrep_protocol_version", raft::PROTOCOL_VERSION.to_string()),
            v("wsrep_last_committed", self.applied().to_string()),
            n("wsrep_replicated", &c.replicated),
            n("wsrep_replicated_bytes", &c.replicated_bytes),
            n("wsrep_received", &c.received),
            n("wsrep_received_bytes", &c.received_bytes),
            n("wsrep_local_commits", &c.local_commits),
            n("wsrep_local_cert_failures", &c.local_cert_failures),
            n("wsrep_local_bf_aborts", &c.local_bf_aborts),
            v("wsrep_local_send_queue", send_queue.to_string()),
            v(
                "wsrep_local_recv_queue",
                self.shared.queue.load(Relaxed).to_string(),
            ),
            v(
                "wsrep_local_cached_downto",
                view.gcache.cached_downto.to_string(),
            ),
            v("wsrep_gcache_size_bytes", view.gcache.bytes.to_string()),
            v(
                "wsrep_gcache_durability_seconds",
                format!("{:.0}", view.gcache.durability_s),
            ),
            v(
                "wsrep_ist_horizon_seconds",
                if view.gcache.ist_horizon_s.is_finite() {
                    format!("{:.0}", view.gcache.ist_horizon_s)
                } else {
                    self.options.read().keep_for_absent_time_s.to_string()
                },
            ),
            v("wsrep_desync", on(self.options.read().desync)),
            v("wsrep_local_state", state.code().to_string()),
            v("wsrep_local_state_comment", state.comment().to_string()),
            v("wsrep_cluster_conf_id", view.conf_id.to_string()),
            v("wsrep_cluster_size", view.alive.len().to_string()),
            v("wsrep_cluster_state_uuid", uuid),
            v(
                "wsrep_cluster_status",
                if view.primary {
                    "Primary"
                } else {
                    "non-Primary"
                }
                .into(),
            ),
            v("wsrep_connected", on(!view.removed)),
            v("wsrep_ready", on(ready)),
            v("wsrep_incoming_addresses", addresses.join(",")),
            v("wsrep_node_name", self.config.me.name.clone()),
            v("wsrep_cluster_leader", leader),
            v("wsrep_cluster_members", view.members.len().to_string()),
            v("wsrep_cluster_term", view.term.to_string()),
            v("wsrep_provider_name", "tutti".into()),
            v("wsrep_provider_vendor", "tutti".into()),
            v("wsrep_provider_version", env!("CARGO_PKG_VERSION").into()),
            n("wsrep_applier_batches", &c.applied_batches),
        ]
    }

    fn options(&self) -> String {
        self.options.read().render()
    }

    fn set_option(&self, key: &str, value: &str) -> Result<(), String> {
        if key.trim() == "pc.bootstrap" {
            let v = value.trim().trim_matches(['\'', '"']).to_ascii_uppercase();
            return match v.as_str() {
                "YES" | "TRUE" | "ON" | "1" => self.bootstrap_component().map(|_| ()),
                "NO" | "FALSE" | "OFF" | "0" => Ok(()),
                _ => Err(format!("pc.bootstrap: invalid value '{value}' (YES or NO)")),
            };
        }
        let last = self.applied();
        let mut o = self.options.write();
        let mut next = o.clone();
        next.set(key, value, last)?;
        tracing::info!("provider option {key} = {value}");
        *o = next;
        Ok(())
    }

    fn auto_increment(&self) -> (u64, u64) {
        Replication::auto_increment_of(&self.view.read(), self.config.me.id)
    }

    fn set_observer(&self, observer: Arc<dyn ApplyObserver>) {
        *self.shared.observer.write() = Some(observer);
    }
}

#[cfg(test)]
mod tests;
