//! The recorded history: one event per operation, from its invocation to its completion.
//!
//! Every client records what it asked for, when (microseconds since the run started, on
//! one monotonic clock shared by all clients), and how it ended: `ok` (acknowledged),
//! `fail` (definitely did not take effect: refused before commit, or a certification
//! failure at commit) or `info` (unknown: the connection broke or timed out while the
//! commit was in flight, so it may or may not have happened). Checkers treat `info`
//! operations as possibly committed, never as certainly either.

use serde::{Deserialize, Serialize};
use std::time::Instant;

/// How an operation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Acknowledged.
    Ok,
    /// Definitely not applied.
    Fail,
    /// Unknown.
    Info,
}

/// One completed operation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Event<Op> {
    /// Unique per run, in invocation order per process.
    pub id: u64,
    /// The client (one thread, one connection at a time).
    pub process: usize,
    /// The node the client talks to (0-based).
    pub node: usize,
    /// Invocation time, µs since the run started.
    pub invoke_us: u64,
    /// Completion time, µs since the run started.
    pub complete_us: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// The error, when it did not succeed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
    /// What was asked and, once completed, what was read.
    pub op: Op,
}

/// A fault the nemesis injected or healed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NemesisEvent {
    /// When, µs since the run started.
    pub at_us: u64,
    /// What happened, in words ("kill n2", "heal").
    pub what: String,
}

/// The run's clock.
#[derive(Clone, Copy, Debug)]
pub struct Clock(Instant);

impl Clock {
    /// Starts now.
    pub fn start() -> Clock {
        Clock(Instant::now())
    }
    /// Microseconds since the start.
    pub fn now_us(&self) -> u64 {
        self.0.elapsed().as_micros() as u64
    }
}

/// Counts of outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Acknowledged operations.
    pub ok: u64,
    /// Definitely failed.
    pub fail: u64,
    /// Unknown.
    pub info: u64,
}

impl Tally {
    /// Counts the outcomes of `events`.
    pub fn of<Op>(events: &[Event<Op>]) -> Tally {
        let mut t = Tally::default();
        for e in events {
            match e.outcome {
                Outcome::Ok => t.ok += 1,
                Outcome::Fail => t.fail += 1,
                Outcome::Info => t.info += 1,
            }
        }
        t
    }
}
