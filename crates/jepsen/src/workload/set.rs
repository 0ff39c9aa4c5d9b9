//! set: unique values inserted one autocommit `INSERT` each into a table with an
//! AUTO_INCREMENT key (so a write-set applied twice shows as a duplicate row).

use super::{fresh_database, Unique, Workload};
use crate::check::set::check;
use crate::check::Findings;
use crate::client::{Client, Done};
use crate::history::Event;
use mysql::prelude::*;
use rand::rngs::StdRng;

/// The set workload.
#[derive(Default)]
pub struct SetWorkload;

impl Workload for SetWorkload {
    type Op = u64;
    type Final = Vec<u64>;

    fn setup(&self, c: &mut mysql::Conn) -> Result<(), mysql::Error> {
        fresh_database(c)?;
        c.query_drop(
            "CREATE TABLE jepsen.sets (id BIGINT AUTO_INCREMENT PRIMARY KEY, v BIGINT NOT NULL)",
        )
    }

    fn generate(&self, _: &mut StdRng, unique: &Unique) -> u64 {
        unique.next()
    }

    fn run(&self, client: &mut Client, op: &mut u64) -> Done {
        let v = *op;
        client.write(|c| c.exec_drop("INSERT INTO jepsen.sets (v) VALUES (?)", (v,)))
    }

    fn final_read(&self, c: &mut mysql::Conn) -> Result<Vec<u64>, mysql::Error> {
        c.query("SELECT v FROM jepsen.sets ORDER BY v")
    }

    fn check(&self, history: &[Event<u64>], finals: &[(usize, Vec<u64>)]) -> Findings {
        check(history, finals)
    }
}
