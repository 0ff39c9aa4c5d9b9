//! The node's view of the cluster, as status and admission read it, and the log lines a
//! Galera DBA expects when it changes.
//!
//! Galera's node states: a node without a primary component is OPEN ("Initialized"); with
//! one, it is a JOINER until it has applied what was committed when it first reached the
//! cluster, then JOINED, and SYNCED once it is a voter. Every change is logged as Galera
//! does ("Shifting JOINED -> SYNCED (TO: 42)"), every change of the component as one line
//! naming its members (`view: primary, members [node1 node2 node3], leader node1,
//! conf_id 7`), and every member lost or returned with the reason.
//!
//! `wsrep_cluster_conf_id` is the same on every member of a view: the number of membership
//! changes in the log plus the Raft term (both agreed by the whole cluster), so it moves
//! with every membership change and every leader change, and only then.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use tutti_wsrep::{NodeId, NodeState, Seqno};

use super::retention::{AbsentMember, GcacheStats};
use super::wire::Member;

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
    /// Galera's `wsrep_cluster_conf_id` (see the module doc).
    pub conf_id: u64,
    /// This node left the cluster.
    pub removed: bool,
    /// Why the cluster refused this node's join, if it did.
    pub join_refused: Option<String>,
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

    /// A member's name, or its id in hex when it has none.
    pub fn name(&self, id: NodeId) -> String {
        match self.members.get(&id) {
            Some(m) if !m.name.is_empty() => m.name.clone(),
            _ => format!("{id:016x}"),
        }
    }

    /// The one line that describes this view.
    pub fn line(&self) -> String {
        let members: Vec<String> = self
            .voters
            .iter()
            .map(|id| self.name(*id))
            .chain(
                self.learners
                    .iter()
                    .map(|id| format!("{}(joining)", self.name(*id))),
            )
            .collect();
        format!(
            "view: {}, members [{}], leader {}, conf_id {}",
            if self.primary {
                "primary"
            } else {
                "non-primary"
            },
            members.join(" "),
            if self.leader == 0 {
                "none (electing)".to_string()
            } else {
                self.name(self.leader)
            },
            self.conf_id
        )
    }

    /// True when `next` is another view (component, membership or leader changed).
    pub fn differs(&self, next: &View) -> bool {
        self.primary != next.primary
            || self.voters != next.voters
            || self.learners != next.learners
            || self.leader != next.leader
            || self.conf_id != next.conf_id
    }
}

/// Logs what changed between two views: Galera's state shifts, the view line, members
/// lost and returned (`lost` remembers who was reported lost). `silent` says how long a
/// member has not been heard from.
pub(super) fn log_changes(
    old: &View,
    new: &View,
    applied: Seqno,
    lost: &mut BTreeSet<NodeId>,
    silent: impl Fn(NodeId) -> Option<Duration>,
) {
    let (from, to) = (old.node_state(), new.node_state());
    if old.state.is_some() && from != to {
        if from == NodeState::Joiner && to == NodeState::Synced {
            // Caught up and promoted in the same round: JOINED was passed through.
            tracing::info!("Shifting JOINER -> JOINED (TO: {applied})");
            tracing::info!("Shifting JOINED -> SYNCED (TO: {applied})");
        } else {
            tracing::info!(
                "Shifting {} -> {} (TO: {applied})",
                from.shift_name(),
                to.shift_name()
            );
        }
    }
    if old.state.is_none() || old.differs(new) {
        tracing::info!("{}", new.line());
    }
    for id in &old.alive {
        if !new.alive.contains(id) && new.members.contains_key(id) {
            let why = match silent(*id) {
                Some(d) => format!("no message for {:.1} s", d.as_secs_f64()),
                None => "never heard since this node started".into(),
            };
            tracing::warn!("member {} lost: {why}", new.name(*id));
            lost.insert(*id);
        }
    }
    for id in &new.alive {
        if !old.alive.contains(id) && lost.remove(id) {
            tracing::info!("member {} returned", new.name(*id));
        }
    }
    lost.retain(|id| new.members.contains_key(id));
}

/// IST progress, followed while the node is a JOINER.
#[derive(Default)]
pub(super) struct TransferTracker {
    /// (start, first seqno, bytes) of the transfer in progress.
    current: Option<(Instant, Seqno, u64)>,
    last_progress: Option<Instant>,
    /// The last completed transfer.
    pub last: Option<Transfer>,
}

/// Seconds between two IST progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

impl TransferTracker {
    /// Counts bytes received for the transfer in progress.
    pub fn add_bytes(&mut self, n: u64) {
        if let Some((_, _, b)) = self.current.as_mut() {
            *b += n;
        }
    }

    /// The transfer in progress, as status shows it.
    pub fn report(&self, applied: Seqno, target: Seqno) -> Option<Transfer> {
        self.current
            .map(|(t0, from, bytes)| report(t0, from, bytes, applied, target))
    }

    /// Follows catch-up: progress lines while JOINER, a report once caught up.
    pub fn track(
        &mut self,
        state: NodeState,
        applied: Seqno,
        target: Seqno,
        received: Seqno,
        needs_sst: bool,
    ) {
        match (state, self.current) {
            (NodeState::Joiner, None) if !needs_sst => {
                self.current = Some((Instant::now(), applied + 1, 0));
                self.last_progress = Some(Instant::now());
            }
            (NodeState::Joiner, Some((t0, from, bytes))) => {
                if self
                    .last_progress
                    .is_some_and(|p| p.elapsed() < PROGRESS_EVERY)
                {
                    return;
                }
                self.last_progress = Some(Instant::now());
                let r = report(t0, from, bytes, applied, target);
                let remaining = r.target.saturating_sub(applied);
                let eta = if r.rate > 0.0 {
                    format!("{:.0} s", remaining as f64 / r.rate)
                } else {
                    "unknown".into()
                };
                tracing::info!(
                    "IST: received up to {received}, applied {applied}, remaining {remaining}, \
                     {:.0} write-sets/s, ETA {eta}",
                    r.rate
                );
            }
            (NodeState::Open, _) => self.current = None,
            (_, Some((t0, from, bytes))) => {
                self.current = None;
                if applied < from {
                    return; // nothing was missing
                }
                let r = report(t0, from, bytes, applied, target);
                tracing::info!(
                    "IST complete: seqnos {}..={} ({} bytes) in {:.2} s, {:.0} write-sets/s",
                    r.from,
                    r.to,
                    r.bytes,
                    r.seconds,
                    r.rate
                );
                self.last = Some(r);
            }
            _ => {}
        }
    }
}

fn report(t0: Instant, from: Seqno, bytes: u64, applied: Seqno, target: Seqno) -> Transfer {
    let seconds = t0.elapsed().as_secs_f64();
    let done = applied.saturating_sub(from.saturating_sub(1));
    Transfer {
        kind: "ist",
        from,
        to: applied,
        target,
        bytes,
        seconds,
        rate: if seconds > 0.0 {
            done as f64 / seconds
        } else {
            0.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_line_names_members_and_leader() {
        let mut v = View {
            primary: true,
            voters: vec![1, 2],
            learners: vec![3],
            leader: 1,
            conf_id: 7,
            ..Default::default()
        };
        for (id, name) in [(1, "node1"), (2, "node2"), (3, "")] {
            v.members.insert(
                id,
                Member {
                    id,
                    name: name.into(),
                    peer_addr: String::new(),
                    mysql_addr: String::new(),
                },
            );
        }
        assert_eq!(
            v.line(),
            "view: primary, members [node1 node2 0000000000000003(joining)], leader node1, conf_id 7"
        );
        let mut w = v.clone();
        w.leader = 0;
        assert!(v.differs(&w));
        assert!(w.line().contains("leader none (electing)"));
        w.leader = 1;
        assert!(!v.differs(&w));
    }
}
