//! Storage: one SQLite database (WAL mode) per node, holding every MySQL database.
//!
//! Invariants:
//! - User data changes only through [`Storage::apply`], which applies write-sets in seqno
//!   order, many per SQLite transaction, and writes the last applied seqno *in the same
//!   transaction*: a crash can never separate the data from its position.
//! - One writer connection, shared by the applier and the session executor; the executor
//!   holds it for one statement at a time and always rolls back (it only *captures*
//!   changes). Read-only statements run on pooled reader connections, concurrently.
//! - MySQL table `db.t` is the SQLite table `"db.t"`; system tables (`tutti_*`) have no dot
//!   in their name, so no user statement can reach them.
//! - [`Storage::durable_applied`] never exceeds what SQLite has fsynced ([`durable`]):
//!   history may only be thrown away below it.

mod apply;
mod autoinc;
mod changeset;
pub mod durable;
mod error;
mod functions;
mod pool;
mod session;
mod system;

pub use apply::{ApplyItem, ApplyOp, BatchResult, Outcome};
pub use autoinc::{AutoInc, IdPlan, Reserve};
pub use changeset::{apply_changeset, ChangesetConflict};
pub use error::StorageError;
pub use functions::{
    big_unsigned_value, clear_assigned, clear_conditions, clear_offered, clear_row_changed, raise,
    real_text, release_all_locks, session_in_utc, set_current_connection, set_function_settings,
    take_assigned, take_conditions, take_offered, take_row_changed, temporal_default,
    timestamp_in_session, warn, Assigned, Condition, FunctionSettings, Level, TimeZone,
    DATA_TOO_LONG, DATA_TRUNCATED, DUPLICATE_ENTRY, INCORRECT_LITERAL, INCORRECT_TEMPORAL,
    INCORRECT_VALUE, LIMIT_NEGATIVE, LIMIT_NOT_INTEGER, MAX_KEPT, OUT_OF_RANGE,
    TRUNCATED_INCORRECT, WAIT_ON_WRITER,
};
pub use pool::Reader;
pub use session::Session;

use parking_lot::{Mutex, MutexGuard};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tutti_wsrep::{ClusterUuid, Seqno};

/// The database file inside a node's datadir.
pub const DB_FILE: &str = "tutti.db";

/// How hard SQLite pushes applied transactions to disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// fsync on every applied batch (`synchronous=FULL`): needed when nothing else keeps
    /// the history, as for a node without a replicated log.
    Full,
    /// fsync at checkpoints only (`synchronous=NORMAL`): safe when the replicated log is
    /// fsynced and replays whatever a power loss takes from SQLite.
    Normal,
}

/// A node's SQLite database.
pub struct Storage {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Arc<pool::Pool>,
    applied: AtomicU64,
    durable: durable::Durable,
    cluster: Mutex<ClusterUuid>,
    autoinc: Arc<AutoInc>,
    schema_epoch: AtomicU64,
    fk_actions: std::sync::atomic::AtomicBool,
}

impl Storage {
    /// Opens (creating if needed) the database in `datadir`.
    pub fn open(datadir: &Path, durability: Durability) -> Result<Storage, StorageError> {
        let path = datadir.join(DB_FILE);
        let mut writer = open_connection(&path)?;
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        let mode: String = writer.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StorageError::Corrupt(format!(
                "cannot enable WAL mode (got {mode})"
            )));
        }
        writer.execute_batch(&format!(
            "PRAGMA synchronous={sync}; PRAGMA foreign_keys=ON; PRAGMA recursive_triggers=ON;"
        ))?;
        system::create(&writer)?;
        let state = system::load(&writer)?;
        let durable = durable::Durable::install(&mut writer, durability, state.seqno)?;
        let autoinc = Arc::new(AutoInc::default());
        let fk_actions = apply::has_fk_actions(&writer)?;
        functions::register_writer(&writer, autoinc.clone())?;
        Ok(Storage {
            readers: Arc::new(pool::Pool::new(path.clone())),
            path,
            writer: Mutex::new(writer),
            applied: AtomicU64::new(state.seqno),
            durable,
            cluster: Mutex::new(state.cluster),
            autoinc,
            schema_epoch: AtomicU64::new(1),
            fk_actions: fk_actions.into(),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The seqno of the last applied write-set (`wsrep_last_committed`).
    pub fn applied(&self) -> Seqno {
        self.applied.load(Ordering::Acquire)
    }

    /// The seqno of the last applied write-set known to survive a power loss (what SQLite
    /// has fsynced; see [`durable`]). Purging history must never go beyond it.
    pub fn durable_applied(&self) -> Seqno {
        self.durable.get(self.applied())
    }

    /// Test-only switch: when on, [`Storage::durable_applied`] reports the applied seqno
    /// (as if every commit were fsynced), so a power-loss test can show what that breaks.
    #[doc(hidden)]
    pub fn assume_applied_is_durable(&self, on: bool) {
        self.durable.trust_applied(on);
    }

    /// The cluster this database's history belongs to (nil before the first join).
    pub fn cluster_uuid(&self) -> ClusterUuid {
        *self.cluster.lock()
    }

    /// Records the cluster uuid (at bootstrap, or when a fresh node first joins).
    pub fn set_cluster_uuid(&self, uuid: ClusterUuid) -> Result<(), StorageError> {
        let w = self.writer.lock();
        system::set_cluster_uuid(&w, uuid)?;
        *self.cluster.lock() = uuid;
        Ok(())
    }

    /// The writer connection, held for one statement (executor) or one batch (applier).
    pub fn writer(&self) -> MutexGuard<'_, Connection> {
        self.writer.lock()
    }

    /// A reader connection from the pool (returned when dropped).
    pub fn reader(&self) -> Result<Reader, StorageError> {
        self.readers.get(self.schema_epoch())
    }

    /// A connection of one session's own, for its temporary tables: the database is
    /// read-only through it (everything replicated is written on the writer), SQLite's
    /// `temp` schema is writable, and `tutti_autoinc()` has the returned state of its own.
    pub fn session_connection(&self) -> Result<(Connection, Arc<AutoInc>), StorageError> {
        use rusqlite::OpenFlags;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = open_connection_with(&self.path, flags)?;
        let autoinc = Arc::new(AutoInc::default());
        autoinc::register(&conn, autoinc.clone())?;
        Ok((conn, autoinc))
    }

    /// The state of the `tutti_autoinc()` SQL function on the writer connection.
    pub fn autoinc(&self) -> &AutoInc {
        &self.autoinc
    }

    /// Applies a batch of ordered items in one transaction; see [`apply`](mod@apply).
    pub fn apply(&self, items: &[ApplyItem<'_>]) -> Result<BatchResult, StorageError> {
        let w = self.writer.lock();
        let mut fk_actions = self.fk_actions();
        let result = apply::apply_batch(&w, self.applied(), items, &mut fk_actions, &self.autoinc)?;
        self.fk_actions.store(fk_actions, Ordering::Release);
        self.applied.store(result.applied, Ordering::Release);
        self.durable.after_commit(&w, result.applied);
        if result.schema_changed {
            // SQLite does not re-prepare every stale statement (see `pool`).
            w.flush_prepared_statement_cache();
            self.schema_epoch.fetch_add(1, Ordering::AcqRel);
        }
        Ok(result)
    }

    /// Whether some foreign key has an action (CASCADE, SET NULL, SET DEFAULT): then
    /// changesets must be applied without firing them again (see [`apply_changeset`]).
    pub fn fk_actions(&self) -> bool {
        self.fk_actions.load(Ordering::Acquire)
    }

    /// Changes whenever a schema change is applied: cached table metadata keyed by an
    /// older epoch is stale.
    pub fn schema_epoch(&self) -> u64 {
        self.schema_epoch.load(Ordering::Acquire)
    }

    /// `PRAGMA integrity_check` on the whole file.
    pub fn integrity_check(&self) -> Result<(), StorageError> {
        let w = self.writer.lock();
        let mut stmt = w.prepare("PRAGMA integrity_check")?;
        let problems: Vec<String> = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<_, _>>()?;
        if problems.len() == 1 && problems[0] == "ok" {
            Ok(())
        } else {
            Err(StorageError::Corrupt(problems.join("; ")))
        }
    }

    /// A database's default collation (None: the server's, `utf8mb4_general_ci`).
    pub fn database_collation(&self, name: &str) -> Result<Option<String>, StorageError> {
        let r = self.reader()?;
        Ok(system::database_collation(&r, name)?)
    }

    /// Names of all MySQL databases, sorted.
    pub fn databases(&self) -> Result<Vec<String>, StorageError> {
        let r = self.reader()?;
        system::databases(&r)
    }
}

/// Runs a statement through the connection's prepared-statement cache (no re-parsing):
/// for the transaction-control statements of hot paths.
pub fn run_cached(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.raw_execute().map(|_| ())
}

/// The seqno of the state the connection's read transaction sees (starting the read
/// transaction's snapshot if it has not started yet): a read view's position in the order.
pub fn snapshot_seqno(conn: &Connection) -> Result<Seqno, StorageError> {
    system::seqno(conn)
}

/// Unresolved foreign-key violations of the connection's transaction. tutti declares
/// foreign keys `DEFERRABLE INITIALLY DEFERRED` (so a changeset can list a child before
/// its parent) and checks this counter after every statement and every applied
/// changeset, instead of toggling `PRAGMA defer_foreign_keys` (a flag pragma, which would
/// expire every prepared statement of the connection).
pub fn deferred_fk_violations(conn: &Connection) -> i32 {
    let (mut cur, mut hi) = (0, 0);
    // SAFETY: reads a counter of the connection we borrow.
    unsafe {
        rusqlite::ffi::sqlite3_db_status(
            conn.handle(),
            rusqlite::ffi::SQLITE_DBSTATUS_DEFERRED_FKS,
            &mut cur,
            &mut hi,
            0,
        )
    };
    cur
}

/// Registers tutti's MySQL functions and collations on a connection (every connection
/// storage opens has them; for tests of the SQL front-end on a bare SQLite).
pub fn register_sql_functions(conn: &Connection) -> rusqlite::Result<()> {
    functions::register(conn)
}

/// Opens a connection with tutti's settings and SQL functions.
fn open_connection(path: &Path) -> Result<Connection, StorageError> {
    open_connection_with(path, rusqlite::OpenFlags::default())
}

/// The VFS the database is opened with: `unix-excl` where SQLite's default is `unix`
/// (production). It takes one exclusive lock on the database file for the whole process
/// and keeps the WAL index in the process's memory, so that beginning and ending a read
/// transaction costs no `fcntl()` calls (with `unix` they were a tenth of a point select's
/// CPU). The node is the only process that may use its database anyway (the datadir is
/// locked against a second node); a `sqlite3` shell on a live node's database now gets
/// "database is locked". None where a test installed its own default VFS (the power-loss
/// shim, which wraps `unix`).
fn process_vfs() -> Option<&'static str> {
    // SAFETY: sqlite3_vfs_find(NULL) initialises SQLite if needed and returns the default
    // VFS (or null), which lives as long as the process; its name is a C string.
    let default_is_unix = unsafe {
        let vfs = rusqlite::ffi::sqlite3_vfs_find(std::ptr::null());
        !vfs.is_null()
            && !(*vfs).zName.is_null()
            && std::ffi::CStr::from_ptr((*vfs).zName).to_bytes() == b"unix"
    };
    default_is_unix.then_some("unix-excl")
}

/// [`open_connection`] with SQLite's open flags.
fn open_connection_with(
    path: &Path,
    flags: rusqlite::OpenFlags,
) -> Result<Connection, StorageError> {
    let conn = match process_vfs() {
        Some(vfs) => Connection::open_with_flags_and_vfs(path, flags, vfs)?,
        None => Connection::open_with_flags(path, flags)?,
    };
    // Double quotes are identifiers, never string literals: otherwise a misspelled column
    // ("nosuchcol") would silently become a string.
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_DQS_DML, false)?;
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_DQS_DDL, false)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.set_prepared_statement_cache_capacity(1024);
    functions::register(&conn)?;
    Ok(conn)
}

#[cfg(test)]
mod tests;
