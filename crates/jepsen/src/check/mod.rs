//! Checkers: pure functions over a recorded history (no I/O), one per workload, and the
//! dependency graph they share. Each reports [`Findings`]: anomaly classes with a count
//! and a few examples a human can follow back into `history.jsonl`.

pub mod bank;
pub mod graph;
pub mod list_append;
pub mod register;
pub mod set;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Examples kept per anomaly class.
const EXAMPLES: usize = 5;

/// One anomaly class found.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Anomaly {
    /// How many instances.
    pub count: u64,
    /// The first few, in words.
    pub examples: Vec<String>,
}

/// What a checker found.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Findings {
    /// Anomalies by class (`lost-update`, `G1a`, `G-single`, `wrong-total`, ...).
    pub anomalies: BTreeMap<String, Anomaly>,
    /// Facts about the check that are not anomalies (e.g. a truncated cycle search).
    pub notes: Vec<String>,
}

impl Findings {
    /// Records one instance of `class`.
    pub fn add(&mut self, class: &str, example: impl FnOnce() -> String) {
        let a = self.anomalies.entry(class.to_string()).or_default();
        a.count += 1;
        if a.examples.len() < EXAMPLES {
            a.examples.push(example());
        }
    }

    /// True when nothing was found.
    pub fn is_clean(&self) -> bool {
        self.anomalies.is_empty()
    }

    /// Total anomaly count.
    pub fn total(&self) -> u64 {
        self.anomalies.values().map(|a| a.count).sum()
    }

    /// `class×count, ...` or `none`.
    pub fn summary(&self) -> String {
        if self.anomalies.is_empty() {
            return "none".into();
        }
        self.anomalies
            .iter()
            .map(|(k, a)| format!("{k}×{}", a.count))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Compares the final contents every node returned (a digest or rows per node) and
/// reports `divergent-nodes` when they differ.
pub fn same_everywhere<T: PartialEq + std::fmt::Debug>(
    what: &str,
    per_node: &[(usize, T)],
    f: &mut Findings,
) {
    let Some((first_node, first)) = per_node.first() else {
        f.notes
            .push(format!("{what}: no node answered the final read"));
        return;
    };
    for (node, v) in &per_node[1..] {
        if v != first {
            f.add("divergent-nodes", || {
                format!("{what}: n{} and n{} differ", first_node + 1, node + 1)
            });
        }
    }
}
