//! Apply never diverges: what commits on one node applies on every node. Targeted cases
//! (concurrent transactions on two nodes whose rows collide only through a unique index:
//! case-insensitively, or through a composite key partly updated), then random
//! transactions and schema changes through the real SQL executor on random nodes of a
//! simulated 3-node cluster, over many seeds: no node may find an inconsistency, and every
//! node must end with the same schema and the same rows.

use std::collections::BTreeMap;
use tutti_executor::ExecError;
use tutti_testkit::sql::SqlCluster;
use tutti_testkit::workload::{self, Workload};

/// Seeds, and actions per seed (an action is one or a few statements on one node).
const SEEDS: u64 = 64;
const ACTIONS: usize = 400;

/// Runs `first` on node 1 and `second` on node 2, each in an open transaction, commits
/// node 1's, then node 2's: the second must fail certification (1213), and nothing may
/// diverge.
fn concurrent(setup: &[&str], first: &str, second: &str) {
    let sc = SqlCluster::new(3, 1);
    let mut s = [sc.session(1), sc.session(2)];
    for sql in setup {
        SqlCluster::run(&mut s[0], sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    assert!(sc.settle());
    for (i, sql) in [
        (0, "BEGIN"),
        (1, "BEGIN"),
        (0, first),
        (1, second),
        (0, "COMMIT"),
    ] {
        SqlCluster::run(&mut s[i], sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    let e = SqlCluster::run(&mut s[1], "COMMIT").unwrap_err();
    assert_eq!(e, ExecError::Deadlock, "{second}");
    assert!(sc.settle());
    assert!(sc.inconsistent().is_empty(), "{:?}", sc.inconsistent());
}

#[test]
fn unique_values_equal_under_the_collation_conflict() {
    concurrent(
        &[
            "CREATE DATABASE d",
            "CREATE TABLE d.t (id INT PRIMARY KEY, u VARCHAR(8) UNIQUE)",
        ],
        "INSERT INTO d.t VALUES (1, 'abc')",
        "INSERT INTO d.t VALUES (2, 'ABC')",
    );
    concurrent(
        &[
            "CREATE DATABASE d",
            "CREATE TABLE d.t (id VARCHAR(8) PRIMARY KEY, v INT)",
        ],
        "INSERT INTO d.t VALUES ('key', 1)",
        "INSERT INTO d.t VALUES ('KEY', 2)",
    );
}

#[test]
fn partly_updated_composite_unique_keys_conflict() {
    concurrent(
        &[
            "CREATE DATABASE d",
            "CREATE TABLE d.t (id INT PRIMARY KEY, v INT, w INT, UNIQUE KEY vw (v, w))",
            "INSERT INTO d.t VALUES (1, 1, 1), (2, 2, 2)",
        ],
        // Row 1 takes (2, 1) by changing v only; row 2 takes it by changing w only.
        "UPDATE d.t SET v = 2 WHERE id = 1",
        "UPDATE d.t SET w = 1 WHERE id = 2",
    );
}

#[test]
fn a_child_conflicts_with_its_parent_under_a_composite_key_in_any_column_order() {
    concurrent(
        &[
            "CREATE DATABASE d",
            "CREATE TABLE d.p (a INT, b INT, PRIMARY KEY (b, a))",
            "CREATE TABLE d.c (id INT PRIMARY KEY, x INT, y INT, \
             FOREIGN KEY (y, x) REFERENCES d.p (b, a))",
            "INSERT INTO d.p VALUES (1, 2)",
        ],
        "DELETE FROM d.p WHERE a = 1",
        "INSERT INTO d.c VALUES (10, 1, 2)",
    );
}

/// How a run went, for the assertions that it did real work.
#[derive(Default, Debug)]
struct Tally {
    commits: u64,
    statements: u64,
    errors: BTreeMap<String, u64>,
}

fn kind(e: &ExecError) -> String {
    format!("{e:?}")
        .split(['(', ' ', '{'])
        .next()
        .unwrap_or_default()
        .to_string()
}

fn run_seed(seed: u64) -> Tally {
    let sc = SqlCluster::new(3, seed);
    let ids = sc.ids();
    let mut sessions: Vec<_> = ids.iter().map(|id| sc.session(*id)).collect();
    for s in workload::schema() {
        SqlCluster::run(&mut sessions[0], &s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    let mut w = Workload::new(seed, ids.len());
    let mut tally = Tally::default();
    let mut actions: Vec<_> = (0..ACTIONS).map(|_| w.next_action()).collect();
    actions.extend(w.finish());
    let mut log = Vec::new();
    for a in actions {
        let session = &mut sessions[a.node];
        for sql in &a.statements {
            let was_open = session.in_transaction();
            let result = SqlCluster::run(session, sql);
            tally.statements += 1;
            log.push(format!(
                "node{} {sql} -> {:?}",
                ids[a.node],
                result.as_ref().err()
            ));
            match result {
                Ok(_) if sql == "COMMIT" && was_open => tally.commits += 1,
                Ok(_) if !was_open && !session.in_transaction() && sql != "BEGIN" => {
                    tally.commits += 1
                }
                Ok(_) => {}
                Err(e) => {
                    if matches!(
                        e,
                        ExecError::NotReady(_)
                            | ExecError::CommitUnknown(_)
                            | ExecError::Shutdown
                            | ExecError::Sqlite(_)
                    ) {
                        let tail = log[log.len().saturating_sub(30)..].join("\n");
                        panic!("seed {seed}: {sql}: {e}\nlast statements:\n{tail}");
                    }
                    *tally.errors.entry(kind(&e)).or_default() += 1;
                }
            }
            if !session.in_transaction() {
                w.ended(a.node);
            }
        }
    }
    assert!(sc.settle(), "seed {seed}: the cluster did not settle");
    assert!(
        sc.inconsistent().is_empty(),
        "seed {seed}: {:?}",
        sc.inconsistent()
    );
    let schema = format!(
        "SELECT name, sql FROM sqlite_schema WHERE name LIKE '{}.%' ORDER BY name",
        workload::DATABASE
    );
    let first = ids[0];
    for t in workload::TABLES {
        let q = format!("SELECT * FROM {}.{t} ORDER BY id", workload::DATABASE);
        let want = sc.rows(first, &q).unwrap_or_else(|e| panic!("{q}: {e}"));
        for id in &ids[1..] {
            assert_eq!(
                sc.rows(*id, &q).unwrap(),
                want,
                "seed {seed}: {t} on node {id}"
            );
        }
    }
    let dump = |id| {
        let c = sc.cluster.lock();
        let r = c.node(id).storage().reader().unwrap();
        let mut st = r.prepare(&schema).unwrap();
        let rows: Vec<(String, String)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        rows
    };
    for id in &ids[1..] {
        assert_eq!(dump(*id), dump(first), "seed {seed}: schema on node {id}");
    }
    tally
}

#[test]
fn random_writes_and_schema_changes_apply_identically_everywhere() {
    let mut total = Tally::default();
    for seed in 1..=SEEDS {
        let t = run_seed(seed);
        total.commits += t.commits;
        total.statements += t.statements;
        for (k, n) in t.errors {
            *total.errors.entry(k).or_default() += n;
        }
    }
    eprintln!("{total:?}");
    // It did real work: thousands of commits, and the collisions it is built to make.
    assert!(total.commits >= 8_000, "{total:?}");
    for expected in ["DuplicateKey", "Deadlock"] {
        assert!(
            total.errors.contains_key(expected),
            "no {expected}: {total:?}"
        );
    }
}
