//! The list-append checker (Elle's workload): transactions read whole lists and append
//! unique values to them, so every read reveals the order in which the appends it saw
//! were installed, and the dependencies between transactions can be inferred exactly.
//!
//! Found here: `duplicate-append` (a value twice in a list), `garbage-read` (a value
//! nobody appended), `G1a` (a value whose transaction failed), `G1b` (a value a
//! transaction later overwrote with another append of its own to the same key),
//! `internal` (a transaction not seeing its own appends), `incompatible-order` (two reads
//! that are not prefixes of one another), `lost-append` (an acknowledged append missing at
//! the end), `lost-update` (two committed transactions that read the same version of a key
//! and both appended to it: P4), and the dependency cycles snapshot isolation forbids (G0,
//! G1c, G-single, G-nonadjacent; see [`super::graph`]).

use super::graph::{classify, describe, Dep, Graph};
use super::Findings;
use crate::history::{Event, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A key.
pub type Key = u32;

/// One micro-operation of a transaction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mop {
    /// Read the list at `k` (`list` is filled in on completion; empty when absent).
    R {
        /// Key.
        k: Key,
        /// What was read.
        #[serde(default)]
        list: Option<Vec<u64>>,
    },
    /// Append `v` to the list at `k`.
    A {
        /// Key.
        k: Key,
        /// A value unique in the run.
        v: u64,
    },
}

/// A transaction: its micro-operations in order.
pub type Txn = Vec<Mop>;

/// Cycle search budget (steps), so a pathological history cannot hang the check.
const SEARCH_BUDGET: u64 = 400_000_000;

/// A transaction as the checker sees it.
struct T<'a> {
    name: String,
    outcome: Outcome,
    mops: &'a [Mop],
}

/// Checks a history plus the final reads (`key -> list`, one map per node that answered,
/// read after the cluster healed).
pub fn check(history: &[Event<Txn>], finals: &[(usize, BTreeMap<Key, Vec<u64>>)]) -> Findings {
    let mut f = Findings::default();
    let final_txns: Vec<Txn> = finals
        .iter()
        .map(|(_, m)| {
            m.iter()
                .map(|(k, l)| Mop::R {
                    k: *k,
                    list: Some(l.clone()),
                })
                .collect()
        })
        .collect();
    let mut txns: Vec<T> = history
        .iter()
        .map(|e| T {
            name: format!("op {} (p{} n{})", e.id, e.process, e.node + 1),
            outcome: e.outcome,
            mops: &e.op,
        })
        .collect();
    for ((node, _), t) in finals.iter().zip(&final_txns) {
        txns.push(T {
            name: format!("final read on n{}", node + 1),
            outcome: Outcome::Ok,
            mops: t,
        });
    }
    let writer = writers(&txns);
    let order = version_orders(&txns, &writer, &mut f);
    internal(&txns, &mut f);
    intermediate_reads(&txns, &writer, &mut f);
    lost_appends(&txns, &order, !finals.is_empty(), &mut f);
    lost_updates(&txns, &order, &mut f);
    cycles(&txns, &writer, &order, &mut f);
    f
}

/// Who appended each value: (transaction, key).
fn writers(txns: &[T]) -> HashMap<u64, (usize, Key)> {
    let mut w = HashMap::new();
    for (i, t) in txns.iter().enumerate() {
        for m in t.mops {
            if let Mop::A { k, v } = m {
                w.insert(*v, (i, *k));
            }
        }
    }
    w
}

/// Reads of committed transactions (and final reads): (txn, key, list, external), where
/// external means no append of the same key by the transaction came before it.
fn reads<'a>(txns: &'a [T]) -> impl Iterator<Item = (usize, Key, &'a [u64], bool)> + 'a {
    txns.iter().enumerate().flat_map(|(i, t)| {
        let committed = t.outcome == Outcome::Ok;
        let mut appended: Vec<Key> = Vec::new();
        let mut out = Vec::new();
        for m in t.mops {
            match m {
                Mop::A { k, .. } => appended.push(*k),
                Mop::R { k, list: Some(l) } if committed => {
                    out.push((i, *k, l.as_slice(), !appended.contains(k)))
                }
                Mop::R { .. } => {}
            }
        }
        out
    })
}

/// The version order of every key: the longest list read; every other read must be a
/// prefix of it. Checks elements on the way (duplicates, garbage, aborted writers).
fn version_orders(
    txns: &[T],
    writer: &HashMap<u64, (usize, Key)>,
    f: &mut Findings,
) -> HashMap<Key, Vec<u64>> {
    let mut order: HashMap<Key, Vec<u64>> = HashMap::new();
    for (i, k, list, _) in reads(txns) {
        let mut seen = std::collections::HashSet::new();
        for v in list {
            if !seen.insert(*v) {
                f.add("duplicate-append", || {
                    format!("{} read {v} twice in key {k}: {list:?}", txns[i].name)
                });
            }
            match writer.get(v) {
                None => f.add("garbage-read", || {
                    format!("{} read {v} in key {k}, never appended", txns[i].name)
                }),
                Some((w, wk)) if *wk != k => f.add("garbage-read", || {
                    format!("{} read {v} in key {k}, appended to key {wk}", txns[i].name)
                }),
                Some((w, _)) if txns[*w].outcome == Outcome::Fail => f.add("G1a", || {
                    format!(
                        "{} read {v} in key {k}, appended by failed {}",
                        txns[i].name, txns[*w].name
                    )
                }),
                Some(_) => {}
            }
        }
        let longest = order.entry(k).or_default();
        if list.len() > longest.len() {
            *longest = list.to_vec();
        }
    }
    for (i, k, list, _) in reads(txns) {
        let longest = &order[&k];
        if longest[..list.len()] != *list {
            f.add("incompatible-order", || {
                format!(
                    "{} read key {k} as {list:?}, not a prefix of {longest:?}",
                    txns[i].name
                )
            });
        }
    }
    order
}

/// A transaction must see its own appends, in order, on top of what it read.
fn internal(txns: &[T], f: &mut Findings) {
    for t in txns.iter().filter(|t| t.outcome == Outcome::Ok) {
        let mut state: HashMap<Key, Vec<u64>> = HashMap::new();
        let mut unknown_base: HashMap<Key, Vec<u64>> = HashMap::new();
        for m in t.mops {
            match m {
                Mop::A { k, v } => match state.get_mut(k) {
                    Some(s) => s.push(*v),
                    None => unknown_base.entry(*k).or_default().push(*v),
                },
                Mop::R { k, list: Some(l) } => {
                    let ok = match (state.get(k), unknown_base.get(k)) {
                        (Some(s), _) => s == l,
                        (None, Some(own)) => l.ends_with(own),
                        (None, None) => true,
                    };
                    if !ok {
                        f.add("internal", || {
                            format!("{} read key {k} as {l:?} after its own writes", t.name)
                        });
                    }
                    state.insert(*k, l.clone());
                    unknown_base.remove(k);
                }
                Mop::R { .. } => {}
            }
        }
    }
}

/// G1b: a read ending in a value its writer later followed with another append of its
/// own to the same key (an intermediate state).
fn intermediate_reads(txns: &[T], writer: &HashMap<u64, (usize, Key)>, f: &mut Findings) {
    for (i, k, list, _) in reads(txns) {
        let Some(last) = list.last() else { continue };
        let Some(&(w, _)) = writer.get(last) else {
            continue;
        };
        if w == i {
            continue;
        }
        let own: Vec<u64> = txns[w]
            .mops
            .iter()
            .filter_map(|m| match m {
                Mop::A { k: wk, v } if *wk == k => Some(*v),
                _ => None,
            })
            .collect();
        if own.last() != Some(last) {
            f.add("G1b", || {
                format!(
                    "{} read key {k} ending in {last}, an intermediate append of {}",
                    txns[i].name, txns[w].name
                )
            });
        }
    }
}

/// Every acknowledged append must be in the final version order.
fn lost_appends(txns: &[T], order: &HashMap<Key, Vec<u64>>, have_finals: bool, f: &mut Findings) {
    if !have_finals {
        f.notes
            .push("no final read: lost appends not checked".into());
        return;
    }
    for t in txns.iter().filter(|t| t.outcome == Outcome::Ok) {
        for m in t.mops {
            if let Mop::A { k, v } = m {
                if !order.get(k).is_some_and(|o| o.contains(v)) {
                    f.add("lost-append", || {
                        format!("{} appended {v} to key {k}: missing at the end", t.name)
                    });
                }
            }
        }
    }
}

/// P4: two committed transactions read the same version of a key and both appended.
fn lost_updates(txns: &[T], order: &HashMap<Key, Vec<u64>>, f: &mut Findings) {
    let mut by_version: HashMap<(Key, usize), Vec<usize>> = HashMap::new();
    for (i, k, list, external) in reads(txns) {
        let appends = txns[i]
            .mops
            .iter()
            .any(|m| matches!(m, Mop::A { k: wk, .. } if *wk == k));
        if external && appends && order.contains_key(&k) {
            by_version.entry((k, list.len())).or_default().push(i);
        }
    }
    for ((k, len), ts) in by_version {
        let mut ts = ts;
        ts.dedup();
        if ts.len() > 1 {
            f.add("lost-update", || {
                let names: Vec<&str> = ts.iter().map(|i| txns[*i].name.as_str()).collect();
                format!(
                    "key {k}: {} all read version {len} and appended",
                    names.join(", ")
                )
            });
        }
    }
}

/// Builds the dependency graph and reports the cycles SI forbids.
fn cycles(
    txns: &[T],
    writer: &HashMap<u64, (usize, Key)>,
    order: &HashMap<Key, Vec<u64>>,
    f: &mut Findings,
) {
    // Only committed (or possibly committed) transactions take part.
    let live: Vec<bool> = txns.iter().map(|t| t.outcome != Outcome::Fail).collect();
    let mut g = Graph::new(txns.len());
    let mut edge = |a: usize, b: usize, d: Dep| {
        if live[a] && live[b] {
            g.edge(a, b, d);
        }
    };
    // ww: consecutive versions.
    for list in order.values() {
        for pair in list.windows(2) {
            if let (Some(a), Some(b)) = (writer.get(&pair[0]), writer.get(&pair[1])) {
                edge(a.0, b.0, Dep::Ww);
            }
        }
    }
    // wr and rw from external reads.
    for (i, k, list, external) in reads(txns) {
        if !external {
            continue;
        }
        if let Some(w) = list.last().and_then(|v| writer.get(v)) {
            edge(w.0, i, Dep::Wr);
        }
        if let Some(next) = order[&k].get(list.len()).and_then(|v| writer.get(v)) {
            edge(i, next.0, Dep::Rw);
        }
    }
    let name = |v: usize| txns[v].name.clone();
    for c in g.cycle_without_rw() {
        f.add(classify(&c), || describe(&c, name));
    }
    let (found, complete) = g.si_cycles_with_rw(1_000, SEARCH_BUDGET);
    for c in found {
        f.add(classify(&c), || describe(&c, name));
    }
    if !complete {
        f.notes
            .push("cycle search stopped at its budget: not every component was searched".into());
    }
    f.notes.push(format!(
        "dependency graph: {} transactions, {} edges",
        txns.len(),
        g.edges()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(id: u64, outcome: Outcome, op: Txn) -> Event<Txn> {
        Event {
            id,
            process: id as usize,
            node: 0,
            invoke_us: id * 10,
            complete_us: id * 10 + 5,
            outcome,
            error: None,
            op,
        }
    }
    fn r(k: Key, l: &[u64]) -> Mop {
        Mop::R {
            k,
            list: Some(l.to_vec()),
        }
    }
    fn a(k: Key, v: u64) -> Mop {
        Mop::A { k, v }
    }
    fn fin(m: &[(Key, &[u64])]) -> Vec<(usize, BTreeMap<Key, Vec<u64>>)> {
        vec![(0, m.iter().map(|(k, l)| (*k, l.to_vec())).collect())]
    }

    #[test]
    fn a_serial_history_is_clean() {
        let h = vec![
            ev(1, Outcome::Ok, vec![r(1, &[]), a(1, 10)]),
            ev(2, Outcome::Ok, vec![r(1, &[10]), a(1, 11), r(1, &[10, 11])]),
            ev(3, Outcome::Fail, vec![a(1, 12)]),
            ev(4, Outcome::Info, vec![a(2, 20)]),
        ];
        let f = check(&h, &fin(&[(1, &[10, 11]), (2, &[20])]));
        assert!(f.is_clean(), "{f:?}");
    }

    #[test]
    fn lost_update_is_p4_and_g_single() {
        let h = vec![
            ev(1, Outcome::Ok, vec![r(1, &[]), a(1, 10)]),
            ev(2, Outcome::Ok, vec![r(1, &[]), a(1, 11)]),
        ];
        let f = check(&h, &fin(&[(1, &[10, 11])]));
        assert_eq!(f.anomalies["lost-update"].count, 1, "{f:?}");
        assert!(f.anomalies.contains_key("G-single"), "{f:?}");
    }

    #[test]
    fn aborted_intermediate_lost_and_internal_reads() {
        let h = vec![
            ev(1, Outcome::Fail, vec![a(1, 10)]),
            ev(2, Outcome::Ok, vec![r(1, &[10])]),
            ev(3, Outcome::Ok, vec![a(2, 20), a(2, 21)]),
            ev(4, Outcome::Ok, vec![r(2, &[20])]),
            ev(5, Outcome::Ok, vec![a(3, 30)]),
            ev(6, Outcome::Ok, vec![r(4, &[]), a(4, 40), r(4, &[])]),
            ev(7, Outcome::Ok, vec![r(5, &[99, 99])]),
        ];
        let f = check(&h, &fin(&[(1, &[10]), (2, &[20, 21]), (4, &[40])]));
        for class in [
            "G1a",
            "G1b",
            "lost-append",
            "internal",
            "garbage-read",
            "duplicate-append",
        ] {
            assert!(f.anomalies.contains_key(class), "{class} missing: {f:?}");
        }
    }

    #[test]
    fn incompatible_orders_and_g1c() {
        let h = vec![
            ev(1, Outcome::Ok, vec![a(1, 10)]),
            ev(2, Outcome::Ok, vec![a(1, 11)]),
            ev(3, Outcome::Ok, vec![r(1, &[11])]),
        ];
        let f = check(&h, &fin(&[(1, &[10, 11])]));
        assert!(f.anomalies.contains_key("incompatible-order"), "{f:?}");
        // T1 wrote x then read T2's y; T2 read T1's x: a wr/wr cycle.
        let h = vec![
            ev(1, Outcome::Ok, vec![a(1, 10), r(2, &[20])]),
            ev(2, Outcome::Ok, vec![a(2, 20), r(1, &[10])]),
        ];
        let f = check(&h, &fin(&[(1, &[10]), (2, &[20])]));
        assert!(f.anomalies.contains_key("G1c"), "{f:?}");
    }

    #[test]
    fn write_skew_is_not_reported() {
        let h = vec![
            ev(1, Outcome::Ok, vec![r(1, &[]), r(2, &[]), a(1, 10)]),
            ev(2, Outcome::Ok, vec![r(1, &[]), r(2, &[]), a(2, 20)]),
        ];
        let f = check(&h, &fin(&[(1, &[10]), (2, &[20])]));
        assert!(f.is_clean(), "{f:?}");
    }
}
