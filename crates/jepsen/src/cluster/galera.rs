//! The MariaDB Galera anchor (`../shared/anchors/galera/cluster.sh`), already initialised
//! (`cluster.sh init`): the same workloads run against it over TCP as the `bench` user.
//! Process faults go through the script (`kill N`, `start N`) and the pid files it keeps;
//! Galera's group communication has no proxy here, so network nemeses are not offered.

use super::{signal, Cluster};
use crate::client::Endpoint;
use crate::JepsenError;
use mysql::prelude::*;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The anchor cluster.
pub struct GaleraCluster {
    script: PathBuf,
    base: PathBuf,
    nodes: usize,
    port_base: u16,
}

impl GaleraCluster {
    /// The anchor driven by `script`, its settings read from `cluster.sh env`.
    pub fn attach(script: PathBuf) -> Result<GaleraCluster, JepsenError> {
        let out = Command::new(&script).arg("env").output()?;
        let env = String::from_utf8_lossy(&out.stdout).to_string();
        let get = |k: &str| {
            env.lines()
                .find_map(|l| l.strip_prefix(&format!("{k}=")))
                .map(str::to_string)
                .ok_or_else(|| JepsenError::Setup(format!("{} env: no {k}", script.display())))
        };
        let parse = |k: &str| -> Result<u64, JepsenError> {
            get(k)?
                .parse()
                .map_err(|_| JepsenError::Setup(format!("{k} is not a number")))
        };
        let g = GaleraCluster {
            base: PathBuf::from(get("GALERA_BASE")?),
            nodes: parse("NODES")? as usize,
            port_base: parse("PORT_BASE")? as u16,
            script,
        };
        for i in 0..g.nodes {
            if !g.healthy(i) {
                return Err(JepsenError::Setup(format!(
                    "Galera node{} is not synced (run {} init)",
                    i + 1,
                    g.script.display()
                )));
            }
        }
        Ok(g)
    }

    fn run(&self, args: &[&str]) -> Result<(), JepsenError> {
        let out = Command::new(&self.script).args(args).output()?;
        if out.status.success() {
            Ok(())
        } else {
            Err(JepsenError::Cluster(format!(
                "cluster.sh {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            )))
        }
    }

    fn pid(&self, i: usize) -> Option<u32> {
        let p = self.base.join(format!("node{}/mariadbd.pid", i + 1));
        let pid: u32 = std::fs::read_to_string(p).ok()?.trim().parse().ok()?;
        std::path::Path::new(&format!("/proc/{pid}"))
            .exists()
            .then_some(pid)
    }
}

impl Cluster for GaleraCluster {
    fn size(&self) -> usize {
        self.nodes
    }

    fn endpoint(&self, i: usize) -> Endpoint {
        Endpoint {
            port: self.port_base + 1 + i as u16,
            user: "bench".into(),
            password: "bench".into(),
            init: Vec::new(),
        }
    }

    fn kill(&self, i: usize) -> Result<(), JepsenError> {
        let _ = self.resume(i);
        self.run(&["kill", &(i + 1).to_string()])
    }

    fn start(&self, i: usize) -> Result<(), JepsenError> {
        self.run(&["start", &(i + 1).to_string()])
    }

    fn stop(&self, i: usize) -> Result<(), JepsenError> {
        self.run(&["stop", &(i + 1).to_string()])
    }

    fn pause(&self, i: usize) -> Result<(), JepsenError> {
        self.pid(i).map_or(Ok(()), |p| signal(p, "STOP"))
    }

    fn resume(&self, i: usize) -> Result<(), JepsenError> {
        self.pid(i).map_or(Ok(()), |p| signal(p, "CONT"))
    }

    fn running(&self, i: usize) -> bool {
        self.pid(i).is_some()
    }

    fn healthy(&self, i: usize) -> bool {
        let opts = mysql::OptsBuilder::from_opts(self.endpoint(i).opts())
            .tcp_connect_timeout(Some(Duration::from_millis(500)))
            .read_timeout(Some(Duration::from_secs(2)));
        mysql::Conn::new(opts)
            .and_then(|mut c| {
                c.query_first::<(String, String), _>("SHOW STATUS LIKE 'wsrep_local_state'")
            })
            .ok()
            .flatten()
            .is_some_and(|(_, v)| v == "4")
    }

    fn leader(&self) -> Option<usize> {
        None
    }

    fn network(&self) -> Option<&super::proxy::Net> {
        None
    }

    fn shutdown(&self) {
        for i in 0..self.nodes {
            let _ = self.resume(i);
            if !self.running(i) {
                let _ = self.start(i);
            }
        }
    }
}
