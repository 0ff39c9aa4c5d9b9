//! Membership: joining as a learner, promotion to voter once caught up, leaving cleanly,
//! replacing a member that came back under the same name, removing members that stayed
//! away, and applying committed membership changes (which also keep every member's
//! addresses).
//!
//! A node asks any member to join, saying where its history ends; the leader checks that
//! this history is the cluster's (the entry at that seqno has the same term in the
//! leader's log, and it is not beyond the log), adds it as a learner (the entry's context
//! carries its name and addresses), replicates what it lacks, and promotes it to voter when
//! it has everything. One membership change is in flight at a time (Raft's rule for simple
//! changes).
//!
//! The rule the cluster guarantees, in Galera's terms: a member that nobody has heard from
//! for `evs.inactive_timeout` is removed from the configuration by the leader, which needs
//! a majority of the current voters to commit the removal. Quorum is then counted over the
//! members that remain, as Galera counts it over the previous primary component: a 3-node
//! cluster that lost one node for longer than the timeout is a 2-node cluster, which
//! survives no further failure, while one that lost a node for less than the timeout still
//! counts 3 voters and survives the loss of the node that is away only if it comes back. A
//! removed node that returns is told so, rejoins as a learner, catches up (IST) and becomes
//! a voter again. A node that joins under the name of a member that is not alive (a node
//! rebuilt with an empty datadir) replaces it: the old identity is removed first. A live
//! member's name cannot be taken.

use protobuf::Message as _;
use raft::eraftpb::{ConfChange, ConfChangeType};
use std::collections::BTreeMap;
use tutti_wsrep::NodeId;

use super::core::RaftCore;
use super::wire::{JoinRequest, Member, PeerMsg};
use crate::ReplicationError;

impl RaftCore {
    pub(super) fn ask_to_join(&mut self, members: &BTreeMap<NodeId, Member>) {
        let mut targets: Vec<Member> = members
            .values()
            .filter(|m| m.id != self.id())
            .cloned()
            .collect();
        for s in &self.cfg.seeds {
            if !targets.iter().any(|m| &m.peer_addr == s) {
                targets.push(Member {
                    id: 0,
                    name: String::new(),
                    peer_addr: s.clone(),
                    mysql_addr: String::new(),
                });
            }
        }
        let applied = self.local.applied;
        let request = JoinRequest {
            member: self.cfg.me.clone(),
            applied,
            applied_term: self.raw.raft.raft_log.term(applied).unwrap_or(0),
            epoch: self.epoch(),
        };
        for t in targets {
            self.pending
                .messages
                .push((t, PeerMsg::Join(request.clone())));
        }
    }

    pub(super) fn ask_to_leave(&mut self) {
        if self.is_leader() {
            let me = self.id();
            self.propose_membership(ConfChangeType::RemoveNode, me, None);
        } else if let Some(l) = self.member(self.leader()) {
            self.pending.messages.push((l, PeerMsg::Leave(self.id())));
        }
    }

    pub(super) fn promote_caught_up_learners(&mut self) {
        if self.raw.raft.has_pending_conf() {
            return;
        }
        let committed = self.commit_index();
        let learners = self.store.state().learners;
        for id in learners {
            let caught_up = self
                .raw
                .raft
                .prs()
                .get(id)
                .is_some_and(|p| p.matched >= committed);
            if caught_up {
                tracing::info!(
                    "promoting {} to voter: it has the whole log",
                    self.name_of(id)
                );
                self.propose_membership(ConfChangeType::AddNode, id, None);
                return;
            }
        }
    }

    /// Leader: removes one member silent for longer than `evs.inactive_timeout`.
    pub(super) fn remove_inactive_members(&mut self) {
        if self.raw.raft.has_pending_conf() || self.leaving {
            return;
        }
        let s = self.store.state();
        // Silence counts from when this node became leader at the latest: before that it
        // did not listen for everyone.
        let led = self.ticks - self.leader_since;
        for id in s.voters.iter().chain(&s.learners).copied() {
            if id == self.id() {
                continue;
            }
            let silent = self.silent_ticks(id).unwrap_or(u64::MAX).min(led);
            if silent > self.inactive_ticks {
                let secs = self.cfg.tick.as_secs_f64() * silent as f64;
                tracing::warn!(
                    "member {} unreachable for {secs:.1} s (longer than evs.inactive_timeout): \
                     removing it from the cluster; it rejoins when it comes back",
                    self.name_of(id)
                );
                self.propose_membership(ConfChangeType::RemoveNode, id, None);
                return;
            }
        }
    }

    /// Leader: a node asks to join. Forwarded when not leading.
    pub(super) fn on_join(&mut self, j: JoinRequest) {
        if !self.is_leader() {
            if let Some(l) = self.member(self.leader()) {
                self.pending.messages.push((l, PeerMsg::Join(j)));
            }
            return;
        }
        let m = &j.member;
        let s = self.store.state();
        if s.voters.contains(&m.id) || s.learners.contains(&m.id) {
            return;
        }
        let namesake = s
            .members
            .values()
            .find(|o| o.id != m.id && !m.name.is_empty() && o.name == m.name)
            .map(|o| o.id);
        if let Some(old) = namesake {
            if self.alive().contains(&old) {
                let why = format!(
                    "a live member is already named '{}' ({:016x}): choose another \
                     --name, or stop that node first",
                    m.name, old
                );
                self.refuse_join(m, why);
            } else if self.propose_membership(ConfChangeType::RemoveNode, old, None) {
                tracing::warn!(
                    "node '{}' ({:016x}) joins under the name of member {}, which is not \
                     alive: removing the old identity first",
                    m.name,
                    m.id,
                    self.name_of(old)
                );
            }
            return;
        }
        if let Err(why) = self.check_history(&j) {
            self.refuse_join(m, why);
            return;
        }
        let member = m.clone();
        if self.propose_membership(ConfChangeType::AddLearnerNode, member.id, Some(&member)) {
            tracing::info!(
                "node '{}' ({:016x}) at {} asks to join at seqno {}: adding it as a learner",
                member.name,
                member.id,
                member.peer_addr,
                j.applied
            );
        }
    }

    /// The joiner's history must be a prefix of the cluster's, or catching up from the
    /// log would overwrite what its database already applied.
    fn check_history(&self, j: &JoinRequest) -> Result<(), String> {
        if j.applied == 0 {
            return Ok(());
        }
        let log = &self.raw.raft.raft_log;
        if j.applied > log.last_index() {
            return Err(format!(
                "its history is not the cluster's: it applied seqno {}, the cluster's \
                 history ends at {} (it needs a state snapshot transfer, SST)",
                j.applied,
                log.last_index()
            ));
        }
        // raft-rs answers 0 for an entry no longer in the log: unknown, not different (a
        // node whose history is purged here needs SST, which catching up will tell it).
        match log.term(j.applied) {
            Ok(t) if t != 0 && j.applied_term != 0 && t != j.applied_term => Err(format!(
                "its history is not the cluster's: seqno {} has term {} there and {t} in \
                 the cluster (it needs a state snapshot transfer, SST)",
                j.applied, j.applied_term
            )),
            _ => Ok(()),
        }
    }

    fn refuse_join(&mut self, m: &Member, why: String) {
        if let Some(held) = self.throttle.allow(&format!("refuse {} {why}", m.id)) {
            tracing::warn!(
                "join of node '{}' ({:016x}) refused: {why}{}",
                m.name,
                m.id,
                crate::throttle::repeated(held)
            );
        }
        let to = if m.peer_addr.is_empty() {
            self.member(m.id)
        } else {
            Some(m.clone())
        };
        if let Some(to) = to {
            self.pending.messages.push((to, PeerMsg::JoinRefused(why)));
        }
    }

    pub(super) fn on_join_refused(&mut self, why: String) {
        if self.join_refused.as_deref() != Some(why.as_str()) {
            tracing::warn!("the cluster refused this node (it keeps asking): {why}");
        }
        self.join_refused = Some(why);
    }

    /// A member asks to be removed (a clean leave, or an operator's `member remove`).
    pub(super) fn on_leave(&mut self, id: NodeId) {
        if self.is_leader() {
            let s = self.store.state();
            if s.voters.contains(&id) || s.learners.contains(&id) {
                tracing::info!("member {} leaves the cluster", self.name_of(id));
                self.propose_membership(ConfChangeType::RemoveNode, id, None);
            } else if let Some(m) = self.member(id) {
                self.pending.messages.push((
                    m,
                    PeerMsg::Removed {
                        epoch: self.epoch(),
                    },
                ));
            }
        } else if let Some(l) = self.member(self.leader()) {
            self.pending.messages.push((l, PeerMsg::Leave(id)));
        }
    }

    /// The leader says this node is not a member.
    pub(super) fn on_removed(&mut self) {
        if self.leaving {
            self.mark_removed();
            return;
        }
        let s = self.store.state();
        let thinks_member = s.voters.contains(&self.id()) || s.learners.contains(&self.id());
        if thinks_member && !s.left {
            tracing::warn!(
                "this node is no longer a member of the cluster (removed while it was away): \
                 rejoining"
            );
            let _ = self.store.update(|s| s.left = true);
        }
    }

    /// Starts leaving the cluster cleanly. Returns true when there is nothing to do
    /// (this node is the last voter, or not a member).
    pub fn leave(&mut self) -> bool {
        let s = self.store.state();
        let me = self.id();
        let others: Vec<NodeId> = s.voters.iter().copied().filter(|v| *v != me).collect();
        if others.is_empty() || !(s.voters.contains(&me) || s.learners.contains(&me)) {
            return true;
        }
        self.leaving = true;
        if self.is_leader() {
            // Hand leadership to the most up-to-date other voter first.
            let best = others
                .iter()
                .copied()
                .max_by_key(|id| self.raw.raft.prs().get(*id).map(|p| p.matched));
            if let Some(to) = best {
                self.raw.transfer_leader(to);
            }
        } else {
            self.ask_to_leave();
        }
        false
    }

    /// Asks the leader to remove a member (`tutti member remove`).
    pub fn remove_member(&mut self, id: NodeId) -> Result<(), String> {
        let s = self.store.state();
        if !(s.voters.contains(&id) || s.learners.contains(&id)) {
            return Err(format!("{id:016x} is not a member"));
        }
        if s.voters == [id] {
            return Err("the last voter cannot be removed".into());
        }
        if self.leader() == 0 {
            return Err("no leader is known (the cluster has no primary component)".into());
        }
        if id == self.id() {
            return Err("a node does not remove itself: stop it (a clean stop leaves)".into());
        }
        tracing::warn!("operator removes member {}", self.name_of(id));
        self.on_leave(id);
        Ok(())
    }

    pub(super) fn mark_removed(&mut self) {
        if !self.removed {
            self.removed = true;
            let _ = self.store.update(|s| s.left = true);
            tracing::info!("this node has left the cluster");
        }
    }

    /// Counts a membership change once (a replay of the same entry does not count again).
    pub(super) fn count_conf_change(
        &mut self,
        seqno: tutti_wsrep::Seqno,
    ) -> Result<(), ReplicationError> {
        self.store.update(|s| {
            if seqno > s.conf_index {
                s.conf_index = seqno;
                s.conf_changes += 1;
            }
        })
    }

    pub(super) fn apply_conf_change(
        &mut self,
        e: &raft::eraftpb::Entry,
    ) -> Result<(), ReplicationError> {
        let cc = ConfChange::parse_from_bytes(&e.data)
            .map_err(|err| ReplicationError::Raft(format!("bad membership change: {err}")))?;
        let cs = self.raw.apply_conf_change(&cc)?;
        let id = cc.node_id;
        let kind = cc.get_change_type();
        let joining = Member::decode(&e.context).ok();
        let who = match &joining {
            Some(m) if !m.name.is_empty() => format!("{} ({:08x})", m.name, m.id >> 32),
            _ => self.name_of(id),
        };
        if kind == ConfChangeType::RemoveNode && id != self.id() {
            let needs = self
                .peers
                .get(&id)
                .map(|g| g.applied + 1)
                .unwrap_or(e.index);
            self.departed
                .insert(id, (needs, super::retention::now_ms(), who.clone()));
            if self.is_leader() {
                if let Some(m) = self.member(id) {
                    self.pending.messages.push((
                        m,
                        PeerMsg::Removed {
                            epoch: self.epoch(),
                        },
                    ));
                }
            }
        } else {
            self.departed.remove(&id);
        }
        let me = self.cfg.me.clone();
        self.store.update(|s| {
            s.voters = cs.voters.clone();
            s.learners = cs.learners.clone();
            match kind {
                ConfChangeType::RemoveNode => {
                    s.members.remove(&id);
                }
                _ => {
                    if let Some(m) = joining {
                        s.members.insert(m.id, m);
                    }
                    if id == me.id {
                        s.left = false;
                        s.members.insert(id, me.clone());
                    }
                }
            }
        })?;
        self.count_conf_change(e.index)?;
        let names = |ids: &[NodeId]| {
            ids.iter()
                .map(|i| self.name_of(*i))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let what = match kind {
            ConfChangeType::AddNode => "voter",
            ConfChangeType::AddLearnerNode => "learner (joining)",
            ConfChangeType::RemoveNode => "removed",
        };
        tracing::info!(
            "membership change at seqno {}: {who} {what}; voters [{}], learners [{}]",
            e.index,
            names(&cs.voters),
            names(&cs.learners)
        );
        if id == self.id() {
            match kind {
                ConfChangeType::RemoveNode if self.leaving => self.mark_removed(),
                ConfChangeType::RemoveNode => {
                    // Removed while away (a replay during catch-up, or the removal reached
                    // this node late): it asks to join again unless re-added later in
                    // the log.
                    let _ = self.store.update(|s| s.left = true);
                }
                _ => {
                    self.removed = false;
                    self.join_refused = None;
                }
            }
        }
        Ok(())
    }
}
