//! tutti's testkit: several nodes in one process over a simulated network, driven
//! deterministically.
//!
//! Each simulated node is the real thing minus sockets and threads: a real Raft core
//! ([`RaftCore`]) over a real gcache and Raft state on disk, a real SQLite database, and
//! the real applier function. The test owns the clock: [`Cluster::step`] delivers due
//! messages, ticks every node at a fixed rate, runs each node's Ready round and applies
//! what committed. The network is a queue that can drop (seeded pseudo-randomly), delay
//! and partition messages; a crash drops a node's in-memory state and everything in
//! flight to or from it; a restart reopens its datadir. No sleeps, no wall clock; the
//! seed decides the network's losses and delays, but not everything: raft-rs draws each
//! node's randomized election timeout from its own thread-local generator, so the same
//! seed can give another run when an election is involved (rerun a failing seed a few
//! times).
//!
//! Fault scenarios run over a sweep of seeds ([`seeds::for_each_seed`]: `TUTTI_SEED=x`
//! reruns one, `TUTTI_SEEDS=n` runs more), and end with
//! [`Cluster::assert_no_duplicate_writesets`]: every write-set, identified by (origin,
//! trx id), is in each node's committed log at most once, however often its origin
//! re-sent it across leader changes and lost messages ([`duplicate_writesets`] is the
//! check itself, on any list of log entries).

pub mod fixtures;
pub mod seeds;
pub mod sql;
pub mod workload;

use crossbeam_channel::Receiver;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tutti_gcache::{EntryKind, GcacheOptions, LogEntry};
use tutti_replication::applier::{apply_batch, ApplierShared};
use tutti_replication::certification::Verdict;
use tutti_replication::entry::Entry;
use tutti_replication::raft::{raft_logger, CoreConfig, Member, PeerMsg, RaftCore};
use tutti_replication::waiters::Outcome;
use tutti_replication::{open_log, ReplicationConfig};
use tutti_storage::{Durability, Storage};
use tutti_wsrep::{NodeId, Seqno, TrxId, WriteSet};

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
    /// Nodes whose Raft thread is stuck (a slow fsync) until the given step: their
    /// messages wait for them, and only their transport's keepalives go out.
    stalled: HashMap<NodeId, u64>,
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
    /// Every node's certification (and de-duplication) window.
    cert_window: usize,
    _base: tempfile::TempDir,
}

/// The certification window of simulated nodes.
const CERT_WINDOW: usize = 10_000;

fn config_for(id: NodeId, dir: &Path, bootstrap: bool, cert_window: usize) -> ReplicationConfig {
    ReplicationConfig {
        me: member(id),
        datadir: dir.to_path_buf(),
        bootstrap,
        seeds: if bootstrap { vec![] } else { vec![addr(1)] },
        cert_window,
        commit_timeout: Duration::from_secs(30),
        tick: Duration::from_millis(100),
        election_ticks: ELECTION_TICKS,
        heartbeat_ticks: 2,
        gcache: GcacheOptions {
            segment_bytes: 64 << 10,
            // Real fsyncs only cost time here; under a simulated disk they cost nothing
            // and power-loss tests need them.
            sync: tutti_vfs::power_loss::installed(dir),
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

fn open_node(
    id: NodeId,
    dir: &Path,
    bootstrap: bool,
    cluster: Option<&Storage>,
    cert_window: usize,
) -> SimNode {
    std::fs::create_dir_all(dir).expect("datadir");
    let storage = Arc::new(Storage::open(dir, Durability::Normal).expect("open storage"));
    if let Some(c) = cluster {
        if storage.cluster_uuid().is_nil() {
            storage.set_cluster_uuid(c.cluster_uuid()).expect("uuid");
        }
    }
    let config = config_for(id, dir, bootstrap, cert_window);
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

/// A well-spread, non-zero xorshift state from any seed (neighbouring seeds give
/// unrelated runs).
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) | 1
}

/// A write-set found more than once in one log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// Its origin node.
    pub origin: NodeId,
    /// Its transaction id on the origin.
    pub trx_id: TrxId,
    /// Every index it is at, with whether its verdict there was pass.
    pub at: Vec<(Seqno, bool)>,
}

/// The write-sets in `entries`, in log order: (seqno, origin, trx id, verdict is pass).
/// Panics on an entry that does not decode.
pub fn logged_writesets(entries: &[LogEntry]) -> Vec<(Seqno, NodeId, TrxId, bool)> {
    entries
        .iter()
        .filter(|e| e.kind == EntryKind::Normal && !e.data.is_empty())
        .filter_map(|e| {
            match Entry::decode(&e.data)
                .unwrap_or_else(|err| panic!("log entry {} does not decode: {err}", e.index))
            {
                Entry::WriteSet { verdict, ws } => {
                    Some((e.index, ws.origin, ws.trx_id, verdict == Verdict::Pass))
                }
                _ => None,
            }
        })
        .collect()
}

/// The write-sets that appear more than once in `entries` (by (origin, trx id), whatever
/// their verdicts), in order of first appearance; empty when each appears once.
pub fn duplicate_writesets(entries: &[LogEntry]) -> Vec<Duplicate> {
    let mut seen: BTreeMap<(NodeId, TrxId), Vec<(Seqno, bool)>> = BTreeMap::new();
    let mut order = Vec::new();
    for (index, origin, trx_id, passed) in logged_writesets(entries) {
        let at = seen.entry((origin, trx_id)).or_default();
        if at.is_empty() {
            order.push((origin, trx_id));
        }
        at.push((index, passed));
    }
    order
        .into_iter()
        .filter_map(|(origin, trx_id)| {
            let at = seen.remove(&(origin, trx_id))?;
            (at.len() > 1).then_some(Duplicate { origin, trx_id, at })
        })
        .collect()
}

impl Cluster {
    /// `n` nodes: node 1 bootstraps, the others join through it; returns once every node
    /// is a voter and has applied the whole log (panics after `max_steps`).
    pub fn new(n: u64, seed: u64) -> Cluster {
        Cluster::with_cert_window(n, seed, CERT_WINDOW)
    }

    /// [`Cluster::new`] with another certification window (a write-set the leader ordered
    /// more than `cert_window` write-sets ago is no longer recognised when re-sent).
    fn with_cert_window(n: u64, seed: u64, cert_window: usize) -> Cluster {
        let base = tempfile::tempdir().expect("tempdir");
        let mut nodes = BTreeMap::new();
        let first = open_node(1, &base.path().join("node1"), true, None, cert_window);
        let uuid_holder = first.shared.storage.clone();
        nodes.insert(1, first);
        for id in 2..=n {
            let dir = base.path().join(format!("node{id}"));
            nodes.insert(
                id,
                open_node(id, &dir, false, Some(&uuid_holder), cert_window),
            );
        }
        let mut c = Cluster {
            nodes,
            inactive_ticks: u64::MAX,
            net: Net::default(),
            rng: mix(seed),
            now: 0,
            cert_window,
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

    /// Why the cluster refused node `id`'s join, if it did.
    pub fn join_refused(&self, id: NodeId) -> Option<String> {
        self.core(id)
            .and_then(|c| c.join_refused().map(str::to_string))
    }

    /// True while node `id` leads (in whatever configuration it holds).
    pub fn is_leader(&self, id: NodeId) -> bool {
        self.core(id).is_some_and(|c| c.is_leader())
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
        let node = open_node(id, &dir, false, None, self.cert_window);
        self.nodes.insert(id, node);
    }

    /// Stalls node `id`'s Raft thread for `steps` steps, as a slow fsync does: it neither
    /// ticks nor handles messages (they queue for it), while its transport still sends
    /// keepalives on its idle connections.
    pub fn stall(&mut self, id: NodeId, steps: u64) {
        self.net.stalled.insert(id, self.now + steps);
    }

    fn is_stalled(&self, id: NodeId) -> bool {
        self.net
            .stalled
            .get(&id)
            .is_some_and(|until| self.now < *until)
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
        let stalled: HashSet<NodeId> = self
            .nodes
            .keys()
            .copied()
            .filter(|id| self.is_stalled(*id))
            .collect();
        let (due, later): (Vec<Envelope>, Vec<Envelope>) = std::mem::take(&mut self.net.queue)
            .into_iter()
            .partition(|e| e.at <= now && !stalled.contains(&e.to));
        self.net.queue = later;
        for e in due {
            if let Some(core) = self.nodes.get_mut(&e.to).and_then(|n| n.core.as_mut()) {
                core.learn_addr(e.from, addr(e.from));
                core.step(e.from, e.msg);
            }
        }
        let tick = now.is_multiple_of(STEPS_PER_TICK);
        let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
        for id in ids {
            if !stalled.contains(&id) {
                self.round(id, tick);
            } else if tick {
                self.keepalive(id);
            }
        }
    }

    /// A stalled node's transport tells the nodes it reaches that it is alive.
    fn keepalive(&mut self, from: NodeId) {
        for (id, n) in self.nodes.iter_mut() {
            if *id == from || self.net.cut.contains(&(from, *id)) {
                continue;
            }
            if let Some(core) = n.core.as_mut() {
                core.peer_alive(from);
            }
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

    /// The committed part of node `id`'s log that its gcache holds (empty while it is down).
    pub fn committed_log(&self, id: NodeId) -> Vec<LogEntry> {
        let Some(core) = self.core(id) else {
            return Vec::new();
        };
        let g = core.store().0.read();
        let (first, commit) = (g.gcache.first_index(), core.commit_index());
        if commit < first {
            return Vec::new();
        }
        g.gcache
            .entries(first, commit + 1, None)
            .unwrap_or_else(|e| panic!("node {id}: reading log {first}..={commit}: {e}"))
    }

    /// Asserts that no write-set (origin, trx id) is more than once in any running node's
    /// committed log (a re-sent write-set ordered twice); returns the most write-set
    /// entries one node's log held, so a caller can check the check saw its writes.
    pub fn assert_no_duplicate_writesets(&self) -> usize {
        let mut most = 0;
        for id in self.nodes.keys() {
            let log = self.committed_log(*id);
            let dups = duplicate_writesets(&log);
            assert!(
                dups.is_empty(),
                "node {id}: write-sets ordered more than once (origin, trx: [(seqno, passed)]): {}{}",
                dups.iter()
                    .map(|d| format!("({}, {}): {:?}", d.origin, d.trx_id, d.at))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.describe()
            );
            most = most.max(logged_writesets(&log).len());
        }
        most
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

#[cfg(test)]
mod tests {
    use super::*;
    use tutti_wsrep::{Action, CertKeys};

    fn logged(index: Seqno, verdict: Verdict, origin: NodeId, trx_id: TrxId) -> LogEntry {
        let ws = WriteSet {
            origin,
            trx_id,
            last_seen: 0,
            keys: CertKeys::default(),
            action: Action::Rows(vec![1, 2, 3]),
        };
        LogEntry {
            index,
            term: 1,
            kind: EntryKind::Normal,
            data: Entry::certified(verdict, ws).encode(),
            context: Vec::new(),
        }
    }

    fn noop(index: Seqno) -> LogEntry {
        LogEntry {
            index,
            term: 1,
            kind: EntryKind::Normal,
            data: Entry::Noop.encode(),
            context: Vec::new(),
        }
    }

    #[test]
    fn a_write_set_ordered_twice_is_found() {
        let mut log = vec![
            noop(1),
            logged(2, Verdict::Pass, 1, 7),
            logged(3, Verdict::Pass, 2, 7), // same trx id, other origin: another write-set
            logged(4, Verdict::Fail, 3, 9),
        ];
        assert_eq!(duplicate_writesets(&log), []);
        assert_eq!(logged_writesets(&log).len(), 3);
        // The re-sent twin, ordered again (its verdict does not matter: it is still a
        // second entry for the same transaction).
        log.push(logged(5, Verdict::Fail, 1, 7));
        log.push(logged(6, Verdict::Pass, 3, 9));
        assert_eq!(
            duplicate_writesets(&log),
            [
                Duplicate {
                    origin: 1,
                    trx_id: 7,
                    at: vec![(2, true), (5, false)]
                },
                Duplicate {
                    origin: 3,
                    trx_id: 9,
                    at: vec![(4, false), (6, true)]
                },
            ]
        );
    }

    #[test]
    fn the_cluster_check_reads_every_committed_write_set() {
        let mut c = Cluster::new(3, 1);
        fixtures::schema(&mut c);
        for i in 0..5u64 {
            let ws = fixtures::insert(&c, 1 + i % 3, 100 + i, i);
            let rx = c.submit(1 + i % 3, ws);
            assert!(fixtures::wait(&mut c, &rx).is_ok());
        }
        assert!(c.settle(5000));
        // Two schema write-sets and five inserts, on every node.
        assert_eq!(c.assert_no_duplicate_writesets(), 7);
        for id in 1..=3 {
            assert_eq!(logged_writesets(&c.committed_log(id)).len(), 7, "node {id}");
        }
    }

    #[test]
    #[should_panic(expected = "node 1: write-sets ordered more than once \
                               (origin, trx: [(seqno, passed)]): (1, 100)")]
    fn the_cluster_check_fails_on_a_write_set_ordered_twice() {
        // A window of 4: the leader forgets it ordered a write-set 4 write-sets later.
        let mut c = Cluster::with_cert_window(3, 1, 4);
        fixtures::schema(&mut c);
        let ws = fixtures::insert(&c, 1, 100, 1);
        let rx = c.submit(1, ws.clone());
        assert!(fixtures::wait(&mut c, &rx).is_ok());
        for i in 0..5u64 {
            let next = fixtures::insert(&c, 2, 200 + i, 10 + i);
            let rx = c.submit(2, next);
            assert!(fixtures::wait(&mut c, &rx).is_ok());
        }
        assert!(c.settle(5000));
        assert_eq!(c.assert_no_duplicate_writesets(), 8);
        // Re-sent now, the write-set is ordered a second time.
        let rx = c.submit(1, ws);
        let _ = fixtures::wait(&mut c, &rx);
        assert!(c.settle(5000));
        c.assert_no_duplicate_writesets();
    }
}
