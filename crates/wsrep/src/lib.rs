//! The shared vocabulary of tutti, named after Galera's wsrep API.
//!
//! Every layer speaks in these terms: a [`Seqno`] is a position in the cluster's total order,
//! a [`Gtid`] is `cluster-uuid:seqno`, a [`WriteSet`] is one transaction's row changes with
//! its certification keys, a [`Ddl`] is a schema change executed in total order (TOI), and
//! [`NodeState`] follows Galera's state machine. The types here carry no I/O; the [`codec`]
//! module gives them a compact, versioned, checked binary form for the replicated log.

pub mod charsets;
pub mod codec;
mod ddl;
mod error;
mod gtid;
mod provider;
mod state;
mod value;
mod writeset;

pub use ddl::Ddl;
pub use error::WsrepError;
pub use gtid::{ClusterUuid, Gtid, Seqno};
pub use provider::{ApplyObserver, DdlFailure, Provider, ReplicateError, Replicated};
pub use state::NodeState;
pub use value::Value;
pub use writeset::{hash_key, Action, CertKeys, TrxId, WriteSet};

/// Identifies a node for its whole life (generated once, stored in its datadir).
pub type NodeId = u64;
