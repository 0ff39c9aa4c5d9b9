//! tutti's history-checking suite, in the spirit of Jepsen and Elle.
//!
//! Clients on every node of a real cluster (real `tutti` processes on 127.0.0.1, or the
//! MariaDB Galera anchor) run a workload and record every operation's invocation,
//! completion and outcome; a nemesis kills, pauses, partitions, slows down and churns the
//! nodes meanwhile; after healing, every node's final state is read; pure checkers then
//! look for the anomalies the workload can reveal. One command runs it all:
//!
//! ```text
//! tutti-jepsen --workload list-append --nemesis partition --duration 60 --seed 7
//! ```
//!
//! Layout: [`history`] (the record), [`client`] (what an error says about an outcome),
//! [`workload`] (the SQL of each workload), [`check`] (the checkers, I/O-free and unit
//! tested), [`cluster`] (processes and the fault-injecting proxy), [`nemesis`] (the fault
//! schedule), [`runner`] (one run end to end). See `docs/testing.md`.

pub mod check;
pub mod client;
pub mod cluster;
pub mod history;
pub mod nemesis;
pub mod runner;
pub mod workload;

/// What can stop a run (anomalies are not errors: they are its findings).
#[derive(Debug, thiserror::Error)]
pub enum JepsenError {
    /// Wrong invocation or environment.
    #[error("setup: {0}")]
    Setup(String),
    /// The cluster could not be started or driven.
    #[error("cluster: {0}")]
    Cluster(String),
    /// A client error outside any recorded operation (schema setup).
    #[error("mysql: {0}")]
    Mysql(#[from] mysql::Error),
    /// Files, processes.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}
