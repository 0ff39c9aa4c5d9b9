//! Who is alive, whether this node is in a primary component, and a fast election when
//! the leader's process is gone.
//!
//! The primary component is Galera's notion, not Raft's leader: a node is in it while it
//! hears from the leader, or from a majority of the voters (itself included when it
//! votes), within an election timeout. Losing the leader therefore does not make the survivors non-Primary: they keep
//! serving reads while they elect a new one, and writes wait for it (within the commit
//! timeout) instead of failing. A node cut off from the majority becomes non-Primary within
//! an election timeout, as before.
//!
//! Presence is the peer's process and network, not its Raft thread: a node whose Raft
//! thread waits seconds in an fsync (a slow or stalled disk) sends nothing itself, but its
//! transport keeps idle connections alive, and those keepalives count (from a peer already
//! known in this configuration epoch). Otherwise one slow disk would make the *other*
//! survivors of a leader loss non-Primary and refuse reads.
//!
//! When the leader's connection closes (its process died: the kernel closes its sockets at
//! once) a follower does not wait out the election timeout: it forgets the leader (so it
//! grants votes at once) and schedules its own campaign one tick later, staggered by its
//! rank among the voters so that two survivors do not split the vote. If the leader was
//! alive after all, its next heartbeat restores it; a pre-vote cannot disturb a live
//! leader, since every other follower still hears it.

use tutti_wsrep::NodeId;

use super::core::RaftCore;
use super::wire::PeerMsg;

impl RaftCore {
    /// Ticks within which a peer must have been heard to count as present.
    fn presence_ticks(&self) -> u64 {
        self.cfg.election_tick as u64
    }

    fn heard_within(&self, id: NodeId, ticks: u64) -> bool {
        id == self.id()
            || self
                .heard
                .get(&id)
                .is_some_and(|t| self.ticks.saturating_sub(*t) <= ticks)
    }

    /// True when this node is in a primary component (see the module doc).
    pub fn is_primary(&self) -> bool {
        if self.removed {
            return false;
        }
        if self.is_leader() {
            // check-quorum makes a leader cut off from the majority step down.
            return true;
        }
        let window = self.presence_ticks();
        if self.leader() != 0 && self.heard_within(self.leader(), window) {
            // The leader has a majority behind it: whoever hears it is in its component
            // (a learner, too, before the other voters know it).
            return true;
        }
        let voters = self.store.0.read().state.voters.clone();
        if voters.is_empty() {
            return false;
        }
        let present = voters
            .iter()
            .filter(|v| self.heard_within(**v, window))
            .count();
        2 * present > voters.len()
    }

    /// Members heard from recently, self included.
    pub fn alive(&self) -> Vec<NodeId> {
        let window = 2 * self.presence_ticks();
        let mut v: Vec<NodeId> = self
            .store
            .0
            .read()
            .state
            .members
            .keys()
            .copied()
            .filter(|id| self.heard_within(*id, window))
            .collect();
        v.push(self.id());
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Ticks since a peer was last heard from (None: never, since this node started).
    pub fn silent_ticks(&self, id: NodeId) -> Option<u64> {
        self.heard.get(&id).map(|t| self.ticks.saturating_sub(*t))
    }

    /// The transport heard a keepalive from `id` (see the module doc).
    pub fn peer_alive(&mut self, id: NodeId) {
        let epoch = self.epoch();
        if self.peers.get(&id).is_some_and(|g| g.epoch == epoch) {
            self.mark_heard(id);
        }
    }

    /// `id` was heard from now.
    pub(super) fn mark_heard(&mut self, id: NodeId) {
        self.heard.insert(id, self.ticks);
        self.heard_ms.insert(id, super::retention::now_ms());
    }

    /// The transport lost its connection from `id`.
    pub fn peer_lost(&mut self, id: NodeId) {
        if id == 0 || id != self.leader() || self.is_leader() {
            return;
        }
        let voters = self.store.0.read().state.voters.clone();
        if !voters.contains(&self.id()) {
            return;
        }
        let rank = voters
            .iter()
            .filter(|v| **v != id && **v < self.id())
            .count();
        let r = &mut self.raw.raft;
        let timeout = r.randomized_election_timeout();
        r.leader_id = 0;
        r.election_elapsed = timeout.saturating_sub(1 + 2 * rank);
        tracing::info!(
            "lost the connection from the leader {}: electing a new one",
            self.name_of(id)
        );
    }

    /// The leader answers a Raft message or gossip from a node outside the configuration:
    /// it was removed while it was away (or replaced), and must ask to join again.
    pub(super) fn tell_if_not_member(&mut self, from: NodeId) {
        if !self.is_leader() {
            return;
        }
        {
            let g = self.store.0.read();
            if g.state.voters.contains(&from) || g.state.learners.contains(&from) {
                return;
            }
        }
        self.tell_removed(from);
    }

    /// Tells a node that it is not a member, with this node's bootstrap epoch (at most once
    /// per retry interval).
    pub(super) fn tell_removed(&mut self, to: NodeId) {
        let last = self.told_removed.get(&to).copied();
        if last.is_some_and(|t| self.ticks - t < super::core::RETRY_TICKS) {
            return;
        }
        self.told_removed.insert(to, self.ticks);
        if let Some(m) = self.member(to) {
            let epoch = self.epoch();
            self.pending.messages.push((m, PeerMsg::Removed { epoch }));
        }
    }
}
