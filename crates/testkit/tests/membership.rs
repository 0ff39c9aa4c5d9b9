//! Membership that heals itself, on simulated clusters: a leader crash does not make the
//! survivors non-Primary (nor does a survivor whose disk stalls meanwhile), a member silent past `evs.inactive_timeout` is removed and rejoins
//! as a voter when it returns, and `pc.bootstrap` makes a lone survivor Primary with the
//! others rejoining afterwards.
//!
//! Each scenario runs over a sweep of seeds (`TUTTI_SEEDS=n` for more, `TUTTI_SEED=x` for
//! one: see `tutti_testkit::seeds`) that jitter message delivery, and ends by checking that
//! no write-set was ordered twice.

use tutti_testkit::fixtures::{all_identical, insert, schema, wait, ELECTION};
use tutti_testkit::seeds::for_each_seed;
use tutti_testkit::Cluster;
use tutti_wsrep::NodeId;

/// Seeds per scenario by default (a few seconds in all, in release).
const SEEDS: u64 = 40;

/// A formed cluster with the schema, whose messages then take up to `seed % 4` extra
/// steps (they reorder): each seed is another interleaving.
fn jittered(seed: u64) -> Cluster {
    let mut c = Cluster::new(3, seed);
    schema(&mut c);
    c.set_faults(0, seed % 4);
    c
}

fn others(c: &Cluster, but: NodeId) -> Vec<NodeId> {
    c.nodes.keys().copied().filter(|i| *i != but).collect()
}

#[test]
fn survivors_stay_primary_while_they_elect_a_new_leader() {
    for_each_seed("survivors_stay_primary", SEEDS, |seed| {
        let mut c = jittered(seed);
        let leader = c.leader().unwrap();
        let rest = others(&c, leader);
        // A write-set in flight from a follower when the leader dies.
        let ws = insert(&c, rest[0], 500, 1);
        let rx = c.submit(rest[0], ws);
        c.crash(leader);
        let mut steps = 0;
        while c.leader().is_none_or(|l| l == leader) {
            for id in &rest {
                assert!(
                    c.is_primary(*id),
                    "seed {seed}: node {id} non-Primary at step {steps}"
                );
            }
            c.step();
            steps += 1;
            assert!(steps < 10 * ELECTION, "seed {seed}: no new leader");
        }
        // The connection closed: the election starts at once, not after a timeout.
        assert!(steps < ELECTION, "seed {seed}: took {steps} steps");
        assert!(wait(&mut c, &rx).is_ok(), "seed {seed}");
        c.restart(leader);
        assert_eq!(all_identical(&mut c).len(), 1);
        assert_eq!(c.assert_no_duplicate_writesets(), 3);
    });
}

#[test]
fn a_survivor_stalled_in_an_fsync_keeps_the_other_primary() {
    for_each_seed("a_survivor_stalled_in_an_fsync", SEEDS, |seed| {
        let mut c = jittered(seed);
        let leader = c.leader().unwrap();
        let rest = others(&c, leader);
        let ws = insert(&c, rest[0], 600, 6);
        let rx = c.submit(rest[0], ws);
        c.crash(leader);
        // The other survivor's Raft thread waits on its disk for three election timeouts:
        // it sends nothing but keepalives, so no leader can be elected meanwhile.
        c.stall(rest[1], 3 * ELECTION);
        for step in 0..3 * ELECTION {
            assert!(
                c.is_primary(rest[0]),
                "seed {seed}: node {} non-Primary at step {step}:{}",
                rest[0],
                c.describe()
            );
            c.step();
        }
        assert!(
            c.run_until(10 * ELECTION, |c| c.leader().is_some_and(|l| l != leader)),
            "seed {seed}: no new leader after the stall:{}",
            c.describe()
        );
        assert!(wait(&mut c, &rx).is_ok(), "seed {seed}");
        c.restart(leader);
        assert_eq!(all_identical(&mut c).len(), 1);
        assert_eq!(c.assert_no_duplicate_writesets(), 3);
    });
}

#[test]
fn a_member_away_past_the_inactive_timeout_is_removed_and_rejoins() {
    for_each_seed("a_member_away_past_the_inactive_timeout", SEEDS, |seed| {
        let mut c = jittered(seed);
        c.inactive_ticks = 30;
        let away = *others(&c, c.leader().unwrap()).last().unwrap();
        c.crash(away);
        let rest = others(&c, away);
        assert!(
            c.run_until(40 * ELECTION, |c| {
                rest.iter()
                    .all(|id| c.voters(*id).len() == 2 && !c.voters(*id).contains(&away))
            }),
            "not removed:{}",
            c.describe()
        );
        // Quorum is now counted over the two that remain: writes go on.
        let ws = insert(&c, rest[0], 700, 7);
        let rx = c.submit(rest[0], ws);
        assert!(wait(&mut c, &rx).is_ok());
        c.restart(away);
        assert!(
            c.run_until(40 * ELECTION, |c| c.voters(rest[0]).len() == 3
                && c.voters(away).len() == 3
                && c.caught_up(away)),
            "did not rejoin:{}",
            c.describe()
        );
        assert_eq!(
            all_identical(&mut c),
            ["Integer(7)|Integer(".to_string() + &rest[0].to_string() + ")"]
        );
        assert_eq!(c.assert_no_duplicate_writesets(), 3);
    });
}

#[test]
fn pc_bootstrap_makes_a_lone_survivor_primary_and_the_others_rejoin() {
    pc_bootstrap_scenario(false);
}

/// The two returning nodes are a majority of their old configuration: they must not elect
/// a leader in it beside the bootstrapped one, however the messages are delayed.
#[test]
fn pc_bootstrap_under_jitter_never_makes_two_primaries() {
    pc_bootstrap_scenario(true);
}

fn pc_bootstrap_scenario(jitter: bool) {
    for_each_seed(
        "pc_bootstrap_makes_a_lone_survivor_primary",
        SEEDS,
        |seed| {
            let mut c = if jitter {
                jittered(seed)
            } else {
                let mut c = Cluster::new(3, seed);
                schema(&mut c);
                c
            };
            let ws = insert(&c, 1, 800, 8);
            let rx = c.submit(1, ws);
            assert!(wait(&mut c, &rx).is_ok());
            assert!(c.settle(5000));
            let survivor = 1;
            let gone = others(&c, survivor);
            for id in &gone {
                c.crash(*id);
            }
            assert!(c.run_until(4 * ELECTION, |c| !c.is_primary(survivor)));
            // Refused where a primary component exists.
            let applied = c.node(survivor).applied();
            let core = c.nodes.get_mut(&survivor).unwrap().core.as_mut().unwrap();
            core.force_bootstrap(applied).unwrap();
            assert!(c.run_until(4 * ELECTION, |c| c.is_primary(survivor)
                && c.leader() == Some(survivor)));
            let ws = insert(&c, survivor, 801, 9);
            let rx = c.submit(survivor, ws);
            assert!(wait(&mut c, &rx).is_ok());
            let core = c.nodes.get_mut(&survivor).unwrap().core.as_mut().unwrap();
            assert!(core.force_bootstrap(applied).is_err(), "already Primary");
            for id in &gone {
                c.restart(*id);
            }
            let second_leader = |c: &Cluster| gone.iter().find(|id| c.is_leader(**id)).copied();
            assert!(
                c.run_until(60 * ELECTION, |c| {
                    assert_eq!(second_leader(c), None, "{}", c.describe());
                    c.nodes
                        .keys()
                        .all(|id| c.voters(*id).len() == 3 && c.caught_up(*id))
                }),
                "did not rejoin:{}",
                c.describe()
            );
            assert_eq!(all_identical(&mut c).len(), 2);
            assert_eq!(c.assert_no_duplicate_writesets(), 4);
        },
    );
}

/// An operator bootstraps a node cut off from a majority that is alive (Galera's split
/// brain by hand): when the network heals, the old configuration's nodes step down at
/// once, and, having committed a write the bootstrapped node never saw, are refused (they
/// need SST) instead of mixing the two histories.
#[test]
fn a_replaced_configuration_steps_down_and_a_diverged_history_is_refused() {
    for_each_seed("replaced_configuration_steps_down", SEEDS, |seed| {
        let mut c = jittered(seed);
        let ws = insert(&c, 1, 900, 1);
        let rx = c.submit(1, ws);
        assert!(wait(&mut c, &rx).is_ok());
        assert!(c.settle(5000));
        let lone = 1;
        let majority = others(&c, lone);
        c.partition(&[&[lone], &majority]);
        // A majority election can split its votes a few times (randomized timeouts).
        assert!(c.run_until(10 * ELECTION, |c| !c.is_primary(lone)
            && majority.iter().any(|id| c.is_leader(*id))));
        let applied = c.node(lone).applied();
        let core = c.nodes.get_mut(&lone).unwrap().core.as_mut().unwrap();
        core.force_bootstrap(applied).unwrap();
        let ws = insert(&c, lone, 901, 2);
        let rx = c.submit(lone, ws);
        assert!(wait(&mut c, &rx).is_ok());
        let ws = insert(&c, majority[0], 902, 3);
        let rx = c.submit(majority[0], ws);
        assert!(wait(&mut c, &rx).is_ok());
        c.heal();
        assert!(
            c.run_until(20 * ELECTION, |c| majority
                .iter()
                .all(|id| !c.is_primary(*id) && c.join_refused(*id).is_some())),
            "old configuration still active:{}",
            c.describe()
        );
        assert!(c.is_primary(lone) && c.leader() == Some(lone));
        assert_eq!(c.voters(lone), vec![lone]);
        let why = c.join_refused(majority[0]).unwrap();
        assert!(why.contains("SST"), "{why}");
    });
}
