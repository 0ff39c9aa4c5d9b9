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
//!   a verdict never depends on anything but the log before it ([`inflight`](super::inflight)).
//! - A write-set is identified by (origin, trx id). Its origin keeps it in flight and sends
//!   it again to whoever leads until its entry is committed, at once when a new leader
//!   becomes known; the leader ignores a write-set already in its log. A duplicate that
//!   slipped through fails certification against its twin, so the outcome the origin sees
//!   first is the truth.
//! - Entries are persisted (fsync) before they are handed out as committed.
//! - Nothing a peer sends reaches a raft-rs assertion: a heartbeat claiming a commit index
//!   beyond this node's log is not allowed to move the commit index.

use raft::eraftpb::{ConfChangeType, EntryType, Message as RaftMessage, MessageType};
use raft::{Config, RawNode, StateRole};
use std::collections::{BTreeMap, HashMap, VecDeque};
use tutti_wsrep::{NodeId, Seqno, TrxId, WriteSet};

use super::inflight::InFlight;
use super::log_store::LogStore;
use super::wire::{Gossip, Member, PeerMsg};
use crate::applier::Committed;
use crate::certification::CertIndex;
use crate::entry::Entry;
use crate::ReplicationError;

/// Ticks between re-sends of an in-flight write-set, join and leave requests.
pub(super) const RETRY_TICKS: u64 = 10;
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
    /// Length of one tick (for log lines in seconds).
    pub tick: std::time::Duration,
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

/// The Raft core.
pub struct RaftCore {
    pub(super) raw: RawNode<LogStore>,
    pub(super) store: LogStore,
    pub(super) cfg: CoreConfig,
    /// raft-rs's settings and logger, kept to rebuild the node (`pc.bootstrap`).
    pub(super) raft_config: Config,
    pub(super) logger: slog::Logger,
    pub(super) ticks: u64,
    /// Term whose log the certification index was built from (Some only while leader).
    pub(super) cert: Option<(u64, CertIndex)>,
    /// (origin, trx) of write-sets in the leader's recent log.
    pub(super) dedup: HashMap<(NodeId, TrxId), Seqno>,
    pub(super) dedup_order: VecDeque<(NodeId, TrxId)>,
    pub(super) inflight: BTreeMap<TrxId, InFlight>,
    /// Causal-read requests not answered yet (asked again when a new leader is known).
    pub(super) pending_reads: Vec<u64>,
    /// The leader as last seen, to notice changes.
    pub(super) known_leader: NodeId,
    /// Tick at which this node last became leader.
    pub(super) leader_since: u64,
    /// Tick of the last Raft message or gossip from each peer.
    pub(super) heard: HashMap<NodeId, u64>,
    /// Last gossip heard from each peer.
    pub(super) peers: HashMap<NodeId, Gossip>,
    /// Members that left: the seqno each will need, when it left (unix ms), its name.
    pub(super) departed: HashMap<NodeId, (Seqno, u64, String)>,
    /// When each peer was last heard from (unix ms).
    pub(super) heard_ms: HashMap<NodeId, u64>,
    /// Set when the cluster told this node its history is gone: the first seqno available.
    pub(super) needs_sst: Option<Seqno>,
    /// Set when the leader refused this node's join, with the reason.
    pub(super) join_refused: Option<String>,
    /// Peer addresses learned from hellos (a joiner knows nobody's address yet).
    pub(super) heard_addrs: HashMap<NodeId, String>,
    /// Tick at which each non-member was last told it is not a member.
    pub(super) told_removed: HashMap<NodeId, u64>,
    /// Ticks of silence after which the leader removes a member (`evs.inactive_timeout`).
    pub inactive_ticks: u64,
    /// Set while leaving cleanly.
    pub(super) leaving: bool,
    /// Set once this node's clean leave is done.
    pub(super) removed: bool,
    /// Set after `pc.bootstrap` until the leader has logged the new configuration.
    pub(super) bootstrap_pending: bool,
    /// A `pc.bootstrap` configuration met in the log: rebuild at that seqno.
    pub(super) rebuild_at: Option<Seqno>,
    /// Rate limit for repeating warnings.
    pub(super) throttle: crate::throttle::Throttle,
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
        let raw = raw_node(&raft_config, &store, applied, logger)?;
        Ok(RaftCore {
            raw,
            store,
            cfg,
            raft_config,
            logger: logger.clone(),
            ticks: 0,
            cert: None,
            dedup: HashMap::new(),
            dedup_order: VecDeque::new(),
            inflight: BTreeMap::new(),
            pending_reads: Vec::new(),
            known_leader: 0,
            leader_since: 0,
            heard: HashMap::new(),
            peers: HashMap::new(),
            heard_addrs: HashMap::new(),
            departed: HashMap::new(),
            heard_ms: HashMap::new(),
            needs_sst: None,
            join_refused: None,
            told_removed: HashMap::new(),
            inactive_ticks: u64::MAX,
            leaving: false,
            removed: false,
            bootstrap_pending: false,
            rebuild_at: None,
            throttle: crate::throttle::Throttle::new(std::time::Duration::from_secs(30)),
            local: Gossip {
                applied,
                state: 0,
                recv_queue: 0,
                primary: false,
                epoch: 0,
            },
            pending: Output::default(),
        })
    }

    /// Builds raft-rs's node again from the durable state (after `pc.bootstrap` changed the
    /// configuration outside the log); `applied` is the last entry already handed out.
    pub(super) fn rebuild(&mut self, applied: Seqno) -> Result<(), ReplicationError> {
        self.raft_config.applied = applied;
        self.raw = raw_node(&self.raft_config, &self.store, applied, &self.logger)?;
        self.cert = None;
        self.known_leader = 0;
        Ok(())
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

    /// True once this node has left the cluster cleanly.
    pub fn removed(&self) -> bool {
        self.removed
    }

    /// Why the leader refused to let this node join, if it did.
    pub fn join_refused(&self) -> Option<&str> {
        self.join_refused.as_deref()
    }

    /// The last gossip of a peer.
    pub fn peer_gossip(&self, id: NodeId) -> Option<&Gossip> {
        self.peers.get(&id)
    }

    /// The log store.
    pub fn store(&self) -> &LogStore {
        &self.store
    }

    /// One tick of the logical clock.
    pub fn tick(&mut self) {
        self.ticks += 1;
        self.raw.tick();
        // The first round goes out at once: a node coming back learns early whether its
        // configuration was replaced while it was away (see `bootstrap`).
        if self.ticks % GOSSIP_TICKS == 1 {
            self.local.primary = self.is_primary();
            self.local.epoch = self.epoch();
            let g = PeerMsg::Gossip(self.local.clone());
            for m in self.other_members() {
                self.pending.messages.push((m, g.clone()));
            }
        }
        if self.ticks % RETRY_TICKS == 1 {
            self.retry();
        }
    }

    pub(super) fn other_members(&self) -> Vec<Member> {
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

    /// A member as logs name it: `node2 (5f0c9a1e)`.
    pub fn name_of(&self, id: NodeId) -> String {
        let name = self
            .store
            .0
            .read()
            .state
            .members
            .get(&id)
            .map(|m| m.name.clone())
            .unwrap_or_default();
        if name.is_empty() {
            format!("{id:016x}")
        } else {
            format!("{name} ({:08x})", id >> 32)
        }
    }

    /// Remembers where a peer listens (from its hello), for peers not yet known as members.
    pub fn learn_addr(&mut self, id: NodeId, addr: String) {
        if id != 0 && !addr.is_empty() {
            self.heard_addrs.insert(id, addr);
        }
    }

    /// Periodic work: re-send what has no answer yet, ask to join or leave, promote
    /// caught-up learners, remove members silent for too long.
    fn retry(&mut self) {
        self.resend_due();
        let state = self.store.state();
        let member = state.voters.contains(&self.id()) || state.learners.contains(&self.id());
        if (!member || state.left) && !self.leaving {
            self.ask_to_join(&state.members);
        }
        if self.leaving && !self.removed {
            self.ask_to_leave();
        }
        if self.is_leader() {
            self.promote_caught_up_learners();
            self.remove_inactive_members();
        }
    }

    /// A message from a peer.
    pub fn step(&mut self, from: NodeId, msg: PeerMsg) {
        if let Some(epoch) = msg.epoch() {
            if !self.same_epoch(from, epoch, &msg) {
                return;
            }
        }
        if matches!(msg, PeerMsg::Raft { .. } | PeerMsg::Gossip(_)) {
            self.mark_heard(from);
            self.tell_if_not_member(from);
        }
        match msg {
            PeerMsg::Raft { msg, .. } => self.step_raft(from, *msg),
            PeerMsg::Submit(bytes) => self.on_submit(from, bytes),
            PeerMsg::Join(j) => self.on_join(j),
            PeerMsg::JoinRefused(why) => self.on_join_refused(why),
            PeerMsg::Leave(id) => self.on_leave(id),
            PeerMsg::Removed { .. } => self.on_removed(),
            PeerMsg::Gossip(g) => {
                self.peers.insert(from, g);
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

    fn step_raft(&mut self, from: NodeId, mut m: RaftMessage) {
        // A node rebuilt with an empty datadir listens where its old identity did: the
        // others may still send that identity's messages (a heartbeat saying it has 209
        // entries) to this address. raft-rs does not check the recipient.
        if m.to != self.id() {
            tracing::debug!(
                "raft message for {:016x} from {} ignored: this node is {:016x}",
                m.to,
                self.name_of(from),
                self.id()
            );
            return;
        }
        // A heartbeat may only move the commit index within this node's log: raft-rs
        // asserts it, and no peer may be able to stop the node.
        let last = self.raw.raft.raft_log.last_index();
        if m.get_msg_type() == MessageType::MsgHeartbeat && m.commit > last {
            tracing::debug!(
                "heartbeat from {} claims commit {} beyond this node's log ({last})",
                self.name_of(from),
                m.commit
            );
            m.commit = self.raw.raft.raft_log.committed;
        }
        if let Err(e) = self.raw.step(m) {
            tracing::debug!("raft message from {} ignored: {e}", self.name_of(from));
        }
    }

    /// Persists what Raft produced and returns what to do next.
    pub fn ready(&mut self) -> Result<Output, ReplicationError> {
        if self.raw.has_ready() {
            self.ready_round()?;
        }
        self.after_round()?;
        Ok(std::mem::take(&mut self.pending))
    }

    fn ready_round(&mut self) -> Result<(), ReplicationError> {
        let mut rd = self.raw.ready();
        if let Some(ss) = rd.ss() {
            if ss.raft_state != StateRole::Leader {
                self.cert = None;
            } else {
                self.leader_since = self.ticks;
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
                let id = u64::from_le_bytes(b);
                self.pending_reads.retain(|r| *r != id);
                self.pending.reads.push((id, rs.index));
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
        if !self.is_leader() {
            self.cert = None;
        }
        Ok(())
    }

    /// Work after a round: a rebuild the log asked for, a new leader, SST notices.
    fn after_round(&mut self) -> Result<(), ReplicationError> {
        if let Some(at) = self.rebuild_at.take() {
            self.rebuild(at)?;
        }
        let leader = self.leader();
        if leader != self.known_leader {
            self.known_leader = leader;
            if leader != 0 {
                // A new leader: what waits for an answer goes to it now, not at the next
                // retry tick.
                self.resend_all();
            }
        }
        self.campaign_if_alone();
        if self.bootstrap_pending && self.is_leader() {
            self.log_bootstrap();
        }
        self.tell_nodes_needing_sst();
        Ok(())
    }

    /// The only voter leads: raft-rs refuses to campaign while a membership change is
    /// committed but not applied (a node that just bootstrapped), so campaign once it is.
    fn campaign_if_alone(&mut self) {
        let alone = self.store.0.read().state.voters == [self.id()];
        if alone && self.raw.raft.state == StateRole::Follower && !self.leaving {
            let _ = self.raw.campaign();
        }
    }

    fn queue_raft_messages(&mut self, msgs: Vec<RaftMessage>) {
        let epoch = self.epoch();
        for m in msgs {
            match self.member(m.to) {
                Some(to) => {
                    let msg = PeerMsg::Raft {
                        epoch,
                        msg: Box::new(m),
                    };
                    self.pending.messages.push((to, msg))
                }
                None => tracing::trace!("no address for raft peer {}", m.to),
            }
        }
    }

    fn handle_committed(
        &mut self,
        entries: Vec<raft::eraftpb::Entry>,
    ) -> Result<(), ReplicationError> {
        for e in entries {
            if self.rebuild_at.is_some() {
                // Entries after a configuration reset are handed out again by the rebuilt
                // node.
                break;
            }
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
            match &entry {
                Entry::WriteSet { ws, .. } if ws.origin == self.id() => {
                    self.inflight.remove(&ws.trx_id);
                }
                Entry::Bootstrap { voters } => self.apply_bootstrap(seqno, voters)?,
                _ => {}
            }
            self.pending.committed.push(Committed { seqno, entry });
        }
        Ok(())
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

    /// Proposes a membership change (one at a time, Raft's rule for simple changes).
    pub(super) fn propose_membership(
        &mut self,
        kind: ConfChangeType,
        id: NodeId,
        who: Option<&Member>,
    ) -> bool {
        if self.raw.raft.has_pending_conf() {
            return false;
        }
        let mut cc = raft::eraftpb::ConfChange::default();
        cc.set_change_type(kind);
        cc.node_id = id;
        let context = who.map(Member::encode).unwrap_or_default();
        match self.raw.propose_conf_change(context, cc) {
            Ok(()) => true,
            Err(e) => {
                tracing::debug!(
                    "membership change for {} not proposed: {e}",
                    self.name_of(id)
                );
                false
            }
        }
    }
}

/// raft-rs's node over the store; a node alone in the configuration campaigns at once.
fn raw_node(
    config: &Config,
    store: &LogStore,
    applied: Seqno,
    logger: &slog::Logger,
) -> Result<RawNode<LogStore>, ReplicationError> {
    let state = store.state();
    store.set_commit(state.commit.max(applied));
    let mut raw = RawNode::new(config, store.clone(), logger)?;
    if state.voters == [config.id] {
        raw.campaign()?;
    }
    Ok(raw)
}
