//! The node's status for the admin surface: health, JSON, metrics.

use serde_json::{json, Map, Value as Json};
use std::sync::Arc;
use std::time::Instant;
use tutti_admin::{Health, StatusSource};
use tutti_executor::Executor;
use tutti_replication::Replication;
use tutti_wsrep::{NodeState, Provider};

use crate::Config;

/// Gathers the node's status from its layers.
pub struct NodeStatus {
    pub(crate) config: Config,
    pub(crate) node_id: u64,
    pub(crate) replication: Arc<Replication>,
    pub(crate) executor: Arc<Executor>,
    pub(crate) started: Instant,
}

impl StatusSource for NodeStatus {
    fn health(&self) -> Health {
        if let Some(reason) = self.replication.not_ready_reason() {
            return Health::Unavailable(reason);
        }
        match self.replication.state() {
            NodeState::Synced => Health::Synced,
            s @ (NodeState::Donor | NodeState::Desynced) => Health::Donor(s.comment().to_string()),
            s => Health::Unavailable(format!("state is {}", s.comment())),
        }
    }

    fn status(&self) -> Json {
        let wsrep: Map<String, Json> = self
            .replication
            .status()
            .into_iter()
            .map(|(k, v)| (k, Json::String(v)))
            .collect();
        let state = self.replication.state();
        let view = self.replication.view();
        let transfer = |t: &tutti_replication::raft::Transfer| {
            json!({
                "kind": t.kind,
                "from_seqno": t.from,
                "to_seqno": t.to,
                "target_seqno": t.target,
                "remaining": t.target.saturating_sub(t.to),
                "bytes": t.bytes,
                "seconds": (t.seconds * 1000.0).round() / 1000.0,
                "write_sets_per_second": t.rate.round(),
            })
        };
        let absent: Vec<Json> = view
            .absent
            .iter()
            .map(|a| {
                json!({
                    "id": format!("{:016x}", a.id),
                    "name": a.name,
                    "needs_from_seqno": a.needs_from,
                    "left_cleanly": a.left,
                    "ist_possible": a.ist_possible,
                })
            })
            .collect();
        let members = members_json(&view);
        json!({
            "node": {
                "name": self.config.name,
                "id": format!("{:016x}", self.node_id),
                "version": env!("CARGO_PKG_VERSION"),
                "state": state.comment(),
                "ready": self.replication.not_ready_reason().is_none(),
                "mysql": self.config.mysql_listen.to_string(),
                "admin": self.config.admin_listen.to_string(),
                "datadir": self.config.datadir.display().to_string(),
                "uptime_seconds": self.started.elapsed().as_secs(),
                "connections": self.executor.connected(),
            },
            "wsrep": wsrep,
            "cluster": {
                "primary": view.primary,
                "term": view.term,
                "commit_seqno": view.commit,
                "members": members,
                "absent": absent,
                "needs_sst": view.needs_sst.map(|first| json!({
                    "oldest_available_seqno": first,
                    "reason": "the history this node lacks is in no gcache any more",
                })),
                "state_transfer": view.transfer.as_ref().map(transfer),
                "last_state_transfer": view.last_transfer.as_ref().map(transfer),
            },
        })
    }

    fn members(&self) -> Json {
        members_json(&self.replication.view())
    }

    fn remove_member(&self, who: &str) -> Result<String, String> {
        self.replication.remove_member(who)
    }

    fn metrics(&self) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = self
            .replication
            .status()
            .into_iter()
            .filter_map(|(k, v)| v.parse::<f64>().ok().map(|f| (k, f)))
            .collect();
        out.push((
            "wsrep_ready".into(),
            self.replication.not_ready_reason().is_none() as u8 as f64,
        ));
        let view = self.replication.view();
        out.push(("wsrep_cluster_primary".into(), view.primary as u8 as f64));
        out.push((
            "wsrep_is_leader".into(),
            (view.leader == self.node_id) as u8 as f64,
        ));
        out.push(("threads_connected".into(), self.executor.connected() as f64));
        out.push((
            "uptime_seconds".into(),
            self.started.elapsed().as_secs_f64(),
        ));
        out
    }
}

/// Every member: identity, addresses, role, reachability, and what the cluster keeps for it
/// while it is away.
fn members_json(view: &tutti_replication::raft::View) -> Json {
    let members: Vec<Json> = view
        .members
        .values()
        .map(|m| {
            let absent = view.absent.iter().find(|a| a.id == m.id);
            json!({
                "id": format!("{:016x}", m.id),
                "name": m.name,
                "mysql": m.mysql_addr,
                "peer": m.peer_addr,
                "role": if view.voters.contains(&m.id) { "voter" } else { "learner" },
                "voter": view.voters.contains(&m.id),
                "alive": view.alive.contains(&m.id),
                "leader": view.leader == m.id,
                "away_since_unix_ms": absent.map(|a| a.since_ms),
            })
        })
        .collect();
    Json::Array(members)
}
