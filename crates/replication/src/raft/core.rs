//! The Raft core of a node: total order, the leader's certification, membership.
//!
//! It owns raft-rs's `RawNode` and everything that must change in step with it, and does no
//! network I/O: inputs are ticks, peer messages and local requests; [`RaftCore::ready`]
//! persists what Raft asks (log entries into the gcache, term and vote into the state file)
//! and returns what to send, what was committed, and answered reads. The node's driver
//! thread runs it against the TCP transport; the testkit runs several against a simulated
//! network, deterministically.
//!
//! Invariants:
//! - The leader certifies a write-set when it proposes it, against every passed write-set
//!   in its log (committed or not) after the write-set's `last_seen`, and writes the verdict
//!   into the entry. The index is rebuilt from the log whenever a node becomes leader, so
//!   a verdict never depends on anything but the log before it.
//! - A write-set is identified by (origin, trx id). Its origin keeps it in flight and sends
//!   it again to whoever leads until its entry is committed; the leader ignores a write-set
//!   already in its log. A duplicate that slipped through fails certification against its
//!   twin (same keys, same `last_seen`), so the outcome the origin sees first is the truth.
//! - Entries are persisted (fsync) before they are handed out as committed.

use raft::eraftpb::{ConfChangeType, EntryType, Message as RaftMessage};
use raft::{Config, GetEntriesContext, RawNode, StateRole};
use std::collections::{BTreeMap, HashMap, VecDeque};
use tutti_wsrep::{NodeId, Seqno, TrxId, WriteSet};

use super::log_store::LogStore;
use super::wire::{Gossip, Member, PeerMsg};
use crate::applier::Committed;
use crate::certification::{CertIndex, Verdict};
use crate::entry::Entry;
use crate::ReplicationError;

/// Ticks between re-sends of an in-flight write-set, join and leave requests.
const RETRY_TICKS: u64 = 10;
/// Ticks between gossip rounds.
const GOSSIP_TICKS: u64 = 3;

/// Settings of the core.
#[derive(Clone, Debug)]
pub struct CoreConfig {
    /// This node as the others see it.
    pub me: Member,
    /// Ticks without a leader before an election (randomised up to twice this).
    pub election_tick: usize,
    /// Ticks between leader heartbeats.
    pub heartbeat_tick: usize,
    /// Write-sets the certification index remembers.
    pub cert_window: usize,
    /// Where to ask to join when not yet a member (seed addresses).
    pub seeds: Vec<String>,
}

/// What one round of work produced.
#[derive(Default)]
pub struct Output {
    /// Messages to send, with their recipient.
    pub messages: Vec<(Member, PeerMsg)>,
    /// Committed entries, in order, for the applier.
    pub committed: Vec<Committed>,
    /// Answered causal-read requests: (request id, seqno to wait for).
    pub reads: Vec<(u64, Seqno)>,
}

/// A local write-set waiting for its entry to commit.
struct InFlight {
    bytes: Vec<u8>,
    ws: WriteSet,
    sent_tick: u64,
    expires_tick: u64,
}

/// The Raft core.
pub struct RaftCore {
    pub(super) raw: RawNode<LogStore>,
    pub(super) store: LogStore,
    pub(super) cfg: CoreConfig,
    pub(super) ticks: u64,
    /// Term whose log the certification index was built from (Some only while leader).
    pub(super) cert: Option<(u64, CertIndex)>,
    /// (origin, trx) of write-sets in the leader's recent log.
    pub(super) dedup: HashMap<(NodeId, TrxId), Seqno>,
    pub(super) dedup_order: VecDeque<(NodeId, TrxId)>,
    inflight: BTreeMap<TrxId, InFlight>,
    /// Tick of the last message from the leader.
    pub(super) leader_seen: u64,
    /// Last gossip heard from each peer, with its tick.
    pub(super) peers: HashMap<NodeId, (u64, Gossip)>,
    /// Members that left cleanly: the seqno each will need and when it left (unix ms).
    pub(super) departed: HashMap<NodeId, (Seqno, u64)>,
    /// When each peer was last heard from (unix ms).
    pub(super) heard_ms: HashMap<NodeId, u64>,
    /// Set when the cluster told this node its history is gone: the first seqno available.
    pub(super) needs_sst: Option<Seqno>,
    /// Peer addresses learned from hellos (a joiner knows nobody's address yet).
    pub(super) heard_addrs: HashMap<NodeId, String>,
    /// Set while leaving cleanly.
    pub(super) leaving: bool,
    /// Set once this node's removal is known.
    pub(super) removed: bool,
    /// Local applied seqno and queue, reported in gossip (set by the driver).
    pub local: Gossip,
    pub(super) pending: Output,
}

impl RaftCore {
    /// A core over the log store; `applied` is the seqno the database holds.
    pub fn new(
        cfg: CoreConfig,
        store: LogStore,
        applied: Seqno,
        logger: &slog::Logger,
    ) -> Result<RaftCore, ReplicationError> {
        let state = store.state();
        let commit = state.commit.max(applied);
        store.set_commit(commit);
        let raft_config = Config {
            id: cfg.me.id,
            election_tick: cfg.election_tick,
            heartbeat_tick: cfg.heartbeat_tick,
            applied,
            check_quorum: true,
            pre_vote: true,
            max_size_per_msg: 1 << 20,
            max_inflight_msgs: 256,
            ..Default::default()
        };
        raft_config.validate()?;
        let mut raw = RawNode::new(&raft_config, store.clone(), logger)?;
        if state.voters == [cfg.me.id] {
            // Alone in the configuration: no one to wait for.
            raw.campaign()?;
        }
        Ok(RaftCore {
            raw,
            store,
            cfg,
            ticks: 0,
            cert: None,
            dedup: HashMap::new(),
            dedup_order: VecDeque::new(),
            inflight: BTreeMap::new(),
            leader_seen: 0,
            peers: HashMap::new(),
            heard_addrs: HashMap::new(),
            departed: HashMap::new(),
            heard_ms: HashMap::new(),
            needs_sst: None,
            leaving: false,
            removed: false,
            local: Gossip {
                applied,
                state: 0,
                recv_queue: 0,
            },
            pending: Output::default(),
        })
    }

    /// This node's id.
    pub fn id(&self) -> NodeId {
        self.cfg.me.id
    }

    /// The current leader (0: none known).
    pub fn leader(&self) -> NodeId {
        self.raw.raft.leader_id
    }

    /// True while this node leads.
    pub fn is_leader(&self) -> bool {
        self.raw.raft.state == StateRole::Leader
    }

    /// Raft's term.
    pub fn term(&self) -> u64 {
        self.raw.raft.term
    }

    /// The highest index known committed.
    pub fn commit_index(&self) -> Seqno {
        self.raw.raft.raft_log.committed
    }

    /// The last index in the log.
    pub fn last_index(&self) -> Seqno {
        self.raw.raft.raft_log.last_index()
    }

    /// True when this node is in a primary component: it leads with a quorum behind it
    /// (check-quorum makes a cut-off leader step down), or it heard from a leader within
    /// an election timeout.
    pub fn is_primary(&self) -> bool {
        if self.removed {
            return false;
        }
        if self.is_leader() {
            return true;
        }
        self.leader() != 0 && self.ticks - self.leader_seen <= self.cfg.election_tick as u64
    }

    /// True once this node is known to have been removed from the cluster.
    pub fn removed(&self) -> bool {
        self.removed
    }

    /// Members heard from recently (gossip within an election timeout), self included.
    pub fn alive(&self) -> Vec<NodeId> {
        let limit = 2 * self.cfg.election_tick as u64;
        let mut v: Vec<NodeId> = self
            .peers
            .iter()
            .filter(|(_, (t, _))| self.ticks - t <= limit)
            .map(|(id, _)| *id)
            .filter(|id| self.store.0.read().state.members.contains_key(id))
            .collect();
        v.push(self.id());
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The last gossip of a peer.
    pub fn peer_gossip(&self, id: NodeId) -> Option<&Gossip> {
        self.peers.get(&id).map(|(_, g)| g)
    }

    /// The log store.
    pub fn store(&self) -> &LogStore {
        &self.store
    }

    /// One tick of the logical clock.
    pub fn tick(&mut self) {
        self.ticks += 1;
        self.raw.tick();
        if self.is_leader() {
            self.leader_seen = self.ticks;
        }
        if self.ticks.is_multiple_of(GOSSIP_TICKS) {
            let g = PeerMsg::Gossip(self.local.clone());
            for m in self.other_members() {
                self.pending.messages.push((m, g.clone()));
            }
        }
        if self.ticks % RETRY_TICKS == 1 {
            self.retry();
        }
    }

    fn other_members(&self) -> Vec<Member> {
        let g = self.store.0.read();
        g.state
            .members
            .values()
            .filter(|m| m.id != self.cfg.me.id)
            .cloned()
            .collect()
    }

    pub(super) fn member(&self, id: NodeId) -> Option<Member> {
        if id == 0 {
            return None;
        }
        if let Some(m) = self.store.0.read().state.members.get(&id) {
            return Some(m.clone());
        }
        self.heard_addrs.get(&id).map(|a| Member {
            id,
            name: String::new(),
            peer_addr: a.clone(),
            mysql_addr: String::new(),
        })
    }

    /// Remembers where a peer listens (from its hello), for peers not yet known as members.
    pub fn learn_addr(&mut self, id: NodeId, addr: String) {
        if id != 0 && !addr.is_empty() {
            self.heard_addrs.insert(id, addr);
        }
    }

    /// Periodic work: re-send what has no answer yet, ask to join, promote learners.
    fn retry(&mut self) {
        let now = self.ticks;
        self.inflight.retain(|_, f| f.expires_tick > now);
        let due: Vec<TrxId> = self
            .inflight
            .iter()
            .filter(|(_, f)| now - f.sent_tick >= RETRY_TICKS)
            .map(|(t, _)| *t)
            .collect();
        for trx in due {
            self.send_inflight(trx);
        }
        let state = self.store.state();
        let member = state.voters.contains(&self.id()) || state.learners.contains(&self.id());
        if (!member || state.left) && self.leader() == 0 && !self.leaving {
            self.ask_to_join(&state.members);
        }
        if self.leaving && !self.removed {
            self.ask_to_leave();
        }
        if self.is_leader() {
            self.promote_caught_up_learners();
        }
    }

    /// A message from a peer.
    pub fn step(&mut self, from: NodeId, msg: PeerMsg) {
        match msg {
            PeerMsg::Raft(m) => {
                let from_leader = m.from == self.leader() || m.term > self.term();
                if let Err(e) = self.raw.step(*m) {
                    tracing::debug!("raft message from {from} ignored: {e}");
                }
                if from_leader && self.leader() == from {
                    self.leader_seen = self.ticks;
                }
            }
            PeerMsg::Submit(bytes) => match WriteSet::decode(&bytes) {
                Ok(ws) => {
                    if self.is_leader() {
                        self.propose_write_set(ws, &bytes);
                    } else if let Some(l) = self.member(self.leader()) {
                        self.pending.messages.push((l, PeerMsg::Submit(bytes)));
                    }
                }
                Err(e) => tracing::warn!("peer {from} sent an undecodable write-set: {e}"),
            },
            PeerMsg::Join(m) => self.on_join(m),
            PeerMsg::Leave(id) => {
                if self.is_leader() {
                    let s = self.store.state();
                    if s.voters.contains(&id) || s.learners.contains(&id) {
                        tracing::info!("member {id} leaves the cluster");
                        self.propose_membership(ConfChangeType::RemoveNode, id, None);
                    } else if let Some(m) = s.members.get(&id).cloned() {
                        self.pending.messages.push((m, PeerMsg::Removed));
                    }
                } else if let Some(l) = self.member(self.leader()) {
                    self.pending.messages.push((l, PeerMsg::Leave(id)));
                }
            }
            PeerMsg::Removed => {
                if self.leaving {
                    self.mark_removed();
                }
            }
            PeerMsg::Gossip(g) => {
                self.peers.insert(from, (self.ticks, g));
                self.heard_ms.insert(from, super::retention::now_ms());
            }
            PeerMsg::NeedsSst(first) => {
                if self.needs_sst.is_none() {
                    tracing::error!(
                        "this node needs a state snapshot transfer (SST): the history it lacks \
                         (after seqno {}) is in no gcache any more (oldest available: {first}); \
                         its data is left untouched",
                        self.local.applied
                    );
                }
                self.needs_sst = Some(first);
            }
            PeerMsg::Hello { .. } => {}
        }
    }

    /// Submits a local write-set; it stays in flight until its entry commits.
    pub fn submit(&mut self, ws: WriteSet, expires_after_ticks: u64) {
        let trx = ws.trx_id;
        let bytes = ws.encode();
        self.inflight.insert(
            trx,
            InFlight {
                bytes,
                ws,
                sent_tick: self.ticks,
                expires_tick: self.ticks + expires_after_ticks,
            },
        );
        self.send_inflight(trx);
    }

    fn send_inflight(&mut self, trx: TrxId) {
        let now = self.ticks;
        let Some(f) = self.inflight.get_mut(&trx) else {
            return;
        };
        f.sent_tick = now;
        let (ws, bytes) = (f.ws.clone(), f.bytes.clone());
        if self.is_leader() {
            self.propose_write_set(ws, &bytes);
        } else if let Some(l) = self.member(self.leader()) {
            self.pending.messages.push((l, PeerMsg::Submit(bytes)));
        }
    }

    /// Leader: certify and append one write-set (unless it is already in the log).
    fn propose_write_set(&mut self, ws: WriteSet, _bytes: &[u8]) {
        if self.leaving {
            return;
        }
        let id = (ws.origin, ws.trx_id);
        if self.dedup.contains_key(&id) {
            return;
        }
        self.ensure_cert_index();
        let Some((_, cert)) = self.cert.as_mut() else {
            return;
        };
        let verdict = cert.certify(&ws);
        let index = self.raw.raft.raft_log.last_index() + 1;
        let data = Entry::certified(verdict, ws.clone()).encode();
        if let Err(e) = self.raw.propose(Vec::new(), data) {
            tracing::debug!("write-set {}:{} not proposed: {e}", ws.origin, ws.trx_id);
            return;
        }
        if self.raw.raft.raft_log.last_index() != index {
            return;
        }
        if verdict == Verdict::Pass {
            if let Some((_, cert)) = self.cert.as_mut() {
                cert.record(index, &ws);
            }
        }
        self.remember(id, index);
    }

    fn remember(&mut self, id: (NodeId, TrxId), index: Seqno) {
        self.dedup.insert(id, index);
        self.dedup_order.push_back(id);
        while self.dedup_order.len() > self.cfg.cert_window {
            if let Some(old) = self.dedup_order.pop_front() {
                self.dedup.remove(&old);
            }
        }
    }

    /// Rebuilds the certification index from the log when this node starts a new term
    /// as leader.
    fn ensure_cert_index(&mut self) {
        let term = self.term();
        if self.cert.as_ref().is_some_and(|(t, _)| *t == term) {
            return;
        }
        let log = &self.raw.raft.raft_log;
        let last = log.last_index();
        let from = log
            .first_index()
            .max(last.saturating_sub(self.cfg.cert_window as u64) + 1);
        let mut cert = CertIndex::new(from - 1, self.cfg.cert_window);
        self.dedup.clear();
        self.dedup_order.clear();
        let mut lo = from;
        while lo <= last {
            let batch = match log.slice(lo, last + 1, 8 << 20, GetEntriesContext::empty(false)) {
                Ok(b) if !b.is_empty() => b,
                Ok(_) => break,
                Err(e) => {
                    tracing::error!("cannot read the log to rebuild certification: {e}");
                    return;
                }
            };
            lo = batch.last().map(|e| e.index + 1).unwrap_or(last + 1);
            for e in batch {
                if e.get_entry_type() != EntryType::EntryNormal || e.data.is_empty() {
                    continue;
                }
                if let Ok(Entry::WriteSet { verdict, ws }) = Entry::decode(&e.data) {
                    if verdict == Verdict::Pass {
                        cert.record(e.index, &ws);
                    }
                    self.dedup.insert((ws.origin, ws.trx_id), e.index);
                    self.dedup_order.push_back((ws.origin, ws.trx_id));
                }
            }
        }
        tracing::debug!("certification index rebuilt from entries {from}..={last}");
        self.cert = Some((term, cert));
    }

    /// Asks for the commit index to wait for before a causal read.
    pub fn read_index(&mut self, request: u64) {
        self.raw.read_index(request.to_le_bytes().to_vec());
    }

    /// Persists what Raft produced and returns what to do next.
    pub fn ready(&mut self) -> Result<Output, ReplicationError> {
        if !self.raw.has_ready() {
            self.tell_nodes_needing_sst();
            return Ok(std::mem::take(&mut self.pending));
        }
        let mut rd = self.raw.ready();
        let was_leader = self.is_leader();
        if let Some(ss) = rd.ss() {
            if ss.raft_state != StateRole::Leader {
                self.cert = None;
            }
            if ss.leader_id != 0 && ss.leader_id != self.id() {
                self.leader_seen = self.ticks;
            }
            tracing::debug!("raft role {:?}, leader {}", ss.raft_state, ss.leader_id);
        }
        let msgs = rd.take_messages();
        self.queue_raft_messages(msgs);
        if !rd.snapshot().is_empty() {
            return Err(ReplicationError::Raft(
                "received a snapshot: this node needs a state transfer".into(),
            ));
        }
        self.store.append(rd.entries())?;
        if let Some(hs) = rd.hs() {
            self.store.set_hard_state(hs)?;
        }
        let committed = rd.take_committed_entries();
        self.handle_committed(committed)?;
        let msgs = rd.take_persisted_messages();
        self.queue_raft_messages(msgs);
        for rs in rd.take_read_states() {
            if let Ok(b) = <[u8; 8]>::try_from(&rs.request_ctx[..]) {
                self.pending.reads.push((u64::from_le_bytes(b), rs.index));
            }
        }
        let mut light = self.raw.advance(rd);
        if let Some(c) = light.commit_index() {
            self.store.set_commit(c);
        }
        let msgs = light.take_messages();
        self.queue_raft_messages(msgs);
        let committed = light.take_committed_entries();
        self.handle_committed(committed)?;
        self.raw.advance_apply();
        if was_leader && !self.is_leader() {
            self.cert = None;
        }
        self.tell_nodes_needing_sst();
        Ok(std::mem::take(&mut self.pending))
    }

    fn queue_raft_messages(&mut self, msgs: Vec<RaftMessage>) {
        for m in msgs {
            match self.member(m.to) {
                Some(to) => self.pending.messages.push((to, PeerMsg::Raft(Box::new(m)))),
                None => tracing::trace!("no address for raft peer {}", m.to),
            }
        }
    }

    fn handle_committed(
        &mut self,
        entries: Vec<raft::eraftpb::Entry>,
    ) -> Result<(), ReplicationError> {
        for e in entries {
            let seqno = e.index;
            let entry = match e.get_entry_type() {
                EntryType::EntryNormal if e.data.is_empty() => Entry::Noop,
                EntryType::EntryNormal => match Entry::decode(&e.data) {
                    Ok(entry) => entry,
                    Err(err) => {
                        return Err(ReplicationError::Raft(format!(
                            "committed entry {seqno} cannot be read: {err}"
                        )))
                    }
                },
                EntryType::EntryConfChange => {
                    self.apply_conf_change(&e)?;
                    Entry::Noop
                }
                EntryType::EntryConfChangeV2 => {
                    return Err(ReplicationError::Raft(format!(
                        "entry {seqno}: joint membership changes are not used by tutti"
                    )))
                }
            };
            if let Entry::WriteSet { ws, .. } = &entry {
                if ws.origin == self.id() {
                    self.inflight.remove(&ws.trx_id);
                }
            }
            self.pending.committed.push(Committed { seqno, entry });
        }
        Ok(())
    }
}
