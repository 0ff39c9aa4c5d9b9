//! A tutti cluster of real processes on 127.0.0.1: `tutti start` per node with its own
//! datadir, log and free ports, each behind its [`proxy`](super::proxy) on the peer side.
//! node1 bootstraps, the others join through node1's proxy; a restart reuses the same
//! arguments minus `--bootstrap`.

use super::proxy::{self, Net};
use super::{signal, Cluster};
use crate::client::Endpoint;
use crate::JepsenError;
use parking_lot::Mutex;
use rand::Rng;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One node process.
struct NodeProc {
    args: Vec<String>,
    log: PathBuf,
    mysql_port: u16,
    admin_port: u16,
    child: Option<Child>,
}

/// A cluster of `tutti` processes.
pub struct TuttiCluster {
    bin: PathBuf,
    nodes: Vec<Mutex<NodeProc>>,
    net: Arc<Net>,
}

/// Ports are picked below the kernel's ephemeral range (32768 and up by default), so no
/// outgoing client connection can take a node's port while it is down for a restart.
const PORTS: std::ops::Range<u16> = 10_000..32_000;

/// A listener on a free port of [`PORTS`].
fn listener() -> Result<TcpListener, JepsenError> {
    for _ in 0..1000 {
        let port = rand::rng().random_range(PORTS);
        if let Ok(l) = TcpListener::bind(("127.0.0.1", port)) {
            return Ok(l);
        }
    }
    Err(JepsenError::Setup("no free port on 127.0.0.1".into()))
}

/// A node of a launch under `dir` failed because a port it was given was in use.
fn port_taken(dir: &Path, n: usize) -> bool {
    (1..=n).any(|i| {
        std::fs::read_to_string(dir.join(format!("n{i}.log")))
            .is_ok_and(|log| log.contains("Address already in use"))
    })
}

/// A port free right now.
fn free_port() -> Result<u16, JepsenError> {
    Ok(listener()?.local_addr()?.port())
}

impl TuttiCluster {
    /// Starts `n` nodes of `bin` under `dir` and waits until all are synced. A port picked
    /// free can be taken by another process before its node binds it: the launch is then
    /// tried again on new ports (at most three times).
    pub fn launch(bin: &Path, dir: &Path, n: usize) -> Result<TuttiCluster, JepsenError> {
        let mut attempt = 1;
        loop {
            match TuttiCluster::launch_once(bin, dir, n) {
                Err(JepsenError::Cluster(e)) if attempt < 3 && port_taken(dir, n) => {
                    eprintln!("launch attempt {attempt} lost a port ({e}); trying again");
                    std::fs::remove_dir_all(dir)?;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    fn launch_once(bin: &Path, dir: &Path, n: usize) -> Result<TuttiCluster, JepsenError> {
        if !bin.is_file() {
            return Err(JepsenError::Setup(format!(
                "no tutti binary at {} (cargo build --release, or --tutti PATH)",
                bin.display()
            )));
        }
        std::fs::create_dir_all(dir)?;
        let proxies: Vec<TcpListener> = (0..n).map(|_| listener()).collect::<Result<_, _>>()?;
        let advertised: Vec<SocketAddr> = proxies
            .iter()
            .map(|l| l.local_addr())
            .collect::<Result<_, _>>()?;
        let net = Net::new(&advertised);
        let mut nodes = Vec::new();
        for (i, l) in proxies.into_iter().enumerate() {
            let name = format!("n{}", i + 1);
            let peer_port = free_port()?;
            let (mysql_port, admin_port) = (free_port()?, free_port()?);
            proxy::start(
                net.clone(),
                i,
                l,
                SocketAddr::from(([127, 0, 0, 1], peer_port)),
            )?;
            let mut args: Vec<String> = [
                "start",
                "--name",
                &name,
                "--datadir",
                &dir.join(&name).display().to_string(),
                "--mysql-listen",
                &format!("127.0.0.1:{mysql_port}"),
                "--admin-listen",
                &format!("127.0.0.1:{admin_port}"),
                "--peer-listen",
                &format!("127.0.0.1:{peer_port}"),
                "--peer-advertise",
                &advertised[i].to_string(),
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            if i == 0 {
                args.push("--bootstrap".into());
            } else {
                args.extend(["--join".to_string(), advertised[0].to_string()]);
            }
            nodes.push(Mutex::new(NodeProc {
                args,
                log: dir.join(format!("{name}.log")),
                mysql_port,
                admin_port,
                child: None,
            }));
        }
        let cluster = TuttiCluster {
            bin: bin.to_path_buf(),
            nodes,
            net,
        };
        for i in 0..n {
            cluster.start(i)?;
            let deadline = Instant::now() + Duration::from_secs(60);
            while !cluster.healthy(i) {
                if !cluster.running(i) || Instant::now() > deadline {
                    cluster.shutdown();
                    return Err(JepsenError::Cluster(format!(
                        "n{} did not start; see {}",
                        i + 1,
                        cluster.nodes[i].lock().log.display()
                    )));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            // The datadir now belongs to the cluster: a restart must not bootstrap.
            cluster.nodes[i].lock().args.retain(|a| a != "--bootstrap");
        }
        Ok(cluster)
    }

    fn pid(&self, i: usize) -> Option<u32> {
        let mut n = self.nodes[i].lock();
        let c = n.child.as_mut()?;
        matches!(c.try_wait(), Ok(None)).then(|| c.id())
    }
}

/// GET `path` on a local admin port: the status code and the body (a paused node must
/// not hold the nemesis up for long).
fn http_get(port: u16, path: &str) -> Option<(u16, String)> {
    tutti::http::request_within(
        &format!("127.0.0.1:{port}"),
        "GET",
        path,
        Duration::from_secs(2),
    )
}

impl Cluster for TuttiCluster {
    fn size(&self) -> usize {
        self.nodes.len()
    }

    fn endpoint(&self, i: usize) -> Endpoint {
        Endpoint {
            port: self.nodes[i].lock().mysql_port,
            user: "root".into(),
            password: String::new(),
            init: Vec::new(),
        }
    }

    fn kill(&self, i: usize) -> Result<(), JepsenError> {
        if let Some(mut c) = self.nodes[i].lock().child.take() {
            let _ = signal(c.id(), "CONT");
            c.kill()?;
            c.wait()?;
        }
        Ok(())
    }

    fn start(&self, i: usize) -> Result<(), JepsenError> {
        let mut n = self.nodes[i].lock();
        if n.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)))
        {
            return Ok(());
        }
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&n.log)?;
        let child = Command::new(&self.bin)
            .args(&n.args)
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()?;
        n.child = Some(child);
        Ok(())
    }

    fn stop(&self, i: usize) -> Result<(), JepsenError> {
        let Some(mut c) = self.nodes[i].lock().child.take() else {
            return Ok(());
        };
        signal(c.id(), "TERM")?;
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if c.try_wait()?.is_some() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = c.kill();
        let _ = c.wait();
        Err(JepsenError::Cluster(format!(
            "n{} did not stop within 30 s of SIGTERM",
            i + 1
        )))
    }

    fn pause(&self, i: usize) -> Result<(), JepsenError> {
        match self.pid(i) {
            Some(pid) => signal(pid, "STOP"),
            None => Ok(()),
        }
    }

    fn resume(&self, i: usize) -> Result<(), JepsenError> {
        match self.pid(i) {
            Some(pid) => signal(pid, "CONT"),
            None => Ok(()),
        }
    }

    fn running(&self, i: usize) -> bool {
        self.pid(i).is_some()
    }

    fn healthy(&self, i: usize) -> bool {
        let port = self.nodes[i].lock().admin_port;
        self.running(i) && http_get(port, "/health").is_some_and(|(code, _)| code == 200)
    }

    fn leader(&self) -> Option<usize> {
        // The leader as a running, Primary member sees it in `GET /members`.
        (0..self.size()).filter(|&i| self.healthy(i)).find_map(|i| {
            let port = self.nodes[i].lock().admin_port;
            let (_, body) = http_get(port, "/members")?;
            let members: Vec<serde_json::Value> = serde_json::from_str(&body).ok()?;
            let name = members
                .iter()
                .find(|m| m["leader"] == true)?
                .get("name")?
                .as_str()?
                .to_string();
            name.strip_prefix('n')?
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
        })
    }

    fn network(&self) -> Option<&Net> {
        Some(&self.net)
    }

    fn shutdown(&self) {
        for i in 0..self.size() {
            let _ = self.resume(i);
            if self.stop(i).is_err() {
                let _ = self.kill(i);
            }
        }
        self.net.stop();
    }
}

impl Drop for TuttiCluster {
    fn drop(&mut self) {
        for i in 0..self.size() {
            let _ = self.kill(i);
        }
        self.net.stop();
    }
}
