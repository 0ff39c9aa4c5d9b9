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
        })
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
