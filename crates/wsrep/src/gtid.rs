//! Positions in the total order.
//!
//! A [`Seqno`] numbers the cluster's replicated history; 0 means "nothing yet". tutti uses
//! the Raft log index as the seqno, so every entry (write-set, DDL, membership change) has
//! one, and `wsrep_last_committed` is the index of the last entry applied on this node.

use std::fmt;
use std::str::FromStr;

/// Position of an event in the cluster's total order (the Raft log index); 0 = none.
pub type Seqno = u64;

/// The identity of a cluster's history, created when the cluster is bootstrapped.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ClusterUuid(pub uuid::Uuid);

impl ClusterUuid {
    /// A fresh random cluster uuid (done once, at bootstrap).
    pub fn new_random() -> Self {
        ClusterUuid(uuid::Uuid::new_v4())
    }

    /// The all-zero uuid Galera shows before a node belongs to a cluster.
    pub fn nil() -> Self {
        ClusterUuid(uuid::Uuid::nil())
    }

    /// True for the nil uuid.
    pub fn is_nil(&self) -> bool {
        self.0.is_nil()
    }

    /// The uuid with these 16 raw bytes.
    pub fn from_bytes(b: [u8; 16]) -> Self {
        ClusterUuid(uuid::Uuid::from_bytes(b))
    }

    /// The 16 raw bytes.
    pub fn as_bytes(&self) -> &[u8; 16] {
        self.0.as_bytes()
    }
}

impl fmt::Display for ClusterUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.hyphenated())
    }
}

impl fmt::Debug for ClusterUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromStr for ClusterUuid {
    type Err = uuid::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(ClusterUuid(uuid::Uuid::parse_str(s)?))
    }
}

/// Global transaction id: `cluster-uuid:seqno`, as Galera prints it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Gtid {
    /// The cluster whose history this position belongs to.
    pub uuid: ClusterUuid,
    /// The position in that history.
    pub seqno: Seqno,
}

impl fmt::Display for Gtid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.uuid, self.seqno)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtid_prints_like_galera() {
        let u: ClusterUuid = "6b8a3e2c-1f0e-11ee-9a3b-0242ac120002".parse().unwrap();
        let g = Gtid { uuid: u, seqno: 42 };
        assert_eq!(g.to_string(), "6b8a3e2c-1f0e-11ee-9a3b-0242ac120002:42");
        assert!(ClusterUuid::nil().is_nil());
        assert!(!ClusterUuid::new_random().is_nil());
    }
}
