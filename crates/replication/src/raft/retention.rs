//! Keeping history: which gcache segments may go, who is away, and who needs SST.
//!
//! Every node decides for its own gcache (any node may lead, and IST comes from the leader),
//! with the pure policy of `tutti_gcache::policy`. Its inputs come from what this node
//! knows: the members in the configuration that have not been heard from recently, and the
//! members that left cleanly (both "away", with the seqno each will need), and what must
//! never go: entries not yet *durably* applied here, and entries live members still need
//! (for the leader, each follower's replication progress: what a joiner is being sent
//! right now).
//!
//! "Durably": the database runs `synchronous=NORMAL` (the log is the durability point), so
//! what it has applied in memory may be lost by a power cut; after one, the node replays
//! its own log from what the database kept. Purging from the in-memory applied seqno could
//! drop exactly those entries, leaving a node that cannot recover without a full state
//! transfer; so the floor is [`Storage::durable_applied`].

use tutti_gcache::policy::{decide, Absent, RetentionInputs};
use tutti_storage::Storage;
use tutti_wsrep::{NodeId, Seqno};

use super::core::RaftCore;
use super::wire::PeerMsg;
use crate::options::ProviderOptions;

/// Unix time in milliseconds.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// A member known to be away, as `/status` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbsentMember {
    /// Its id.
    pub id: NodeId,
    /// Its name.
    pub name: String,
    /// The first seqno it will need.
    pub needs_from: Seqno,
    /// Away since (unix ms).
    pub since_ms: u64,
    /// Whether its history is still here (it can come back by IST).
    pub ist_possible: bool,
    /// Left cleanly (true) or just unreachable.
    pub left: bool,
}

/// What the gcache holds, for status.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GcacheStats {
    /// Bytes on disk.
    pub bytes: u64,
    /// First seqno held (`wsrep_local_cached_downto`).
    pub cached_downto: Seqno,
    /// Seconds between the oldest and newest entry held.
    pub durability_s: f64,
    /// How long a node could stay away from now and still get IST, at the recent rate.
    pub ist_horizon_s: f64,
}

impl RaftCore {
    /// Tells nodes the leader could not send entries to (they were purged) that they need
    /// a state transfer.
    pub(super) fn tell_nodes_needing_sst(&mut self) {
        let first = self.store.0.read().gcache.first_index();
        for id in self.store.take_snapshot_requests() {
            if let Some(m) = self.member(id) {
                if let Some(held) = self.throttle.allow(&format!("sst {id}")) {
                    tracing::warn!(
                        "member {} needs entries before seqno {first}, which this node no \
                         longer has: it needs SST{}",
                        self.name_of(id),
                        crate::throttle::repeated(held)
                    );
                }
                self.pending.messages.push((m, PeerMsg::NeedsSst(first)));
            }
        }
    }

    /// Members away: in the configuration but silent, or gone after a clean leave.
    pub fn absent_members(&self) -> Vec<AbsentMember> {
        let alive = self.alive();
        let state = self.store.state();
        let first = self.store.0.read().gcache.first_index();
        let now = now_ms();
        let mut out = Vec::new();
        for id in state.voters.iter().chain(&state.learners) {
            if alive.contains(id) {
                continue;
            }
            let needs_from = self.peers.get(id).map(|g| g.applied + 1).unwrap_or(first);
            out.push(AbsentMember {
                id: *id,
                name: state
                    .members
                    .get(id)
                    .map(|m| m.name.clone())
                    .unwrap_or_default(),
                needs_from,
                since_ms: self.heard_ms.get(id).copied().unwrap_or(now),
                ist_possible: needs_from >= first,
                left: false,
            });
        }
        for (id, (needs_from, since, name)) in &self.departed {
            out.push(AbsentMember {
                id: *id,
                name: name.clone(),
                needs_from: *needs_from,
                since_ms: *since,
                ist_possible: *needs_from >= first,
                left: true,
            });
        }
        out
    }

    /// Applies the retention policy to this node's gcache (`storage` is this node's
    /// database); returns a log line when it purged something.
    pub fn retain(&mut self, opts: &ProviderOptions, storage: &Storage) -> Option<String> {
        let absent = self.absent_members();
        // Never purge what is not durably applied here (a power loss may take the rest
        // from the database), nor what a live member is being sent.
        let mut protected = storage.durable_applied() + 1;
        let alive = self.alive();
        for id in &alive {
            if *id == self.id() {
                continue;
            }
            let need = if self.is_leader() {
                self.raw.raft.prs().get(*id).map(|p| p.matched + 1)
            } else {
                self.peers.get(id).map(|g| g.applied + 1)
            };
            if let Some(n) = need {
                protected = protected.min(n);
            }
        }
        let inputs = RetentionInputs {
            segments: self.store.0.read().gcache.segments(),
            size_limit: opts.gcache_size,
            freeze_at: opts.freeze_at,
            absent: absent
                .iter()
                .map(|a| Absent {
                    node: a.id,
                    needs_from: a.needs_from,
                    since_ms: a.since_ms,
                })
                .collect(),
            keep_for_absent_size: opts.keep_for_absent_size,
            keep_for_absent_time_ms: opts.keep_for_absent_time_s * 1000,
            protected_from: protected,
            now_ms: now_ms(),
        };
        let decision = decide(&inputs);
        for id in &decision.dropped_absent {
            if let Some((_, _, name)) = self.departed.remove(id) {
                tracing::warn!(
                    "gcache: no longer keeping history for departed member {name} (time or \
                     disk budget exceeded): it will need SST"
                );
            }
        }
        let through = decision.purge_through?;
        let mut g = self.store.0.write();
        match g.gcache.purge_through(through) {
            Ok(first) => Some(format!(
                "gcache: purged history through seqno {} ({:?}); oldest kept is now {first}, \
                 {} bytes in use",
                first - 1,
                decision.reason,
                g.gcache.bytes()
            )),
            Err(e) => {
                tracing::error!("gcache purge failed: {e}");
                None
            }
        }
    }

    /// What the gcache holds and how long history lasts.
    pub fn gcache_stats(&self, opts: &ProviderOptions) -> GcacheStats {
        let g = self.store.0.read();
        let segs = g.gcache.segments();
        let bytes = g.gcache.bytes();
        let first = g.gcache.first_index();
        let oldest = g.gcache.appended_at(first);
        let newest = g.gcache.appended_at(g.gcache.last_index());
        let durability_s = match (oldest, newest) {
            (Some(a), Some(b)) if b > a => (b - a) as f64 / 1000.0,
            _ => 0.0,
        };
        let budget = opts.gcache_size.saturating_add(opts.keep_for_absent_size) as f64;
        let rate = if durability_s > 1.0 && !segs.is_empty() {
            bytes as f64 / durability_s
        } else {
            0.0
        };
        let by_size = if rate > 0.0 {
            budget / rate
        } else {
            f64::INFINITY
        };
        let ist_horizon_s = if opts.freeze_at.is_some() {
            opts.keep_for_absent_time_s as f64
        } else {
            by_size.min(opts.keep_for_absent_time_s as f64)
        };
        GcacheStats {
            bytes,
            cached_downto: first,
            durability_s,
            ist_horizon_s,
        }
    }
}
