//! `pc.bootstrap`: an operator makes a surviving minority the primary component.
//!
//! As in Galera, this is the way out when the majority is gone for good (two of three nodes
//! destroyed): `SET GLOBAL wsrep_provider_options='pc.bootstrap=YES'` on the survivor. It
//! is refused while this node is in a primary component, or while any member it can reach
//! says it is in one (that would make two primary components). Otherwise this node
//! becomes the only voter: the configuration is rewritten outside the log, raft-rs's node
//! is rebuilt from it and campaigns alone, and the new leader then writes an
//! [`Entry::Bootstrap`] naming the voters, so that any node replaying the log later adopts
//! the same configuration at the same place. The other members, when they come back, are
//! told they are not members and rejoin as learners (their history is checked first: what
//! they applied after the survivor's history ends is lost to the cluster, exactly as with
//! Galera's pc.bootstrap on the node that has the least, and such a node needs SST).
//!
//! The members left out still hold the old configuration, in which two of them are a
//! majority: coming back together they could elect a leader of their own, beside the
//! bootstrapped one. The bootstrap epoch prevents that. `pc.bootstrap` raises this node's
//! epoch, and its term to at least `epoch << 40` so that no entry written after the
//! bootstrap has the term of one written before it (the history check at a join, and Raft's
//! log matching, then tell the two histories apart). Raft messages, gossip, join requests
//! and removal notices carry the sender's epoch. A node hearing a newer epoch drops its old
//! configuration at once (it neither votes nor campaigns in it any more), keeps its data,
//! and asks to join, as a node removed while away does; a node hearing an older epoch
//! ignores the message and tells the sender. Returning nodes gossip on their first tick, so
//! they hear of the new epoch well before an election timeout; members cut off from the
//! bootstrapped node while it was bootstrapped are told as soon as they reach it, and what
//! they wrote in the meantime fails the history check (SST), as in Galera.

use tutti_wsrep::{NodeId, Seqno};

use super::core::RaftCore;
use super::wire::PeerMsg;
use crate::entry::Entry;
use crate::ReplicationError;

impl RaftCore {
    /// Makes this node the primary component on its own (see the module doc).
    pub fn force_bootstrap(&mut self, applied: Seqno) -> Result<String, String> {
        if self.is_primary() {
            return Err(
                "this node is in a primary component: pc.bootstrap is only for a \
                 non-Primary component"
                    .into(),
            );
        }
        // Heard within the window that decides this node's own component.
        let window = self.cfg.election_tick as u64;
        let primary_peer = self
            .peers
            .iter()
            .filter(|(id, g)| g.primary && self.silent_ticks(**id).is_some_and(|t| t <= window))
            .map(|(id, _)| *id)
            .next();
        if let Some(p) = primary_peer {
            return Err(format!(
                "{} is in a primary component and reachable: refused (it would make two \
                 primary components)",
                self.name_of(p)
            ));
        }
        let me = self.cfg.me.clone();
        self.store
            .update(|s| {
                s.epoch += 1;
                s.term = s.term.max(s.epoch << 40);
                s.vote = 0;
                s.voters = vec![me.id];
                s.learners.clear();
                s.members.retain(|id, _| *id == me.id);
                s.left = false;
            })
            .map_err(|e| e.to_string())?;
        // Everything raft-rs handed out stays handed out: nothing is applied twice.
        self.rebuild(self.raw.raft.raft_log.applied)
            .map_err(|e| e.to_string())?;
        self.bootstrap_pending = true;
        self.removed = false;
        self.join_refused = None;
        let line = format!(
            "pc.bootstrap: {} is now the primary component on its own, at seqno {applied}; \
             the other members rejoin as learners when they come back",
            self.name_of(me.id)
        );
        tracing::warn!("{line}");
        Ok(line)
    }

    /// This node's bootstrap epoch.
    pub fn epoch(&self) -> u64 {
        self.store.0.read().state.epoch
    }

    /// Compares a peer's epoch with this node's; false when the message must be dropped
    /// (it comes from an older configuration, and a join request from there is still
    /// heard: that is how such a node comes back).
    pub(super) fn same_epoch(&mut self, from: NodeId, epoch: u64, msg: &PeerMsg) -> bool {
        let mine = self.epoch();
        if epoch > mine {
            self.adopt_epoch(from, epoch);
        } else if epoch < mine && !matches!(msg, PeerMsg::Join(_) | PeerMsg::Removed { .. }) {
            self.tell_removed(from);
            return false;
        }
        epoch >= mine
    }

    /// A peer speaks for a newer configuration: leave the old one (see the module doc).
    fn adopt_epoch(&mut self, from: NodeId, epoch: u64) {
        let s = self.store.state();
        let me = self.id();
        let member = s.voters.contains(&me) || s.learners.contains(&me);
        if member {
            tracing::warn!(
                "{} is in a configuration an operator bootstrapped without this node                  (pc.bootstrap; epoch {epoch}, this node's {}): leaving the old                  configuration and asking to join",
                self.name_of(from),
                s.epoch
            );
        }
        let updated = self.store.update(|s| {
            s.epoch = epoch;
            if member {
                s.voters.clear();
                s.learners.clear();
                s.left = true;
            }
        });
        let rebuilt = match updated {
            Ok(()) if member => self.rebuild(self.raw.raft.raft_log.applied),
            other => other,
        };
        if let Err(e) = rebuilt {
            tracing::error!("adopting bootstrap epoch {epoch}: {e}");
        }
        if member && self.leaving {
            self.mark_removed();
        }
    }

    /// Leader after `pc.bootstrap`: writes the new configuration into the log.
    pub(super) fn log_bootstrap(&mut self) {
        let voters = self.store.state().voters;
        let data = Entry::Bootstrap { voters }.encode();
        match self.raw.propose(Vec::new(), data) {
            Ok(()) => self.bootstrap_pending = false,
            Err(e) => tracing::debug!("bootstrap entry not proposed yet: {e}"),
        }
    }

    /// A committed [`Entry::Bootstrap`]: adopt its configuration (raft-rs's node is rebuilt
    /// after this round, and hands out the entries after it again).
    pub(super) fn apply_bootstrap(
        &mut self,
        seqno: Seqno,
        voters: &[NodeId],
    ) -> Result<(), ReplicationError> {
        let state = self.store.state();
        let me = self.id();
        if state.voters == voters && state.learners.is_empty() {
            self.count_conf_change(seqno)?;
            return Ok(());
        }
        let names: Vec<String> = voters.iter().map(|v| self.name_of(*v)).collect();
        tracing::warn!(
            "seqno {seqno}: the cluster was bootstrapped by an operator (pc.bootstrap); voters \
             are now [{}]",
            names.join(", ")
        );
        self.store.update(|s| {
            s.voters = voters.to_vec();
            s.learners.clear();
            s.members.retain(|id, _| voters.contains(id) || *id == me);
            if !voters.contains(&me) {
                s.left = true;
            }
        })?;
        self.count_conf_change(seqno)?;
        self.rebuild_at = Some(seqno);
        Ok(())
    }
}
