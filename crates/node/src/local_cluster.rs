//! `tutti cluster up|status|down`: a local cluster on 127.0.0.1 in one command.
//!
//! `up` picks free ports, starts node1 with `--bootstrap` and the others with `--join`,
//! each as a detached `tutti start` process with its datadir and log under the base
//! directory, and waits for each to be synced before starting the next (a joiner catches
//! up from the log). What it started is written to `BASE/cluster.toml`, so `status` and
//! `down` find the nodes again, and a second `up` restarts stopped nodes from their
//! datadirs (a restarted node needs no flag: it remembers its cluster). `down` stops nodes
//! one by one with SIGTERM, newest first: each clean shutdown leaves the cluster, so the
//! others keep a primary component until the last one.

use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One node of a local cluster, as recorded in `cluster.toml`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct LocalNode {
    /// Node name (`node1`, ...).
    pub name: String,
    /// Its datadir.
    pub datadir: PathBuf,
    /// MySQL client address.
    pub mysql: String,
    /// Admin HTTP address.
    pub admin: String,
    /// Peer (replication) address.
    pub peer: String,
    /// Process id of the last start.
    pub pid: u32,
    /// Its log file.
    pub log: PathBuf,
}

/// The `cluster.toml` file.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct LocalCluster {
    /// The nodes, in start order.
    pub nodes: Vec<LocalNode>,
}

const FILE: &str = "cluster.toml";
const WAIT: Duration = Duration::from_secs(120);

fn load(base: &Path) -> Result<LocalCluster, String> {
    let path = base.join(FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read {}: {e} (start one with 'tutti cluster up')",
            path.display()
        )
    })?;
    toml::from_str(&text).map_err(|e| format!("{}: {}", path.display(), e.message()))
}

fn save(base: &Path, c: &LocalCluster) -> Result<(), String> {
    let path = base.join(FILE);
    let text = toml::to_string(c).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn free_addr() -> Result<String, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    Ok(l.local_addr().map_err(|e| e.to_string())?.to_string())
}

/// True when `pid` is a running tutti process.
fn alive(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| String::from_utf8_lossy(&c).contains("tutti"))
        .unwrap_or(false)
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| s.contains(") Z "))
            .unwrap_or(true)
}

/// A tiny HTTP GET: (status code, body), None if nobody answers.
fn http_get(addr: &str, path: &str) -> Option<(u16, String)> {
    let sock = addr.parse().ok()?;
    let mut s = TcpStream::connect_timeout(&sock, Duration::from_secs(2)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").ok()?;
    let mut resp = String::new();
    s.read_to_string(&mut resp).ok()?;
    let code = resp.split_whitespace().nth(1)?.parse().ok()?;
    let body = resp.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((code, body))
}

fn spawn(
    node: &mut LocalNode,
    extra: &[String],
    log_level: &str,
) -> Result<std::process::Child, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the tutti binary: {e}"))?;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&node.log)
        .map_err(|e| format!("cannot open {}: {e}", node.log.display()))?;
    let err = log.try_clone().map_err(|e| e.to_string())?;
    use std::os::unix::process::CommandExt;
    let child = Command::new(exe)
        .arg("start")
        .args(["--name", &node.name])
        .arg("--datadir")
        .arg(&node.datadir)
        .args(["--mysql-listen", &node.mysql])
        .args(["--admin-listen", &node.admin])
        .args(["--peer-listen", &node.peer])
        .args(["--log-level", log_level])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", node.name))?;
    node.pid = child.id();
    Ok(child)
}

fn wait_synced(node: &LocalNode, child: &mut std::process::Child) -> Result<(), String> {
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        if http_get(&node.admin, "/health").is_some_and(|(code, _)| code == 200) {
            return Ok(());
        }
        if !matches!(child.try_wait(), Ok(None)) {
            return Err(format!(
                "{} exited during startup; see {}",
                node.name,
                node.log.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(format!(
        "{} not synced after {WAIT:?}; see {}",
        node.name,
        node.log.display()
    ))
}

/// `tutti cluster up`: starts (or restarts) a local cluster of `n` nodes under `base`.
pub fn up(base: &Path, n: usize, log_level: &str) -> Result<(), String> {
    if !(1..=9).contains(&n) {
        return Err("--nodes must be between 1 and 9".into());
    }
    std::fs::create_dir_all(base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
    let base = base
        .canonicalize()
        .map_err(|e| format!("{}: {e}", base.display()))?;
    let mut cluster = if base.join(FILE).exists() {
        let c = load(&base)?;
        if c.nodes.iter().all(|n| alive(n.pid)) {
            return Err(format!(
                "the cluster in {} is already up; see 'tutti cluster status --base {}'",
                base.display(),
                base.display()
            ));
        }
        c
    } else {
        let mut c = LocalCluster::default();
        for i in 1..=n {
            let name = format!("node{i}");
            c.nodes.push(LocalNode {
                datadir: base.join(&name),
                log: base.join(format!("{name}.log")),
                name,
                mysql: free_addr()?,
                admin: free_addr()?,
                peer: free_addr()?,
                pid: 0,
            });
        }
        c
    };
    let seed = cluster.nodes[0].peer.clone();
    for i in 0..cluster.nodes.len() {
        let node = &mut cluster.nodes[i];
        if node.pid != 0 && alive(node.pid) {
            continue;
        }
        let fresh = !node.datadir.join("raft.state").exists();
        let extra: Vec<String> = match (fresh, i) {
            (false, _) => vec![],
            (true, 0) => vec!["--bootstrap".into()],
            (true, _) => vec!["--join".into(), seed.clone()],
        };
        eprintln!(
            "starting {}{}",
            node.name,
            if fresh {
                ""
            } else {
                " (restart from its datadir)"
            }
        );
        let mut child = spawn(node, &extra, log_level)?;
        save(&base, &cluster)?;
        wait_synced(&cluster.nodes[i], &mut child)?;
    }
    for node in &cluster.nodes {
        let port = node.mysql.rsplit(':').next().unwrap_or("3306");
        println!(
            "{}  mysql -h127.0.0.1 -P{port} -uroot   admin http://{}/status   log {}",
            node.name,
            node.admin,
            node.log.display()
        );
    }
    println!(
        "status: tutti cluster status --base {0}    stop: tutti cluster down --base {0}",
        base.display()
    );
    Ok(())
}

/// Reads one status value from a `/status` JSON document.
pub fn status_value(doc: &serde_json::Value, key: &str) -> String {
    doc.get("wsrep")
        .and_then(|w| w.get(key))
        .and_then(|v| v.as_str())
        .unwrap_or("-")
        .to_string()
}

/// `tutti cluster status`: one line per node; false if some node is down.
pub fn status(base: &Path) -> Result<bool, String> {
    let c = load(base)?;
    println!(
        "{:<8} {:>8} {:<8} {:<12} {:<12} {:>5} {:>10}  leader",
        "node", "pid", "process", "state", "cluster", "size", "seqno"
    );
    let mut all_up = true;
    for n in &c.nodes {
        let running = alive(n.pid);
        all_up &= running;
        let doc = http_get(&n.admin, "/status")
            .and_then(|(_, body)| serde_json::from_str(&body).ok())
            .unwrap_or(serde_json::Value::Null);
        println!(
            "{:<8} {:>8} {:<8} {:<12} {:<12} {:>5} {:>10}  {}",
            n.name,
            n.pid,
            if running { "running" } else { "stopped" },
            status_value(&doc, "wsrep_local_state_comment"),
            status_value(&doc, "wsrep_cluster_status"),
            status_value(&doc, "wsrep_cluster_size"),
            status_value(&doc, "wsrep_last_committed"),
            status_value(&doc, "wsrep_cluster_leader"),
        );
    }
    Ok(all_up)
}

/// `tutti cluster down`: stops every node cleanly, newest first; datadirs are kept.
pub fn down(base: &Path) -> Result<(), String> {
    let c = load(base)?;
    for n in c.nodes.iter().rev() {
        if !alive(n.pid) {
            println!("{}: not running", n.name);
            continue;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &n.pid.to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        while alive(n.pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        if alive(n.pid) {
            return Err(format!(
                "{} (pid {}) did not stop within 30 s; see {}",
                n.name,
                n.pid,
                n.log.display()
            ));
        }
        println!("{}: stopped", n.name);
    }
    println!(
        "datadirs kept under {}: 'tutti cluster up --base {}' restarts the cluster",
        base.display(),
        base.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_file_round_trips_and_status_values_are_read() {
        let d = tempfile::tempdir().unwrap();
        let c = LocalCluster {
            nodes: vec![LocalNode {
                name: "node1".into(),
                datadir: d.path().join("node1"),
                mysql: "127.0.0.1:1".into(),
                admin: "127.0.0.1:2".into(),
                peer: "127.0.0.1:3".into(),
                pid: 42,
                log: d.path().join("node1.log"),
            }],
        };
        save(d.path(), &c).unwrap();
        assert_eq!(load(d.path()).unwrap(), c);
        let doc = serde_json::json!({"wsrep": {"wsrep_cluster_size": "3"}});
        assert_eq!(status_value(&doc, "wsrep_cluster_size"), "3");
        assert_eq!(status_value(&doc, "missing"), "-");
        assert!(load(&d.path().join("nowhere")).is_err());
    }
}
