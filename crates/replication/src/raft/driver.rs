//! The thread that runs a node's Raft core: it turns the logical clock, feeds it messages
//! and local requests, sends what it produces, hands committed entries to the applier, and
//! publishes the node's view of the cluster (Galera's state machine included) for status
//! and admission.
//!
//! Node states follow Galera: a node without a primary component is OPEN ("Initialized");
//! with one, it is a JOINER until it has applied what was committed when it first reached
//! the cluster, then JOINED, and SYNCED once it is a voter. Every change is logged as
//! Galera does ("Shifting JOINED -> SYNCED (TO: 42)").

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use parking_lot::RwLock;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tutti_wsrep::{ClusterUuid, NodeId, NodeState, Seqno, WriteSet};

use super::core::RaftCore;
use super::retention::{AbsentMember, GcacheStats};
use super::wire::{Member, PeerMsg};
use crate::applier::{ApplierShared, Committed};
use crate::entry::Entry;
use crate::options::ProviderOptions;

/// Ticks between two retention decisions.
const RETAIN_TICKS: u64 = 20;
/// Seconds between two IST progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

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
    /// A peer told us the cluster uuid (a joiner learns its cluster this way).
    ClusterUuid(ClusterUuid),
    /// A local write-set to order, and how long to keep retrying it.
    Submit(WriteSet, Duration),
    /// A causal read: reply with the seqno to wait for.
    Read(Sender<Seqno>),
    /// Leave the cluster cleanly; reply when done (or nothing to do).
    Leave(Sender<()>),
    /// Stop the thread.
    Stop,
}

/// The node's view of the cluster, published after every round.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// In a primary component.
    pub primary: bool,
    /// Galera state.
    pub state: Option<NodeState>,
    /// The leader (0: none).
    pub leader: NodeId,
    /// Raft term.
    pub term: u64,
    /// Commit index.
    pub commit: Seqno,
    /// Last log index.
    pub last_index: Seqno,
    /// Voters.
    pub voters: Vec<NodeId>,
    /// Learners.
    pub learners: Vec<NodeId>,
    /// Every member by id.
    pub members: BTreeMap<NodeId, Member>,
    /// Members heard from recently, self included.
    pub alive: Vec<NodeId>,
    /// Galera's `wsrep_cluster_conf_id`: bumped at every change of the component.
    pub conf_id: u64,
    /// This node left the cluster.
    pub removed: bool,
    /// What the gcache holds.
    pub gcache: GcacheStats,
    /// Members known to be away.
    pub absent: Vec<AbsentMember>,
    /// Set when this node's missing history is gone everywhere: the oldest seqno available.
    pub needs_sst: Option<Seqno>,
    /// The state transfer in progress, if any.
    pub transfer: Option<Transfer>,
    /// The last completed state transfer.
    pub last_transfer: Option<Transfer>,
}

/// A state transfer (IST: catch-up from the log), in progress or done.
#[derive(Clone, Debug, PartialEq)]
pub struct Transfer {
    /// `ist` (or `sst`).
    pub kind: &'static str,
    /// First seqno received.
    pub from: Seqno,
    /// Last seqno applied so far (the end when done).
    pub to: Seqno,
    /// The seqno it must reach.
    pub target: Seqno,
    /// Bytes of write-sets received.
    pub bytes: u64,
    /// Seconds taken (so far).
    pub seconds: f64,
    /// Entries applied per second.
    pub rate: f64,
}

impl View {
    /// The node state, OPEN before the first round.
    pub fn node_state(&self) -> NodeState {
        self.state.unwrap_or(NodeState::Open)
    }
}

struct Driver {
    core: RaftCore,
    transport: Arc<dyn Transport>,
    applier: Sender<Committed>,
    shared: Arc<ApplierShared>,
    view: Arc<RwLock<View>>,
    reads: HashMap<u64, Sender<Seqno>>,
    next_read: u64,
    leaving: Option<Sender<()>>,
    join_target: Option<Seqno>,
    tick: Duration,
    ticks: u64,
    options: Arc<RwLock<ProviderOptions>>,
    transfer: Option<(Instant, Seqno, u64)>,
    last_progress: Instant,
    last_transfer: Option<Transfer>,
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
        join_target: None,
        tick,
        ticks: 0,
        options,
        transfer: None,
        last_progress: Instant::now(),
        last_transfer: None,
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
                self.core.tick();
                self.ticks += 1;
                if self.ticks.is_multiple_of(RETAIN_TICKS) {
                    let opts = self.options.read().clone();
                    if let Some(line) = self.core.retain(&opts, self.shared.applied.get()) {
                        tracing::info!("{line}");
                    }
                }
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

    fn finish(&mut self) {
        if let Some(reply) = self.leaving.take() {
            let _ = reply.send(());
        }
    }

    fn handle(&mut self, input: Input) {
        match input {
            Input::Peer(from, msg) => self.core.step(from, msg),
            Input::PeerAddr(id, addr) => self.core.learn_addr(id, addr),
            Input::ClusterUuid(uuid) => self.adopt_cluster(uuid),
            Input::Submit(ws, timeout) => {
                let ticks = (timeout.as_millis() / self.tick.as_millis().max(1)) as u64;
                self.core.submit(ws, ticks.max(1));
            }
            Input::Read(reply) => {
                let id = self.next_read;
                self.next_read += 1;
                self.reads.insert(id, reply);
                self.core.read_index(id);
            }
            Input::Leave(reply) => {
                if self.core.leave() {
                    let _ = reply.send(());
                } else {
                    self.leaving = Some(reply);
                }
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
        } else {
            tracing::error!(
                "a peer belongs to cluster {uuid}, this node to {current}: refusing to mix them"
            );
        }
    }

    /// One round: persist and send what the core produced, feed the applier, publish.
    fn round(&mut self) -> Result<(), crate::ReplicationError> {
        self.core.local.applied = self.shared.applied.get();
        self.core.local.recv_queue = self.shared.queue.load(Relaxed);
        let out = self.core.ready()?;
        for (to, msg) in out.messages {
            self.transport.send(&to, msg);
        }
        if !out.committed.is_empty() {
            if let Some((_, _, bytes)) = self.transfer.as_mut() {
                for c in &out.committed {
                    if let Entry::WriteSet { ws, .. } = &c.entry {
                        *bytes += ws.payload_len() as u64;
                    }
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
            if let Some(reply) = self.reads.remove(&id) {
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
        self.track_transfer(new_state, applied);
        let opts = self.options.read().clone();
        let gcache = self.core.gcache_stats(&opts);
        let absent = if self.ticks.is_multiple_of(5) || self.view.read().absent.is_empty() {
            self.core.absent_members()
        } else {
            self.view.read().absent.clone()
        };
        let alive = self.core.alive();
        let mut v = self.view.write();
        let old_state = v.node_state();
        if v.state.is_some_and(|s| s != new_state) {
            if old_state == NodeState::Joiner && new_state == NodeState::Synced {
                // Caught up and promoted in the same round: JOINED was passed through.
                tracing::info!("Shifting JOINER -> JOINED (TO: {applied})");
                tracing::info!("Shifting JOINED -> SYNCED (TO: {applied})");
            } else {
                tracing::info!(
                    "Shifting {} -> {} (TO: {applied})",
                    old_state.shift_name(),
                    new_state.shift_name()
                );
            }
        }
        let component_changed =
            v.primary != primary || v.voters != state.voters || v.alive != alive;
        if component_changed {
            v.conf_id += 1;
        }
        v.primary = primary;
        v.state = Some(new_state);
        v.leader = self.core.leader();
        v.term = self.core.term();
        v.commit = self.core.commit_index();
        v.last_index = self.core.last_index();
        v.voters = state.voters;
        v.learners = state.learners;
        v.members = state.members;
        v.alive = alive;
        v.removed = self.core.removed();
        v.gcache = gcache;
        v.absent = absent;
        v.needs_sst = self.core.needs_sst;
        v.transfer = self
            .transfer
            .map(|(t0, from, bytes)| self.transfer_report(t0, from, bytes, applied));
        v.last_transfer = self.last_transfer.clone();
    }

    fn transfer_report(&self, t0: Instant, from: Seqno, bytes: u64, applied: Seqno) -> Transfer {
        let seconds = t0.elapsed().as_secs_f64();
        let done = applied.saturating_sub(from.saturating_sub(1));
        Transfer {
            kind: "ist",
            from,
            to: applied,
            target: self.join_target.unwrap_or(0).max(self.core.commit_index()),
            bytes,
            seconds,
            rate: if seconds > 0.0 {
                done as f64 / seconds
            } else {
                0.0
            },
        }
    }

    /// Follows catch-up (IST): progress lines while JOINER, a report once caught up.
    fn track_transfer(&mut self, state: NodeState, applied: Seqno) {
        match (state, self.transfer) {
            (NodeState::Joiner, None) if self.core.needs_sst.is_none() => {
                self.transfer = Some((Instant::now(), applied + 1, 0));
                self.last_progress = Instant::now();
            }
            (NodeState::Joiner, Some((t0, from, bytes)))
                if self.last_progress.elapsed() >= PROGRESS_EVERY =>
            {
                self.last_progress = Instant::now();
                let r = self.transfer_report(t0, from, bytes, applied);
                let remaining = r.target.saturating_sub(applied);
                let eta = if r.rate > 0.0 {
                    remaining as f64 / r.rate
                } else {
                    f64::NAN
                };
                tracing::info!(
                    "IST: received up to {}, applied {applied}, remaining {remaining}, \
                         {:.0} write-sets/s, ETA {eta:.0} s",
                    self.core.last_index(),
                    r.rate
                );
            }
            (NodeState::Joiner, Some(_)) => {}
            (NodeState::Open, _) => self.transfer = None,
            (_, Some((t0, from, bytes))) => {
                self.transfer = None;
                if applied < from {
                    return; // nothing was missing
                }
                let r = self.transfer_report(t0, from, bytes, applied);
                tracing::info!(
                    "IST complete: seqnos {}..={} ({} bytes) in {:.2} s, {:.0} write-sets/s",
                    r.from,
                    r.to,
                    r.bytes,
                    r.seconds,
                    r.rate
                );
                self.last_transfer = Some(r);
            }
            _ => {}
        }
    }
}
