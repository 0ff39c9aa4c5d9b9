//! SQL on a simulated cluster: every node gets the real session executor, whose provider
//! is the simulated cluster itself.
//!
//! A COMMIT submits the write-set on its node and steps the whole cluster until the
//! outcome is known there, so sessions on different nodes interleave statement by
//! statement, in one thread, deterministically: a transaction left open on node 2 while
//! node 1 commits is BF-aborted or fails certification exactly as it would on real nodes.

use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tutti_executor::{ExecError, Executor, ExecutorConfig, Response, Session};
use tutti_wsrep::{ApplyObserver, NodeId, Provider, ReplicateError, Replicated, Value, WriteSet};

use crate::Cluster;

/// Steps a commit may take before its outcome counts as unknown.
const COMMIT_STEPS: u64 = 20_000;

/// A simulated cluster whose nodes run SQL.
pub struct SqlCluster {
    /// The simulated cluster (shared with every node's provider).
    pub cluster: Arc<Mutex<Cluster>>,
    executors: BTreeMap<NodeId, Arc<Executor>>,
}

/// The provider of one simulated node: the cluster it lives in.
struct SimProvider {
    cluster: Arc<Mutex<Cluster>>,
    id: NodeId,
}

impl Provider for SimProvider {
    fn node_id(&self) -> NodeId {
        self.id
    }

    fn check_ready(&self) -> Result<(), ReplicateError> {
        let c = self.cluster.lock();
        if let Some(e) = c.node(self.id).shared.inconsistent.lock().as_ref() {
            return Err(ReplicateError::NotReady(format!(
                "node is inconsistent: {e}"
            )));
        }
        if !c.is_primary(self.id) {
            return Err(ReplicateError::NotReady("non-Primary".into()));
        }
        Ok(())
    }

    fn replicate(&self, ws: WriteSet) -> Result<Replicated, ReplicateError> {
        self.check_ready()?;
        let mut c = self.cluster.lock();
        let rx = c.submit(self.id, ws);
        for _ in 0..COMMIT_STEPS {
            if let Ok(outcome) = rx.try_recv() {
                return outcome;
            }
            c.step();
        }
        Err(ReplicateError::Unknown(format!(
            "no outcome after {COMMIT_STEPS} steps: {}",
            c.describe()
        )))
    }

    fn sync_wait(&self, _timeout: Duration) -> Result<(), ReplicateError> {
        let mut c = self.cluster.lock();
        let id = self.id;
        let target = c.leader().map(|l| c.commit_index(l)).unwrap_or(0);
        if c.run_until(COMMIT_STEPS, |c| c.node(id).applied() >= target) {
            Ok(())
        } else {
            Err(ReplicateError::Unknown("causal wait timed out".into()))
        }
    }

    fn status(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    fn options(&self) -> String {
        String::new()
    }

    fn set_option(&self, key: &str, _value: &str) -> Result<(), String> {
        Err(format!("{key}: not settable on a simulated node"))
    }

    fn auto_increment(&self) -> (u64, u64) {
        let c = self.cluster.lock();
        let voters = c.voters(self.id);
        let rank = voters.iter().position(|v| *v == self.id).unwrap_or(0);
        (rank as u64 + 1, voters.len().max(1) as u64)
    }

    fn set_observer(&self, observer: Arc<dyn ApplyObserver>) {
        let c = self.cluster.lock();
        *c.node(self.id).shared.observer.write() = Some(observer);
    }
}

impl SqlCluster {
    /// A formed cluster of `n` nodes (see [`Cluster::new`]) with an executor on each.
    pub fn new(n: u64, seed: u64) -> SqlCluster {
        let cluster = Arc::new(Mutex::new(Cluster::new(n, seed)));
        let ids: Vec<NodeId> = cluster.lock().nodes.keys().copied().collect();
        let executors = ids
            .into_iter()
            .map(|id| {
                let storage = cluster.lock().node(id).storage().clone();
                let provider = Arc::new(SimProvider {
                    cluster: cluster.clone(),
                    id,
                });
                let config = ExecutorConfig {
                    version: "8.0.36-tutti-sim".into(),
                    globals: vec![],
                };
                (id, Executor::new(storage, provider, config))
            })
            .collect();
        SqlCluster { cluster, executors }
    }

    /// The node ids.
    pub fn ids(&self) -> Vec<NodeId> {
        self.executors.keys().copied().collect()
    }

    /// A new client session on node `id`.
    pub fn session(&self, id: NodeId) -> Session {
        let exec = &self.executors[&id];
        exec.session(exec.connection_id(), "root", "localhost")
    }

    /// Runs one statement in a session (the last result of a multi-statement text).
    pub fn run(session: &mut Session, sql: &str) -> Result<Response, ExecError> {
        session.query(sql).pop().unwrap_or(Ok(Response::Ok {
            affected_rows: 0,
            last_insert_id: 0,
            info: tutti_executor::OkInfo::None,
        }))
    }

    /// The rows of a query on node `id`, as text (for comparing nodes).
    pub fn rows(&self, id: NodeId, sql: &str) -> Result<Vec<String>, ExecError> {
        let mut s = self.session(id);
        match Self::run(&mut s, sql)? {
            Response::Rows(rs) => Ok(rs
                .rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|v| match v {
                            Value::Null => "NULL".to_string(),
                            v => format!("{v:?}"),
                        })
                        .collect::<Vec<_>>()
                        .join("|")
                })
                .collect()),
            other => Ok(vec![format!("{other:?}")]),
        }
    }

    /// Steps until every running node has applied all the leader committed.
    pub fn settle(&self) -> bool {
        self.cluster.lock().settle(50_000)
    }

    /// Nodes that found an inconsistency, with what they found.
    pub fn inconsistent(&self) -> Vec<(NodeId, String)> {
        let c = self.cluster.lock();
        c.nodes
            .values()
            .filter_map(|n| n.shared.inconsistent.lock().clone().map(|e| (n.id, e)))
            .collect()
    }
}
