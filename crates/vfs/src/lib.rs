//! tutti's file layer: the one door every durable write of a node goes through.
//!
//! The gcache's segment files and compaction point, the Raft state file and the node's
//! identity file are written with [`File`], [`rename`], [`remove_file`], [`sync_dir`] and
//! [`write_atomic`] instead of `std::fs`. By default they *are* `std::fs`: every
//! [`File::sync`] and [`sync_dir`] is a real fsync, and nothing else happens.
//!
//! Why a layer at all: durability claims ("an entry is on disk before it counts as
//! committed") rest on a handful of fsyncs, and only a test that loses exactly what a real
//! disk may lose can show they are in the right places. A test installs a
//! [`PowerLoss`](power_loss::PowerLoss) on a node's directory: from then on writes under it
//! still reach the real files, but an undo record is kept for every write, truncation,
//! creation, rename and removal that no fsync has made durable yet, and a power cut
//! replays those records backwards (all of them, or all but a random prefix), leaving what
//! a real disk could hold. SQLite's files (database, `-wal`) go through the same records by
//! a VFS shim ([`sqlite`], feature `sqlite`), so the undo logic lives in one place
//! (`undo`). Each fsync names its [`SyncPoint`], so a test can remove one and check that
//! the loss is detected.
//!
//! This is a small crate of its own, below gcache, replication, storage and node, because
//! all of them write durable files and none should depend on another for it. It has no
//! error enum: its operations are `std::fs` operations and fail with [`std::io::Error`],
//! which each caller maps into its own error with the path it was working on.
//!
//! Cost when nothing is installed (production): one relaxed atomic load per operation.

mod file;
mod hook;
pub mod power_loss;
mod undo;

#[cfg(any(test, feature = "sqlite"))]
pub mod sqlite;

pub use file::{create_dir_all, read, remove_file, rename, sync_dir, write_atomic, File};

/// Where an fsync is, so a test can remove one ([`power_loss::PowerLoss::skip_sync`]) and
/// see what breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncPoint {
    /// A gcache segment's data: appended entries, the segment a roll leaves, a cut tail.
    GcacheAppend,
    /// The gcache compaction point (`meta`), before it is renamed into place.
    GcacheMeta,
    /// The Raft state file (term, vote, membership), before it is renamed into place.
    RaftState,
    /// The node's identity file, before it is renamed into place.
    NodeId,
    /// A directory, making file creations, renames and removals in it durable.
    Dir,
    /// SQLite's own fsyncs of the database and its write-ahead log (through the shim).
    Sqlite,
}
