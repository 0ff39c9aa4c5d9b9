//! The set checker: unique values inserted one per autocommit statement, read back from
//! every node at the end.
//!
//! Found here: `lost` (an acknowledged insert missing), `unexpected` (a value present that
//! was never attempted, or whose insert definitely failed), `duplicated` (a value present
//! twice: a write-set applied twice). Unknown inserts may be present or not; the report
//! counts both.

use super::Findings;
use crate::history::{Event, Outcome};
use std::collections::{BTreeMap, HashMap};

/// Checks the inserts (`Event<u64>`: the value inserted) against each node's final rows.
pub fn check(history: &[Event<u64>], finals: &[(usize, Vec<u64>)]) -> Findings {
    let mut f = Findings::default();
    let outcome: HashMap<u64, Outcome> = history.iter().map(|e| (e.op, e.outcome)).collect();
    for (node, rows) in finals {
        let mut present: BTreeMap<u64, u32> = BTreeMap::new();
        for v in rows {
            *present.entry(*v).or_default() += 1;
        }
        for (v, n) in &present {
            if *n > 1 {
                f.add("duplicated", || {
                    format!("n{}: {v} present {n} times", node + 1)
                });
            }
            match outcome.get(v) {
                None => f.add("unexpected", || {
                    format!("n{}: {v} never inserted", node + 1)
                }),
                Some(Outcome::Fail) => f.add("unexpected", || {
                    format!("n{}: {v} present, its insert failed", node + 1)
                }),
                _ => {}
            }
        }
        for e in history.iter().filter(|e| e.outcome == Outcome::Ok) {
            if !present.contains_key(&e.op) {
                f.add("lost", || {
                    format!(
                        "n{}: acknowledged insert {} (op {}) missing",
                        node + 1,
                        e.op,
                        e.id
                    )
                });
            }
        }
        let unknown = history.iter().filter(|e| e.outcome == Outcome::Info);
        let (found, missing) = unknown.fold((0, 0), |(a, b), e| {
            if present.contains_key(&e.op) {
                (a + 1, b)
            } else {
                (a, b + 1)
            }
        });
        f.notes.push(format!(
            "n{}: {} rows; unknown inserts: {found} present, {missing} absent",
            node + 1,
            rows.len()
        ));
    }
    if finals.is_empty() {
        f.notes.push("no final read".into());
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(v: u64, outcome: Outcome) -> Event<u64> {
        Event {
            id: v,
            process: 0,
            node: 0,
            invoke_us: v,
            complete_us: v + 1,
            outcome,
            error: None,
            op: v,
        }
    }

    #[test]
    fn lost_unexpected_duplicated() {
        let h = [
            ev(1, Outcome::Ok),
            ev(2, Outcome::Info),
            ev(3, Outcome::Fail),
            ev(4, Outcome::Ok),
        ];
        assert!(check(&h, &[(0, vec![1, 4]), (1, vec![1, 2, 4])]).is_clean());
        let f = check(&h, &[(0, vec![1, 1, 3, 9])]);
        assert_eq!(f.anomalies["duplicated"].count, 1);
        assert_eq!(f.anomalies["unexpected"].count, 2);
        assert_eq!(f.anomalies["lost"].count, 1);
    }
}
