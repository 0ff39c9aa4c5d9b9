//! The bank checker: transfers between accounts (read both balances, write both back
//! computed by the client) and reads of every account in one transaction.
//!
//! Found here: `wrong-total` (a read, or a node's final state, whose balances do not sum
//! to the opening total: a lost update or a read skew), `negative-balance` (a transfer
//! drew an account below zero: it acted on a stale balance), `missing-account`.

use super::Findings;
use crate::history::{Event, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One bank operation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BankOp {
    /// Move `amount` from one account to another if the balance allows it.
    Transfer {
        /// Debited account.
        from: u32,
        /// Credited account.
        to: u32,
        /// Amount.
        amount: i64,
    },
    /// Read every balance.
    Read {
        /// Balance per account (set on completion).
        #[serde(default)]
        balances: Option<BTreeMap<u32, i64>>,
    },
}

/// The bank's shape.
#[derive(Clone, Copy, Debug)]
pub struct Bank {
    /// Number of accounts (ids 1..=accounts).
    pub accounts: u32,
    /// Opening balance of each.
    pub opening: i64,
}

impl Bank {
    /// The conserved total.
    pub fn total(&self) -> i64 {
        self.accounts as i64 * self.opening
    }

    fn check_read(&self, what: &str, b: &BTreeMap<u32, i64>, f: &mut Findings) {
        let sum: i64 = b.values().sum();
        if b.len() != self.accounts as usize {
            f.add("missing-account", || {
                format!("{what}: {} of {} accounts", b.len(), self.accounts)
            });
        }
        if sum != self.total() {
            f.add("wrong-total", || {
                format!("{what}: total {sum}, expected {} ({b:?})", self.total())
            });
        }
        if let Some((id, v)) = b.iter().find(|(_, v)| **v < 0) {
            f.add("negative-balance", || {
                format!("{what}: account {id} at {v}")
            });
        }
    }
}

/// Checks every read and each node's final balances.
pub fn check(
    bank: Bank,
    history: &[Event<BankOp>],
    finals: &[(usize, BTreeMap<u32, i64>)],
) -> Findings {
    let mut f = Findings::default();
    for e in history.iter().filter(|e| e.outcome == Outcome::Ok) {
        if let BankOp::Read { balances: Some(b) } = &e.op {
            bank.check_read(&format!("op {} (n{})", e.id, e.node + 1), b, &mut f);
        }
    }
    for (node, b) in finals {
        bank.check_read(&format!("final read on n{}", node + 1), b, &mut f);
    }
    if finals.is_empty() {
        f.notes.push("no final read".into());
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_negatives() {
        let bank = Bank {
            accounts: 2,
            opening: 10,
        };
        let read = |id, b: &[(u32, i64)]| Event {
            id,
            process: 0,
            node: 0,
            invoke_us: 0,
            complete_us: 1,
            outcome: Outcome::Ok,
            error: None,
            op: BankOp::Read {
                balances: Some(b.iter().copied().collect()),
            },
        };
        let good = [read(1, &[(1, 5), (2, 15)])];
        assert!(check(bank, &good, &[(0, BTreeMap::from([(1, 0), (2, 20)]))]).is_clean());
        let bad = [read(1, &[(1, 5), (2, 16)]), read(2, &[(1, -1), (2, 21)])];
        let f = check(bank, &bad, &[(0, BTreeMap::from([(1, 3)]))]);
        for class in ["wrong-total", "negative-balance", "missing-account"] {
            assert!(f.anomalies.contains_key(class), "{class}: {f:?}");
        }
    }
}
