//! End-to-end harness: real `tutti` processes on 127.0.0.1 with temporary datadirs, free
//! ports and bounded waits, driven with the `mysql` crate, the `mariadb` CLI and raw
//! sockets.
#![allow(dead_code)]

use mysql::prelude::*;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tutti")
}

/// A port nobody listens on right now, and never handed out before by this process (the
/// OS may hand a just-released port out again before the node that got it binds it).
pub fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut given = GIVEN.lock().unwrap();
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
}

/// Polls `f` until it returns Some, at most `timeout`.
pub fn wait_for<T>(what: &str, timeout: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {timeout:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One node process.
pub struct NodeProc {
    pub name: String,
    pub datadir: PathBuf,
    pub mysql_port: u16,
    pub admin_port: u16,
    pub peer_port: u16,
    pub log: PathBuf,
    pub extra: Vec<String>,
    /// Environment variables of the process (test hooks).
    pub env: Vec<(String, String)>,
    child: Option<Child>,
}

impl NodeProc {
    /// A node in `base/name` with fresh ports (not started).
    pub fn new(base: &Path, name: &str) -> NodeProc {
        let datadir = base.join(name);
        NodeProc {
            name: name.into(),
            log: base.join(format!("{name}.log")),
            datadir,
            mysql_port: free_port(),
            admin_port: free_port(),
            peer_port: free_port(),
            extra: Vec::new(),
            env: Vec::new(),
            child: None,
        }
    }

    /// The `tutti start` arguments (the same on every restart).
    pub fn args(&self) -> Vec<String> {
        let mut a = vec![
            "start".to_string(),
            "--datadir".into(),
            self.datadir.display().to_string(),
            "--name".into(),
            self.name.clone(),
            "--mysql-listen".into(),
            format!("127.0.0.1:{}", self.mysql_port),
            "--admin-listen".into(),
            format!("127.0.0.1:{}", self.admin_port),
            "--peer-listen".into(),
            self.peer_addr(),
        ];
        a.extend(self.extra.iter().cloned());
        a
    }

    /// The peer (replication) address.
    pub fn peer_addr(&self) -> String {
        format!("127.0.0.1:{}", self.peer_port)
    }

    /// Waits until `/health` says the node is synced and serving (200).
    pub fn wait_synced(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(c) = self.child.as_mut() {
                if let Ok(Some(status)) = c.try_wait() {
                    panic!(
                        "{} exited with {status}; log:\n{}",
                        self.name,
                        read(&self.log)
                    );
                }
            }
            if try_http_get(self.admin_port, "/health").is_some_and(|r| r.0 == 200) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{} not synced after {timeout:?}; log:\n{}",
                self.name,
                read(&self.log)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// One `wsrep_%` status value, through SQL.
    pub fn wsrep(&self, name: &str) -> String {
        let mut c = self.conn();
        let row: Option<(String, String)> =
            c.query_first(format!("SHOW STATUS LIKE '{name}'")).unwrap();
        row.map(|r| r.1).unwrap_or_default()
    }

    /// Starts the process (appending to its log) without waiting.
    pub fn spawn(&mut self) {
        assert!(self.child.is_none(), "{} already running", self.name);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        let child = Command::new(bin())
            .args(self.args())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("spawn tutti");
        self.child = Some(child);
    }

    /// Starts and waits until it is synced and answers MySQL pings.
    pub fn start(&mut self) {
        self.spawn();
        self.wait_synced(Duration::from_secs(60));
        self.wait_ready(Duration::from_secs(60));
    }

    /// Waits until a MySQL client can connect and ping.
    pub fn wait_ready(&mut self, timeout: Duration) {
        let name = self.name.clone();
        let port = self.mysql_port;
        let log = self.log.clone();
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(c) = self.child.as_mut() {
                if let Ok(Some(status)) = c.try_wait() {
                    panic!(
                        "{name} exited with {status} during startup; log:\n{}",
                        read(&log)
                    );
                }
            }
            if let Ok(mut c) = mysql::Conn::new(opts(port)) {
                if c.ping().is_ok() {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "{name} not ready after {timeout:?}; log:\n{}",
                read(&log)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// kill -9.
    pub fn kill9(&mut self) {
        // The datadir now belongs to a cluster: a restart must not bootstrap again.
        self.extra.retain(|a| a != "--bootstrap");
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// SIGTERM, then waits (bounded) for a clean exit; returns the exit code.
    pub fn stop(&mut self) -> Option<i32> {
        self.extra.retain(|a| a != "--bootstrap");
        let mut c = self.child.take()?;
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(c.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(s)) = c.try_wait() {
                return s.code();
            }
            if Instant::now() > deadline {
                let _ = c.kill();
                let _ = c.wait();
                panic!("{} did not stop within 30 s of SIGTERM", self.name);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits (bounded) for the process to exit by itself; its exit status.
    pub fn wait_exit(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let c = self.child.as_mut().expect("running");
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(s)) = c.try_wait() {
                self.child = None;
                return s;
            }
            assert!(Instant::now() < deadline, "{} did not exit", self.name);
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// kill -9, then removes the datadir: the node comes back as a new identity.
    pub fn wipe(&mut self) {
        self.kill9();
        let _ = std::fs::remove_dir_all(&self.datadir);
        // A rebuilt node joins, it does not bootstrap.
        self.extra.retain(|a| a != "--bootstrap");
    }

    /// `GET /members`, as JSON.
    pub fn members(&self) -> Vec<serde_json::Value> {
        let (code, body) = self.http_get("/members");
        assert_eq!(code, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Voter names as this node knows them, sorted.
    pub fn voters(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .members()
            .iter()
            .filter(|m| m["voter"] == true)
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    }

    /// True while the process runs.
    pub fn running(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }

    /// A new client connection as root.
    pub fn conn(&self) -> mysql::Conn {
        mysql::Conn::new(opts(self.mysql_port))
            .unwrap_or_else(|e| panic!("connect to {}: {e}", self.name))
    }

    /// The `mariadb` CLI on this node as root, in batch mode without column names.
    fn cli(&self) -> Command {
        let mut c = Command::new("mariadb");
        c.args([
            "-h127.0.0.1",
            &format!("-P{}", self.mysql_port),
            "-uroot",
            "--batch",
            "--skip-column-names",
        ]);
        c
    }

    /// Runs SQL through the `mariadb` CLI.
    pub fn mariadb(&self, sql: &str) -> Output {
        self.cli()
            .args(["-e", sql])
            .output()
            .expect("run the mariadb CLI (apt-get install mariadb-client)")
    }

    /// Runs the bytes `input` through the `mariadb` CLI, going on after errors, with the
    /// extra `args` (`--default-character-set=latin1`).
    pub fn mariadb_bytes(&self, args: &[&str], input: &[u8]) -> Output {
        use std::io::Write;
        let mut child = self
            .cli()
            .arg("--force")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run the mariadb CLI (apt-get install mariadb-client)");
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin.write_all(input).expect("write to the mariadb CLI");
        drop(stdin);
        child.wait_with_output().expect("wait for the mariadb CLI")
    }

    /// GET on the admin port: (status code, body).
    pub fn http_get(&self, path: &str) -> (u16, String) {
        http_get(self.admin_port, path)
    }

    /// The node's log so far.
    pub fn log_text(&self) -> String {
        read(&self.log)
    }
}

impl Drop for NodeProc {
    fn drop(&mut self) {
        self.kill9();
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

/// Client options for root on a local port.
pub fn opts(port: u16) -> mysql::Opts {
    mysql::OptsBuilder::new()
        .ip_or_hostname(Some("127.0.0.1"))
        .tcp_port(port)
        .user(Some("root"))
        .prefer_socket(false)
        .tcp_connect_timeout(Some(Duration::from_secs(5)))
        .into()
}

/// A minimal HTTP/1.0 GET.
pub fn http_get(port: u16, path: &str) -> (u16, String) {
    try_http_get(port, path).expect("GET on the admin port")
}

/// A minimal HTTP/1.0 GET; None when the port does not answer.
pub fn try_http_get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut resp = String::new();
    s.read_to_string(&mut resp).ok()?;
    let code = resp
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = resp
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Some((code, body))
}

/// The MySQL error code of a failed statement.
pub fn code<T: std::fmt::Debug>(r: Result<T, mysql::Error>) -> u16 {
    match r {
        Err(mysql::Error::MySqlError(e)) => e.code,
        other => panic!("expected a MySQL error, got {other:?}"),
    }
}

/// A single value.
pub fn one<T: FromValue>(c: &mut mysql::Conn, sql: &str) -> T {
    c.query_first(sql)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .unwrap_or_else(|| panic!("{sql}: no row"))
}

/// A raw protocol client: logs in as root with an empty password, then sends packets.
pub struct RawClient {
    pub s: TcpStream,
}

impl RawClient {
    /// Connects and completes the handshake.
    pub fn login(port: u16) -> RawClient {
        let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut c = RawClient { s };
        let (_, greeting) = c.read_packet().expect("greeting");
        assert_eq!(greeting[0], 10, "protocol 10");
        // CLIENT_PROTOCOL_41 | SECURE_CONNECTION | PLUGIN_AUTH | LONG_PASSWORD
        let caps: u32 = 0x0200 | 0x8000 | 0x0008_0000 | 0x1;
        let mut p = caps.to_le_bytes().to_vec();
        p.extend(16_777_216u32.to_le_bytes());
        p.push(45);
        p.extend([0u8; 23]);
        p.extend(b"root\0");
        p.push(0); // empty auth response
        p.extend(b"mysql_native_password\0");
        c.write_packet(1, &p);
        let (_, ok) = c.read_packet().expect("auth result");
        assert_eq!(ok[0], 0, "login OK");
        c
    }

    /// Sends one packet.
    pub fn write_packet(&mut self, seq: u8, payload: &[u8]) {
        let mut h = (payload.len() as u32).to_le_bytes()[..3].to_vec();
        h.push(seq);
        let _ = self.s.write_all(&h);
        let _ = self.s.write_all(payload);
    }

    /// Reads one packet; None when the server closed the connection (end of stream or
    /// reset) before it. Panics when the server neither answers nor closes within the read
    /// timeout, or closes in the middle of a packet: a hang is not a close.
    pub fn read_packet(&mut self) -> Option<(u8, Vec<u8>)> {
        let mut h = [0u8; 4];
        match self.s.read_exact(&mut h) {
            Ok(()) => {}
            Err(e) if is_closed(&e) => return None,
            Err(e) => panic!("reading a packet header: {}", read_failure(&e)),
        }
        let len = u32::from_le_bytes([h[0], h[1], h[2], 0]) as usize;
        let mut p = vec![0u8; len];
        if let Err(e) = self.s.read_exact(&mut p) {
            panic!(
                "reading a packet of {len} bytes after its header: {}",
                read_failure(&e)
            );
        }
        Some((h[3], p))
    }

    /// Sends a command and returns the error code of the reply (None if not an error, or
    /// if the server closed the connection instead of answering; panics on no answer).
    pub fn command_error(&mut self, payload: &[u8]) -> Option<u16> {
        self.write_packet(0, payload);
        let (_, r) = self.read_packet()?;
        (r[0] == 0xFF).then(|| u16::from_le_bytes([r[1], r[2]]))
    }
}

/// True for a read error that means the peer closed the connection (end of stream, reset,
/// abort); false for a timeout or anything else.
pub fn is_closed(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        UnexpectedEof | ConnectionReset | ConnectionAborted | BrokenPipe
    )
}

/// True for a read error that is the socket's read timeout expiring.
pub fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// Describes a read error that is not a close, for a panic message.
fn read_failure(e: &std::io::Error) -> String {
    if is_timeout(e) {
        format!("no data and no close within the read timeout ({e})")
    } else if is_closed(e) {
        format!("the connection closed mid-packet ({e})")
    } else {
        format!("read error ({e})")
    }
}

/// Reads (and discards) whatever the peer sends until it closes the connection (end of
/// stream or reset); panics when it neither closes nor stops talking within `timeout`.
pub fn expect_closed(mut s: TcpStream, what: &str, timeout: Duration) {
    let deadline = Instant::now() + timeout;
    let mut buf = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(
            !left.is_zero(),
            "{what}: the connection was still open after {timeout:?}"
        );
        s.set_read_timeout(Some(left)).unwrap();
        match s.read(&mut buf) {
            Ok(0) => return,
            Ok(_) => continue, // a reply (a hello), then the close
            Err(e) if is_closed(&e) => return,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if is_timeout(&e) => {
                panic!("{what}: the connection was still open after {timeout:?}")
            }
            Err(e) => panic!("{what}: read error while waiting for the close: {e}"),
        }
    }
}

/// A temporary directory for a test; kept after the test when `TUTTI_KEEP_TMP` is set
/// (to read the nodes' logs).
pub fn temp_base(test: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("tutti-{test}-"))
        .disable_cleanup(std::env::var_os("TUTTI_KEEP_TMP").is_some())
        .tempdir()
        .unwrap()
}

/// Starts a cluster of `n` nodes in `base`: node1 bootstraps, the others join through it;
/// returns once every node is synced.
pub fn cluster(base: &Path, n: usize) -> Vec<NodeProc> {
    let mut nodes: Vec<NodeProc> = (1..=n)
        .map(|i| NodeProc::new(base, &format!("node{i}")))
        .collect();
    nodes[0].extra = vec!["--bootstrap".into()];
    let seed = nodes[0].peer_addr();
    for node in nodes.iter_mut().skip(1) {
        node.extra = vec!["--join".into(), seed.clone()];
    }
    for node in nodes.iter_mut() {
        node.start();
    }
    nodes
}

/// The rows of a query on a node, one string per row (for comparing nodes).
pub fn dump(n: &NodeProc, sql: &str) -> Vec<String> {
    let mut c = n.conn();
    c.query_map(sql, |row: mysql::Row| {
        (0..row.len())
            .map(|i| format!("{:?}", row.as_ref(i).unwrap()))
            .collect::<Vec<_>>()
            .join("|")
    })
    .unwrap()
}

/// Waits (bounded) until every node returns the same rows for `sql`; returns them.
pub fn converge(nodes: &[&NodeProc], sql: &str) -> Vec<String> {
    wait_for(
        "identical contents on all nodes",
        Duration::from_secs(60),
        || {
            let first = dump(nodes[0], sql);
            nodes[1..]
                .iter()
                .all(|n| dump(n, sql) == first)
                .then_some(first)
        },
    )
}

/// Bank accounts for the transfer tests.
pub const ACCOUNTS: i64 = 10;
/// Every account's opening balance.
pub const START: i64 = 1000;

/// Creates `bank.acct` (ACCOUNTS accounts holding START each) and `bank.log` through `n`.
pub fn bank_schema(n: &NodeProc) {
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE bank").unwrap();
    c.query_drop("CREATE TABLE bank.acct (id INT PRIMARY KEY, bal INT NOT NULL)")
        .unwrap();
    c.query_drop("CREATE TABLE bank.log (id BIGINT PRIMARY KEY)")
        .unwrap();
    for id in 1..=ACCOUNTS {
        c.exec_drop("INSERT INTO bank.acct VALUES (?, ?)", (id, START))
            .unwrap();
    }
}
