//! list-append: transactions of 1–4 reads and appends over a sliding window of keys
//! (so lists stay short), each list a `TEXT` of comma-separated unique values appended
//! with `INSERT ... ON DUPLICATE KEY UPDATE v = CONCAT(v, ',', x)`.

use super::{fresh_database, Unique, Workload};
use crate::check::list_append::{check, Key, Mop, Txn};
use crate::check::Findings;
use crate::client::{Client, Done};
use crate::history::Event;
use mysql::prelude::*;
use rand::rngs::StdRng;
use rand::Rng;
use std::collections::BTreeMap;

/// Keys in play at once.
const ACTIVE_KEYS: u64 = 8;
/// Operations after which the window of keys moves on by one.
const OPS_PER_KEY_SHIFT: u64 = 60;

/// The list-append workload.
pub struct ListAppend {
    ops: Unique,
}

impl ListAppend {
    /// A new workload.
    pub fn new() -> ListAppend {
        ListAppend {
            ops: Unique::default(),
        }
    }
}

impl Default for ListAppend {
    fn default() -> Self {
        ListAppend::new()
    }
}

fn parse(v: Option<String>) -> Vec<u64> {
    v.map(|s| {
        s.split(',')
            .filter(|x| !x.is_empty())
            .map(|x| x.trim().parse().unwrap_or(u64::MAX))
            .collect()
    })
    .unwrap_or_default()
}

impl Workload for ListAppend {
    type Op = Txn;
    type Final = BTreeMap<Key, Vec<u64>>;

    fn setup(&self, c: &mut mysql::Conn) -> Result<(), mysql::Error> {
        fresh_database(c)?;
        c.query_drop("CREATE TABLE jepsen.la (k INT PRIMARY KEY, v TEXT NOT NULL)")
    }

    fn generate(&self, rng: &mut StdRng, unique: &Unique) -> Txn {
        let base = self.ops.next() / OPS_PER_KEY_SHIFT;
        (0..rng.random_range(1..=4))
            .map(|_| {
                let k = (base + rng.random_range(0..ACTIVE_KEYS)) as Key;
                if rng.random_bool(0.5) {
                    Mop::R { k, list: None }
                } else {
                    Mop::A {
                        k,
                        v: unique.next(),
                    }
                }
            })
            .collect()
    }

    fn run(&self, client: &mut Client, op: &mut Txn) -> Done {
        let mut mops = op.clone();
        let (done, value) = client.txn(0, |c| {
            for m in mops.iter_mut() {
                match m {
                    Mop::R { k, list } => {
                        let v: Option<String> =
                            c.exec_first("SELECT v FROM jepsen.la WHERE k = ?", (*k,))?;
                        *list = Some(parse(v));
                    }
                    Mop::A { k, v } => c.exec_drop(
                        "INSERT INTO jepsen.la (k, v) VALUES (?, ?) \
                         ON DUPLICATE KEY UPDATE v = CONCAT(v, ',', ?)",
                        (*k, v.to_string(), v.to_string()),
                    )?,
                }
            }
            Ok(Some(mops))
        });
        if let Some(m) = value {
            *op = m;
        }
        done
    }

    fn final_read(&self, c: &mut mysql::Conn) -> Result<Self::Final, mysql::Error> {
        let rows: Vec<(u32, String)> = c.query("SELECT k, v FROM jepsen.la ORDER BY k")?;
        Ok(rows.into_iter().map(|(k, v)| (k, parse(Some(v)))).collect())
    }

    fn check(&self, history: &[Event<Txn>], finals: &[(usize, Self::Final)]) -> Findings {
        check(history, finals)
    }
}
