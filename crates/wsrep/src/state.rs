//! Galera's node state machine, as `wsrep_local_state` / `wsrep_local_state_comment` show it.
//!
//! OPEN → PRIMARY → JOINER → JOINED → SYNCED, with DONOR/DESYNCED beside SYNCED, and
//! non-Primary whenever the node cannot see a quorum. Only SYNCED nodes are healthy for
//! clients (clustercheck semantics) and count for flow control.

use std::fmt;

/// The local state of a node, with Galera's numbering and comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeState {
    /// Not connected to a primary component yet (starting, or quorum lost).
    Open,
    /// Part of a primary component, state not yet known to be current.
    Primary,
    /// Receiving a state transfer (IST or SST).
    Joiner,
    /// State received; applying what remains before becoming Synced.
    Joined,
    /// Up to date and serving clients.
    Synced,
    /// Serving a state snapshot to a joiner; may lag without flow control.
    Donor,
    /// Desynced by the operator (`wsrep_desync=ON`); may lag without flow control.
    Desynced,
}

impl NodeState {
    /// `wsrep_local_state`: Galera's numeric code.
    pub fn code(self) -> u32 {
        match self {
            NodeState::Open => 0,
            NodeState::Primary | NodeState::Joiner => 1,
            NodeState::Donor | NodeState::Desynced => 2,
            NodeState::Joined => 3,
            NodeState::Synced => 4,
        }
    }

    /// `wsrep_local_state_comment`: Galera's wording.
    pub fn comment(self) -> &'static str {
        match self {
            NodeState::Open => "Initialized",
            NodeState::Primary => "Joining",
            NodeState::Joiner => "Joining: receiving State Transfer",
            NodeState::Joined => "Joined",
            NodeState::Synced => "Synced",
            NodeState::Donor => "Donor/Desynced",
            NodeState::Desynced => "Donor/Desynced",
        }
    }

    /// The short upper-case name Galera uses in "Shifting X -> Y" log lines.
    pub fn shift_name(self) -> &'static str {
        match self {
            NodeState::Open => "OPEN",
            NodeState::Primary => "PRIMARY",
            NodeState::Joiner => "JOINER",
            NodeState::Joined => "JOINED",
            NodeState::Synced => "SYNCED",
            NodeState::Donor => "DONOR",
            NodeState::Desynced => "DESYNCED",
        }
    }
}

impl fmt::Display for NodeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.shift_name())
    }
}
