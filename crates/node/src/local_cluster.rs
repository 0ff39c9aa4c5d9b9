//! `tutti cluster up|status|down`: a local cluster on 127.0.0.1 in one command, for trying
//! tutti out, for benchmarks and for end-to-end tests.
//!
//! `up` picks free ports, starts node1 with `--bootstrap` and the others with `--join`, each
//! as a detached `tutti start` process (its own process group, so it outlives `up`) with its
//! datadir and log under the base directory, and waits until each answers `GET /health` with
//! 200 (synced) before starting the next: a joiner catches up from the log. What it started
//! is written to `BASE/cluster.toml` (before anything is started, so `down` can always find
//! what a failed `up` left running), and a later `up` restarts the stopped nodes on the same
//! ports without flags, since a restarted node remembers its cluster. `down` stops nodes one
//! by one with SIGTERM, newest first: each clean shutdown leaves the cluster, so the others
//! keep a primary component until the last one. Datadirs are kept.
//!
//! Safety: signals go only to pids recorded in `cluster.toml` whose command line is a tutti
//! process using that node's datadir, never to a recycled pid.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One node of a local cluster, as recorded in `cluster.toml` (the benchmark scripts read
/// these keys, so they are stable).
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
    /// Process id of the last start (0: never started).
    pub pid: u32,
    /// Its log file (appended to by every start).
    pub log: PathBuf,
}

/// The `cluster.toml` file.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct LocalCluster {
    /// The nodes, in start order (node1 first).
    pub nodes: Vec<LocalNode>,
}

/// The file under the base directory describing the cluster.
pub const CLUSTER_FILE: &str = "cluster.toml";
/// The number of nodes `up` creates when `--nodes` is not given.
pub const DEFAULT_NODES: usize = 3;
/// The file a datadir holds once its node belongs to a cluster (written by replication);
/// such a node restarts without `--bootstrap` or `--join`.
const MEMBER_FILE: &str = "raft.state";
/// How long `up` waits for one node (or one batch of restarted nodes) to be synced.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long `down` waits for one node to exit after SIGTERM.
const STOP_TIMEOUT: Duration = Duration::from_secs(30);
/// The `/status` keys `status` shows, after the process column.
const STATUS_KEYS: [&str; 5] = [
    "wsrep_local_state_comment",
    "wsrep_cluster_status",
    "wsrep_cluster_size",
    "wsrep_last_committed",
    "wsrep_cluster_leader",
];

impl LocalCluster {
    /// Reads `BASE/cluster.toml`.
    pub fn load(base: &Path) -> Result<LocalCluster, String> {
        let path = base.join(CLUSTER_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "cannot read {}: {e} (create a cluster with 'tutti cluster up --base {}')",
                path.display(),
                base.display()
            )
        })?;
        let c: LocalCluster =
            toml::from_str(&text).map_err(|e| format!("{}: {}", path.display(), e.message()))?;
        if c.nodes.is_empty() {
            return Err(format!("{}: no nodes", path.display()));
        }
        Ok(c)
    }

    /// Writes `BASE/cluster.toml` (via a temporary file and a rename).
    pub fn save(&self, base: &Path) -> Result<(), String> {
        let path = base.join(CLUSTER_FILE);
        let tmp = base.join(format!("{CLUSTER_FILE}.tmp"));
        let text = toml::to_string(self).map_err(|e| e.to_string())?;
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// A new cluster of `n` nodes under `base` on free ports of 127.0.0.1.
    fn create(base: &Path, n: usize) -> Result<LocalCluster, String> {
        // Hold every listener until all ports are picked, so no port is handed out twice.
        let listeners = (0..3 * n)
            .map(|_| TcpListener::bind("127.0.0.1:0"))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("cannot find free ports on 127.0.0.1: {e}"))?;
        let addrs = listeners
            .iter()
            .map(|l| l.local_addr().map(|a| a.to_string()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let nodes = addrs
            .chunks(3)
            .enumerate()
            .map(|(i, a)| {
                let name = format!("node{}", i + 1);
                LocalNode {
                    datadir: base.join(&name),
                    log: base.join(format!("{name}.log")),
                    name,
                    mysql: a[0].clone(),
                    admin: a[1].clone(),
                    peer: a[2].clone(),
                    pid: 0,
                }
            })
            .collect();
        Ok(LocalCluster { nodes })
    }
}

/// Prints one line on stdout, ignoring a closed pipe (`tutti cluster status | head`).
fn say(line: impl std::fmt::Display) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// The port of a `host:port` address.
fn port(addr: &str) -> &str {
    addr.rsplit(':').next().unwrap_or(addr)
}

/// True when `pid` is a live (not zombie) tutti process started on `datadir`.
fn running(pid: u32, datadir: &Path) -> bool {
    if pid == 0 {
        return false;
    }
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    let tutti = args
        .first()
        .is_some_and(|a| String::from_utf8_lossy(a).contains("tutti"));
    let ours = args
        .iter()
        .any(|a| Path::new(&*String::from_utf8_lossy(a)) == datadir);
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.rsplit_once(')').is_some_and(|(_, r)| r.starts_with(" Z")))
        .unwrap_or(true);
    tutti && ours && !zombie
}

/// Starts `tutti start` for `node` with `extra` flags, detached, appending to its log.
fn spawn(node: &mut LocalNode, extra: &[String], log_level: &str) -> Result<Child, String> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the tutti binary: {e}"))?;
    let open_log = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&node.log)
            .map_err(|e| format!("cannot open {}: {e}", node.log.display()))
    };
    let (out, err) = (open_log()?, open_log()?);
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
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", node.name))?;
    node.pid = child.id();
    Ok(child)
}

/// Waits until `node` answers `/health` with 200, failing early if its process exits.
fn wait_synced(node: &LocalNode, child: &mut Child, deadline: Instant) -> Result<(), String> {
    loop {
        if crate::http::get(&node.admin, "/health").is_some_and(|(code, _)| code == 200) {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!(
                "{} exited during startup ({status}); see {}",
                node.name,
                node.log.display()
            ));
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "{} not synced after {} s; see {}",
                node.name,
                START_TIMEOUT.as_secs(),
                node.log.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `tutti cluster up`: creates and starts a cluster of `nodes` (default 3) under `base`, or
/// restarts the stopped nodes of the cluster already recorded there.
pub fn up(base: &Path, nodes: Option<usize>, log_level: &str) -> Result<(), String> {
    let n = nodes.unwrap_or(DEFAULT_NODES);
    if !(1..=9).contains(&n) {
        return Err(format!("--nodes {n}: must be between 1 and 9"));
    }
    std::fs::create_dir_all(base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
    let base = base
        .canonicalize()
        .map_err(|e| format!("{}: {e}", base.display()))?;
    let existing = base.join(CLUSTER_FILE).exists();
    let mut cluster = if existing {
        let c = LocalCluster::load(&base)?;
        if c.nodes.iter().all(|n| running(n.pid, &n.datadir)) {
            return Err(format!(
                "the cluster in {0} is already up; use 'tutti cluster status --base {0}'",
                base.display()
            ));
        }
        if nodes.is_some_and(|n| n != c.nodes.len()) {
            eprintln!(
                "note: {} records {} nodes; --nodes is ignored",
                base.join(CLUSTER_FILE).display(),
                c.nodes.len()
            );
        }
        c
    } else {
        LocalCluster::create(&base, n)?
    };
    // Written before anything starts: this also checks that the base is writable.
    cluster.save(&base)?;
    for node in &cluster.nodes {
        std::fs::create_dir_all(&node.datadir)
            .map_err(|e| format!("cannot create {}: {e}", node.datadir.display()))?;
    }
    let member = |n: &LocalNode| n.datadir.join(MEMBER_FILE).exists();
    let stopped = |n: &LocalNode| !running(n.pid, &n.datadir);
    let on_error = |e: String| {
        format!(
            "{e} ('tutti cluster down --base {}' stops what was started)",
            base.display()
        )
    };

    // 1. Restart the stopped members, all at once (after a crash none may have a majority
    //    alone), then wait for each to be synced.
    let mut restarted = Vec::new();
    for i in 0..cluster.nodes.len() {
        if member(&cluster.nodes[i]) && stopped(&cluster.nodes[i]) {
            eprintln!("restarting {} from its datadir", cluster.nodes[i].name);
            restarted.push((i, spawn(&mut cluster.nodes[i], &[], log_level)?));
            cluster.save(&base)?;
        }
    }
    let deadline = Instant::now() + START_TIMEOUT;
    for (i, child) in &mut restarted {
        wait_synced(&cluster.nodes[*i], child, deadline).map_err(on_error)?;
    }

    // 2. Start the new nodes one by one: the first bootstraps if nobody is a member yet,
    //    the others join through the members' peer addresses.
    for i in 0..cluster.nodes.len() {
        if member(&cluster.nodes[i]) || !stopped(&cluster.nodes[i]) {
            continue;
        }
        let seeds: Vec<&str> = cluster
            .nodes
            .iter()
            .filter(|n| member(n))
            .map(|n| n.peer.as_str())
            .collect();
        let extra = if seeds.is_empty() {
            vec!["--bootstrap".to_string()]
        } else {
            vec!["--join".to_string(), seeds.join(",")]
        };
        eprintln!("starting {} {}", cluster.nodes[i].name, extra.join(" "));
        let mut child = spawn(&mut cluster.nodes[i], &extra, log_level)?;
        cluster.save(&base)?;
        let deadline = Instant::now() + START_TIMEOUT;
        wait_synced(&cluster.nodes[i], &mut child, deadline).map_err(on_error)?;
    }

    for node in &cluster.nodes {
        say(format!(
            "{}  mysql -h127.0.0.1 -P{} -uroot   admin http://{}/status   log {}",
            node.name,
            port(&node.mysql),
            node.admin,
            node.log.display()
        ));
    }
    say(format!(
        "see 'tutti cluster status --base {0}'; stop with 'tutti cluster down --base {0}'",
        base.display()
    ));
    Ok(())
}

/// Reads one value from a `/status` document: `doc.status[key]`, else `doc.wsrep[key]`,
/// else `doc[key]`; strings as they are, numbers and booleans printed, "-" if missing.
pub fn status_value(doc: &Json, key: &str) -> String {
    ["status", "wsrep"]
        .iter()
        .find_map(|section| doc.get(section).and_then(|s| s.get(key)))
        .or_else(|| doc.get(key))
        .and_then(|v| match v {
            Json::String(s) if !s.is_empty() => Some(s.clone()),
            Json::Number(n) => Some(n.to_string()),
            Json::Bool(b) => Some(b.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| "-".to_string())
}

/// The header line of `tutti cluster status`.
pub fn status_header() -> String {
    status_line(&[
        "node", "pid", "process", "state", "cluster", "size", "seqno", "leader",
    ])
}

/// One row of `tutti cluster status`: the node, its process, and its `/status` values
/// (`doc` is `Json::Null` when the node did not answer).
pub fn status_row(name: &str, pid: u32, running: bool, doc: &Json) -> String {
    let mut cells = vec![
        name.to_string(),
        pid.to_string(),
        if running { "running" } else { "stopped" }.to_string(),
    ];
    cells.extend(STATUS_KEYS.iter().map(|k| status_value(doc, k)));
    let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
    status_line(&cells)
}

fn status_line(c: &[&str]) -> String {
    format!(
        "{:<8} {:>8} {:<8} {:<10} {:<12} {:>4} {:>10}  {}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
    )
}

/// `tutti cluster status`: prints one row per node; true if every node runs and answers.
pub fn status(base: &Path) -> Result<bool, String> {
    let c = LocalCluster::load(base)?;
    say(status_header());
    let mut all_up = true;
    for n in &c.nodes {
        let alive = running(n.pid, &n.datadir);
        let doc = if alive {
            crate::http::get(&n.admin, "/status")
                .and_then(|(_, body)| serde_json::from_str(&body).ok())
        } else {
            None
        };
        all_up &= alive && doc.is_some();
        say(status_row(
            &n.name,
            n.pid,
            alive,
            &doc.unwrap_or(Json::Null),
        ));
    }
    Ok(all_up)
}

/// `tutti cluster down`: stops every node with SIGTERM, newest first, waiting for each to
/// exit before the next; datadirs are kept.
pub fn down(base: &Path) -> Result<(), String> {
    let c = LocalCluster::load(base)?;
    for n in c.nodes.iter().rev() {
        if !running(n.pid, &n.datadir) {
            say(format!("{}: not running", n.name));
            continue;
        }
        let sent = Command::new("kill")
            .args(["-TERM", &n.pid.to_string()])
            .status()
            .map_err(|e| format!("cannot run kill: {e}"))?;
        if !sent.success() && running(n.pid, &n.datadir) {
            return Err(format!("cannot signal {} (pid {})", n.name, n.pid));
        }
        let deadline = Instant::now() + STOP_TIMEOUT;
        while running(n.pid, &n.datadir) {
            if Instant::now() >= deadline {
                return Err(format!(
                    "{} (pid {}) did not stop within {} s of SIGTERM; see {}",
                    n.name,
                    n.pid,
                    STOP_TIMEOUT.as_secs(),
                    n.log.display()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        say(format!("{}: stopped (pid {})", n.name, n.pid));
    }
    say(format!(
        "datadirs kept under {0}; 'tutti cluster up --base {0}' restarts the cluster",
        base.display()
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(d: &Path, i: u32) -> LocalNode {
        LocalNode {
            name: format!("node{i}"),
            datadir: d.join(format!("node{i}")),
            mysql: format!("127.0.0.1:{}", 1000 + i),
            admin: format!("127.0.0.1:{}", 2000 + i),
            peer: format!("127.0.0.1:{}", 3000 + i),
            pid: 40 + i,
            log: d.join(format!("node{i}.log")),
        }
    }

    #[test]
    fn cluster_file_round_trips_in_the_layout_the_scripts_read() {
        let d = tempfile::tempdir().unwrap();
        let c = LocalCluster {
            nodes: vec![node(d.path(), 1), node(d.path(), 2)],
        };
        c.save(d.path()).unwrap();
        assert_eq!(LocalCluster::load(d.path()).unwrap(), c);
        let text = std::fs::read_to_string(d.path().join(CLUSTER_FILE)).unwrap();
        for line in [
            "[[nodes]]",
            "name = \"node2\"",
            "mysql = \"127.0.0.1:1002\"",
            "pid = 42",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
    }

    #[test]
    fn missing_or_bad_cluster_files_are_one_line_errors() {
        let d = tempfile::tempdir().unwrap();
        let e = LocalCluster::load(d.path()).unwrap_err();
        assert!(
            e.contains("cluster.toml") && e.contains("tutti cluster up"),
            "{e}"
        );
        std::fs::write(d.path().join(CLUSTER_FILE), "nodes = 3").unwrap();
        assert!(LocalCluster::load(d.path()).is_err());
        std::fs::write(d.path().join(CLUSTER_FILE), "nodes = []").unwrap();
        assert!(LocalCluster::load(d.path())
            .unwrap_err()
            .contains("no nodes"));
    }

    #[test]
    fn new_clusters_get_distinct_free_ports() {
        let d = tempfile::tempdir().unwrap();
        let c = LocalCluster::create(d.path(), 3).unwrap();
        let mut addrs: Vec<&str> = c
            .nodes
            .iter()
            .flat_map(|n| [n.mysql.as_str(), n.admin.as_str(), n.peer.as_str()])
            .collect();
        assert_eq!(c.nodes[2].name, "node3");
        assert_eq!(c.nodes[2].datadir, d.path().join("node3"));
        addrs.sort_unstable();
        addrs.dedup();
        assert_eq!(addrs.len(), 9);
        assert!(addrs.iter().all(|a| a.starts_with("127.0.0.1:")));
    }

    #[test]
    fn status_values_are_looked_up_in_order() {
        let doc = json!({
            "status": {"wsrep_cluster_size": "3"},
            "wsrep": {"wsrep_cluster_size": "2", "wsrep_last_committed": "17"},
            "wsrep_cluster_status": "Primary",
            "wsrep_local_state_comment": "",
            "n": 5,
        });
        assert_eq!(status_value(&doc, "wsrep_cluster_size"), "3");
        assert_eq!(status_value(&doc, "wsrep_last_committed"), "17");
        assert_eq!(status_value(&doc, "wsrep_cluster_status"), "Primary");
        assert_eq!(status_value(&doc, "n"), "5");
        assert_eq!(status_value(&doc, "wsrep_local_state_comment"), "-");
        assert_eq!(status_value(&doc, "missing"), "-");
        assert_eq!(status_value(&Json::Null, "n"), "-");
    }

    #[test]
    fn status_rows_line_up_with_the_header() {
        let doc = json!({"wsrep": {
            "wsrep_local_state_comment": "Synced",
            "wsrep_cluster_status": "Primary",
            "wsrep_cluster_size": "3",
            "wsrep_last_committed": "1234",
            "wsrep_cluster_leader": "node1",
        }});
        let row = status_row("node2", 4321, true, &doc);
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            cells,
            ["node2", "4321", "running", "Synced", "Primary", "3", "1234", "node1"]
        );
        assert_eq!(status_header().find("leader"), row.find("node1"));
        let down: Vec<String> = status_row("node3", 7, false, &Json::Null)
            .split_whitespace()
            .map(String::from)
            .collect();
        assert_eq!(down, ["node3", "7", "stopped", "-", "-", "-", "-", "-"]);
        assert_eq!(port("127.0.0.1:3306"), "3306");
    }
}
