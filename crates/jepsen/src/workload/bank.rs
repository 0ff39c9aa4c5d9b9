//! bank: transfers read both balances and write both back computed by the client (so a
//! lost update breaks the total), refusing to overdraw; reads fetch every balance in one
//! transaction.

use super::{fresh_database, Unique, Workload};
use crate::check::bank::{check, Bank, BankOp};
use crate::check::Findings;
use crate::client::{Client, Done};
use crate::history::Event;
use mysql::prelude::*;
use rand::rngs::StdRng;
use rand::Rng;
use std::collections::BTreeMap;

/// The bank workload.
pub struct BankWorkload {
    /// Its shape.
    pub bank: Bank,
}

impl Default for BankWorkload {
    fn default() -> Self {
        BankWorkload {
            bank: Bank {
                accounts: 5,
                opening: 100,
            },
        }
    }
}

impl Workload for BankWorkload {
    type Op = BankOp;
    type Final = BTreeMap<u32, i64>;

    fn setup(&self, c: &mut mysql::Conn) -> Result<(), mysql::Error> {
        fresh_database(c)?;
        c.query_drop("CREATE TABLE jepsen.bank (id INT PRIMARY KEY, balance BIGINT NOT NULL)")?;
        for id in 1..=self.bank.accounts {
            c.exec_drop(
                "INSERT INTO jepsen.bank VALUES (?, ?)",
                (id, self.bank.opening),
            )?;
        }
        Ok(())
    }

    fn generate(&self, rng: &mut StdRng, _: &Unique) -> BankOp {
        if rng.random_bool(0.3) {
            return BankOp::Read { balances: None };
        }
        let from = rng.random_range(1..=self.bank.accounts);
        let mut to = rng.random_range(1..self.bank.accounts);
        if to >= from {
            to += 1;
        }
        BankOp::Transfer {
            from,
            to,
            amount: rng.random_range(1..=20),
        }
    }

    fn run(&self, client: &mut Client, op: &mut BankOp) -> Done {
        match op {
            BankOp::Transfer { from, to, amount } => {
                let (from, to, amount) = (*from, *to, *amount);
                client
                    .txn(0, |c| {
                        let rows: Vec<(u32, i64)> = c.exec(
                            "SELECT id, balance FROM jepsen.bank WHERE id IN (?, ?)",
                            (from, to),
                        )?;
                        let b: BTreeMap<u32, i64> = rows.into_iter().collect();
                        let (Some(f), Some(t)) = (b.get(&from), b.get(&to)) else {
                            return Ok(None);
                        };
                        if *f < amount {
                            return Ok(None);
                        }
                        let set = "UPDATE jepsen.bank SET balance = ? WHERE id = ?";
                        c.exec_drop(set, (f - amount, from))?;
                        c.exec_drop(set, (t + amount, to))?;
                        Ok(Some(()))
                    })
                    .0
            }
            BankOp::Read { balances } => {
                let (done, b) = client.txn(0, |c| {
                    let rows: Vec<(u32, i64)> = c.query("SELECT id, balance FROM jepsen.bank")?;
                    Ok(Some(rows.into_iter().collect()))
                });
                *balances = b;
                done
            }
        }
    }

    fn final_read(&self, c: &mut mysql::Conn) -> Result<Self::Final, mysql::Error> {
        let rows: Vec<(u32, i64)> = c.query("SELECT id, balance FROM jepsen.bank ORDER BY id")?;
        Ok(rows.into_iter().collect())
    }

    fn check(&self, history: &[Event<BankOp>], finals: &[(usize, Self::Final)]) -> Findings {
        check(self.bank, history, finals)
    }
}
