//! Seed sweeps for the seeded fault scenarios: which seeds to run, taken from the
//! environment, and a loop that names the failing seed.
//!
//! A simulated cluster draws its message losses and delays from the seed, so a scenario
//! run over many seeds explores many interleavings, and a failure found on one seed is
//! rerun with that seed alone (raft-rs's election timeouts are not seeded: a failure that
//! depends on them may take a few reruns to show again):
//!
//! - `TUTTI_SEED=x` runs exactly seed `x` (to reproduce a failure);
//! - `TUTTI_SEEDS=n` runs seeds `0..n` (a longer sweep than CI's), `TUTTI_SEEDS=a..b` seeds
//!   `a..b`;
//! - otherwise seeds `0..default`, the caller's modest default that keeps CI short.
//!
//! [`for_each_seed`] runs the scenario once per seed and, on the first failure, panics with
//! the scenario, the seed and the command that reruns just that seed, then the original
//! message.

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs exactly one seed.
pub const SEED_VAR: &str = "TUTTI_SEED";
/// Runs seeds `0..n` (or `a..b`).
pub const SEEDS_VAR: &str = "TUTTI_SEEDS";

/// The seeds to run given the two variables' values (`None`: unset); `0..default` when
/// neither is set. Panics on a value that is not a number or a range.
pub fn seeds_from(seed: Option<&str>, seeds: Option<&str>, default: u64) -> Range<u64> {
    let num = |var: &str, v: &str| -> u64 {
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{var}={v:?}: expected a non-negative integer"))
    };
    if let Some(s) = seed {
        let x = num(SEED_VAR, s);
        return x..x + 1;
    }
    match seeds {
        Some(v) => match v.split_once("..") {
            Some((a, b)) => num(SEEDS_VAR, a)..num(SEEDS_VAR, b),
            None => 0..num(SEEDS_VAR, v),
        },
        None => 0..default,
    }
}

/// The seeds to run, from `TUTTI_SEED` / `TUTTI_SEEDS` (see the module doc).
pub fn seeds(default: u64) -> Range<u64> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    seeds_from(var(SEED_VAR).as_deref(), var(SEEDS_VAR).as_deref(), default)
}

/// Runs `scenario` once per seed (see [`seeds`]); the first failure panics naming the
/// scenario and the seed to rerun it with.
pub fn for_each_seed(scenario: &str, default: u64, run: impl FnMut(u64)) {
    run_seeds(scenario, seeds(default), run)
}

/// Runs `scenario` once per seed of `range`; the first failure panics naming the scenario
/// and the seed to rerun it with.
pub fn run_seeds(scenario: &str, range: Range<u64>, mut run: impl FnMut(u64)) {
    assert!(
        !range.is_empty(),
        "{scenario}: no seeds to run ({range:?}): check {SEED_VAR} / {SEEDS_VAR}"
    );
    for seed in range {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| run(seed))) {
            panic!(
                "{scenario} failed with seed {seed}; rerun just that seed with \
                 `{SEED_VAR}={seed} cargo test --release -p tutti-testkit {scenario}`: {}",
                message(payload.as_ref())
            );
        }
    }
}

/// The text of a panic payload.
fn message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_picks_the_seeds() {
        assert_eq!(seeds_from(None, None, 8), 0..8);
        assert_eq!(seeds_from(Some("42"), Some("100"), 8), 42..43);
        assert_eq!(seeds_from(None, Some("100"), 8), 0..100);
        assert_eq!(seeds_from(None, Some("10..20"), 8), 10..20);
    }

    #[test]
    #[should_panic(expected = "TUTTI_SEEDS=\"many\"")]
    fn a_bad_value_is_refused_by_name() {
        seeds_from(None, Some("many"), 8);
    }

    #[test]
    fn a_failure_names_its_seed() {
        let mut ran = Vec::new();
        let r = catch_unwind(AssertUnwindSafe(|| {
            run_seeds("demo", 0..10, |seed| {
                ran.push(seed);
                assert!(seed != 3, "boom");
            })
        }));
        let msg = message(r.unwrap_err().as_ref());
        assert_eq!(ran, [0, 1, 2, 3], "stops at the first failure");
        assert!(msg.contains("demo failed with seed 3"), "{msg}");
        assert!(msg.contains("TUTTI_SEED=3 cargo test"), "{msg}");
        assert!(msg.contains("boom"), "{msg}");
    }
}
