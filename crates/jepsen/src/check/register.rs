//! The register checker: counters incremented by read-modify-write transactions
//! (`SELECT v`, then `UPDATE ... SET v = <read + 1>`), and read with `wsrep_sync_wait=1`
//! on other nodes.
//!
//! Found here: `lost-update` (two committed increments read the same value: P4),
//! `lost-increment` (the final value is below the acknowledged increments: the net effect
//! of lost updates or of acknowledged writes that vanished), `phantom-write`
//! (above every increment that may have committed), `stale-read` (a causal read returned
//! less than an increment acknowledged before the read began: real-time order) and
//! `future-read` (a value more increments than had even been attempted).

use super::Findings;
use crate::history::{Event, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A register.
pub type Key = u32;

/// One register operation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegOp {
    /// Read `k` and write back one more, in one transaction.
    Rmw {
        /// Register.
        k: Key,
        /// The value read (set on completion).
        #[serde(default)]
        read: Option<i64>,
    },
    /// A causal read (`wsrep_sync_wait=1`).
    Read {
        /// Register.
        k: Key,
        /// The value read.
        #[serde(default)]
        value: Option<i64>,
    },
}

/// Checks the history and the final values each node returned.
pub fn check(history: &[Event<RegOp>], finals: &[(usize, BTreeMap<Key, i64>)]) -> Findings {
    let mut f = Findings::default();
    let mut by_read: HashMap<(Key, i64), Vec<u64>> = HashMap::new();
    // Per key: (complete, value written) of acknowledged increments; invocation times of
    // increments that may have committed.
    let mut acked: HashMap<Key, Vec<(u64, i64)>> = HashMap::new();
    let mut tried: HashMap<Key, Vec<u64>> = HashMap::new();
    let mut counts: HashMap<Key, (i64, i64)> = HashMap::new();
    for e in history {
        if let RegOp::Rmw { k, read } = &e.op {
            let c = counts.entry(*k).or_default();
            match e.outcome {
                Outcome::Ok => {
                    c.0 += 1;
                    if let Some(x) = read {
                        by_read.entry((*k, *x)).or_default().push(e.id);
                        acked.entry(*k).or_default().push((e.complete_us, x + 1));
                    }
                    tried.entry(*k).or_default().push(e.invoke_us);
                }
                Outcome::Info => {
                    c.1 += 1;
                    tried.entry(*k).or_default().push(e.invoke_us);
                }
                Outcome::Fail => {}
            }
        }
    }
    for ((k, x), ids) in &by_read {
        if ids.len() > 1 {
            f.add("lost-update", || {
                format!("register {k}: ops {ids:?} all read {x} and wrote {}", x + 1)
            });
        }
    }
    // Prefix maxima of acknowledged values by completion time.
    let mut acked_max: HashMap<Key, Vec<(u64, i64)>> = HashMap::new();
    for (k, mut v) in acked {
        v.sort();
        let mut best = i64::MIN;
        acked_max.insert(
            k,
            v.into_iter()
                .map(|(t, x)| {
                    best = best.max(x);
                    (t, best)
                })
                .collect(),
        );
    }
    for v in tried.values_mut() {
        v.sort();
    }
    for e in history.iter().filter(|e| e.outcome == Outcome::Ok) {
        let (k, x, causal) = match &e.op {
            RegOp::Read { k, value: Some(x) } => (*k, *x, true),
            RegOp::Rmw { k, read: Some(x) } => (*k, *x, false),
            _ => continue,
        };
        let possible = tried
            .get(&k)
            .map(|t| t.partition_point(|&i| i < e.complete_us))
            .unwrap_or(0) as i64;
        if x > possible {
            f.add("future-read", || {
                format!(
                    "op {} read {x} from register {k}: only {possible} increments had begun",
                    e.id
                )
            });
        }
        if !causal {
            continue;
        }
        let before = acked_max.get(&k).and_then(|v| {
            let n = v.partition_point(|&(t, _)| t < e.invoke_us);
            n.checked_sub(1).map(|i| v[i].1)
        });
        if let Some(m) = before.filter(|m| x < *m) {
            f.add("stale-read", || {
                format!(
                    "op {} (n{}) read {x} from register {k}: {m} was acknowledged before it began",
                    e.id,
                    e.node + 1
                )
            });
        }
    }
    for (node, values) in finals {
        for (k, (ok, info)) in &counts {
            let v = values.get(k).copied().unwrap_or(0);
            if v < *ok {
                f.add("lost-increment", || {
                    format!(
                        "register {k} on n{}: {v} at the end, {ok} increments acknowledged",
                        node + 1
                    )
                });
            } else if v > ok + info {
                f.add("phantom-write", || {
                    format!(
                        "register {k} on n{}: {v} at the end, at most {} increments could have committed",
                        node + 1,
                        ok + info
                    )
                });
            }
        }
    }
    if finals.is_empty() {
        f.notes
            .push("no final read: lost writes not checked".into());
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(id: u64, t: (u64, u64), outcome: Outcome, op: RegOp) -> Event<RegOp> {
        Event {
            id,
            process: 0,
            node: 0,
            invoke_us: t.0,
            complete_us: t.1,
            outcome,
            error: None,
            op,
        }
    }
    fn rmw(k: Key, x: i64) -> RegOp {
        RegOp::Rmw { k, read: Some(x) }
    }
    fn read(k: Key, x: i64) -> RegOp {
        RegOp::Read { k, value: Some(x) }
    }

    #[test]
    fn clean_history() {
        let h = vec![
            ev(1, (0, 10), Outcome::Ok, rmw(1, 0)),
            ev(2, (5, 15), Outcome::Ok, read(1, 0)),
            ev(3, (20, 30), Outcome::Ok, read(1, 1)),
            ev(4, (21, 40), Outcome::Info, RegOp::Rmw { k: 1, read: None }),
            ev(5, (41, 50), Outcome::Ok, rmw(1, 2)),
        ];
        let f = check(&h, &[(0, BTreeMap::from([(1, 3)]))]);
        assert!(f.is_clean(), "{f:?}");
        let f = check(&h, &[(0, BTreeMap::from([(1, 2)]))]);
        assert!(f.is_clean(), "the unknown increment may have failed: {f:?}");
    }

    #[test]
    fn anomalies_are_found() {
        let h = vec![
            ev(1, (0, 10), Outcome::Ok, rmw(1, 0)),
            ev(2, (1, 11), Outcome::Ok, rmw(1, 0)),
            ev(3, (20, 30), Outcome::Ok, read(1, 0)),
            ev(4, (20, 30), Outcome::Ok, read(1, 7)),
        ];
        let f = check(
            &h,
            &[(0, BTreeMap::from([(1, 1)])), (1, BTreeMap::from([(1, 9)]))],
        );
        for class in [
            "lost-update",
            "stale-read",
            "future-read",
            "lost-increment",
            "phantom-write",
        ] {
            assert!(f.anomalies.contains_key(class), "{class}: {f:?}");
        }
    }
}
