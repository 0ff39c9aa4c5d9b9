//! tutti's testkit: several nodes in one process over a simulated network, driven
//! deterministically.
//!
//! Each simulated node is the real thing minus sockets and threads: a real Raft core
//! ([`RaftCore`]) over a real gcache and Raft state on disk, a real SQLite database, and
//! the real applier function. The test owns the clock: [`Cluster::step`] delivers due
//! messages, ticks every node at a fixed rate, runs each node's Ready round and applies
//! what committed. The network is a queue that can drop (seeded pseudo-randomly), delay
//! and partition messages; a crash drops a node's in-memory state and everything in
//! flight to or from it; a restart reopens its datadir. Same seed, same run: no sleeps,
//! no wall clock.

pub mod fixtures;
pub mod sql;
pub mod workload;

use crossbeam_channel::Receiver;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tutti_gcache::GcacheOptions;
use tutti_replication::applier::{apply_batch, ApplierShared};
use tutti_replication::raft::{raft_logger, CoreConfig, Member, PeerMsg, RaftCore};
use tutti_replication::waiters::Outcome;
use tutti_replication::{open_log, ReplicationConfig};
use tutti_storage::{Durability, Storage};
use tutti_wsrep::{NodeId, Seqno, WriteSet};

/// Steps between two ticks of every node's clock.
pub const STEPS_PER_TICK: u64 = 4;
/// Election timeout in ticks.
pub const ELECTION_TICKS: usize = 10;

/// One simulated node.
pub struct SimNode {
    /// Its id.
    pub id: NodeId,
    /// Its datadir.
    pub dir: PathBuf,
    /// The Raft core; `None` while crashed.
    pub core: Option<RaftCore>,
    /// The database and applier state.
    pub shared: Arc<ApplierShared>,
}

impl SimNode {
    /// The database.
    pub fn storage(&self) -> &Arc<Storage> {
        &self.shared.storage
    }
    /// The seqno applied to the database.
    pub fn applied(&self) -> Seqno {
        self.shared.applied.get()
    }
    /// True while running.
    pub fn is_up(&self) -> bool {
        self.core.is_some()
    }
}

struct Envelope {
    at: u64,
    from: NodeId,
    to: NodeId,
    msg: PeerMsg,
}

/// The simulated network.
#[derive(Default)]
struct Net {
    queue: Vec<Envelope>,
    /// Directed links that lose everything.
    cut: HashSet<(NodeId, NodeId)>,
    /// Probability of losing a message, in thousandths.
    drop_per_mille: u64,
    /// Extra delay in steps, chosen uniformly in 0..=max.
    delay_max: u64,
}

/// A cluster of simulated nodes.
pub struct Cluster {
    /// The nodes by id (ids 1..=n).
    pub nodes: BTreeMap<NodeId, SimNode>,
    /// `evs.inactive_timeout` of every node, in ticks (default: never).
    pub inactive_ticks: u64,
    net: Net,
    rng: u64,
    now: u64,
    _base: tempfile::TempDir,
}

fn config_for(id: NodeId, dir: &Path, bootstrap: bool) -> ReplicationConfig {
    ReplicationConfig {
        me: member(id),
        datadir: dir.to_path_buf(),
        bootstrap,
        seeds: if bootstrap { vec![] } else { vec![addr(1)] },
        cert_window: 10_000,
        commit_timeout: Duration::from_secs(30),
        tick: Duration::from_millis(100),
        election_ticks: ELECTION_TICKS,
        heartbeat_ticks: 2,
        gcache: GcacheOptions {
            segment_bytes: 64 << 10,
            sync: false,
            ..Default::default()
        },
        options: Default::default(),
    }
}

fn addr(id: NodeId) -> String {
    format!("sim:{id}")
}

fn member(id: NodeId) -> Member {
    Member {
        id,
        name: format!("node{id}"),
        peer_addr: addr(id),
        mysql_addr: format!("sim-mysql:{id}"),
    }
}

fn open_node(id: NodeId, dir: &Path, bootstrap: bool, cluster: Option<&Storage>) -> SimNode {
    std::fs::create_dir_all(dir).expect("datadir");
    let storage = Arc::new(Storage::open(dir, Durability::Normal).expect("open storage"));
    if let Some(c) = cluster {
        if storage.cluster_uuid().is_nil() {
            storage.set_cluster_uuid(c.cluster_uuid()).expect("uuid");
        }
    }
    let config = config_for(id, dir, bootstrap);
    let store = open_log(&config, &storage).expect("open log");
    let applied = storage.applied();
    let core = RaftCore::new(
        CoreConfig {
            me: config.me.clone(),
            election_tick: config.election_ticks,
            heartbeat_tick: config.heartbeat_ticks,
            cert_window: config.cert_window,
            seeds: config.seeds.clone(),
            tick: config.tick,
        },
        store,
        applied,
        &raft_logger(),
    )
    .expect("raft core");
    SimNode {
        id,
        dir: dir.to_path_buf(),
        core: Some(core),
        shared: Arc::new(ApplierShared::new(id, storage)),
    }
}

impl Cluster {
    /// `n` nodes: node 1 bootstraps, the others join through it; returns once every node
    /// is a voter and has applied the whole log (panics after `max_steps`).
    pub fn new(n: u64, seed: u64) -> Cluster {
        let base = tempfile::tempdir().expect("tempdir");
        let mut nodes = BTreeMap::new();
        let first = open_node(1, &base.path().join("node1"), true, None);
        let uuid_holder = first.shared.storage.clone();
        nodes.insert(1, first);
        for id in 2..=n {
            let dir = base.path().join(format!("node{id}"));
            nodes.insert(id, open_node(id, &dir, false, Some(&uuid_holder)));
        }
        let mut c = Cluster {
            nodes,
            inactive_ticks: u64::MAX,
            net: Net::default(),
            rng: seed.max(1),
            now: 0,
            _base: base,
        };
        let all: Vec<NodeId> = (1..=n).collect();
        let formed = c.run_until(20_000, |c| {
            c.leader().is_some()
                && all
                    .iter()
                    .all(|id| c.voters(*id).len() == n as usize && c.caught_up(*id))
        });
        assert!(formed, "cluster of {n} did not form: {}", c.describe());
        c
    }

    fn random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// The node with this id.
    pub fn node(&self, id: NodeId) -> &SimNode {
        &self.nodes[&id]
    }

    fn core(&self, id: NodeId) -> Option<&RaftCore> {
        self.nodes.get(&id).and_then(|n| n.core.as_ref())
    }

    /// The voters as node `id` knows them.
    pub fn voters(&self, id: NodeId) -> Vec<NodeId> {
        self.core(id)
            .map(|c| c.store().state().voters)
            .unwrap_or_default()
    }

    /// True when there is a leader and every running node has applied all it committed.
    pub fn settled(&self) -> bool {
        let Some(l) = self.leader() else { return false };
        let commit = self.core(l).map(|c| c.commit_index()).unwrap_or(0);
        self.nodes
            .values()
            .filter(|n| n.is_up())
            .all(|n| n.applied() >= commit)
    }

    /// Steps until [`Cluster::settled`]; false after `max_steps`.
    pub fn settle(&mut self, max_steps: u64) -> bool {
        self.run_until(max_steps, |c| c.settled())
    }

    /// True when node `id` has applied everything it knows committed.
    pub fn caught_up(&self, id: NodeId) -> bool {
        self.core(id)
            .is_some_and(|c| self.node(id).applied() >= c.commit_index())
    }

    /// The running leader with the highest term, if any.
    pub fn leader(&self) -> Option<NodeId> {
        self.nodes
            .values()
            .filter_map(|n| n.core.as_ref().map(|c| (n.id, c)))
            .filter(|(_, c)| c.is_leader())
            .max_by_key(|(_, c)| c.term())
            .map(|(id, _)| id)
    }

    /// The commit index node `id` knows (0 while it is down).
    pub fn commit_index(&self, id: NodeId) -> Seqno {
        self.core(id).map(|c| c.commit_index()).unwrap_or(0)
    }

    /// True when node `id` is in a primary component.
    pub fn is_primary(&self, id: NodeId) -> bool {
        self.core(id).is_some_and(|c| c.is_primary())
    }

    /// Drops `per_mille` thousandths of all messages, and delays each by up to `max_steps`.
    pub fn set_faults(&mut self, per_mille: u64, max_steps: u64) {
        self.net.drop_per_mille = per_mille;
        self.net.delay_max = max_steps;
    }

    /// Cuts the network between the groups (messages inside a group still flow).
    pub fn partition(&mut self, groups: &[&[NodeId]]) {
        self.net.cut.clear();
        for (i, a) in groups.iter().enumerate() {
            for (j, b) in groups.iter().enumerate() {
                if i != j {
                    for x in a.iter() {
                        for y in b.iter() {
                            self.net.cut.insert((*x, *y));
                        }
                    }
                }
            }
        }
    }

    /// Restores every link.
    pub fn heal(&mut self) {
        self.net.cut.clear();
    }

    /// Kills a node: its in-memory state and its messages in flight are lost; its disk
    /// (gcache, Raft state, database) stays. The others see its connections close, as
    /// they would when its process dies (not when a link is cut: see [`Cluster::partition`]).
    pub fn crash(&mut self, id: NodeId) {
        let n = self.nodes.get_mut(&id).expect("node");
        n.core = None;
        n.shared
            .waiters
            .fail_all(tutti_wsrep::ReplicateError::Shutdown);
        self.net.queue.retain(|e| e.from != id && e.to != id);
        for other in self.nodes.values_mut() {
            if let Some(core) = other.core.as_mut() {
                core.peer_lost(id);
            }
        }
    }

    /// Restarts a crashed node from its datadir.
    pub fn restart(&mut self, id: NodeId) {
        let dir = self.nodes[&id].dir.clone();
        let old = self.nodes.remove(&id).expect("node");
        drop(old);
        self.nodes.insert(id, open_node(id, &dir, false, None));
    }

    /// Submits a write-set at node `id`; the receiver yields its outcome once the entry
    /// is applied there.
    pub fn submit(&mut self, id: NodeId, ws: WriteSet) -> Receiver<Outcome> {
        let n = self.nodes.get_mut(&id).expect("node");
        let rx = n.shared.waiters.register(ws.trx_id);
        if let Some(core) = n.core.as_mut() {
            core.submit(ws, 100_000);
        }
        rx
    }

    /// One step of simulated time.
    pub fn step(&mut self) {
        self.now += 1;
        let now = self.now;
        let (due, later): (Vec<Envelope>, Vec<Envelope>) = std::mem::take(&mut self.net.queue)
            .into_iter()
            .partition(|e| e.at <= now);
        self.net.queue = later;
        for e in due {
            if let Some(core) = self.nodes.get_mut(&e.to).and_then(|n| n.core.as_mut()) {
                core.learn_addr(e.from, addr(e.from));
                core.step(e.from, e.msg);
            }
        }
        let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
        for id in ids {
            self.round(id, now.is_multiple_of(STEPS_PER_TICK));
        }
    }

    fn round(&mut self, id: NodeId, tick: bool) {
        let n = self.nodes.get_mut(&id).expect("node");
        let Some(core) = n.core.as_mut() else { return };
        core.inactive_ticks = self.inactive_ticks;
        if tick {
            core.tick();
        }
        core.local.applied = n.shared.applied.get();
        let out = core.ready().expect("raft round");
        if !out.committed.is_empty() {
            apply_batch(&n.shared, &out.committed);
        }
        for (to, msg) in out.messages {
            let to_id = if to.id != 0 {
                to.id
            } else {
                to.peer_addr
                    .strip_prefix("sim:")
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0)
            };
            self.send(id, to_id, msg);
        }
    }

    fn send(&mut self, from: NodeId, to: NodeId, msg: PeerMsg) {
        if self.net.cut.contains(&(from, to)) || !self.nodes.contains_key(&to) {
            return;
        }
        if self.net.drop_per_mille > 0 && self.random() % 1000 < self.net.drop_per_mille {
            return;
        }
        let delay = if self.net.delay_max > 0 {
            self.random() % (self.net.delay_max + 1)
        } else {
            0
        };
        self.net.queue.push(Envelope {
            at: self.now + 1 + delay,
            from,
            to,
            msg,
        });
    }

    /// One line per node: role, term, voters, commit and applied (for failure messages).
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for n in self.nodes.values() {
            match &n.core {
                Some(c) => out.push_str(&format!(
                    "\n  node {}: leader {} term {} primary {} voters {:?} learners {:?} commit {} last {} applied {}",
                    n.id,
                    c.leader(),
                    c.term(),
                    c.is_primary(),
                    c.store().state().voters,
                    c.store().state().learners,
                    c.commit_index(),
                    c.last_index(),
                    n.applied()
                )),
                None => out.push_str(&format!("\n  node {}: down", n.id)),
            }
        }
        out
    }

    /// Steps until `done` holds (true) or `max_steps` have passed (false).
    pub fn run_until(&mut self, max_steps: u64, done: impl Fn(&Cluster) -> bool) -> bool {
        for _ in 0..max_steps {
            if done(self) {
                return true;
            }
            self.step();
        }
        done(self)
    }

    /// Steps `n` times.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    /// The rows of a table on a node, as text, in key order (for comparing nodes).
    pub fn dump(&self, id: NodeId, table: &str) -> Vec<String> {
        let r = self.node(id).storage().reader().expect("reader");
        let mut st = r
            .prepare(&format!("SELECT * FROM \"{table}\" ORDER BY 1"))
            .expect("dump");
        let cols = st.column_count();
        let rows = st
            .query_map([], |row| {
                let mut s = Vec::new();
                for i in 0..cols {
                    let v: rusqlite::types::Value = row.get(i)?;
                    s.push(format!("{v:?}"));
                }
                Ok(s.join("|"))
            })
            .expect("query");
        rows.map(|r| r.expect("row")).collect()
    }
}
