//! The workloads: what clients do (with real SQL over real connections), what the final
//! read collects from each node, and which checker judges the history.
//!
//! Every workload lives in the `jepsen` database, which `setup` recreates.

pub mod bank;
pub mod list_append;
pub mod register;
pub mod set;

use crate::check::Findings;
use crate::client::{Client, Done};
use crate::history::Event;
use rand::rngs::StdRng;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};

/// Unique numbers for the run (values to append or insert, op counters).
#[derive(Debug, Default)]
pub struct Unique(AtomicU64);

impl Unique {
    /// The next number (from 1).
    pub fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }
    /// How many were handed out.
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A workload.
pub trait Workload: Sync {
    /// An operation: what is asked, filled in with what was read.
    type Op: Clone + Debug + Serialize + DeserializeOwned + Send;
    /// What the final read collects from one node.
    type Final: Debug + PartialEq + Send + Serialize;

    /// Creates the schema and the initial rows (through one node).
    fn setup(&self, c: &mut mysql::Conn) -> Result<(), mysql::Error>;
    /// A new operation.
    fn generate(&self, rng: &mut StdRng, unique: &Unique) -> Self::Op;
    /// Runs it, filling in what it read.
    fn run(&self, client: &mut Client, op: &mut Self::Op) -> Done;
    /// Reads the whole state from one node (with `wsrep_sync_wait` on).
    fn final_read(&self, c: &mut mysql::Conn) -> Result<Self::Final, mysql::Error>;
    /// Judges the history.
    fn check(&self, history: &[Event<Self::Op>], finals: &[(usize, Self::Final)]) -> Findings;
}

/// Drops and recreates the `jepsen` database.
pub fn fresh_database(c: &mut mysql::Conn) -> Result<(), mysql::Error> {
    use mysql::prelude::*;
    c.query_drop("DROP DATABASE IF EXISTS jepsen")?;
    c.query_drop("CREATE DATABASE jepsen")
}
