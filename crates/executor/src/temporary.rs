//! The session's temporary tables (`CREATE TEMPORARY TABLE`): its own, never replicated
//! (Galera does not replicate them either), gone when the session ends.
//!
//! They live in SQLite's `temp` schema of a connection of the session's own, opened with
//! its first temporary table. The database is read-only through that connection, so it
//! also runs every statement that reads a temporary table together with other tables. A
//! statement touches a temporary table when the table's SQLite name is in its translated
//! SQL (names are always printed quoted); it then runs there:
//!
//! * a read, or a write of a temporary table: other tables are read at their newest state,
//!   or inside a transaction in that connection's snapshot (taken at its first statement);
//! * a write runs in a savepoint of its own, so a failing statement changes nothing; inside
//!   a transaction the connection's SQLite transaction stays open until COMMIT or ROLLBACK,
//!   which apply to the temporary tables too (as to InnoDB's);
//!
//! A write of a replicated table that reads temporary tables (`INSERT INTO t SELECT ...
//! FROM tmp`) runs on the writer as every replicated write does, with copies of those
//! temporary tables in the writer's own `temp` schema for that statement ([`TempCopy`]).
//!
//! Refused with a clear error (1235): reading a temporary table together with replicated
//! tables in a transaction that has already changed replicated tables (its changes exist
//! only as a changeset on the writer, which cannot see the temporary tables).

use rusqlite::Connection;
use std::collections::HashMap;
use std::sync::Arc;
use tutti_sql::{quote_ident, DdlRecords, Query, QueryKind, SqlError, TableName, TempDdl};
use tutti_storage::{run_cached, AutoInc};
use tutti_wsrep::Value;

use crate::catalog::{self, TableMeta};
use crate::result::Response;
use crate::session::Session;
use crate::sqlite::{self, Count, WriteStmt};
use crate::{error::from_sqlite, ExecError};

/// A connection that sees a table: a pooled reader, or the session's own for a temporary
/// table.
pub(crate) enum TableConn<'a> {
    Pooled(tutti_storage::Reader),
    Own(&'a Connection),
}

impl std::ops::Deref for TableConn<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        match self {
            TableConn::Pooled(r) => r,
            TableConn::Own(c) => c,
        }
    }
}

/// A temporary table's definition and rows, copied into the writer connection's own
/// `temp` schema for one statement that writes a replicated table from it (the writer
/// cannot see the session's connection). The copy lives in the statement's SQLite
/// transaction, which the write capture rolls back, and hides a table of the same name as
/// the temporary table does.
pub(crate) struct TempCopy {
    create: String,
    insert: String,
    rows: Vec<Vec<rusqlite::types::Value>>,
}

impl TempCopy {
    fn read(conn: &Connection, name: &str) -> Result<TempCopy, ExecError> {
        let create: String = conn.query_row(
            "SELECT sql FROM temp.sqlite_schema WHERE type = 'table' AND lower(name) = ?1",
            [name],
            |r| r.get(0),
        )?;
        let quoted = tutti_sql::quote_ident(name);
        let mut select = conn.prepare(&format!("SELECT rowid, * FROM temp.{quoted}"))?;
        let columns: Vec<String> = select
            .column_names()
            .skip(1)
            .map(tutti_sql::quote_ident)
            .collect();
        let width = columns.len() + 1;
        let rows = select
            .query_map([], |r| (0..width).map(|i| r.get(i)).collect())?
            .collect::<Result<_, _>>()?;
        let insert = format!(
            "INSERT INTO temp.{quoted} (rowid, {}) VALUES ({})",
            columns.join(", "),
            vec!["?"; width].join(", ")
        );
        Ok(TempCopy {
            create: tutti_sql::temporary_statements(&[create])?.remove(0),
            insert,
            rows,
        })
    }

    /// Creates the copy on `w`, inside its open transaction.
    pub(crate) fn install(&self, w: &Connection) -> Result<(), ExecError> {
        w.execute_batch(&self.create)?;
        let mut insert = w.prepare(&self.insert)?;
        for row in &self.rows {
            insert.execute(rusqlite::params_from_iter(row))?;
        }
        Ok(())
    }
}

/// The session's temporary tables and the connection that holds them.
pub(crate) struct TempTables {
    conn: Connection,
    /// `tutti_autoinc()`'s state on `conn`.
    autoinc: Arc<AutoInc>,
    /// By lower-case SQLite name.
    tables: HashMap<String, Arc<TableMeta>>,
    /// Moves with every change of definitions (prepared statements translate again).
    pub(crate) epoch: u64,
}

impl TempTables {
    fn open(storage: &tutti_storage::Storage) -> Result<TempTables, ExecError> {
        let (conn, autoinc) = storage
            .session_connection()
            .map_err(|e| ExecError::Sqlite(e.to_string()))?;
        Ok(TempTables {
            conn,
            autoinc,
            tables: HashMap::new(),
            epoch: 0,
        })
    }

    /// The temporary table `name`, if the session has it.
    pub(crate) fn get(&self, name: &TableName) -> Option<&Arc<TableMeta>> {
        self.tables.get(&name.sqlite_name().to_ascii_lowercase())
    }

    /// The connection that holds the tables.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// True if translated SQL names a temporary table.
    fn touches(&self, sql: &str) -> bool {
        if self.tables.is_empty() {
            return false;
        }
        let sql = sql.to_ascii_lowercase();
        self.tables
            .keys()
            .any(|t| sql.contains(&tutti_sql::quote_ident(t)))
    }

    /// Copies of the temporary tables translated SQL names, for the writer.
    fn copies_for(&self, sql: &str) -> Result<Vec<TempCopy>, ExecError> {
        let sql = sql.to_ascii_lowercase();
        let mut copies = Vec::new();
        for name in self.tables.keys() {
            if sql.contains(&tutti_sql::quote_ident(name)) {
                copies.push(TempCopy::read(&self.conn, name)?);
            }
        }
        Ok(copies)
    }

    /// True if every table a query reads is temporary (false when that is not known).
    fn reads_only_temporary(&self, q: &Query) -> bool {
        q.reads
            .as_ref()
            .is_some_and(|r| r.iter().all(|t| self.get(t).is_some()))
    }

    /// Opens the connection's SQLite transaction for the MySQL transaction, if not open.
    fn begin(&self) -> Result<(), ExecError> {
        if self.conn.is_autocommit() {
            run_cached(&self.conn, "BEGIN")?;
        }
        Ok(())
    }

    /// Ends the connection's SQLite transaction with the MySQL transaction's. A rollback
    /// also undoes the transaction's CREATE and DROP of temporary tables (MySQL keeps
    /// those), so the definitions are read again.
    pub(crate) fn end(&mut self, commit: bool) {
        if self.conn.is_autocommit() {
            return;
        }
        let sql = if commit { "COMMIT" } else { "ROLLBACK" };
        let failed = run_cached(&self.conn, sql).is_err();
        if failed {
            tracing::warn!("temporary tables: {sql} failed");
            let _ = run_cached(&self.conn, "ROLLBACK");
        }
        if failed || !commit {
            if let Err(e) = self.reload_all() {
                tracing::warn!("temporary tables: reading their definitions failed: {e}");
            }
        }
    }

    /// Reads every temporary table's definition again.
    fn reload_all(&mut self) -> Result<(), ExecError> {
        let mut names: Vec<TableName> = self
            .conn
            .prepare_cached(
                "SELECT name FROM temp.sqlite_schema WHERE type = 'table' \
                 AND substr(name, 1, 7) <> 'sqlite_'",
            )?
            .query_map([], |r| r.get::<_, String>(0))?
            .filter_map(|n| n.ok().and_then(|n| TableName::from_sqlite_name(&n)))
            .collect();
        names.extend(self.tables.values().map(|m| m.info.name.clone()));
        self.reload(&names)
    }

    /// Runs a statement in a savepoint: all of it or nothing.
    fn atomic<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, ExecError>,
    ) -> Result<T, ExecError> {
        run_cached(&self.conn, "SAVEPOINT tutti_statement")?;
        let r = f(&self.conn);
        if r.is_err() {
            run_cached(&self.conn, "ROLLBACK TO tutti_statement")?;
        }
        run_cached(&self.conn, "RELEASE tutti_statement")?;
        r
    }

    /// Reloads the definitions of `tables` (dropping those that are gone).
    fn reload(&mut self, tables: &[TableName]) -> Result<(), ExecError> {
        for t in tables {
            let name = t.sqlite_name();
            let exists: bool = self
                .conn
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM temp.sqlite_schema WHERE name = ?1)")?
                .query_row([&name], |r| r.get(0))?;
            let key = name.to_ascii_lowercase();
            match exists
                .then(|| catalog::load_table(&self.conn, &name))
                .transpose()?
            {
                Some(Some(meta)) => self.tables.insert(key, Arc::new(meta)),
                _ => self.tables.remove(&key),
            };
        }
        self.epoch += 1;
        Ok(())
    }
}

impl Session {
    /// The session's temporary table `name`, if any.
    pub(crate) fn temporary(&self, name: &TableName) -> Option<&Arc<TableMeta>> {
        self.temp.as_ref().and_then(|t| t.get(name))
    }

    /// True if a translated statement touches one of the session's temporary tables.
    pub(crate) fn touches_temporary(&self, q: &Query) -> bool {
        self.temp.as_ref().is_some_and(|t| t.touches(&q.sql))
    }

    /// Copies of the temporary tables a write of a replicated table reads.
    pub(crate) fn temporary_copies(&self, q: &Query) -> Result<Vec<TempCopy>, ExecError> {
        match &self.temp {
            Some(t) if t.touches(&q.sql) => t.copies_for(&q.sql),
            _ => Ok(Vec::new()),
        }
    }

    /// Whether a table of that name exists: a temporary one, or one that is not (a
    /// temporary table may hide a table of the same name, and a table be created under one).
    pub(crate) fn table_exists(&self, t: &TableName, temporary: bool) -> Result<bool, ExecError> {
        if temporary {
            return Ok(self.temporary(t).is_some());
        }
        let exec = &self.exec;
        Ok(exec
            .catalog
            .table(&exec.storage, &t.sqlite_name())?
            .is_some())
    }

    /// A connection that sees table `t` as the session does.
    pub(crate) fn conn_for(&self, t: &TableName) -> Result<TableConn<'_>, ExecError> {
        match &self.temp {
            Some(temp) if temp.get(t).is_some() => Ok(TableConn::Own(&temp.conn)),
            _ => Ok(TableConn::Pooled(
                self.exec
                    .storage
                    .reader()
                    .map_err(|e| ExecError::Sqlite(e.to_string()))?,
            )),
        }
    }

    /// The AUTO_INCREMENT generator of a table: the session's for its temporary tables.
    pub(crate) fn autoinc_for(&self, t: &TableName) -> &AutoInc {
        match &self.temp {
            Some(temp) if temp.get(t).is_some() => &temp.autoinc,
            _ => self.exec.storage.autoinc(),
        }
    }

    /// The epoch of the temporary tables' definitions (0 without any).
    pub(crate) fn temporary_epoch(&self) -> u64 {
        self.temp.as_ref().map_or(0, |t| t.epoch)
    }

    /// Creates, changes or drops temporary tables. As in MySQL, this does not commit the
    /// open transaction.
    pub(crate) fn temporary_ddl(&mut self, d: TempDdl) -> Result<Response, ExecError> {
        if self.temp.is_none() {
            self.temp = Some(TempTables::open(&self.exec.storage)?);
        }
        let temp = self.temp.as_mut().expect("just opened");
        let autoinc = temp.autoinc.clone();
        let run = temp.atomic(|c| {
            // The ids this session reserved go where the schema change keeps them.
            autoinc.fold(c, "temp")?;
            for sql in &d.statements {
                c.execute_batch(sql).map_err(|e| from_sqlite(&e, false))?;
            }
            Ok(())
        });
        temp.reload(&d.tables)?;
        run?;
        if let Some(rest) = d.then {
            return self.run_stmt(*rest, &[]);
        }
        match (d.records, d.tables.first()) {
            (DdlRecords::InPlace | DdlRecords::Copied, Some(t)) => self.copied_temporary(t),
            _ => Ok(Response::ok()),
        }
    }

    /// The answer to an ALTER TABLE of a temporary table, which MariaDB always runs by
    /// copying its rows, or to one that leaves a table as it is (`FORCE`, the same engine).
    pub(crate) fn unaltered(&mut self, t: &TableName) -> Result<Response, ExecError> {
        if self.temporary(t).is_some() {
            return self.copied_temporary(t);
        }
        Ok(Response::records(0))
    }

    /// `Records: n`, n rows affected: the rows of temporary table `t`.
    fn copied_temporary(&mut self, t: &TableName) -> Result<Response, ExecError> {
        let temp = self.temp.as_ref().expect("a temporary table exists");
        let sql = format!(
            "SELECT count(*) FROM temp.{}",
            quote_ident(&t.sqlite_name())
        );
        let rows: i64 = temp.conn.query_row(&sql, [], |r| r.get(0))?;
        Ok(Response::records(rows as u64))
    }

    /// The connection a SELECT that touches temporary tables runs on, inside the
    /// transaction's snapshot when one is open.
    pub(crate) fn temporary_reader(&mut self, q: &Query) -> Result<&Connection, ExecError> {
        self.refuse_unseen_changes(q)?;
        let in_txn = self.txn.is_some();
        let temp = self.temp.as_ref().expect("touches temporary tables");
        if in_txn {
            temp.begin()?;
        }
        *self.info.interrupt.lock() = Some(temp.conn.get_interrupt_handle());
        Ok(&temp.conn)
    }

    /// Rows of a SELECT that touches temporary tables.
    pub(crate) fn temporary_read(
        &mut self,
        q: &Query,
        params: &[Value],
        known: Option<std::sync::Arc<sqlite::Shape>>,
    ) -> Result<sqlite::ShapedRows, ExecError> {
        let conn = self.temporary_reader(q)?;
        sqlite::query_shaped(conn, &q.sql, params, known)
    }

    /// A write that touches temporary tables (one of them is its target), inside the MySQL
    /// transaction the write path opened.
    pub(crate) fn temporary_write(
        &mut self,
        q: &Query,
        params: &[Value],
    ) -> Result<Response, ExecError> {
        let target = q.target.as_ref().expect("a write has a target");
        let meta = self
            .temporary(target)
            .cloned()
            .expect("the target is temporary");
        self.refuse_unseen_changes(q)?;
        let (offset, increment) = self.exec.provider.auto_increment();
        let temp = self.temp.as_ref().expect("touches temporary tables");
        // The write path opened the MySQL transaction (implicit for an autocommit statement).
        temp.begin()?;
        let stmt = WriteStmt {
            sql: &q.sql,
            params,
            autoinc: q
                .autoinc
                .as_ref()
                .map(|ids| sqlite::Ids::new(target.sqlite_name(), (offset, increment), ids)),
            invisible_key: meta.info.has_invisible_key(),
            deleting: q.kind == QueryKind::Delete,
            count: Count::of(q.kind, self.client_found_rows, Some(&meta.info)),
            marks_changes: q.marks_changes,
            target: Some(target.sqlite_name()),
        };
        *self.info.interrupt.lock() = Some(temp.conn.get_interrupt_handle());
        let written = temp.atomic(|c| sqlite::execute_write(c, &temp.autoinc, &stmt, c"temp"))?;
        Ok(self.written(q, &written))
    }

    /// Fails a statement that would read replicated tables without the changes the open
    /// transaction made to them (they exist only on the writer, as a changeset).
    fn refuse_unseen_changes(&self, q: &Query) -> Result<(), ExecError> {
        let changed = self.txn.as_ref().is_some_and(|t| !t.changes.is_empty());
        let temp = self.temp.as_ref().expect("touches temporary tables");
        if changed && !temp.reads_only_temporary(q) {
            return Err(ExecError::Sql(SqlError::Unsupported(
                "reading a temporary table together with other tables in a transaction that \
                 changed replicated tables"
                    .into(),
            )));
        }
        Ok(())
    }
}
