//! register: counters incremented by read-modify-write transactions (the read value + 1
//! written back, the lost-update pattern), and read by autocommit `SELECT`s with
//! `wsrep_sync_wait = 1`, from clients on every node.

use super::{fresh_database, Unique, Workload};
use crate::check::register::{check, Key, RegOp};
use crate::check::Findings;
use crate::client::{Client, Done};
use crate::history::Event;
use mysql::prelude::*;
use rand::rngs::StdRng;
use rand::Rng;
use std::collections::BTreeMap;

/// Registers.
const KEYS: Key = 4;

/// The register workload.
#[derive(Default)]
pub struct Register;

impl Workload for Register {
    type Op = RegOp;
    type Final = BTreeMap<Key, i64>;

    fn setup(&self, c: &mut mysql::Conn) -> Result<(), mysql::Error> {
        fresh_database(c)?;
        c.query_drop("CREATE TABLE jepsen.reg (k INT PRIMARY KEY, v BIGINT NOT NULL)")?;
        for k in 0..KEYS {
            c.exec_drop("INSERT INTO jepsen.reg VALUES (?, 0)", (k,))?;
        }
        Ok(())
    }

    fn generate(&self, rng: &mut StdRng, _: &Unique) -> RegOp {
        let k = rng.random_range(0..KEYS);
        if rng.random_bool(0.5) {
            RegOp::Rmw { k, read: None }
        } else {
            RegOp::Read { k, value: None }
        }
    }

    fn run(&self, client: &mut Client, op: &mut RegOp) -> Done {
        match op {
            RegOp::Rmw { k, read } => {
                let k = *k;
                let (done, v) = client.txn(0, |c| {
                    let x: Option<i64> =
                        c.exec_first("SELECT v FROM jepsen.reg WHERE k = ?", (k,))?;
                    let Some(x) = x else { return Ok(None) };
                    c.exec_drop("UPDATE jepsen.reg SET v = ? WHERE k = ?", (x + 1, k))?;
                    Ok(Some(x))
                });
                *read = v;
                done
            }
            RegOp::Read { k, value } => {
                let k = *k;
                let (done, v) = client.read(1, |c| {
                    c.exec_first("SELECT v FROM jepsen.reg WHERE k = ?", (k,))
                });
                *value = v.flatten();
                done
            }
        }
    }

    fn final_read(&self, c: &mut mysql::Conn) -> Result<Self::Final, mysql::Error> {
        let rows: Vec<(Key, i64)> = c.query("SELECT k, v FROM jepsen.reg ORDER BY k")?;
        Ok(rows.into_iter().collect())
    }

    fn check(&self, history: &[Event<RegOp>], finals: &[(usize, Self::Final)]) -> Findings {
        check(history, finals)
    }
}
