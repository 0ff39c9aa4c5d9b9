//! The system under test, as the nemesis and the clients see it: numbered nodes with a
//! MySQL endpoint each, that can be killed, restarted, stopped cleanly, paused and (when
//! the cluster runs behind the fault-injecting [`proxy`]) cut off from each other or
//! slowed down. Two implementations: [`tutti::TuttiCluster`] starts real `tutti`
//! processes; [`galera::GaleraCluster`] drives the MariaDB Galera anchor's `cluster.sh`.

pub mod galera;
pub mod proxy;
pub mod tutti;

use crate::client::Endpoint;
use crate::JepsenError;
use std::process::Command;
use std::time::{Duration, Instant};

/// A cluster under test. Nodes are numbered from 0; names in reports are `n1`, `n2`, ...
pub trait Cluster: Send + Sync {
    /// Number of nodes.
    fn size(&self) -> usize;
    /// Where clients of node `i` connect.
    fn endpoint(&self, i: usize) -> Endpoint;
    /// kill -9.
    fn kill(&self, i: usize) -> Result<(), JepsenError>;
    /// Starts a node that is down (does not wait for it).
    fn start(&self, i: usize) -> Result<(), JepsenError>;
    /// Clean shutdown (SIGTERM; waits, bounded, for the exit).
    fn stop(&self, i: usize) -> Result<(), JepsenError>;
    /// SIGSTOP.
    fn pause(&self, i: usize) -> Result<(), JepsenError>;
    /// SIGCONT.
    fn resume(&self, i: usize) -> Result<(), JepsenError>;
    /// True while the node's process runs.
    fn running(&self, i: usize) -> bool;
    /// True when the node is synced and serves clients.
    fn healthy(&self, i: usize) -> bool;
    /// The node currently leading the total order, if the system has one.
    fn leader(&self) -> Option<usize>;
    /// The fault-injecting network between the nodes, if there is one.
    fn network(&self) -> Option<&proxy::Net>;
    /// Stops everything this run started.
    fn shutdown(&self);
}

/// Waits (bounded) until every node is healthy.
pub fn wait_healthy(c: &dyn Cluster, timeout: Duration) -> Result<(), JepsenError> {
    let deadline = Instant::now() + timeout;
    loop {
        let sick: Vec<usize> = (0..c.size()).filter(|&i| !c.healthy(i)).collect();
        if sick.is_empty() {
            return Ok(());
        }
        if Instant::now() > deadline {
            let names: Vec<String> = sick.iter().map(|i| format!("n{}", i + 1)).collect();
            return Err(JepsenError::Cluster(format!(
                "{} not healthy after {timeout:?}",
                names.join(", ")
            )));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Sends `signal` (`STOP`, `CONT`, `TERM`, `KILL`) to a process.
pub fn signal(pid: u32, signal: &str) -> Result<(), JepsenError> {
    let ok = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if ok {
        Ok(())
    } else {
        Err(JepsenError::Cluster(format!("kill -{signal} {pid} failed")))
    }
}
