//! In-process clusters with deterministic faults: formation, writes everywhere, leader
//! loss during commits, partitions and heal, retries over a lossy network.
//!
//! The fault scenarios run over a sweep of seeds (`TUTTI_SEEDS=n` for more, `TUTTI_SEED=x`
//! for one: see `tutti_testkit::seeds`); each seed jitters message delivery, so every seed
//! is another interleaving, and each ends by checking that no write-set was ordered twice.

use tutti_testkit::fixtures::{all_identical, insert, row_ws, schema, wait, ELECTION, TABLE};
use tutti_testkit::seeds::for_each_seed;
use tutti_testkit::Cluster;
use tutti_wsrep::{NodeId, ReplicateError};

/// Seeds per fault scenario by default (a few seconds in all, in release).
const SEEDS: u64 = 40;

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
    assert_eq!(c.assert_no_duplicate_writesets(), 32);
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
    for_each_seed("leader_loss_during_commits", SEEDS, |seed| {
        let mut c = Cluster::new(3, seed);
        schema(&mut c);
        // Delivery jitter of up to a few steps (messages reorder), and a crash point that
        // varies with the seed.
        c.set_faults(0, seed % 4);
        let leader = c.leader().unwrap();
        let followers: Vec<NodeId> = c.nodes.keys().copied().filter(|i| *i != leader).collect();
        let mut pending = Vec::new();
        for i in 0..20u64 {
            let node = followers[(i % 2) as usize];
            let ws = insert(&c, node, 1000 + i, 100 + i);
            pending.push((i, c.submit(node, ws)));
            c.step();
        }
        c.run(seed % 7);
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
        // (All may have committed before the crash: the election can still be running.)
        assert!(
            c.run_until(10 * ELECTION, |c| c.leader().is_some_and(|l| l != leader)),
            "no new leader:{}",
            c.describe()
        );
        c.restart(leader);
        let rows = all_identical(&mut c);
        assert_eq!(rows.len(), 20, "{rows:?}");
        assert_eq!(c.assert_no_duplicate_writesets(), 22);
    });
}

#[test]
fn a_partitioned_minority_stops_and_catches_up_after_heal() {
    for_each_seed("a_partitioned_minority", SEEDS, |seed| {
        let mut c = Cluster::new(3, seed);
        schema(&mut c);
        c.set_faults(0, seed % 4);
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
        assert_eq!(c.assert_no_duplicate_writesets(), 4);
    });
}

#[test]
fn a_lossy_slow_network_still_delivers_every_outcome() {
    for_each_seed("a_lossy_slow_network", SEEDS, |seed| {
        let mut c = Cluster::new(3, seed);
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
        assert_eq!(c.assert_no_duplicate_writesets(), 32);
    });
}
