//! The session executor: runs MySQL sessions against SQLite and turns their transactions
//! into write-sets.
//!
//! A [`Session`] is one client connection. Statements are translated by `tutti-sql`;
//! reads run on pooled reader connections (a read-only transaction keeps one snapshot);
//! writes are *captured*: on the shared writer connection, inside a SQLite transaction that
//! is always rolled back, the MySQL transaction's changes so far are re-applied, the
//! statement runs with a SQLite session attached, and the resulting changeset (the whole
//! transaction so far) is kept. The writer is held for one statement only. At COMMIT the
//! changeset and its certification keys go to the [`Provider`] (replication), which orders,
//! certifies and applies it; the client's COMMIT returns once it is applied here.
//!
//! Local transactions lock the rows they change ([`locks`]) so that, as in InnoDB, a
//! second writer of the same row waits instead of failing; write-sets from the cluster
//! BF-abort conflicting local transactions (error 1213), as Galera does.
//!
//! The executor is synchronous: callers run it on blocking threads.

pub mod catalog;
mod column_def;
mod create_like;
mod create_select;
mod diagnostics;
mod error;
pub mod keys;
pub mod locks;
mod matched;
mod named;
mod reads;
mod result;
mod session;
mod set;
mod show;
mod show_table;
mod sql_mode;
mod sqlite;
mod temporary;
mod txn;
pub mod vars;

pub use error::ExecError;
pub use result::{flags, Column, ColumnKind, OkInfo, Origin, Response, ResultSet, TableColumnDef};
pub use session::{PreparedInfo, Session};
/// MariaDB's text of a FLOAT or DOUBLE value (for the wire).
pub use tutti_storage::real_text;

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use tutti_storage::Storage;
use tutti_wsrep::{Action, ApplyObserver, NodeId, Provider, Seqno, TrxId, Value, WriteSet};

/// Settings the executor shows or enforces.
#[derive(Clone, Debug)]
pub struct ExecutorConfig {
    /// `@@version`.
    pub version: String,
    /// Global variable values that differ from the defaults (name, value).
    pub globals: Vec<(String, Value)>,
}

/// Server-wide counters for SHOW STATUS.
#[derive(Default, Debug)]
pub struct ServerStats {
    /// Statements executed (`Questions`).
    pub questions: AtomicU64,
    /// Connections accepted (`Connections`).
    pub connections: AtomicU64,
    /// Per-command counters (`Com_select`, ...).
    pub com_select: AtomicU64,
    /// `Com_insert`.
    pub com_insert: AtomicU64,
    /// `Com_update`.
    pub com_update: AtomicU64,
    /// `Com_delete`.
    pub com_delete: AtomicU64,
    /// `Com_commit`.
    pub com_commit: AtomicU64,
    /// `Com_rollback`.
    pub com_rollback: AtomicU64,
    /// Statements running now (`Threads_running`).
    pub running: AtomicU64,
}

/// What other sessions can see of a session (SHOW PROCESSLIST, KILL).
pub struct SessionInfo {
    /// Connection id.
    pub id: u32,
    /// User name.
    pub user: String,
    /// Client host.
    pub host: String,
    /// Current database.
    pub db: Mutex<Option<String>>,
    /// The statement running, if any, and since when.
    pub running: Mutex<Option<(String, Instant)>>,
    /// KILL CONNECTION was issued.
    pub killed: AtomicBool,
    /// Interrupts the SQLite statement in progress (KILL QUERY).
    pub interrupt: Mutex<Option<rusqlite::InterruptHandle>>,
    /// When the connection began.
    pub since: Instant,
}

/// The executor of one node, shared by all its sessions.
pub struct Executor {
    storage: Arc<Storage>,
    provider: Arc<dyn Provider>,
    locks: locks::LockManager,
    catalog: catalog::Catalog,
    globals: vars::Globals,
    config: ExecutorConfig,
    sessions: Mutex<HashMap<u32, Arc<SessionInfo>>>,
    next_conn: AtomicU32,
    next_trx: AtomicU64,
    started: Instant,
    /// Server-wide counters.
    pub stats: ServerStats,
}

struct BfHook {
    node: NodeId,
    exec: std::sync::Weak<Executor>,
}

impl ApplyObserver for BfHook {
    fn before_apply(&self, batch: &[(Seqno, &WriteSet)]) -> usize {
        let Some(exec) = self.exec.upgrade() else {
            return 0;
        };
        let mut victims = 0;
        for (seqno, ws) in batch {
            exec.locks
                .record_ordered(*seqno, &ws.keys, matches!(ws.action, Action::Ddl(_)));
            let except = (ws.origin == self.node).then_some(ws.trx_id);
            let v = match &ws.action {
                Action::Ddl(_) => exec.locks.bf_abort(&[], &[], &ws.keys.tables, except),
                Action::Rows(_) => {
                    exec.locks
                        .bf_abort(&ws.keys.exclusive, &ws.keys.shared, &[], except)
                }
            };
            if !v.is_empty() {
                tracing::debug!(
                    "BF abort of local transactions {v:?} by seqno of trx {}",
                    ws.trx_id
                );
            }
            victims += v.len();
        }
        victims
    }
}

impl Executor {
    /// Creates the executor and registers its BF-abort hook with the provider.
    pub fn new(
        storage: Arc<Storage>,
        provider: Arc<dyn Provider>,
        config: ExecutorConfig,
    ) -> Arc<Executor> {
        let initial: Vec<(&str, Value)> = config
            .globals
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect();
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_micros() as u64;
        let exec = Arc::new(Executor {
            storage,
            locks: locks::LockManager::default(),
            catalog: catalog::Catalog::default(),
            globals: vars::Globals::new(&initial),
            config,
            sessions: Mutex::new(HashMap::new()),
            next_conn: AtomicU32::new(1),
            // Unique across restarts of this node: time-based start.
            next_trx: AtomicU64::new(seed),
            started: Instant::now(),
            stats: ServerStats::default(),
            provider: provider.clone(),
        });
        provider.set_observer(Arc::new(BfHook {
            node: provider.node_id(),
            exec: Arc::downgrade(&exec),
        }));
        exec
    }

    /// Allocates a connection id (announced in the handshake, then used by the session).
    pub fn connection_id(&self) -> u32 {
        self.next_conn.fetch_add(1, Relaxed)
    }

    /// Opens a session for an authenticated client.
    pub fn session(self: &Arc<Self>, id: u32, user: &str, host: &str) -> Session {
        self.stats.connections.fetch_add(1, Relaxed);
        let info = Arc::new(SessionInfo {
            id,
            user: user.into(),
            host: host.into(),
            db: Mutex::new(None),
            running: Mutex::new(None),
            killed: AtomicBool::new(false),
            interrupt: Mutex::new(None),
            since: Instant::now(),
        });
        self.sessions.lock().insert(id, info.clone());
        Session::new(self.clone(), info)
    }

    /// The storage.
    pub fn storage(&self) -> &Arc<Storage> {
        &self.storage
    }

    /// The provider.
    pub fn provider(&self) -> &Arc<dyn Provider> {
        &self.provider
    }

    /// `@@version`.
    pub fn version(&self) -> &str {
        &self.config.version
    }

    /// A global variable's value.
    pub fn global(&self, name: &str) -> Option<Value> {
        self.globals.get(vars::canonical(name))
    }

    /// Connected sessions.
    pub fn connected(&self) -> usize {
        self.sessions.lock().len()
    }

    /// Seconds since start.
    pub fn uptime(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    fn new_trx(&self) -> TrxId {
        self.next_trx.fetch_add(1, Relaxed)
    }

    fn unregister(&self, id: u32) {
        self.sessions.lock().remove(&id);
    }

    fn session_info(&self, id: u32) -> Option<Arc<SessionInfo>> {
        self.sessions.lock().get(&id).cloned()
    }

    fn all_sessions(&self) -> Vec<Arc<SessionInfo>> {
        let mut v: Vec<_> = self.sessions.lock().values().cloned().collect();
        v.sort_by_key(|s| s.id);
        v
    }
}

#[cfg(test)]
mod tests;
