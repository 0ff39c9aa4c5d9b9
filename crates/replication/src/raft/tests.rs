//! The core against hostile or stale peer input: nothing a peer sends may reach a raft-rs
//! assertion.

use raft::eraftpb::{Message as RaftMessage, MessageType};
use std::time::Duration;
use tutti_gcache::{Gcache, GcacheOptions};

use super::core::{CoreConfig, RaftCore};
use super::log_store::LogStore;
use super::wire::{Member, PeerMsg};

fn fresh_core(dir: &std::path::Path, id: u64) -> RaftCore {
    let (gcache, _) = Gcache::open(
        &dir.join("gcache"),
        GcacheOptions {
            sync: false,
            ..Default::default()
        },
    )
    .unwrap();
    let (store, _) = LogStore::open(dir, gcache).unwrap();
    let cfg = CoreConfig {
        me: Member {
            id,
            name: "joiner".into(),
            peer_addr: "sim:1".into(),
            mysql_addr: String::new(),
        },
        election_tick: 10,
        heartbeat_tick: 2,
        cert_window: 100,
        seeds: vec!["sim:9".into()],
        tick: Duration::from_millis(100),
    };
    RaftCore::new(cfg, store, 0, &super::raft_logger()).unwrap()
}

fn heartbeat(to: u64, commit: u64) -> PeerMsg {
    let mut m = RaftMessage::default();
    m.set_msg_type(MessageType::MsgHeartbeat);
    m.from = 9;
    m.to = to;
    m.term = 5;
    m.commit = commit;
    PeerMsg::Raft {
        epoch: 0,
        msg: Box::new(m),
    }
}

#[test]
fn a_heartbeat_beyond_the_log_does_not_stop_a_new_node() {
    let dir = tempfile::tempdir().unwrap();
    let mut core = fresh_core(dir.path(), 7);
    // Meant for the identity that listened here before this node was rebuilt.
    core.step(9, heartbeat(3, 209));
    // Addressed to this node, claiming a commit index its empty log does not reach.
    core.step(9, heartbeat(7, 209));
    core.ready().unwrap();
    assert_eq!(core.commit_index(), 0);
    assert_eq!(core.last_index(), 0);
    // It follows the sender as leader all the same.
    assert_eq!(core.leader(), 9);
    assert_eq!(core.term(), 5);
}
