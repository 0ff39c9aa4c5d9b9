//! No lost updates across nodes: read-modify-write transactions (`BEGIN; SELECT v; UPDATE
//! v = read + 1; COMMIT`) from a session on every node of a simulated cluster, their steps
//! interleaved at random over many seeds (one session per node: the simulation runs in one
//! thread, where a local lock wait could not end; local concurrency is the executor's
//! tests'). Every acknowledged increment must be in the
//! final counters, and no increment may have read a value another acknowledged one read.
//! With `innodb_snapshot_isolation=OFF` the same schedules lose updates, which shows the
//! check has teeth.

use std::collections::BTreeMap;
use tutti_executor::{ExecError, Response, Session};
use tutti_testkit::sql::SqlCluster;
use tutti_wsrep::Value;

const SEEDS: u64 = 40;
const STEPS: usize = 300;
const KEYS: i64 = 3;

struct Client {
    session: Session,
    /// (key, value read) of the transaction in progress, and its next step.
    txn: Option<(i64, i64)>,
    step: u8,
}

fn value(r: Result<Response, ExecError>) -> Result<i64, ExecError> {
    match r? {
        Response::Rows(rs) => match rs.rows.first().and_then(|r| r.first()) {
            Some(Value::Int(i)) => Ok(*i),
            other => panic!("no value: {other:?}"),
        },
        other => panic!("not rows: {other:?}"),
    }
}

/// Runs one seed; returns (acknowledged increments per key, final counters, lost reads).
fn run(
    seed: u64,
    snapshot_isolation: bool,
    lock: &str,
) -> (BTreeMap<i64, i64>, BTreeMap<i64, i64>, usize) {
    let sc = SqlCluster::new(3, seed);
    let ids = sc.ids();
    let mut setup = sc.session(ids[0]);
    SqlCluster::run(&mut setup, "CREATE DATABASE d").unwrap();
    SqlCluster::run(
        &mut setup,
        "CREATE TABLE d.c (k INT PRIMARY KEY, v INT NOT NULL)",
    )
    .unwrap();
    for k in 0..KEYS {
        SqlCluster::run(&mut setup, &format!("INSERT INTO d.c VALUES ({k}, 0)")).unwrap();
    }
    assert!(sc.settle());
    let mut clients: Vec<Client> = ids
        .iter()
        .map(|id| {
            let mut session = sc.session(*id);
            if !snapshot_isolation {
                SqlCluster::run(&mut session, "SET SESSION innodb_snapshot_isolation = OFF")
                    .unwrap();
            }
            Client {
                session,
                txn: None,
                step: 0,
            }
        })
        .collect();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut acked: BTreeMap<i64, i64> = BTreeMap::new();
    let mut reads: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for _ in 0..STEPS {
        let c = &mut clients[next(3) as usize];
        let k = next(KEYS as u64) as i64;
        let s = &mut c.session;
        let outcome: Result<(), ExecError> = match c.step {
            0 => SqlCluster::run(s, "BEGIN").map(|_| c.step = 1),
            1 => value(SqlCluster::run(
                s,
                &format!("SELECT v FROM d.c WHERE k = {k}{lock}"),
            ))
            .map(|v| {
                c.txn = Some((k, v));
                c.step = 2;
            }),
            2 => {
                let (k, v) = c.txn.expect("read");
                SqlCluster::run(s, &format!("UPDATE d.c SET v = {} WHERE k = {k}", v + 1))
                    .map(|_| c.step = 3)
            }
            _ => SqlCluster::run(s, "COMMIT").map(|_| {
                let (k, v) = c.txn.take().expect("read");
                *acked.entry(k).or_default() += 1;
                *reads.entry((k, v)).or_default() += 1;
                c.step = 0;
            }),
        };
        match outcome {
            Ok(()) => {}
            Err(ExecError::Deadlock | ExecError::RecordChanged(_)) => {
                let _ = SqlCluster::run(s, "ROLLBACK");
                c.txn = None;
                c.step = 0;
            }
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    for c in &mut clients {
        let _ = SqlCluster::run(&mut c.session, "ROLLBACK");
    }
    assert!(sc.settle());
    assert!(sc.inconsistent().is_empty());
    let mut finals = BTreeMap::new();
    for k in 0..KEYS {
        let rows = sc
            .rows(ids[1], &format!("SELECT v FROM d.c WHERE k = {k}"))
            .unwrap();
        finals.insert(
            k,
            rows[0]
                .trim_start_matches("Int(")
                .trim_end_matches(')')
                .parse()
                .unwrap(),
        );
    }
    // P4: two acknowledged increments that read the same value of the same key.
    let lost = reads.values().filter(|n| **n > 1).map(|n| n - 1).sum();
    (acked, finals, lost)
}

#[test]
fn read_modify_write_from_every_node_loses_no_update() {
    let mut total = 0;
    for seed in 1..=SEEDS {
        let (acked, finals, lost) = run(seed, true, "");
        for k in 0..KEYS {
            assert_eq!(
                finals[&k],
                acked.get(&k).copied().unwrap_or(0),
                "seed {seed} key {k}: every acknowledged increment, no more"
            );
        }
        assert_eq!(lost, 0, "seed {seed}");
        total += acked.values().sum::<i64>();
    }
    assert!(total > 300, "only {total} increments committed");
}

#[test]
fn without_snapshot_isolation_the_same_schedules_lose_updates() {
    let lost: usize = (1..=SEEDS).map(|seed| run(seed, false, "").2).sum();
    assert!(lost > 0, "the check would not catch a lost update");
}

#[test]
fn locking_reads_from_every_node_lose_no_update() {
    for seed in 1..=SEEDS {
        for lock in [" FOR UPDATE", " LOCK IN SHARE MODE"] {
            let (acked, finals, lost) = run(seed, true, lock);
            for k in 0..KEYS {
                assert_eq!(
                    finals[&k],
                    acked.get(&k).copied().unwrap_or(0),
                    "seed {seed}{lock}"
                );
            }
            assert_eq!(lost, 0, "seed {seed}{lock}");
        }
    }
}
