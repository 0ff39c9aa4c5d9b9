//! Reads: consistent reads from the transaction's read view, and locking reads.
//!
//! Snapshot isolation (`innodb_snapshot_isolation`, ON by default as in MariaDB 11.8): a
//! transaction's read view starts at its first consistent read (or at `START TRANSACTION
//! WITH CONSISTENT SNAPSHOT`) and is a seqno: the state of a reader connection's SQLite
//! snapshot. Until the transaction writes, its reads run inside that snapshot. Once it has
//! written, its reads must see its own changes, which exist only on the writer (replayed
//! on the newest state); the newest state equals the read view for every table no
//! write-set ordered after the read view changed, so such a read is exact, and a read of a
//! table that did change fails with 1020 (`ER_CHECKREAD`) rather than return rows from
//! after the read view. With the variable OFF, reads after a write see the newest state.
//!
//! Locking reads (`FOR UPDATE`, `FOR SHARE`, `LOCK IN SHARE MODE`) read the newest state,
//! as in InnoDB, and lock the rows they read (their primary-key certification keys, as a
//! write locks the rows it changes): another local writer waits, a write-set from another
//! node BF-aborts the holder, and the keys are certified with the transaction's write-set
//! so that a row changed elsewhere after it was locked fails the commit (1213). With a read
//! view, locking a row changed after it fails with 1020, as MariaDB does.

use std::sync::Arc;
use tutti_sql::{Query, RowLock};
use tutti_wsrep::{hash_key, Seqno, Value};

use crate::catalog::row_namespace;
use crate::keys::table_key;
use crate::locks::{LockError, Mode};
use crate::result::{Column, OkInfo, Response, ResultSet};
use crate::session::Session;
use crate::sqlite::{Shape, ShapedRows};
use crate::txn::MAX_ATTEMPTS;
use crate::{sqlite, ExecError};

/// MariaDB's warning for INTO after FROM or a UNION.
const DEPRECATED_INTO: &str = "'<select expression> INTO <destination>;' is deprecated and will \
     be removed in a future release. Please use 'SELECT <select list> INTO <destination> \
     FROM...' instead";

impl Session {
    /// True when the session runs under snapshot isolation.
    pub(crate) fn snapshot_isolation(&self) -> bool {
        self.var_int("innodb_snapshot_isolation") != 0
    }

    /// A SELECT.
    pub(crate) fn read(&mut self, q: &Query, params: &[Value]) -> Result<Response, ExecError> {
        // As in Galera, a SELECT that reads no table (`SELECT 1`, `SELECT @@version`, what
        // drivers send on connect) works on a node that is not ready. The translated SQL
        // is canonical (upper-case keywords), so a FROM anywhere means tables (or, for a
        // string literal, a harmless refusal).
        if q.sql.contains("FROM") {
            self.check_ready(true)?;
            self.sync_wait(1)?;
        }
        if self.txn.is_none() && !self.autocommit() {
            self.begin(false);
        }
        // A prepared statement's shape, described once (see `Prepared`).
        let slot = self.shape_slot.take();
        let known = slot.as_ref().and_then(|s| s.get().cloned());
        let described = known.is_some();
        let (mut shape, rows) = self.read_rows(q, params, known)?;
        if !described {
            let mut fresh = Arc::try_unwrap(shape).unwrap_or_else(|s| Shape::clone(&s));
            self.describe_table_columns(&mut fresh.columns)?;
            shape = Arc::new(fresh);
            if let Some(slot) = slot {
                let _ = slot.set(shape.clone());
            }
        }
        let mut rs = shape.result(rows);
        for (i, c) in rs.columns.iter_mut().enumerate() {
            let text = matches!(
                c.kind,
                crate::ColumnKind::Text | crate::ColumnKind::TextBlob | crate::ColumnKind::Null
            );
            // Only numbers go as DECIMAL: a driver fails the whole result (and PyMySQL its
            // connection) on a DECIMAL it cannot read.
            let numbers = || rs.rows.iter().all(|r| crate::result::decimal_value(&r[i]));
            if text && q.decimal_columns.contains(&c.name) && numbers() {
                c.kind = crate::ColumnKind::Decimal;
            }
            if c.kind == crate::ColumnKind::Double {
                if let Some((_, d)) = q.fixed_decimals.iter().find(|(n, _)| *n == c.name) {
                    c.decimals = Some(*d);
                }
            }
        }
        for &(i, t) in &q.computed_types {
            let numbers = rs.rows.iter().all(|r| crate::result::decimal_value(&r[i]));
            if let Some(c) = rs.columns.get_mut(i) {
                c.computed(t, numbers);
            }
        }
        self.found_rows = match &q.found_rows_sql {
            // An OFFSET's skipped rows count too, if a row came after them.
            Some(_) if !rs.rows.is_empty() && q.found_rows_offset.is_some() => {
                q.found_rows_offset.unwrap_or(0) + rs.rows.len() as u64
            }
            // SQL_CALC_FOUND_ROWS: the rows without LIMIT; an OFFSET past the end: the
            // rows before it; counted in the same read view.
            Some(count_sql) => {
                let count = Query {
                    sql: count_sql.clone(),
                    row_lock: None,
                    found_rows_sql: None,
                    ..q.clone()
                };
                match self
                    .read_rows(&count, params, None)?
                    .1
                    .first()
                    .map(|r| &r[0])
                {
                    Some(Value::Int(n)) => *n as u64,
                    _ => rs.rows.len() as u64,
                }
            }
            None => rs.rows.len() as u64,
        };
        self.row_count = -1;
        Ok(Response::Rows(rs))
    }

    /// `SELECT ... INTO @a, @b`: the one row's values go into the user variables; none
    /// leaves them as they were (warning 1329), more are an error (1172); INTO after FROM
    /// is deprecated (warning 1287).
    pub(crate) fn select_into(
        &mut self,
        q: &Query,
        vars: &[String],
        deprecated_place: bool,
        params: &[Value],
    ) -> Result<Response, ExecError> {
        if deprecated_place {
            tutti_storage::warn(1287, DEPRECATED_INTO);
        }
        let stats = &self.exec.stats;
        stats
            .com_select
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut read = self.read(q, params);
        self.take_assignments(&mut read);
        let Response::Rows(rs) = read? else {
            unreachable!("a SELECT answers rows")
        };
        if rs.columns.len() != vars.len() {
            return Err(ExecError::UnionColumns);
        }
        let mut rows = rs.rows.into_iter();
        let Some(row) = rows.next() else {
            tutti_storage::warn(1329, "No data - zero rows fetched, selected, or processed");
            return Ok(Response::ok());
        };
        if rows.next().is_some() {
            return Err(ExecError::TooManyRows);
        }
        for ((name, value), column) in vars.iter().zip(row).zip(&rs.columns) {
            let value = match value {
                Value::Text(d) if column.kind == crate::ColumnKind::Decimal => {
                    tutti_sql::UserValue::Decimal(d)
                }
                v => tutti_sql::UserValue::Plain(v),
            };
            self.user_vars.insert(name.to_ascii_lowercase(), value);
        }
        self.row_count = 1;
        Ok(Response::Ok {
            affected_rows: 1,
            last_insert_id: 0,
            info: OkInfo::None,
        })
    }

    /// Gives the result columns that read a table column as is that column's definition.
    pub(crate) fn describe_table_columns(&self, columns: &mut [Column]) -> Result<(), ExecError> {
        let mut last: Option<std::sync::Arc<crate::catalog::TableMeta>> = None;
        for c in columns {
            let Some(origin) = &c.origin else { continue };
            let same = last.as_ref().is_some_and(|m| {
                m.info
                    .name
                    .sqlite_name()
                    .eq_ignore_ascii_case(&origin.table)
            });
            if !same {
                last = self.exec.catalog.table(&self.exec.storage, &origin.table)?;
            }
            c.table = last.as_ref().and_then(|m| m.sent_column(&origin.column));
        }
        Ok(())
    }

    /// The rows of a SELECT: locked, in the transaction's read view, or the newest state
    /// (with its shape: `known`, or read from SQLite).
    fn read_rows(
        &mut self,
        q: &Query,
        params: &[Value],
        known: Option<Arc<Shape>>,
    ) -> Result<ShapedRows, ExecError> {
        if self.touches_temporary(q) {
            return self.temporary_read(q, params, known);
        }
        Ok(match (&q.row_lock, self.txn.is_some()) {
            (Some(lock), true) => {
                let r = self.locking_read(q, lock, params, known);
                if r.as_ref().err() == Some(&ExecError::Deadlock) {
                    self.rollback();
                }
                r?
            }
            (_, true) => self.consistent_read(q, params, known)?,
            (_, false) => {
                // Autocommit: the statement is the transaction; the newest state.
                let r = self
                    .exec
                    .storage
                    .reader()
                    .map_err(|e| ExecError::Sqlite(e.to_string()))?;
                *self.info.interrupt.lock() = Some(r.get_interrupt_handle());
                sqlite::query_shaped(&r, &q.sql, params, known)?
            }
        })
    }

    /// Opens the transaction's snapshot (and, under snapshot isolation, its read view) now.
    pub(crate) fn start_read_view(&mut self) -> Result<(), ExecError> {
        let si = self.snapshot_isolation();
        let exec = self.exec.clone();
        let Some(txn) = self.txn.as_mut() else {
            return Ok(());
        };
        if txn.snapshot.is_none() && txn.changes.is_empty() {
            let r = exec
                .storage
                .reader()
                .map_err(|e| ExecError::Sqlite(e.to_string()))?;
            r.execute_batch("BEGIN")?;
            let seqno =
                tutti_storage::snapshot_seqno(&r).map_err(|e| ExecError::Sqlite(e.to_string()))?;
            txn.snapshot = Some(r);
            if si && txn.read_view.is_none() {
                txn.read_view = Some(seqno);
            }
        }
        Ok(())
    }

    fn consistent_read(
        &mut self,
        q: &Query,
        params: &[Value],
        known: Option<Arc<Shape>>,
    ) -> Result<ShapedRows, ExecError> {
        let si = self.snapshot_isolation();
        if self.txn.as_ref().is_some_and(|t| t.changes.is_empty()) {
            self.start_read_view()?;
            let txn = self.txn.as_ref().expect("open transaction");
            let r = txn.snapshot.as_ref().expect("snapshot just opened");
            *self.info.interrupt.lock() = Some(r.get_interrupt_handle());
            return sqlite::query_shaped(r, &q.sql, params, known);
        }
        let exec = self.exec.clone();
        let w = exec.storage.writer();
        let now = exec.storage.applied();
        let txn = self.txn.as_mut().expect("open transaction");
        if si {
            match txn.read_view {
                None => txn.read_view = Some(now),
                Some(view) if view < now => {
                    if let Some(table) = changed_table(&exec.locks, q, view) {
                        return Err(ExecError::RecordChanged(table));
                    }
                }
                Some(_) => {}
            }
        }
        *self.info.interrupt.lock() = Some(w.get_interrupt_handle());
        let txn = self.txn.as_ref().expect("open transaction");
        sqlite::query_in_txn(
            &w,
            &txn.changes,
            exec.storage.fk_actions(),
            &q.sql,
            params,
            known,
        )
    }

    fn locking_read(
        &mut self,
        q: &Query,
        lock: &RowLock,
        params: &[Value],
        known: Option<Arc<Shape>>,
    ) -> Result<ShapedRows, ExecError> {
        let exec = self.exec.clone();
        let si = self.snapshot_isolation();
        let txn_id = self.txn.as_ref().expect("open transaction").id;
        let timeout = if lock.nowait {
            std::time::Duration::ZERO
        } else {
            self.lock_wait_timeout()
        };
        let mode = if lock.exclusive {
            Mode::Exclusive
        } else {
            Mode::Shared
        };
        for attempt in 1..=MAX_ATTEMPTS {
            let (state, key_rows, rs) = {
                let w = exec.storage.writer();
                if exec.locks.is_aborted(txn_id) {
                    return Err(ExecError::Deadlock);
                }
                let state = exec.storage.applied();
                *self.info.interrupt.lock() = Some(w.get_interrupt_handle());
                let changes = &self.txn.as_ref().expect("open transaction").changes;
                let (key_rows, rs) = sqlite::query_pair_in_txn(
                    &w,
                    changes,
                    exec.storage.fk_actions(),
                    (&lock.keys_sql, &q.sql),
                    params,
                    known.clone(),
                )?;
                (state, key_rows, rs)
            };
            let keys = row_keys(lock, &key_rows);
            if let Some(view) = self.txn.as_ref().and_then(|t| t.read_view).filter(|_| si) {
                if exec.locks.changed_since(view, &keys) {
                    return Err(ExecError::RecordChanged(lock.tables[0].0.table.clone()));
                }
            }
            let request: Vec<(u64, Mode)> = keys.iter().map(|k| (*k, mode)).collect();
            let waited = match exec.locks.acquire(txn_id, &request, timeout) {
                Ok(w) => w,
                Err(LockError::Deadlock | LockError::Aborted) => return Err(ExecError::Deadlock),
                Err(LockError::Timeout) => return Err(ExecError::LockWaitTimeout),
            };
            // What a locking read returns is the newest version of a row it holds: if a
            // write-set touched the rows between the read and the grant, read again; if
            // that keeps happening, give up like a deadlock victim rather than return a
            // row that is no longer current.
            if waited || exec.locks.touched_since(state, &request) {
                if attempt < MAX_ATTEMPTS {
                    continue;
                }
                return Err(ExecError::Deadlock);
            }
            let txn = self.txn.as_mut().expect("open transaction");
            txn.pinned = true;
            if txn.last_seen.is_none() {
                txn.last_seen = Some(state);
            }
            txn.lock_keys.extend(keys);
            return Ok(rs);
        }
        unreachable!("the last attempt always returns")
    }
}

/// The first table `q` reads that a write-set ordered after `view` changed (any table when
/// the tables read are not known).
fn changed_table(locks: &crate::locks::LockManager, q: &Query, view: Seqno) -> Option<String> {
    match &q.reads {
        Some(tables) => tables
            .iter()
            .find(|t| locks.table_written_since(view, table_key(&t.sqlite_name())))
            .map(|t| t.table.clone()),
        None => locks.anything_since(view).then(|| "(a view)".to_string()),
    }
}

/// The certification keys of the rows a locking read returned keys for: one primary-key
/// key per table and row, hashed as the write path hashes a row's primary key.
fn row_keys(lock: &RowLock, rows: &ResultSet) -> Vec<u64> {
    let mut out = std::collections::BTreeSet::new();
    for row in &rows.rows {
        let mut at = 0;
        for (table, n) in &lock.tables {
            let values: Vec<&Value> = row[at..at + n].iter().collect();
            at += n;
            if values.iter().any(|v| v.is_null()) {
                continue; // the NULL side of an outer join: no row
            }
            out.insert(hash_key(&row_namespace(&table.sqlite_name()), &values));
        }
    }
    out.into_iter().collect()
}
