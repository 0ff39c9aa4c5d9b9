//! Membership: joining as a learner, promotion to voter once caught up, leaving cleanly,
//! and applying committed membership changes (which also keep every member's addresses).
//!
//! A new node asks any member to join; the leader adds it as a learner (the entry's context
//! carries its name and addresses), replicates the whole log to it, and promotes it to voter
//! when it has everything. A node stopping cleanly hands leadership over if it leads, then
//! asks to be removed and waits for the removal, so the others keep their quorum. One
//! membership change is in flight at a time (Raft's rule for simple changes).

use protobuf::Message as _;
use raft::eraftpb::{ConfChange, ConfChangeType};
use std::collections::BTreeMap;
use tutti_wsrep::NodeId;

use super::core::RaftCore;
use super::wire::{Member, PeerMsg};
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
        for t in targets {
            self.pending
                .messages
                .push((t, PeerMsg::Join(self.cfg.me.clone())));
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
                tracing::info!("promoting member {id} to voter: it has the whole log");
                self.propose_membership(ConfChangeType::AddNode, id, None);
                return;
            }
        }
    }

    pub(super) fn propose_membership(
        &mut self,
        kind: ConfChangeType,
        id: NodeId,
        who: Option<&Member>,
    ) {
        if self.raw.raft.has_pending_conf() {
            return;
        }
        let mut cc = ConfChange::default();
        cc.set_change_type(kind);
        cc.node_id = id;
        let context = who.map(Member::encode).unwrap_or_default();
        if let Err(e) = self.raw.propose_conf_change(context, cc) {
            tracing::debug!("membership change for {id} not proposed: {e}");
        }
    }

    pub(super) fn on_join(&mut self, m: Member) {
        if !self.is_leader() {
            if let Some(l) = self.member(self.leader()) {
                self.pending.messages.push((l, PeerMsg::Join(m)));
            }
            return;
        }
        let s = self.store.state();
        if s.voters.contains(&m.id) || s.learners.contains(&m.id) {
            return;
        }
        tracing::info!(
            "node '{}' ({}) at {} asks to join: adding it as a learner",
            m.name,
            m.id,
            m.peer_addr
        );
        let id = m.id;
        self.propose_membership(ConfChangeType::AddLearnerNode, id, Some(&m));
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

    pub(super) fn mark_removed(&mut self) {
        if !self.removed {
            self.removed = true;
            let _ = self.store.update(|s| s.left = true);
            tracing::info!("this node has left the cluster");
        }
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
        if kind == ConfChangeType::RemoveNode && id != self.id() {
            let needs = self
                .peers
                .get(&id)
                .map(|(_, g)| g.applied + 1)
                .unwrap_or(e.index);
            self.departed
                .insert(id, (needs, super::retention::now_ms()));
        } else {
            self.departed.remove(&id);
        }
        if kind == ConfChangeType::RemoveNode && self.is_leader() {
            if let Some(m) = self.member(id) {
                self.pending.messages.push((m, PeerMsg::Removed));
            }
        }
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
                    if id == self.cfg.me.id {
                        s.left = false;
                        s.members.insert(id, self.cfg.me.clone());
                    }
                }
            }
        })?;
        tracing::info!(
            "membership change at seqno {}: {:?} {id}; voters {:?}, learners {:?}",
            e.index,
            kind,
            cs.voters,
            cs.learners
        );
        if kind == ConfChangeType::RemoveNode && id == self.id() {
            self.mark_removed();
        }
        Ok(())
    }
}
