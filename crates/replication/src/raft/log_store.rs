//! Raft's storage: the log in the gcache, and the small durable state beside it.
//!
//! The log entries live in the gcache (segmented, checksummed, kept by policy). Raft's hard
//! state (term, vote, commit), the configuration (voters, learners), the members' addresses
//! and whether this node left the cluster cleanly live in `raft.state`, rewritten atomically
//! (temporary file, fsync, rename, fsync of the directory, through the file layer
//! `tutti_vfs`) whenever term, vote or membership change. The commit index is saved opportunistically: on restart it is
//! raised to the seqno the database has applied, which only ever holds committed entries.

// rust-protobuf messages are built field by field (as in raft-rs's own examples).
#![allow(clippy::field_reassign_with_default)]

use parking_lot::RwLock;
use raft::eraftpb::{ConfState, Entry as RaftEntry, EntryType, HardState, Snapshot};
use raft::{GetEntriesContext, RaftState, StorageError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tutti_gcache::{EntryKind, Gcache, GcacheError, LogEntry};
use tutti_wsrep::codec::{Decoder, Encoder};
use tutti_wsrep::NodeId;

use super::wire::Member;
use crate::ReplicationError;

const STATE_FILE: &str = "raft.state";
const STATE_VERSION: u8 = 3;

/// The durable state beside the log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterState {
    /// Raft's current term.
    pub term: u64,
    /// Who this node voted for in `term`.
    pub vote: u64,
    /// The highest index known committed (may lag; see the module doc).
    pub commit: u64,
    /// Voting members.
    pub voters: Vec<NodeId>,
    /// Non-voting members (joiners catching up).
    pub learners: Vec<NodeId>,
    /// Every member's addresses, by id.
    pub members: BTreeMap<NodeId, Member>,
    /// True once this node has left the cluster cleanly, or learned it was removed while
    /// away: it asks to join again.
    pub left: bool,
    /// Membership changes applied so far (`wsrep_cluster_conf_id` counts them).
    pub conf_changes: u64,
    /// The seqno of the last membership change applied (so a replay counts it once).
    pub conf_index: u64,
    /// Bootstrap epoch: how many times an operator's `pc.bootstrap` replaced the
    /// configuration in this node's history (see [`bootstrap`](super::bootstrap)).
    pub epoch: u64,
}

impl ClusterState {
    fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::default();
        e.u8(STATE_VERSION)
            .u64(self.term)
            .u64(self.vote)
            .u64(self.commit)
            .u64s(&self.voters)
            .u64s(&self.learners)
            .u8(self.left as u8)
            .u64(self.conf_changes)
            .u64(self.conf_index)
            .u64(self.epoch)
            .u32(self.members.len() as u32);
        for m in self.members.values() {
            e.bytes(&m.encode());
        }
        let body = e.finish();
        let mut out = crc32fast::hash(&body).to_le_bytes().to_vec();
        out.extend_from_slice(&body);
        out
    }

    fn decode(b: &[u8]) -> Result<ClusterState, String> {
        if b.len() < 4 || crc32fast::hash(&b[4..]).to_le_bytes() != b[..4] {
            return Err("checksum mismatch".into());
        }
        let mut d = Decoder::new(&b[4..], "raft state");
        let err = |e: tutti_wsrep::WsrepError| e.to_string();
        let version = d.u8().map_err(err)?;
        if !(1..=STATE_VERSION).contains(&version) {
            return Err("unknown version".into());
        }
        let mut s = ClusterState {
            term: d.u64().map_err(err)?,
            vote: d.u64().map_err(err)?,
            commit: d.u64().map_err(err)?,
            voters: d.u64s().map_err(err)?,
            learners: d.u64s().map_err(err)?,
            left: d.u8().map_err(err)? == 1,
            ..Default::default()
        };
        if version >= 2 {
            s.conf_changes = d.u64().map_err(err)?;
            s.conf_index = d.u64().map_err(err)?;
        }
        if version >= 3 {
            s.epoch = d.u64().map_err(err)?;
        }
        for _ in 0..d.u32().map_err(err)? {
            let m = Member::decode(d.bytes().map_err(err)?).map_err(err)?;
            s.members.insert(m.id, m);
        }
        d.finish().map_err(err)?;
        Ok(s)
    }

    /// Raft's view of the configuration.
    pub fn conf_state(&self) -> ConfState {
        let mut cs = ConfState::default();
        cs.voters = self.voters.clone();
        cs.learners = self.learners.clone();
        cs
    }
}

/// The log and the state, shared between the Raft core and readers (status, IST).
pub struct LogInner {
    /// The log.
    pub gcache: Gcache,
    /// The durable state.
    pub state: ClusterState,
    dir: PathBuf,
}

/// Raft's storage, cheap to clone.
#[derive(Clone)]
pub struct LogStore(
    pub Arc<RwLock<LogInner>>,
    Arc<parking_lot::Mutex<Vec<NodeId>>>,
);

impl LogStore {
    /// Opens the state file in `dir` (absent: a node that belongs to no cluster yet).
    pub fn open(dir: &Path, gcache: Gcache) -> Result<(LogStore, bool), ReplicationError> {
        let path = dir.join(STATE_FILE);
        let (state, existed) = match std::fs::read(&path) {
            Ok(b) => (
                ClusterState::decode(&b).map_err(|e| ReplicationError::Corrupt {
                    file: path.clone(),
                    reason: e,
                })?,
                true,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (ClusterState::default(), false),
            Err(e) => return Err(ReplicationError::Io(path, e)),
        };
        let inner = LogInner {
            gcache,
            state,
            dir: dir.to_path_buf(),
        };
        Ok((
            LogStore(Arc::new(RwLock::new(inner)), Default::default()),
            existed,
        ))
    }

    /// Writes the state file durably.
    pub fn save_state(&self) -> Result<(), ReplicationError> {
        let g = self.0.read();
        write_atomic(&g.dir, STATE_FILE, &g.state.encode())
    }

    /// Changes the durable state and saves it.
    pub fn update(&self, f: impl FnOnce(&mut ClusterState)) -> Result<(), ReplicationError> {
        f(&mut self.0.write().state);
        self.save_state()
    }

    /// Nodes Raft wanted a snapshot for since the last call (they need SST).
    pub fn take_snapshot_requests(&self) -> Vec<NodeId> {
        std::mem::take(&mut *self.1.lock())
    }

    /// A copy of the durable state.
    pub fn state(&self) -> ClusterState {
        self.0.read().state.clone()
    }

    /// Appends entries from a Ready (truncating a conflicting suffix) and syncs them.
    pub fn append(&self, entries: &[RaftEntry]) -> Result<(), ReplicationError> {
        if entries.is_empty() {
            return Ok(());
        }
        let entries: Vec<LogEntry> = entries.iter().map(to_log_entry).collect();
        let mut g = self.0.write();
        g.gcache.append(&entries)?;
        g.gcache.sync()?;
        Ok(())
    }

    /// Records a new hard state; term and vote changes are saved durably at once.
    pub fn set_hard_state(&self, hs: &HardState) -> Result<(), ReplicationError> {
        let must_save = {
            let mut g = self.0.write();
            let s = &mut g.state;
            let changed = s.term != hs.term || s.vote != hs.vote;
            s.term = hs.term;
            s.vote = hs.vote;
            s.commit = s.commit.max(hs.commit);
            changed
        };
        if must_save {
            self.save_state()?;
        }
        Ok(())
    }

    /// Raises the remembered commit index (saved with the next state write).
    pub fn set_commit(&self, commit: u64) {
        let mut g = self.0.write();
        g.state.commit = g.state.commit.max(commit);
    }
}

/// The entry a bootstrapping node starts its log with: itself as the first voter.
pub fn first_member_entry(index: u64, me: &Member) -> RaftEntry {
    use protobuf::Message as _;
    let mut cc = raft::eraftpb::ConfChange::default();
    cc.set_change_type(raft::eraftpb::ConfChangeType::AddNode);
    cc.node_id = me.id;
    let mut e = RaftEntry::default();
    e.index = index;
    e.term = 1;
    e.set_entry_type(EntryType::EntryConfChange);
    e.data = cc.write_to_bytes().unwrap_or_default().into();
    e.context = me.encode().into();
    e
}

fn to_log_entry(e: &RaftEntry) -> LogEntry {
    LogEntry {
        index: e.index,
        term: e.term,
        kind: match e.get_entry_type() {
            EntryType::EntryNormal => EntryKind::Normal,
            EntryType::EntryConfChange => EntryKind::ConfChange,
            EntryType::EntryConfChangeV2 => EntryKind::ConfChangeV2,
        },
        data: e.data.to_vec(),
        context: e.context.to_vec(),
    }
}

/// The Raft form of a logged entry.
pub fn to_raft_entry(e: LogEntry) -> RaftEntry {
    let mut r = RaftEntry::default();
    r.index = e.index;
    r.term = e.term;
    r.set_entry_type(match e.kind {
        EntryKind::Normal => EntryType::EntryNormal,
        EntryKind::ConfChange => EntryType::EntryConfChange,
        EntryKind::ConfChangeV2 => EntryType::EntryConfChangeV2,
    });
    r.data = e.data.into();
    r.context = e.context.into();
    r
}

fn write_atomic(dir: &Path, name: &str, data: &[u8]) -> Result<(), ReplicationError> {
    let path = dir.join(name);
    tutti_vfs::write_atomic(&path, data, tutti_vfs::SyncPoint::RaftState)
        .map_err(|e| ReplicationError::Io(path.clone(), e))
}

fn store_err(e: GcacheError) -> raft::Error {
    match e {
        GcacheError::Compacted { .. } => raft::Error::Store(StorageError::Compacted),
        GcacheError::Unavailable { .. } => raft::Error::Store(StorageError::Unavailable),
        other => raft::Error::Store(StorageError::Other(Box::new(other))),
    }
}

impl raft::Storage for LogStore {
    fn initial_state(&self) -> raft::Result<RaftState> {
        let g = self.0.read();
        let mut hs = HardState::default();
        hs.term = g.state.term;
        hs.vote = g.state.vote;
        hs.commit = g.state.commit.min(g.gcache.last_index());
        Ok(RaftState {
            hard_state: hs,
            conf_state: g.state.conf_state(),
        })
    }

    fn entries(
        &self,
        low: u64,
        high: u64,
        max_size: impl Into<Option<u64>>,
        _context: GetEntriesContext,
    ) -> raft::Result<Vec<RaftEntry>> {
        let g = self.0.read();
        let entries = g
            .gcache
            .entries(low, high, max_size.into())
            .map_err(store_err)?;
        Ok(entries.into_iter().map(to_raft_entry).collect())
    }

    fn term(&self, idx: u64) -> raft::Result<u64> {
        self.0.read().gcache.term(idx).map_err(store_err)
    }

    fn first_index(&self) -> raft::Result<u64> {
        Ok(self.0.read().gcache.first_index())
    }

    fn last_index(&self) -> raft::Result<u64> {
        Ok(self.0.read().gcache.last_index())
    }

    fn snapshot(&self, _request_index: u64, to: u64) -> raft::Result<Snapshot> {
        // The history a node needs was purged: it needs a state transfer (SST), which is
        // not a Raft snapshot. Raft retries later; the core tells the node.
        let mut wanted = self.1.lock();
        if !wanted.contains(&to) {
            wanted.push(to);
        }
        Err(raft::Error::Store(
            StorageError::SnapshotTemporarilyUnavailable,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_detects_damage() {
        let mut s = ClusterState {
            term: 3,
            vote: 2,
            commit: 10,
            voters: vec![1, 2],
            learners: vec![3],
            left: true,
            conf_changes: 4,
            conf_index: 9,
            epoch: 2,
            ..Default::default()
        };
        s.members.insert(
            1,
            Member {
                id: 1,
                name: "a".into(),
                peer_addr: "x".into(),
                mysql_addr: "y".into(),
            },
        );
        let b = s.encode();
        assert_eq!(ClusterState::decode(&b).unwrap(), s);
        let mut bad = b.clone();
        bad[10] ^= 1;
        assert!(ClusterState::decode(&bad).is_err());
    }
}
