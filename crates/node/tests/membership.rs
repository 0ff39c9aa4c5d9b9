//! End-to-end: membership heals itself and the operator can always act. A rebuilt node
//! replaces its old identity; a member away past `evs.inactive_timeout` is removed and
//! rejoins as a voter; `pc.bootstrap` revives a lone survivor; a leader kill is invisible to
//! readers on the survivors; `tutti member` lists and removes; a panic ends the process;
//! the logs say all of it in plain text.

mod harness;

use harness::*;
use mysql::prelude::*;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const LONG: Duration = Duration::from_secs(60);

fn status_of(n: &NodeProc) -> String {
    n.wsrep("wsrep_cluster_status")
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn write(n: &NodeProc, id: i64) {
    n.conn()
        .exec_drop("INSERT INTO m.t VALUES (?, ?)", (id, n.name.as_str()))
        .unwrap_or_else(|e| panic!("write {id} on {}: {e}", n.name));
}

fn schema(n: &NodeProc) {
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE m").unwrap();
    c.query_drop("CREATE TABLE m.t (id INT PRIMARY KEY, v VARCHAR(20))")
        .unwrap();
}

/// Restarts every node together (a full cluster stop needs a majority back at once).
fn restart_all(nodes: &mut [NodeProc]) {
    for n in nodes.iter_mut() {
        n.spawn();
    }
    for n in nodes.iter_mut() {
        n.wait_synced(LONG);
    }
}

fn assert_plain_logs(nodes: &[NodeProc]) {
    for n in nodes {
        let log = n.log_text();
        assert!(
            !log.contains('\u{1b}'),
            "{}: ANSI escapes in the log",
            n.name
        );
        assert!(
            !log.contains(" raft_id="),
            "{}: raft-rs internals at INFO",
            n.name
        );
    }
}

#[test]
fn a_rebuilt_node_replaces_its_old_identity_and_another_failure_is_survived() {
    let base = temp_base("member-replace");
    let mut nodes = cluster(base.path(), 3);
    schema(&nodes[0]);
    write(&nodes[0], 1);
    // node3 is destroyed and rebuilt with an empty datadir, under the same name.
    nodes[2].wipe();
    nodes[2].start();
    wait_for("the old identity to be gone", LONG, || {
        (nodes[0].voters() == names(&["node1", "node2", "node3"]) && nodes[0].members().len() == 3)
            .then_some(())
    });
    let log = nodes[0].log_text() + &nodes[1].log_text();
    assert!(log.contains("removing the old identity"), "{log}");
    // Three voters, not four: losing another node leaves a majority.
    nodes[1].kill9();
    for i in [0, 2] {
        wait_for("Primary without node2", LONG, || {
            (status_of(&nodes[i]) == "Primary").then_some(())
        });
    }
    write(&nodes[2], 2);
    nodes[1].start();
    // A clean stop of all, and a restart of all: back to Synced.
    for n in nodes.iter_mut().rev() {
        assert_eq!(n.stop(), Some(0));
    }
    restart_all(&mut nodes);
    write(&nodes[1], 3);
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    assert_eq!(converge(&refs, "SELECT * FROM m.t ORDER BY id").len(), 3);
    assert_plain_logs(&nodes);
}

#[test]
fn a_member_away_past_the_inactive_timeout_is_removed_and_readmitted() {
    let base = temp_base("member-inactive");
    let mut nodes: Vec<NodeProc> = (1..=3)
        .map(|i| NodeProc::new(base.path(), &format!("node{i}")))
        .collect();
    let seed = nodes[0].peer_addr();
    for (i, n) in nodes.iter_mut().enumerate() {
        n.extra = vec![
            "--provider-options".into(),
            "evs.inactive_timeout=PT3S".into(),
        ];
        if i == 0 {
            n.extra.push("--bootstrap".into());
        } else {
            n.extra.extend(["--join".into(), seed.clone()]);
        }
        n.start();
    }
    schema(&nodes[0]);
    let conf_before = nodes[0].wsrep("wsrep_cluster_conf_id");
    nodes[2].kill9();
    // The rule: removed once unreachable for longer than the timeout.
    let t0 = Instant::now();
    wait_for("node3 removed from the voters", LONG, || {
        (nodes[0].voters() == names(&["node1", "node2"])
            && nodes[1].voters() == names(&["node1", "node2"]))
        .then_some(())
    });
    // (The last message from node3 may precede the kill by a heartbeat interval.)
    assert!(
        t0.elapsed() >= Duration::from_millis(2500),
        "removed before the timeout"
    );
    // The view changed, and both survivors show the same one.
    wait_for("one conf_id on both survivors", LONG, || {
        let a = nodes[0].wsrep("wsrep_cluster_conf_id");
        (a == nodes[1].wsrep("wsrep_cluster_conf_id") && a != conf_before).then_some(())
    });
    write(&nodes[1], 1);
    let log = nodes[0].log_text() + &nodes[1].log_text();
    assert!(log.contains("member node3 lost"), "{log}");
    assert!(log.contains("evs.inactive_timeout"), "{log}");
    // It comes back by itself, catches up, and votes again.
    nodes[2].start();
    wait_for("node3 a voter again", LONG, || {
        (nodes[0].voters() == names(&["node1", "node2", "node3"])).then_some(())
    });
    nodes[2].wait_synced(LONG);
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    assert_eq!(converge(&refs, "SELECT * FROM m.t").len(), 1);
    wait_for("one conf_id on all", LONG, || {
        let c: Vec<String> = nodes
            .iter()
            .map(|n| n.wsrep("wsrep_cluster_conf_id"))
            .collect();
        c.iter().all(|x| *x == c[0]).then_some(())
    });
    assert!(nodes[2].log_text().contains("rejoining"));
}

#[test]
fn pc_bootstrap_revives_a_lone_survivor_and_the_others_rejoin() {
    let base = temp_base("member-bootstrap");
    let mut nodes = cluster(base.path(), 3);
    schema(&nodes[0]);
    write(&nodes[0], 1);
    // Refused where a primary component exists.
    let e = nodes[1]
        .conn()
        .query_drop("SET GLOBAL wsrep_provider_options='pc.bootstrap=YES'");
    assert!(e.is_err(), "pc.bootstrap on a Primary node must be refused");
    nodes[1].kill9();
    nodes[2].kill9();
    wait_for("node1 non-Primary", LONG, || {
        (status_of(&nodes[0]) == "non-Primary").then_some(())
    });
    assert_eq!(
        code(
            nodes[0]
                .conn()
                .query_drop("INSERT INTO m.t VALUES (2, 'x')")
        ),
        1047
    );
    nodes[0]
        .conn()
        .query_drop("SET GLOBAL wsrep_provider_options='pc.bootstrap=YES'")
        .unwrap();
    nodes[0].wait_synced(LONG);
    assert_eq!(status_of(&nodes[0]), "Primary");
    write(&nodes[0], 2);
    assert!(nodes[0].log_text().contains("pc.bootstrap"));
    for n in &mut nodes[1..] {
        n.start();
    }
    wait_for("all three voters again", LONG, || {
        (nodes[0].voters() == names(&["node1", "node2", "node3"])).then_some(())
    });
    write(&nodes[2], 3);
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    assert_eq!(converge(&refs, "SELECT * FROM m.t").len(), 3);
    for n in nodes.iter_mut().rev() {
        n.stop();
    }
    restart_all(&mut nodes);
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    assert_eq!(converge(&refs, "SELECT * FROM m.t").len(), 3);
}

/// Reads in a loop on a node until stopped: (reads, errors by MySQL code).
fn reader(port: u16, stop: Arc<AtomicBool>) -> (u64, Vec<u16>) {
    let mut c = mysql::Conn::new(opts(port)).unwrap();
    let (mut n, mut errors) = (0, Vec::new());
    while !stop.load(Ordering::Relaxed) {
        match c.query_drop("SELECT * FROM m.t WHERE id = 1") {
            Ok(()) => n += 1,
            Err(mysql::Error::MySqlError(e)) => errors.push(e.code),
            Err(e) => panic!("reader on {port}: {e}"),
        }
    }
    (n, errors)
}

#[test]
fn a_leader_kill_is_invisible_to_readers_on_the_survivors() {
    let base = temp_base("member-leader");
    let mut nodes = cluster(base.path(), 3);
    schema(&nodes[0]);
    write(&nodes[0], 1);
    let conf: Vec<String> = nodes
        .iter()
        .map(|n| n.wsrep("wsrep_cluster_conf_id"))
        .collect();
    assert!(conf.iter().all(|c| *c == conf[0]), "{conf:?}");
    let leader_name = nodes[0].wsrep("wsrep_cluster_leader");
    let leader = nodes.iter().position(|n| n.name == leader_name).unwrap();
    let survivors: Vec<usize> = (0..3).filter(|i| *i != leader).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = survivors
        .iter()
        .map(|i| {
            let (port, stop) = (nodes[*i].mysql_port, stop.clone());
            std::thread::spawn(move || reader(port, stop))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    nodes[leader].kill9();
    wait_for("a new leader", LONG, || {
        let l = nodes[survivors[0]].wsrep("wsrep_cluster_leader");
        (!l.is_empty() && l != leader_name).then_some(())
    });
    // Writes wait for the new leader rather than fail.
    write(&nodes[survivors[1]], 2);
    std::thread::sleep(Duration::from_secs(2));
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        let (n, errors) = r.join().unwrap();
        assert!(n > 10, "{n} reads");
        assert!(
            errors.is_empty(),
            "errors during the leader change: {errors:?}"
        );
    }
    let after: Vec<String> = survivors
        .iter()
        .map(|i| nodes[*i].wsrep("wsrep_cluster_conf_id"))
        .collect();
    assert_eq!(after[0], after[1]);
    assert_ne!(after[0], conf[0], "a leader change is a new view");
    for i in &survivors {
        let log = nodes[*i].log_text();
        assert!(log.contains(&format!(
            "leader {}",
            nodes[*i].wsrep("wsrep_cluster_leader")
        )));
        assert!(log.contains("view: primary, members [node"), "{log}");
    }
}

fn tutti(args: &[&str]) -> (bool, String) {
    let out = Command::new(bin()).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn tutti_member_lists_and_removes_members() {
    let base = temp_base("member-cli");
    let mut nodes = cluster(base.path(), 3);
    let admin = format!("127.0.0.1:{}", nodes[1].admin_port);
    let (ok, out) = tutti(&["member", "list", "--admin", &admin]);
    assert!(ok, "{out}");
    for n in ["node1", "node2", "node3"] {
        assert!(out.contains(n), "{out}");
    }
    assert_eq!(out.matches("voter").count(), 3, "{out}");
    // node3 is gone for good: the operator removes it at once.
    nodes[2].kill9();
    let (ok, out) = tutti(&["member", "remove", "node3", "--admin", &admin]);
    assert!(ok, "{out}");
    wait_for("node3 removed", LONG, || {
        (nodes[0].voters() == names(&["node1", "node2"])).then_some(())
    });
    let (ok, out) = tutti(&["member", "remove", "nobody", "--admin", &admin]);
    assert!(!ok && out.contains("no member named 'nobody'"), "{out}");
    let (ok, out) = tutti(&["member", "list", "--admin", "127.0.0.1:1"]);
    assert!(!ok && out.contains("no answer"), "{out}");
}

#[test]
fn a_panic_ends_the_process_with_a_last_line() {
    let base = temp_base("member-panic");
    let mut n = NodeProc::new(base.path(), "node1");
    n.extra = vec!["--bootstrap".into()];
    n.env = vec![("TUTTI_TEST_PANIC".into(), "raft".into())];
    n.spawn();
    let status = n.wait_exit(LONG);
    assert!(!status.success(), "{status}");
    let log = n.log_text();
    let last = log.lines().last().unwrap_or_default();
    assert!(
        last.contains("panic") && last.contains("thread 'raft'"),
        "last line: {last}\n{log}"
    );
}

#[test]
fn a_node_rebuilt_right_after_the_leader_crashed_joins() {
    let base = temp_base("member-rebuild-leader");
    let mut nodes = cluster(base.path(), 3);
    schema(&nodes[0]);
    for i in 0..50 {
        write(&nodes[0], i);
    }
    let leader_name = nodes[0].wsrep("wsrep_cluster_leader");
    let leader = nodes.iter().position(|n| n.name == leader_name).unwrap();
    let rebuilt = if leader == 2 { 1 } else { 2 };
    nodes[leader].kill9();
    nodes[rebuilt].wipe();
    if rebuilt == 0 {
        let seed = nodes[1].peer_addr();
        nodes[0].extra = vec!["--join".into(), seed];
    }
    // The old leader and the rebuilt node come back together (a majority is needed).
    nodes[leader].spawn();
    nodes[rebuilt].spawn();
    for n in nodes.iter_mut() {
        n.wait_synced(LONG);
    }
    wait_for("three voters", LONG, || {
        (nodes[0].voters() == names(&["node1", "node2", "node3"]) && nodes[0].members().len() == 3)
            .then_some(())
    });
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    assert_eq!(converge(&refs, "SELECT * FROM m.t").len(), 50);
    for n in &nodes {
        assert!(!n.log_text().contains("panic"), "{}", n.name);
    }
}
