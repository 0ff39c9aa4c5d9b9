//! End-to-end: nodes come back by incremental state transfer (IST) after a clean stop or a
//! kill -9; retention keeps a gap IST-able when frozen, and says "needs SST" clearly when the
//! history is gone; a cluster that lost every node restarts by itself.

mod harness;

use harness::*;
use mysql::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn status(n: &NodeProc) -> serde_json::Value {
    let (code, body) = n.http_get("/status");
    assert_eq!(code, 200);
    serde_json::from_str(&body).unwrap()
}

fn last_committed(n: &NodeProc) -> u64 {
    n.wsrep("wsrep_last_committed").parse().unwrap()
}

fn write_rows(n: &NodeProc, from: i64, count: i64, pad: usize) {
    let mut c = n.conn();
    let payload = "x".repeat(pad);
    for id in from..from + count {
        c.exec_drop("INSERT INTO ist.t VALUES (?, ?)", (id, &payload))
            .unwrap();
    }
}

/// Where a node was when it went away: its last committed seqno and how long its log was.
struct Away {
    applied: u64,
    log_len: usize,
}

/// Notes where `n` is before it is stopped or killed.
fn going_away(n: &NodeProc) -> Away {
    Away {
        applied: last_committed(n),
        log_len: n.log_text().len(),
    }
}

/// The `IST complete: seqnos A..=B (N bytes) ...` lines in `log`, as (A, B, N).
fn ist_lines(log: &str) -> Vec<(u64, u64, u64)> {
    log.lines()
        .filter_map(|l| {
            let rest = l.split_once("IST complete: seqnos ")?.1;
            let (range, rest) = rest.split_once(" (")?;
            let (from, to) = range.split_once("..=")?;
            let bytes = rest.split_once(" bytes)")?.0;
            Some((from.parse().ok()?, to.parse().ok()?, bytes.parse().ok()?))
        })
        .collect()
}

/// The seqno the node's database was at when it started (`database at ...: state
/// uuid:seqno`), from the first such line of `log`.
fn started_at(log: &str) -> Option<u64> {
    let line = log.lines().find(|l| l.contains("database at "))?;
    line.rsplit_once(':')?.1.trim().parse().ok()
}

/// Checks that `n`, back since `away`, caught up by IST: its log since then reports one
/// incremental transfer of the write-sets it missed, from the one after the seqno its
/// database restarted at (no earlier than where it was when it went away) to at least
/// `upto`, carrying at least `rows` rows of `pad` bytes, and no snapshot; `/status`
/// reports the same transfer. A snapshot or full copy instead would leave no such line,
/// or one that does not start where the node left off.
fn assert_ist(n: &NodeProc, away: &Away, upto: u64, rows: u64, pad: u64) {
    let log = n.log_text();
    let since = &log[away.log_len..];
    let resumed = started_at(since)
        .unwrap_or_else(|| panic!("no 'database at ...: state' line since the restart:\n{since}"));
    assert!(
        resumed >= away.applied && resumed < upto,
        "restarted at {resumed}: not lost ({}) and behind ({upto})",
        away.applied
    );
    let ists = ist_lines(since);
    assert_eq!(
        ists.len(),
        1,
        "one IST expected since the restart:\n{since}"
    );
    let (from, to, bytes) = ists[0];
    assert_eq!(
        from,
        resumed + 1,
        "the IST starts where the node left off:\n{since}"
    );
    assert!(to >= upto, "the IST reaches {upto}:\n{since}");
    assert!(
        bytes >= rows * pad,
        "the IST carried the {rows} missing rows as write-sets:\n{since}"
    );
    assert!(
        !since.to_lowercase().contains("snapshot"),
        "no snapshot transfer:\n{since}"
    );
    let s = status(n);
    let t = &s["cluster"]["last_state_transfer"];
    assert_eq!(t["kind"], "ist", "{s}");
    assert_eq!(
        (
            t["from_seqno"].as_u64(),
            t["to_seqno"].as_u64(),
            t["bytes"].as_u64()
        ),
        (Some(from), Some(to), Some(bytes)),
        "/status reports the transfer the log shows: {t}"
    );
}

#[test]
fn a_node_returns_by_ist_after_a_clean_stop_and_after_kill_9() {
    let base = tempfile::tempdir().unwrap();
    let mut nodes = cluster(base.path(), 3);
    let mut c = nodes[0].conn();
    c.query_drop("CREATE DATABASE ist").unwrap();
    c.query_drop("CREATE TABLE ist.t (id INT PRIMARY KEY, v TEXT)")
        .unwrap();
    // Clean stop: the node leaves, and is remembered as away.
    let away = going_away(&nodes[2]);
    nodes[2].stop();
    write_rows(&nodes[0], 0, 300, 10);
    let absent = status(&nodes[0])["cluster"]["absent"].clone();
    assert_eq!(absent[0]["ist_possible"], true, "{absent}");
    let target = last_committed(&nodes[0]);
    nodes[2].spawn();
    nodes[2].wait_synced(Duration::from_secs(60));
    assert_ist(&nodes[2], &away, target, 300, 10);
    let log = std::fs::read_to_string(&nodes[2].log).unwrap();
    assert!(log.contains("Shifting JOINED -> SYNCED"), "{log}");
    // kill -9: the node stays a member and catches up from the log.
    let away = going_away(&nodes[1]);
    nodes[1].kill9();
    write_rows(&nodes[0], 1000, 300, 10);
    let target = last_committed(&nodes[0]);
    nodes[1].spawn();
    nodes[1].wait_synced(Duration::from_secs(60));
    assert_ist(&nodes[1], &away, target, 300, 10);
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    assert_eq!(
        converge(&refs, "SELECT * FROM ist.t ORDER BY id").len(),
        600
    );
    for n in nodes.iter_mut() {
        n.stop();
    }
}

/// A cluster with small gcache segments and a small size budget, so purging happens.
fn small_gcache_cluster(base: &std::path::Path) -> Vec<NodeProc> {
    let config = base.join("tutti.toml");
    std::fs::write(
        &config,
        "gcache_segment_size = '64K'\nprovider_options = 'gcache.size=128K; gcache.keep_for_absent_size=0'\n",
    )
    .unwrap();
    let mut nodes: Vec<NodeProc> = (1..=3)
        .map(|i| NodeProc::new(base, &format!("node{i}")))
        .collect();
    let seed = nodes[0].peer_addr();
    for (i, n) in nodes.iter_mut().enumerate() {
        n.extra = vec!["--config".into(), config.display().to_string()];
        if i == 0 {
            n.extra.push("--bootstrap".into());
        } else {
            n.extra.extend(["--join".to_string(), seed.clone()]);
        }
        n.start();
    }
    let mut c = nodes[0].conn();
    c.query_drop("CREATE DATABASE ist").unwrap();
    c.query_drop("CREATE TABLE ist.t (id INT PRIMARY KEY, v TEXT)")
        .unwrap();
    nodes
}

fn cached_downto(n: &NodeProc) -> u64 {
    n.wsrep("wsrep_local_cached_downto").parse().unwrap()
}

fn gcache_bytes(n: &NodeProc) -> u64 {
    n.wsrep("wsrep_gcache_size_bytes").parse().unwrap()
}

/// The `gcache: purged history through seqno X (Reason); ... N bytes in use` lines in
/// `log`, as (X, reason, N).
fn purge_lines(log: &str) -> Vec<(u64, String, u64)> {
    log.lines()
        .filter_map(|l| {
            let rest = l.split_once("gcache: purged history through seqno ")?.1;
            let (through, rest) = rest.split_once(" (")?;
            let (reason, rest) = rest.split_once(')')?;
            let bytes = rest.split_once(" bytes in use")?.0.rsplit_once(' ')?.1;
            Some((
                through.parse().ok()?,
                reason.to_string(),
                bytes.parse().ok()?,
            ))
        })
        .collect()
}

#[test]
fn freeze_keeps_a_large_gap_ist_able() {
    let base = tempfile::tempdir().unwrap();
    let mut nodes = small_gcache_cluster(base.path());
    // History from before the freeze: more than one 64K segment (so whole segments of it
    // may go), less than gcache.size (so none went yet).
    write_rows(&nodes[0], 10_000, 36, 2500);
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    converge(&refs, "SELECT COUNT(*) FROM ist.t");
    for n in &nodes[..2] {
        let bytes = gcache_bytes(n);
        assert!(
            (70 << 10..128 << 10).contains(&bytes),
            "{}: set-up: the gcache holds {bytes} bytes, not two segments within gcache.size",
            n.name
        );
    }
    let logs_at: Vec<usize> = nodes.iter().map(|n| n.log_text().len()).collect();
    for n in &nodes[..2] {
        n.conn()
            .query_drop("SET GLOBAL wsrep_provider_options='gcache.freeze_purge_at_seqno=now'")
            .unwrap();
    }
    let opts: String = nodes[0]
        .conn()
        .query_first("SELECT @@wsrep_provider_options")
        .unwrap()
        .unwrap();
    assert!(opts.contains("gcache.freeze_purge_at_seqno"), "{opts}");
    let gap_start = last_committed(&nodes[0]);
    let away = going_away(&nodes[2]);
    nodes[2].stop();
    // About 1 MB of write-sets: eight times gcache.size.
    write_rows(&nodes[0], 0, 400, 2500);
    // A retention pass ran with the gap in place and the gcache over its size: it purged
    // the history from before the freeze, and the freeze alone stopped it there.
    for (n, at) in nodes[..2].iter().zip(&logs_at) {
        let (through, _, in_use) = wait_for(
            &format!("{}: a purge stopped by the freeze", n.name),
            Duration::from_secs(30),
            || {
                purge_lines(&n.log_text()[*at..])
                    .into_iter()
                    .find(|p| p.1 == "Frozen")
            },
        );
        assert!(through <= gap_start, "{}: purged into the gap", n.name);
        assert!(in_use > 128 << 10, "{}: {in_use} bytes left", n.name);
        assert!(cached_downto(n) <= gap_start + 1, "{}", n.name);
    }
    let bytes = gcache_bytes(&nodes[0]);
    assert!(
        bytes > 512 << 10,
        "the frozen gcache grew past gcache.size: {bytes}"
    );
    nodes[2].spawn();
    nodes[2].wait_synced(Duration::from_secs(60));
    assert_ist(&nodes[2], &away, gap_start + 400, 400, 2500);
    // Unfreeze: the next purge reclaims the space.
    for n in &nodes[..2] {
        n.conn()
            .query_drop("SET GLOBAL wsrep_provider_options='gcache.freeze_purge_at_seqno=-1'")
            .unwrap();
    }
    wait_for("purge after unfreeze", Duration::from_secs(30), || {
        (cached_downto(&nodes[0]) > gap_start + 1).then_some(())
    });
    // Bad values are refused with the option's name.
    let err = nodes[0]
        .conn()
        .query_drop("SET GLOBAL wsrep_provider_options='gcache.size=lots'")
        .unwrap_err();
    assert!(err.to_string().contains("gcache.size"), "{err}");
    for n in nodes.iter_mut() {
        n.stop();
    }
}

#[test]
fn a_node_whose_history_is_gone_says_it_needs_sst() {
    let base = tempfile::tempdir().unwrap();
    let mut nodes = small_gcache_cluster(base.path());
    write_rows(&nodes[0], 0, 5, 10);
    let before = {
        let refs: Vec<&NodeProc> = nodes.iter().collect();
        converge(&refs, "SELECT * FROM ist.t ORDER BY id")
    };
    let needs = last_committed(&nodes[2]) + 1;
    nodes[2].stop();
    write_rows(&nodes[0], 100, 400, 2500);
    wait_for("the gap to be purged", Duration::from_secs(30), || {
        (cached_downto(&nodes[0]) > needs && cached_downto(&nodes[1]) > needs).then_some(())
    });
    nodes[2].spawn();
    let s = wait_for(
        "node3 to report it needs SST",
        Duration::from_secs(60),
        || {
            let s = try_http_get(nodes[2].admin_port, "/status")?;
            let v: serde_json::Value = serde_json::from_str(&s.1).ok()?;
            (!v["cluster"]["needs_sst"].is_null()).then_some(v)
        },
    );
    assert_eq!(s["node"]["ready"], false);
    let (code, body) = nodes[2].http_get("/health");
    assert_eq!(code, 503);
    assert!(body.contains("SST"), "{body}");
    let log = std::fs::read_to_string(&nodes[2].log).unwrap();
    assert!(log.contains("needs a state snapshot transfer"), "{log}");
    // Its data is untouched while it waits (dirty reads show it).
    let mut c = nodes[2].conn();
    c.query_drop("SET SESSION wsrep_dirty_reads=ON").unwrap();
    let rows = c
        .query_map("SELECT * FROM ist.t ORDER BY id", |row: mysql::Row| {
            (0..row.len())
                .map(|i| format!("{:?}", row.as_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|")
        })
        .unwrap();
    assert_eq!(rows, before);
    for n in nodes.iter_mut() {
        n.stop();
    }
}

fn bank_client(port: u16, t: i64, stop: Arc<AtomicBool>, acked: Arc<Mutex<Vec<i64>>>) {
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut c) = mysql::Conn::new(opts(port)) else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        while !stop.load(Ordering::Relaxed) {
            i += 1;
            let id = t * 1_000_000 + i;
            let (from, to) = (id % ACCOUNTS + 1, (id + 3) % ACCOUNTS + 1);
            let r = (|| -> Result<(), mysql::Error> {
                c.query_drop("BEGIN")?;
                c.exec_drop("UPDATE bank.acct SET bal = bal - 1 WHERE id = ?", (from,))?;
                c.exec_drop("UPDATE bank.acct SET bal = bal + 1 WHERE id = ?", (to,))?;
                c.exec_drop("INSERT INTO bank.log VALUES (?)", (id,))?;
                c.query_drop("COMMIT")
            })();
            match r {
                Ok(()) => acked.lock().unwrap().push(id),
                Err(mysql::Error::MySqlError(_)) => {
                    let _ = c.query_drop("ROLLBACK");
                }
                Err(_) => break,
            }
        }
    }
}

#[test]
fn a_cluster_that_lost_every_node_restarts_by_itself() {
    let base = tempfile::tempdir().unwrap();
    let mut nodes = cluster(base.path(), 3);
    bank_schema(&nodes[0]);
    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(Mutex::new(Vec::new()));
    let clients: Vec<_> = nodes
        .iter()
        .enumerate()
        .map(|(t, n)| {
            let (stop, acked, port) = (stop.clone(), acked.clone(), n.mysql_port);
            std::thread::spawn(move || bank_client(port, t as i64 + 1, stop, acked))
        })
        .collect();
    wait_for("transfers under load", Duration::from_secs(60), || {
        (acked.lock().unwrap().len() >= 20).then_some(())
    });
    // Every node killed under load, then started again in a shuffled order, no flags.
    for n in nodes.iter_mut() {
        n.kill9();
    }
    stop.store(true, Ordering::Relaxed);
    for cl in clients {
        cl.join().unwrap();
    }
    for i in [2, 0, 1] {
        nodes[i].spawn();
    }
    for n in nodes.iter_mut() {
        n.wait_synced(Duration::from_secs(60));
    }
    let acked = acked.lock().unwrap().clone();
    assert!(!acked.is_empty());
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    converge(&refs, "SELECT * FROM bank.acct ORDER BY id");
    let log = converge(&refs, "SELECT id FROM bank.log ORDER BY id");
    let total: i64 = nodes[1]
        .conn()
        .query_first("SELECT SUM(bal) FROM bank.acct")
        .unwrap()
        .unwrap();
    assert_eq!(total, ACCOUNTS * START);
    let logged: std::collections::BTreeSet<i64> = log
        .iter()
        .map(|s| {
            s.trim_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .unwrap()
        })
        .collect();
    for id in &acked {
        assert!(logged.contains(id), "acknowledged transfer {id} lost");
    }
    // All stopped cleanly one by one: the last one holds the newest state; start them in
    // any order and the cluster forms again around it.
    for i in [1, 2, 0] {
        assert_eq!(nodes[i].stop(), Some(0));
    }
    for i in [2, 1, 0] {
        nodes[i].spawn();
    }
    for n in nodes.iter_mut() {
        n.wait_synced(Duration::from_secs(60));
    }
    nodes[2]
        .conn()
        .query_drop("INSERT INTO bank.log VALUES (1)")
        .unwrap();
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    converge(&refs, "SELECT id FROM bank.log ORDER BY id");
    for n in nodes.iter_mut() {
        n.stop();
    }
}
