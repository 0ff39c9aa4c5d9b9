//! The thread that runs a node's Raft core: it turns the logical clock, feeds it messages
//! and local requests, sends what it produces, hands committed entries to the applier, and
//! publishes the node's [`View`] of the cluster for status and admission.
//!
//! A node whose applier found an inconsistency (its data differs from the cluster's)
//! leaves the cluster, as Galera's "Node consistency compromised, leaving cluster", so the
//! others keep their quorum and never count on it; it stays up, answering with the reason,
//! until it is re-provisioned.

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use parking_lot::RwLock;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tutti_wsrep::{ClusterUuid, NodeId, NodeState, Seqno, WriteSet};

use super::core::RaftCore;
use super::view::{log_changes, TransferTracker, View};
use super::wire::{Member, PeerMsg};
use crate::applier::{ApplierShared, Committed};
use crate::entry::Entry;
use crate::options::ProviderOptions;
use crate::throttle::{repeated, Throttle};

/// Ticks between two retention decisions.
const RETAIN_TICKS: u64 = 20;
/// How long a causal read waits for the leader's answer before it is forgotten.
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// Sends peer messages; implemented over TCP by the node and in memory by the testkit.
pub trait Transport: Send + Sync {
    /// Sends a message to a member (best effort: Raft tolerates loss and retries).
    fn send(&self, to: &Member, msg: PeerMsg);
    /// The cluster this node now belongs to (a joiner learns it from its peers).
    fn set_cluster(&self, uuid: ClusterUuid);
}

/// The transport of a node that has no peers (a one-node cluster in tests and tools).
pub struct NoPeers;

impl Transport for NoPeers {
    fn send(&self, _to: &Member, _msg: PeerMsg) {}
    fn set_cluster(&self, _uuid: ClusterUuid) {}
}

/// What the driver thread is asked to do.
pub enum Input {
    /// A message from a peer (the transport checked its frame and hello).
    Peer(NodeId, PeerMsg),
    /// A peer said hello: its id and where it listens.
    PeerAddr(NodeId, String),
    /// The connection from a peer closed (its process may be gone).
    PeerLost(NodeId),
    /// A peer's transport said it is alive (a keepalive on an idle connection: its Raft
    /// thread may be busy, e.g. in a slow fsync).
    PeerAlive(NodeId),
    /// A peer told us the cluster uuid (a joiner learns its cluster this way).
    ClusterUuid(ClusterUuid),
    /// A local write-set to order, and how long to keep retrying it.
    Submit(WriteSet, Duration),
    /// A causal read: reply with the seqno to wait for.
    Read(Sender<Seqno>),
    /// Leave the cluster cleanly; reply when done (or nothing to do).
    Leave(Sender<()>),
    /// `pc.bootstrap=YES`: become the primary component alone.
    Bootstrap(Sender<Result<String, String>>),
    /// Remove a member (operator request).
    RemoveMember(NodeId, Sender<Result<(), String>>),
    /// Stop the thread.
    Stop,
}

struct Driver {
    core: RaftCore,
    transport: Arc<dyn Transport>,
    applier: Sender<Committed>,
    shared: Arc<ApplierShared>,
    view: Arc<RwLock<View>>,
    reads: HashMap<u64, (Sender<Seqno>, Instant)>,
    next_read: u64,
    leaving: Option<Sender<()>>,
    /// Left the cluster because this node's data differs from the cluster's.
    left_inconsistent: bool,
    join_target: Option<Seqno>,
    tick: Duration,
    ticks: u64,
    options: Arc<RwLock<ProviderOptions>>,
    transfer: TransferTracker,
    /// Members reported lost and not yet back.
    lost: BTreeSet<NodeId>,
    throttle: Throttle,
}

/// What the driver thread runs with.
pub struct DriverParts {
    /// The Raft core.
    pub core: RaftCore,
    /// Where peer messages go.
    pub transport: Arc<dyn Transport>,
    /// Where committed entries go.
    pub applier: Sender<Committed>,
    /// The applier's shared state (applied seqno, queue, database).
    pub shared: Arc<ApplierShared>,
    /// Where the view is published.
    pub view: Arc<RwLock<View>>,
    /// Length of one tick.
    pub tick: Duration,
    /// The provider options in force.
    pub options: Arc<RwLock<ProviderOptions>>,
}

/// Starts the driver thread, reading its inputs from `inbox`.
pub fn start(parts: DriverParts, inbox: Receiver<Input>) -> std::thread::JoinHandle<()> {
    let DriverParts {
        core,
        transport,
        applier,
        shared,
        view,
        tick,
        options,
    } = parts;
    let mut d = Driver {
        core,
        transport,
        applier,
        shared,
        view,
        reads: HashMap::new(),
        next_read: 1,
        leaving: None,
        left_inconsistent: false,
        join_target: None,
        tick,
        ticks: 0,
        options,
        transfer: TransferTracker::default(),
        lost: BTreeSet::new(),
        throttle: Throttle::new(Duration::from_secs(30)),
    };
    std::thread::Builder::new()
        .name("raft".into())
        .spawn(move || d.run(inbox))
        .expect("spawn raft thread")
}

impl Driver {
    fn run(&mut self, inbox: Receiver<Input>) {
        let mut next_tick = Instant::now() + self.tick;
        loop {
            let wait = next_tick.saturating_duration_since(Instant::now());
            match inbox.recv_timeout(wait) {
                Ok(Input::Stop) | Err(RecvTimeoutError::Disconnected) => break,
                Ok(input) => {
                    self.handle(input);
                    // Take whatever else is waiting, so one Ready covers many requests.
                    for _ in 0..4096 {
                        match inbox.try_recv() {
                            Ok(Input::Stop) => return self.finish(),
                            Ok(input) => self.handle(input),
                            Err(_) => break,
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if Instant::now() >= next_tick {
                self.on_tick();
                next_tick += self.tick;
                if next_tick < Instant::now() {
                    next_tick = Instant::now() + self.tick;
                }
            }
            if let Err(e) = self.round() {
                tracing::error!("replication stopped: {e}");
                *self.shared.inconsistent.lock() = Some(e.to_string());
                self.publish();
                break;
            }
        }
        self.finish();
    }

    fn on_tick(&mut self) {
        let opts = self.options.read().clone();
        self.core.inactive_ticks = opts.inactive_timeout_ms / (self.tick.as_millis() as u64).max(1);
        self.core.tick();
        self.ticks += 1;
        if self.ticks.is_multiple_of(RETAIN_TICKS) {
            if let Some(line) = self.core.retain(&opts, &self.shared.storage) {
                tracing::info!("{line}");
            }
        }
        let expired: Vec<u64> = self
            .reads
            .iter()
            .filter(|(_, (_, at))| at.elapsed() > READ_TIMEOUT)
            .map(|(id, _)| *id)
            .collect();
        for id in expired {
            self.reads.remove(&id);
            self.core.forget_read(id);
        }
    }

    fn finish(&mut self) {
        if let Some(reply) = self.leaving.take() {
            let _ = reply.send(());
        }
    }

    fn handle(&mut self, input: Input) {
        match input {
            Input::Peer(from, msg) => self.core.step(from, msg),
            Input::PeerAddr(id, addr) => self.core.learn_addr(id, addr),
            Input::PeerLost(id) => self.core.peer_lost(id),
            Input::PeerAlive(id) => self.core.peer_alive(id),
            Input::ClusterUuid(uuid) => self.adopt_cluster(uuid),
            Input::Submit(ws, timeout) => {
                let ticks = (timeout.as_millis() / self.tick.as_millis().max(1)) as u64;
                self.core.submit(ws, ticks.max(1));
            }
            Input::Read(reply) => {
                let id = self.next_read;
                self.next_read += 1;
                self.reads.insert(id, (reply, Instant::now()));
                self.core.read_index(id);
            }
            Input::Leave(reply) => {
                if self.core.leave() {
                    let _ = reply.send(());
                } else {
                    self.leaving = Some(reply);
                }
            }
            Input::Bootstrap(reply) => {
                let applied = self.shared.applied.get();
                let _ = reply.send(self.core.force_bootstrap(applied));
            }
            Input::RemoveMember(id, reply) => {
                let _ = reply.send(self.core.remove_member(id));
            }
            Input::Stop => {}
        }
    }

    fn adopt_cluster(&mut self, uuid: ClusterUuid) {
        let storage = &self.shared.storage;
        let current = storage.cluster_uuid();
        if current == uuid {
            return;
        }
        if current.is_nil() && storage.applied() == 0 {
            match storage.set_cluster_uuid(uuid) {
                Ok(()) => {
                    tracing::info!("joining cluster {uuid}");
                    self.transport.set_cluster(uuid);
                }
                Err(e) => tracing::error!("cannot record the cluster uuid: {e}"),
            }
        } else if let Some(held) = self.throttle.allow(&format!("mix {uuid}")) {
            tracing::error!(
                "a peer belongs to cluster {uuid}, this node to {current}: refusing to mix \
                 them{}",
                repeated(held)
            );
        }
    }

    /// One round: persist and send what the core produced, feed the applier, publish.
    fn round(&mut self) -> Result<(), crate::ReplicationError> {
        self.core.local.applied = self.shared.applied.get();
        self.core.local.recv_queue = self.shared.queue.load(Relaxed);
        self.leave_if_inconsistent();
        let out = self.core.ready()?;
        for (to, msg) in out.messages {
            self.transport.send(&to, msg);
        }
        if !out.committed.is_empty() {
            for c in &out.committed {
                if let Entry::WriteSet { ws, .. } = &c.entry {
                    self.transfer.add_bytes(ws.payload_len() as u64);
                }
            }
            self.shared
                .queue
                .fetch_add(out.committed.len() as u64, Relaxed);
            for c in out.committed {
                let _ = self.applier.send(c);
            }
        }
        for (id, index) in out.reads {
            if let Some((reply, _)) = self.reads.remove(&id) {
                let _ = reply.send(index);
            }
        }
        if self.core.removed() {
            if let Some(reply) = self.leaving.take() {
                let _ = reply.send(());
            }
        }
        self.publish();
        Ok(())
    }

    fn leave_if_inconsistent(&mut self) {
        if self.left_inconsistent || self.shared.inconsistent.lock().is_none() {
            return;
        }
        self.left_inconsistent = true;
        tracing::error!(
            "Node consistency compromised, leaving the cluster: the others go on without \
             this node, which stays up (non-Primary) until it is re-provisioned"
        );
        self.core.leave();
    }

    fn publish(&mut self) {
        let state = self.core.store().state();
        let primary = self.core.is_primary();
        let applied = self.shared.applied.get();
        if !primary {
            self.join_target = None;
        } else if self.join_target.is_none() {
            // What the cluster had committed when this node reached it: the leader's
            // own view, not the commit index a lagging follower has been told so far.
            self.join_target = if self.core.is_leader() {
                Some(self.core.commit_index())
            } else {
                self.core
                    .peer_gossip(self.core.leader())
                    .map(|g| g.applied.max(self.core.commit_index()))
            };
        }
        let me = self.core.id();
        let desync = self.options.read().desync;
        let new_state = if self.shared.inconsistent.lock().is_some() || !primary {
            NodeState::Open
        } else if self.core.needs_sst.is_some() || applied < self.join_target.unwrap_or(Seqno::MAX)
        {
            NodeState::Joiner
        } else if !state.voters.contains(&me) {
            NodeState::Joined
        } else if desync {
            NodeState::Desynced
        } else {
            NodeState::Synced
        };
        failpoint_panic(new_state);
        let target = self.join_target.unwrap_or(0).max(self.core.commit_index());
        self.transfer.track(
            new_state,
            applied,
            target,
            self.core.last_index(),
            self.core.needs_sst.is_some(),
        );
        let opts = self.options.read().clone();
        let old = self.view.read().clone();
        let absent = if self.ticks.is_multiple_of(5) || old.absent.is_empty() {
            self.core.absent_members()
        } else {
            old.absent.clone()
        };
        let next = View {
            primary,
            state: Some(new_state),
            leader: self.core.leader(),
            term: self.core.term(),
            commit: self.core.commit_index(),
            last_index: self.core.last_index(),
            voters: state.voters,
            learners: state.learners,
            members: state.members,
            alive: self.core.alive(),
            conf_id: state.conf_changes + self.core.term(),
            removed: self.core.removed(),
            join_refused: self.core.join_refused().map(str::to_string),
            gcache: self.core.gcache_stats(&opts),
            absent,
            needs_sst: self.core.needs_sst,
            transfer: self.transfer.report(applied, target),
            last_transfer: self.transfer.last.clone(),
        };
        let tick = self.tick;
        log_changes(&old, &next, applied, &mut self.lost, |id| {
            self.core
                .silent_ticks(id)
                .map(|t| tick * t.min(u32::MAX as u64) as u32)
        });
        *self.view.write() = next;
    }
}

/// Test hook: `TUTTI_TEST_PANIC=raft` makes this thread panic once the node is Synced
/// (end-to-end tests check that a panic ends the process).
fn failpoint_panic(state: NodeState) {
    static ARMED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let armed = *ARMED.get_or_init(|| std::env::var("TUTTI_TEST_PANIC").is_ok_and(|v| v == "raft"));
    if armed && state == NodeState::Synced {
        panic!("test hook TUTTI_TEST_PANIC=raft");
    }
}
