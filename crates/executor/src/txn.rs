//! Transactions: the write path, COMMIT, ROLLBACK and schema changes.
//!
//! A write statement is captured on the writer (see [`crate::sqlite::capture`]), its
//! certification keys are locked, and the transaction keeps the new changeset. If the
//! statement had to wait for a lock, or a write-set ordered after its execution touched
//! its rows before the locks were granted, it runs again on the newer state (at most a
//! few times) so it works on what the other writer committed, as InnoDB would.
//!
//! Under snapshot isolation (see [`crate::reads`]) a transaction with a read view may not
//! change a row that a write-set ordered after its read view changed: the statement fails
//! with 1020 (`ER_CHECKREAD`), as in MariaDB 11.8, and the write-set is certified against
//! the read view, so the same conflict with another node fails the commit (1213). No lost
//! update either way.
//!
//! Without a read view (autocommit statements, write-only transactions, or the variable
//! OFF) `last_seen` (the state certification checks against) is the state the latest
//! statement ran on, as InnoDB's writers work on the newest state. That is sound because
//! every row the transaction already changed is locked: no local transaction can change
//! it, and a write-set from the cluster that does would have BF-aborted this one. When
//! that cannot be guaranteed (a statement did not run on a stable state, or a locking read
//! was made), `last_seen` is pinned and certification decides, as in Galera.

use std::time::Duration;
use tutti_sql::{DdlRecords, DdlStmt, Query, QueryKind};
use tutti_storage::Reader;
use tutti_wsrep::{Action, CertKeys, Seqno, TrxId, Value, WriteSet};

use crate::keys;
use crate::locks::{LockError, Mode};
use crate::result::{OkInfo, Response};
use crate::session::Session;
use crate::sqlite::{self, Count, WriteStmt};
use crate::ExecError;

/// How many times a statement runs again after a lock wait before `last_seen` is pinned.
pub(crate) const MAX_ATTEMPTS: usize = 4;

/// An open transaction.
pub(crate) struct Txn {
    /// Its id (unique on this node across restarts).
    pub id: TrxId,
    /// `START TRANSACTION READ ONLY`.
    pub read_only: bool,
    /// The snapshot for reads before the first write.
    pub snapshot: Option<Reader>,
    /// The transaction's changes so far (a SQLite changeset).
    pub changes: Vec<u8>,
    /// The state the transaction's writes are valid on.
    pub last_seen: Option<Seqno>,
    /// `last_seen` may no longer move forward.
    pub pinned: bool,
    /// Snapshot isolation: the seqno of the transaction's read view, once it has one.
    pub read_view: Option<Seqno>,
    /// Keys of the rows its locking reads locked (certified with its write-set).
    pub lock_keys: std::collections::BTreeSet<u64>,
}

fn lock_request(k: &CertKeys) -> Vec<(u64, Mode)> {
    k.exclusive
        .iter()
        .map(|x| (*x, Mode::Exclusive))
        .chain(k.shared.iter().chain(&k.tables).map(|x| (*x, Mode::Shared)))
        .collect()
}

impl Session {
    pub(crate) fn begin(&mut self, read_only: bool) {
        let read_only = read_only || self.var_int("transaction_read_only") != 0;
        self.txn = Some(Txn {
            id: self.exec.new_trx(),
            read_only,
            snapshot: None,
            changes: Vec::new(),
            last_seen: None,
            pinned: false,
            read_view: None,
            lock_keys: Default::default(),
        });
    }

    /// `innodb_lock_wait_timeout`.
    pub(crate) fn lock_wait_timeout(&self) -> Duration {
        Duration::from_secs(self.var_int("innodb_lock_wait_timeout").clamp(1, 1 << 30) as u64)
    }

    /// Rolls back the open transaction, if any (nothing was written anywhere).
    pub(crate) fn rollback(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.exec.locks.release(txn.id);
        }
        if let Some(temp) = &mut self.temp {
            temp.end(false);
        }
    }

    /// Commits the open transaction, if any: replicates its write-set and waits until it
    /// is applied on this node.
    pub(crate) fn commit(&mut self) -> Result<(), ExecError> {
        let Some(mut txn) = self.txn.take() else {
            return Ok(());
        };
        let result = self.replicate_txn(&mut txn);
        self.exec.locks.release(txn.id);
        if let Some(temp) = &mut self.temp {
            temp.end(result.is_ok());
        }
        result
    }

    fn replicate_txn(&self, txn: &mut Txn) -> Result<(), ExecError> {
        // A transaction a write-set from the cluster aborted fails, even if it wrote
        // nothing: what it read under its locks is no longer true (as in Galera).
        if self.exec.locks.is_aborted(txn.id) {
            return Err(ExecError::Deadlock);
        }
        if txn.changes.is_empty() {
            return Ok(());
        }
        let exec = &self.exec;
        let mut keys = keys::of(exec, &txn.changes)?;
        if !txn.lock_keys.is_empty() {
            keys.shared.extend(txn.lock_keys.iter().copied());
            keys.shared.sort_unstable();
            keys.shared.dedup();
        }
        let read_view = txn.read_view.filter(|_| self.snapshot_isolation());
        let ws = WriteSet {
            origin: exec.provider.node_id(),
            trx_id: txn.id,
            last_seen: read_view.or(txn.last_seen).unwrap_or(0),
            keys,
            action: Action::Rows(std::mem::take(&mut txn.changes)),
        };
        exec.provider.replicate(ws)?;
        Ok(())
    }

    /// INSERT / UPDATE / DELETE / REPLACE.
    pub(crate) fn write(&mut self, q: &Query, params: &[Value]) -> Result<Response, ExecError> {
        self.check_ready(false)?;
        self.sync_wait(
            if matches!(
                q.kind,
                QueryKind::Insert | QueryKind::Upsert | QueryKind::Replace
            ) {
                4
            } else {
                2
            },
        )?;
        if self
            .txn
            .as_ref()
            .map(|t| t.read_only)
            .unwrap_or(self.var_int("transaction_read_only") != 0)
        {
            return Err(ExecError::ReadOnlyTransaction);
        }
        let implicit = self.txn.is_none();
        if implicit {
            self.begin(false);
        }
        let temporary_target = q
            .target
            .as_ref()
            .is_some_and(|t| self.temporary(t).is_some());
        let result = if temporary_target {
            self.temporary_write(q, params)
        } else {
            self.capture_in_txn(q, params)
        };
        let autocommit = implicit && self.autocommit();
        match result {
            Ok(resp) => {
                if autocommit {
                    self.commit()?;
                }
                if let Response::Ok { affected_rows, .. } = &resp {
                    self.row_count = *affected_rows as i64;
                }
                Ok(resp)
            }
            Err(e) => {
                if e == ExecError::Deadlock || autocommit {
                    self.rollback();
                }
                Err(e)
            }
        }
    }

    fn capture_in_txn(&mut self, q: &Query, params: &[Value]) -> Result<Response, ExecError> {
        let exec = self.exec.clone();
        let txn_id = self.txn.as_ref().expect("open transaction").id;
        let timeout = self.lock_wait_timeout();
        let si = self.snapshot_isolation();
        let (offset, increment) = exec.provider.auto_increment();
        let meta = match &q.target {
            Some(t) if q.autoinc.is_some() || q.kind == QueryKind::Replace => {
                exec.catalog.table(&exec.storage, &t.sqlite_name())?
            }
            _ => None,
        };
        let invisible_key =
            q.autoinc.is_some() && meta.as_ref().is_some_and(|m| m.info.has_invisible_key());
        let stmt = WriteStmt {
            sql: &q.sql,
            params,
            autoinc: q
                .autoinc
                .as_ref()
                .zip(q.target.as_ref())
                .map(|(ids, t)| sqlite::Ids::new(t.sqlite_name(), (offset, increment), ids)),
            invisible_key,
            deleting: q.kind == QueryKind::Delete,
            count: Count::of(
                q.kind,
                self.client_found_rows,
                meta.as_ref().map(|m| &m.info),
            ),
            marks_changes: q.marks_changes,
            target: q.target.as_ref().map(|t| t.sqlite_name()),
        };
        let copies = self.temporary_copies(q)?;
        for attempt in 1..=MAX_ATTEMPTS {
            let (state, captured) = {
                let w = exec.storage.writer();
                if exec.locks.is_aborted(txn_id) {
                    return Err(ExecError::Deadlock);
                }
                let state = exec.storage.applied();
                *self.info.interrupt.lock() = Some(w.get_interrupt_handle());
                let changes = &self.txn.as_ref().expect("open transaction").changes;
                let captured = sqlite::capture(
                    &w,
                    exec.storage.autoinc(),
                    changes,
                    exec.storage.fk_actions(),
                    &stmt,
                    &copies,
                );
                match captured {
                    // A duplicate row committed by another transaction after this one began
                    // is a serialization conflict, as InnoDB's gap locks would report it (two
                    // transactions deleting, then inserting, the same missing key), not a
                    // user error: the retry sees the row.
                    Err(ExecError::DuplicateKey(_))
                        if attempt > 1 || self.table_written_since_start(q, state) =>
                    {
                        return Err(ExecError::Deadlock)
                    }
                    other => (state, other?),
                }
            };
            let keys = keys::of(&exec, &captured.changeset)?;
            // Rows the statement rewrote without changing them are written all the same.
            let mut rewritten = std::collections::BTreeSet::new();
            for (table, row) in &captured.written.rewritten {
                if let Some(meta) = exec.catalog.table(&exec.storage, table)? {
                    rewritten.extend(keys::row_key(&meta, row));
                }
            }
            let mut request = lock_request(&keys);
            request.extend(rewritten.iter().map(|k| (*k, Mode::Exclusive)));
            let waited = match exec.locks.acquire(txn_id, &request, timeout) {
                Ok(w) => w,
                Err(LockError::Deadlock | LockError::Aborted) => return Err(ExecError::Deadlock),
                Err(LockError::Timeout) => return Err(ExecError::LockWaitTimeout),
            };
            let stable = !waited && !exec.locks.touched_since(state, &request);
            if !stable && attempt < MAX_ATTEMPTS {
                continue;
            }
            let txn = self.txn.as_mut().expect("open transaction");
            if let Some(view) = txn.read_view.filter(|_| si) {
                let written: Vec<u64> = keys.exclusive.iter().chain(&rewritten).copied().collect();
                if exec.locks.changed_since(view, &written) {
                    let table = q
                        .target
                        .as_ref()
                        .map(|t| t.table.clone())
                        .unwrap_or_default();
                    return Err(ExecError::RecordChanged(table));
                }
            }
            if !stable {
                txn.pinned = true;
            }
            if txn.last_seen.is_none() || !txn.pinned {
                txn.last_seen = Some(state);
            }
            txn.changes = captured.changeset;
            txn.lock_keys.extend(rewritten);
            return Ok(self.written(q, &captured.written));
        }
        unreachable!("the last attempt always returns")
    }

    /// The response to a write statement; its first generated id becomes LAST_INSERT_ID().
    pub(crate) fn written(&mut self, q: &Query, w: &sqlite::Written) -> Response {
        if let Some(id) = w.insert_id {
            self.last_insert_id = id as u64;
        }
        if q.counts_selected {
            self.found_rows = w.changes;
        }
        if q.ignore {
            // Each row offered and not inserted was a duplicate key.
            let offered = q.values_rows.or(w.offered).unwrap_or(0);
            let table = q.target.as_ref().map(|t| t.to_string()).unwrap_or_default();
            for _ in 0..offered.saturating_sub(w.affected) {
                let msg = format!("Duplicate entry for a unique key of '{table}'");
                tutti_storage::warn(1062, msg);
            }
        }
        Response::Ok {
            affected_rows: w.affected,
            last_insert_id: w.insert_id.unwrap_or(0) as u64,
            info: ok_info(q, w),
        }
    }

    /// True if the statement's table was written by another transaction since this one
    /// began (its `last_seen`, or `now` for its first statement).
    fn table_written_since_start(&self, q: &Query, now: Seqno) -> bool {
        let start = self.txn.as_ref().and_then(|t| t.last_seen).unwrap_or(now);
        q.target.as_ref().is_some_and(|t| {
            self.exec
                .locks
                .table_written_since(start, keys::table_key(&t.sqlite_name()))
        })
    }

    /// A schema change: commits the open transaction, then replicates the change in total
    /// order and waits for it to be applied here.
    pub(crate) fn ddl(&mut self, d: DdlStmt) -> Result<Response, ExecError> {
        self.check_ready(false)?;
        self.commit()?;
        let exec = &self.exec;
        let ws = WriteSet {
            origin: exec.provider.node_id(),
            trx_id: exec.new_trx(),
            last_seen: exec.storage.applied(),
            keys: CertKeys {
                tables: d
                    .tables
                    .iter()
                    .map(|t| keys::table_key(&t.sqlite_name()))
                    .collect(),
                ..CertKeys::default()
            },
            action: Action::Ddl(d.ddl),
        };
        let done = exec.provider.replicate(ws)?;
        Ok(match d.records {
            DdlRecords::None => Response::ok(),
            DdlRecords::InPlace => Response::records(0),
            DdlRecords::Copied => Response::records(done.rows),
        })
    }
}

/// What MariaDB's OK packet says of a write: an UPDATE the rows it matched and changed;
/// an INSERT or REPLACE of several rows (VALUES or a SELECT) the rows it was offered and
/// the duplicates among them; a one-row INSERT nothing.
fn ok_info(q: &Query, w: &sqlite::Written) -> OkInfo {
    match q.kind {
        QueryKind::Update => OkInfo::Matched {
            matched: w.changes,
            changed: w.changed,
        },
        QueryKind::Insert | QueryKind::Upsert | QueryKind::Replace => {
            let records = match (q.values_rows, w.offered) {
                (Some(rows), _) if rows > 1 => rows,
                (Some(_), _) => return OkInfo::None,
                (None, Some(offered)) => offered,
                (None, None) => w.changes,
            };
            let duplicates = if q.ignore {
                records.saturating_sub(w.affected)
            } else {
                w.changed
            };
            OkInfo::Records {
                records,
                duplicates,
            }
        }
        QueryKind::Select | QueryKind::Delete => OkInfo::None,
    }
}
