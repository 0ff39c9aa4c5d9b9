//! In-process clusters with deterministic faults: formation, writes everywhere, leader
//! loss during commits, partitions and heal, retries over a lossy network.

use crossbeam_channel::Receiver;
use rusqlite::session::Session;
use tutti_replication::waiters::Outcome;
use tutti_testkit::{Cluster, ELECTION_TICKS, STEPS_PER_TICK};
use tutti_wsrep::{Action, CertKeys, Ddl, NodeId, ReplicateError, WriteSet};

const TABLE: &str = "db.t";
/// Steps in one election timeout.
const ELECTION: u64 = ELECTION_TICKS as u64 * STEPS_PER_TICK;

fn ddl(origin: NodeId, trx: u64, ddl: Ddl) -> WriteSet {
    WriteSet {
        origin,
        trx_id: trx,
        last_seen: 0,
        keys: CertKeys::default(),
        action: Action::Ddl(ddl),
    }
}

/// Creates database `db` and table `db.t(k PK, v)` through node 1.
fn schema(c: &mut Cluster) {
    let a = c.submit(
        1,
        ddl(
            1,
            1,
            Ddl::CreateDatabase {
                name: "db".into(),
                if_not_exists: false,
            },
        ),
    );
    let b = c.submit(
        1,
        ddl(
            1,
            2,
            Ddl::Schema {
                database: "db".into(),
                statements: vec![format!(
                    "CREATE TABLE \"{TABLE}\"(k INTEGER PRIMARY KEY, v INTEGER)"
                )],
            },
        ),
    );
    assert!(wait(c, &a).is_ok() && wait(c, &b).is_ok());
    assert!(c.settle(5000));
}

/// A write-set made on `node`'s current state by running `sql` (captured, rolled back).
fn row_ws(c: &Cluster, node: NodeId, trx: u64, key: u64, sql: &str) -> WriteSet {
    let n = c.node(node);
    let w = n.storage().writer();
    w.execute_batch("BEGIN").unwrap();
    let mut cs = Vec::new();
    {
        let mut s = Session::new(&w).unwrap();
        s.attach(None::<&str>).unwrap();
        w.execute_batch(sql).unwrap();
        s.changeset_strm(&mut cs).unwrap();
    }
    w.execute_batch("ROLLBACK").unwrap();
    WriteSet {
        origin: node,
        trx_id: trx,
        last_seen: n.applied(),
        keys: CertKeys {
            exclusive: vec![key],
            shared: vec![],
            tables: vec![],
        },
        action: Action::Rows(cs),
    }
}

fn insert(c: &Cluster, node: NodeId, trx: u64, k: u64) -> WriteSet {
    row_ws(
        c,
        node,
        trx,
        k,
        &format!("INSERT INTO \"{TABLE}\" VALUES ({k}, {node})"),
    )
}

fn wait(c: &mut Cluster, rx: &Receiver<Outcome>) -> Outcome {
    for _ in 0..20_000 {
        if let Ok(o) = rx.try_recv() {
            return o;
        }
        c.step();
    }
    panic!("no outcome within 20000 steps");
}

fn all_identical(c: &mut Cluster) -> Vec<String> {
    let ids: Vec<NodeId> = c.nodes.keys().copied().collect();
    assert!(
        c.run_until(20_000, |c| {
            let target = ids
                .iter()
                .filter(|id| c.node(**id).is_up())
                .map(|id| c.node(*id).applied())
                .max()
                .unwrap_or(0);
            ids.iter()
                .all(|id| c.caught_up(*id) && c.node(*id).applied() == target)
        }),
        "nodes did not converge"
    );
    let first = c.dump(ids[0], TABLE);
    for id in &ids[1..] {
        assert_eq!(
            c.dump(*id, TABLE),
            first,
            "node {id} differs from node {}",
            ids[0]
        );
    }
    first
}

#[test]
fn three_nodes_form_a_cluster_and_writes_anywhere_reach_everyone() {
    let mut c = Cluster::new(3, 7);
    schema(&mut c);
    let mut pending = Vec::new();
    for i in 0..30u64 {
        let node = 1 + i % 3;
        let ws = insert(&c, node, 100 + i, i);
        pending.push(c.submit(node, ws));
    }
    for rx in &pending {
        assert!(wait(&mut c, rx).is_ok());
    }
    assert_eq!(all_identical(&mut c).len(), 30);
}

#[test]
fn the_same_row_on_two_nodes_commits_once() {
    let mut c = Cluster::new(3, 11);
    schema(&mut c);
    let seed = insert(&c, 1, 10, 1);
    let rx = c.submit(1, seed);
    assert!(wait(&mut c, &rx).is_ok());
    assert!(c.settle(5000));
    // Both update row 1 on the same state, on different nodes, at the same time.
    let a = row_ws(
        &c,
        2,
        20,
        1,
        &format!("UPDATE \"{TABLE}\" SET v = 2 WHERE k = 1"),
    );
    let b = row_ws(
        &c,
        3,
        30,
        1,
        &format!("UPDATE \"{TABLE}\" SET v = 3 WHERE k = 1"),
    );
    let ra = c.submit(2, a);
    let rb = c.submit(3, b);
    let (oa, ob) = (wait(&mut c, &ra), wait(&mut c, &rb));
    assert_eq!(
        [oa.is_ok(), ob.is_ok()].iter().filter(|x| **x).count(),
        1,
        "{oa:?} {ob:?}"
    );
    let loser = if oa.is_ok() { ob } else { oa };
    assert_eq!(loser, Err(ReplicateError::CertificationFailed));
    let rows = all_identical(&mut c);
    assert_eq!(rows.len(), 1);
}

#[test]
fn leader_loss_during_commits_loses_nothing_acknowledged() {
    let mut c = Cluster::new(3, 23);
    schema(&mut c);
    let leader = c.leader().unwrap();
    let followers: Vec<NodeId> = c.nodes.keys().copied().filter(|i| *i != leader).collect();
    let mut pending = Vec::new();
    for i in 0..20u64 {
        let node = followers[(i % 2) as usize];
        let ws = insert(&c, node, 1000 + i, 100 + i);
        pending.push((i, c.submit(node, ws)));
        c.step();
    }
    // The leader dies with write-sets in flight.
    c.crash(leader);
    let mut committed = Vec::new();
    for (i, rx) in &pending {
        let o = wait(&mut c, rx);
        assert!(o.is_ok(), "write-set {i}: {o:?}");
        committed.push(100 + i);
    }
    // Every write-set was retried to the new leader: all of them committed exactly once.
    assert_eq!(committed.len(), 20, "retries lost write-sets");
    let new_leader = c.leader().unwrap();
    assert_ne!(new_leader, leader);
    c.restart(leader);
    let rows = all_identical(&mut c);
    assert_eq!(rows.len(), 20, "{rows:?}");
}

#[test]
fn a_partitioned_minority_stops_and_catches_up_after_heal() {
    let mut c = Cluster::new(3, 5);
    schema(&mut c);
    let old = c.leader().unwrap();
    let rest: Vec<NodeId> = c.nodes.keys().copied().filter(|i| *i != old).collect();
    c.partition(&[&[old], &rest]);
    assert!(
        c.run_until(10 * ELECTION, |c| !c.is_primary(old)
            && c.leader().is_some_and(|l| l != old)),
        "minority kept primary or majority elected no leader"
    );
    let ws = insert(&c, rest[0], 500, 5);
    let rx = c.submit(rest[0], ws);
    assert!(wait(&mut c, &rx).is_ok());
    // The minority cannot commit: its write-set stays in flight until the heal.
    let stuck_ws = insert(&c, old, 600, 6);
    let stuck = c.submit(old, stuck_ws);
    c.run(4 * ELECTION);
    assert!(stuck.try_recv().is_err(), "a minority committed");
    c.heal();
    assert!(wait(&mut c, &stuck).is_ok());
    assert!(c.run_until(10 * ELECTION, |c| c.is_primary(old)));
    assert_eq!(all_identical(&mut c).len(), 2);
}

#[test]
fn a_lossy_slow_network_still_delivers_every_outcome() {
    let mut c = Cluster::new(3, 99);
    schema(&mut c);
    c.set_faults(150, 6);
    let mut pending = Vec::new();
    for i in 0..30u64 {
        let node = 1 + i % 3;
        let ws = insert(&c, node, 2000 + i, 300 + i);
        pending.push(c.submit(node, ws));
        c.run(3);
    }
    for rx in &pending {
        assert!(wait(&mut c, rx).is_ok());
    }
    c.set_faults(0, 0);
    assert_eq!(all_identical(&mut c).len(), 30);
}
