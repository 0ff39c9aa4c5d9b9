//! End-to-end: whatever commits on one node applies on every node. Moves, swaps and
//! re-inserts of unique values, foreign keys with cascades, a random workload of writes and
//! schema changes over three nodes, and schema changes used on another node right after.

mod harness;

use harness::*;
use mysql::prelude::*;
use std::time::Duration;
use tutti_testkit::workload::{self, Workload};

/// Runs statements on one node, causally after everything committed anywhere before (the
/// steps of a test move from node to node; without the wait, a step could start before its
/// node applied the previous step and be aborted by it, as in Galera).
fn run(n: &NodeProc, sqls: &[&str]) {
    let mut c = n.conn();
    c.query_drop("SET SESSION wsrep_sync_wait = 15").unwrap();
    for s in sqls {
        c.query_drop(*s)
            .unwrap_or_else(|e| panic!("{} on {}: {e}", s, n.name));
    }
}

/// Every node Synced, same rows in every table listed, no inconsistency in any log.
fn assert_identical(nodes: &[NodeProc], tables: &[&str]) {
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    for t in tables {
        converge(&refs, &format!("SELECT * FROM {t} ORDER BY 1"));
    }
    for n in nodes {
        assert_eq!(n.wsrep("wsrep_local_state_comment"), "Synced", "{}", n.name);
        let log = n.log_text();
        assert!(!log.contains("Inconsistency"), "{}:\n{log}", n.name);
    }
}

#[test]
fn unique_moves_swaps_and_reinserts_apply_on_every_node() {
    let base = temp_base("apply-unique");
    let nodes = cluster(base.path(), 3);
    run(
        &nodes[0],
        &[
            "CREATE DATABASE r",
            "CREATE TABLE r.t1 (id INT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(50) UNIQUE, \
             n INT NOT NULL DEFAULT 0)",
            "INSERT INTO r.t1 (email) VALUES ('a@x.com')",
            // REPLACE moves the unique value to a new id: DELETE of the old row, INSERT.
            "REPLACE INTO r.t1 (id, email) VALUES (99, 'a@x.com')",
            "INSERT INTO r.t1 (id, email) VALUES (1, 'a'), (2, 'b'), (3, 'c')",
        ],
    );
    // A swap of two unique values, on another node.
    run(
        &nodes[1],
        &[
            "BEGIN",
            "UPDATE r.t1 SET email = 'tmp' WHERE id = 1",
            "UPDATE r.t1 SET email = 'a' WHERE id = 2",
            "UPDATE r.t1 SET email = 'b' WHERE id = 1",
            "COMMIT",
        ],
    );
    // A value deleted and inserted again under another key, in one transaction.
    run(
        &nodes[2],
        &[
            "CREATE TABLE r.k (id INT PRIMARY KEY, k VARCHAR(20) UNIQUE, v INT)",
            "INSERT INTO r.k VALUES (5, 'theme', 1), (6, 'lang', 2)",
            "BEGIN",
            "DELETE FROM r.k WHERE k = 'theme'",
            "INSERT INTO r.k VALUES (10, 'theme', 3)",
            "COMMIT",
        ],
    );
    // Parents whose unique codes are swapped, children following by ON UPDATE CASCADE.
    run(
        &nodes[0],
        &[
            "CREATE TABLE r.p (id INT PRIMARY KEY, code VARCHAR(10) UNIQUE)",
            "CREATE TABLE r.c (id INT PRIMARY KEY, code VARCHAR(10), tag VARCHAR(10) UNIQUE, \
             FOREIGN KEY (code) REFERENCES r.p (code) ON DELETE CASCADE ON UPDATE CASCADE)",
            "INSERT INTO r.p VALUES (1, 'x'), (2, 'y')",
            "INSERT INTO r.c VALUES (10, 'x', 't1'), (11, 'y', 't2')",
        ],
    );
    run(
        &nodes[1],
        &[
            "BEGIN",
            "UPDATE r.p SET code = 'tmp' WHERE id = 1",
            "UPDATE r.p SET code = 'x' WHERE id = 2",
            "UPDATE r.p SET code = 'y' WHERE id = 1",
            "UPDATE r.c SET tag = 'tmp' WHERE id = 10",
            "UPDATE r.c SET tag = 't1' WHERE id = 11",
            "UPDATE r.c SET tag = 't2' WHERE id = 10",
            "COMMIT",
        ],
    );
    run(&nodes[2], &["DELETE FROM r.p WHERE code = 'x'"]);
    // Then a write on every node: every node still applies.
    for (i, n) in nodes.iter().enumerate() {
        run(
            n,
            &[&format!("INSERT INTO r.k VALUES ({}, 'n{i}', {i})", 20 + i)],
        );
    }
    assert_identical(&nodes, &["r.t1", "r.k", "r.p", "r.c"]);
    assert_eq!(
        dump(&nodes[2], "SELECT id, email FROM r.t1 ORDER BY id"),
        [
            "Bytes(\"1\")|Bytes(\"b\")",
            "Bytes(\"2\")|Bytes(\"a\")",
            "Bytes(\"3\")|Bytes(\"c\")",
            "Bytes(\"99\")|Bytes(\"a@x.com\")"
        ]
    );
    assert_eq!(
        dump(&nodes[0], "SELECT id, code, tag FROM r.c"),
        ["Bytes(\"10\")|Bytes(\"y\")|Bytes(\"t2\")"],
        "row 11 followed parent 2 (code x) and was deleted with it"
    );
}

/// MySQL error codes a random workload provokes on purpose (duplicates, foreign keys,
/// conflicts, schema objects that do not exist at the moment, unsupported corners).
const EXPECTED: [u16; 12] = [
    1062, 1213, 1451, 1452, 1146, 1054, 1060, 1061, 1091, 1050, 1235, 1025,
];

#[test]
fn a_random_workload_on_three_nodes_applies_identically() {
    let base = temp_base("apply-random");
    let nodes = cluster(base.path(), 3);
    for s in workload::schema() {
        run(&nodes[0], &[&s]);
    }
    let mut conns: Vec<mysql::Conn> = nodes.iter().map(|n| n.conn()).collect();
    let mut w = Workload::new(2026, nodes.len());
    let (mut commits, mut errors) = (0, 0);
    let mut actions: Vec<_> = (0..400).map(|_| w.next_action()).collect();
    actions.extend(w.finish());
    for a in actions {
        let c = &mut conns[a.node];
        for sql in &a.statements {
            match c.query_drop(sql) {
                Ok(()) => commits += (sql == "COMMIT") as u32,
                Err(mysql::Error::MySqlError(e)) if EXPECTED.contains(&e.code) => {
                    errors += 1;
                    if e.code == 1213 {
                        // The transaction was rolled back.
                        let _ = c.query_drop("ROLLBACK");
                        w.ended(a.node);
                    }
                }
                Err(e) => panic!("{} on node{}: {e}", sql, a.node + 1),
            }
        }
    }
    assert!(
        commits > 20 && errors > 20,
        "{commits} commits, {errors} errors"
    );
    let tables: Vec<String> = workload::TABLES
        .iter()
        .map(|t| format!("{}.{t}", workload::DATABASE))
        .collect();
    let tables: Vec<&str> = tables.iter().map(String::as_str).collect();
    assert_identical(&nodes, &tables);
}

#[test]
fn schema_made_on_one_node_is_there_for_the_next_statement_on_another() {
    let base = temp_base("apply-ddl-order");
    let nodes = cluster(base.path(), 3);
    let mut c: Vec<mysql::Conn> = nodes.iter().map(|n| n.conn()).collect();
    for i in 0..15 {
        c[0].query_drop(format!("CREATE DATABASE app{i}")).unwrap();
        c[1].query_drop(format!("CREATE TABLE app{i}.t (id INT PRIMARY KEY, v INT)"))
            .unwrap_or_else(|e| panic!("round {i}: CREATE TABLE right after CREATE DATABASE: {e}"));
        c[2].query_drop(format!("INSERT INTO app{i}.t VALUES (1, {i})"))
            .unwrap_or_else(|e| panic!("round {i}: INSERT right after CREATE TABLE: {e}"));
        c[0].query_drop(format!("ALTER TABLE app{i}.t ADD COLUMN w INT DEFAULT 0"))
            .unwrap();
        c[1].query_drop(format!("UPDATE app{i}.t SET w = 1"))
            .unwrap_or_else(|e| panic!("round {i}: UPDATE of a new column: {e}"));
    }
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    wait_for(
        "the last change everywhere",
        Duration::from_secs(30),
        || {
            refs.iter()
                .all(|n| dump(n, "SELECT w FROM app14.t") == ["Bytes(\"1\")"])
                .then_some(())
        },
    );
}

#[test]
fn a_node_whose_data_differs_leaves_and_the_others_go_on() {
    let base = temp_base("apply-diverged");
    let mut nodes = cluster(base.path(), 3);
    run(
        &nodes[0],
        &[
            "CREATE DATABASE d",
            "CREATE TABLE d.t (id INT PRIMARY KEY, v INT)",
            "INSERT INTO d.t VALUES (1, 1), (2, 2)",
        ],
    );
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    converge(&refs, "SELECT * FROM d.t");
    // node3's data is changed behind the cluster's back.
    nodes[2].kill9();
    let db = rusqlite::Connection::open(nodes[2].datadir.join("tutti.db")).unwrap();
    db.execute_batch("DELETE FROM \"d.t\" WHERE id = 1")
        .unwrap();
    drop(db);
    nodes[2].start();
    run(&nodes[0], &["UPDATE d.t SET v = 10 WHERE id = 1"]);
    // node3 cannot apply it: it says why, leaves, and the others keep their quorum.
    wait_for("node3 to leave", Duration::from_secs(60), || {
        let (code, body) = nodes[2].http_get("/health");
        (code == 503 && body.contains("inconsistent") && nodes[0].voters() == ["node1", "node2"])
            .then_some(())
    });
    assert!(nodes[2].log_text().contains("Node consistency compromised"));
    run(&nodes[1], &["UPDATE d.t SET v = 20 WHERE id = 2"]);
    let refs: Vec<&NodeProc> = nodes[..2].iter().collect();
    assert_eq!(converge(&refs, "SELECT * FROM d.t ORDER BY id").len(), 2);
    for n in &nodes[..2] {
        assert_eq!(n.wsrep("wsrep_cluster_status"), "Primary");
    }
}
