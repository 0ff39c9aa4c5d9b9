//! Total order with Raft (raft-rs): the core, its storage over the gcache, the peer
//! protocol, and the driver thread. See [`core`] for the invariants.

mod bootstrap;
mod core;
mod driver;
mod inflight;
mod liveness;
mod log_store;
mod logger;
mod membership;
mod retention;
mod view;
mod wire;

pub use self::core::{CoreConfig, Output, RaftCore};
pub use driver::{start as start_driver, DriverParts, Input, NoPeers, Transport};
pub use log_store::{first_member_entry, ClusterState, LogStore};
pub use logger::raft_logger;
pub use retention::{AbsentMember, GcacheStats};
pub use view::{Transfer, View};
pub use wire::{
    read_frame, Gossip, JoinRequest, Member, PeerMsg, ReadError, WireError, PROTOCOL_VERSION,
};

/// The channel a transport delivers peer messages on, and the driver reads.
pub fn channel() -> (
    crossbeam_channel::Sender<Input>,
    crossbeam_channel::Receiver<Input>,
) {
    crossbeam_channel::unbounded()
}

#[cfg(test)]
mod tests;
