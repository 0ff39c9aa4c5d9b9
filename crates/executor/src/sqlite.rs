//! Running one translated statement on a SQLite connection.
//!
//! Binding parameters, collecting rows with MySQL column types, and the write capture:
//! inside a transaction that is always rolled back, re-apply what the MySQL transaction
//! has changed so far, run the statement with a session attached, and take the session's
//! changeset (which now holds the whole transaction). The writer lock is held only for
//! this; nothing reaches the database except later, through the applier.

use crate::temporary::TempCopy;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, Statement};
use tutti_storage::Session as SqliteSession;
use tutti_storage::{
    apply_changeset, deferred_fk_violations, run_cached, AutoInc, IdPlan, Reserve,
};
use tutti_wsrep::Value;

use std::sync::Arc;

use crate::result::{
    decimals_of_decltype, kind_of_decltype, kind_of_values, Column, ColumnKind, Origin, ResultSet,
};
use crate::{error::from_sqlite, ExecError};

pub(crate) fn to_sql(v: &Value) -> ToSqlOutput<'_> {
    match v {
        Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
        Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
        Value::Real(r) => ToSqlOutput::Borrowed(ValueRef::Real(*r)),
        Value::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
        Value::Blob(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
    }
}

/// A SQLite value as tutti's value.
pub fn from_ref(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(match std::str::from_utf8(t) {
            Ok(s) => s.to_owned(),
            Err(_) => String::from_utf8_lossy(t).into_owned(),
        }),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

fn bind(stmt: &mut Statement<'_>, params: &[Value]) -> Result<(), ExecError> {
    let expected = stmt.parameter_count();
    if expected != params.len() {
        return Err(ExecError::WrongParamCount {
            expected,
            got: params.len(),
            command: crate::error::BINARY_EXECUTE,
        });
    }
    for (i, p) in params.iter().enumerate() {
        stmt.raw_bind_parameter(i + 1, to_sql(p))?;
    }
    Ok(())
}

/// Runs a row-returning statement and collects its rows.
pub fn query(conn: &Connection, sql: &str, params: &[Value]) -> Result<ResultSet, ExecError> {
    let (shape, rows) = query_shaped(conn, sql, params, None)?;
    Ok(shape.result(rows))
}

/// Runs a row-returning statement: its shape (`known`, from an earlier run of the same
/// statement on the same schema, or read from SQLite) and its rows.
///
/// A shape is read after the statement ran: a cached statement recompiles itself when it
/// runs after a schema change, and until then reports the columns it was compiled with (a
/// `SELECT *` would lose a column added since).
pub fn query_shaped(
    conn: &Connection,
    sql: &str,
    params: &[Value],
    known: Option<Arc<Shape>>,
) -> Result<ShapedRows, ExecError> {
    let mut stmt = prepare(conn, sql)?;
    let rows = run_rows(&mut stmt, params)?;
    // A schema change racing with the run recompiles the statement under a known shape.
    let known = known.filter(|k| k.columns.len() == stmt.column_count());
    let shape = known.unwrap_or_else(|| Arc::new(Shape::of(&Declared::all(&stmt))));
    Ok((shape, rows))
}

/// A statement's shape and rows.
pub type ShapedRows = (Arc<Shape>, Vec<Vec<Value>>);

/// The result columns of a statement as far as they do not depend on its rows: what
/// SQLite declares, described once per prepared statement and schema.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The columns (a column without a declared type is [`ColumnKind::Null`] here).
    pub columns: Vec<Column>,
    /// The columns without a declared type: their kind follows their values.
    by_values: Vec<usize>,
    /// The `BIT(n)` columns: (position, n).
    bits: Vec<(usize, usize)>,
    /// The `BIGINT UNSIGNED` columns, whose values above 2^63 − 1 are stored as bytes (see
    /// storage's `big_unsigned`).
    big_unsigned: Vec<usize>,
    /// The `TIMESTAMP` columns, stored in UTC and shown in the session's time zone (see
    /// storage's `timestamps`).
    timestamps: Vec<usize>,
}

impl Shape {
    fn of(declared: &[Declared]) -> Shape {
        let mut by_values = Vec::new();
        let mut bits = Vec::new();
        let mut big_unsigned = Vec::new();
        let mut timestamps = Vec::new();
        let columns = declared
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let decl = d.decl.as_deref();
                if let Some(width) = decl.and_then(bit_width) {
                    bits.push((i, width));
                }
                if decl.is_some_and(big_unsigned_decl) {
                    big_unsigned.push(i);
                }
                if decl.is_some_and(timestamp_decl) {
                    timestamps.push(i);
                }
                let (kind, unsigned) = kind_of_decltype(decl).unwrap_or_else(|| {
                    by_values.push(i);
                    (ColumnKind::Null, false)
                });
                Column {
                    name: d.name.clone(),
                    kind,
                    unsigned,
                    decimals: decimals_of_decltype(decl),
                    length: None,
                    origin: d.origin.clone(),
                    table: None,
                }
            })
            .collect();
        Shape {
            columns,
            by_values,
            bits,
            big_unsigned,
            timestamps,
        }
    }

    /// A result set of this shape.
    pub fn result(&self, mut rows: Vec<Vec<Value>>) -> ResultSet {
        for &(i, width) in &self.bits {
            for row in &mut rows {
                row[i] = bit_bytes(&row[i], width);
            }
        }
        for &i in &self.big_unsigned {
            for row in &mut rows {
                if let Value::Blob(b) = &row[i] {
                    if let Some(v) = tutti_storage::big_unsigned_value(b) {
                        row[i] = Value::Text(v.to_string());
                    }
                }
            }
        }
        if !self.timestamps.is_empty() && !tutti_storage::session_in_utc() {
            for &i in &self.timestamps {
                for row in &mut rows {
                    if let Value::Text(t) = &row[i] {
                        if let Some(shown) = tutti_storage::timestamp_in_session(t) {
                            row[i] = Value::Text(shown);
                        }
                    }
                }
            }
        }
        let mut columns = self.columns.clone();
        for &i in &self.by_values {
            columns[i].kind = kind_of_values(rows.iter().map(|r: &Vec<Value>| &r[i]));
        }
        ResultSet { columns, rows }
    }
}

/// A `BIGINT UNSIGNED` declared type (an AUTO_INCREMENT one is `INTEGER`).
fn big_unsigned_decl(decl: &str) -> bool {
    let d = decl.to_ascii_uppercase();
    d.starts_with("BIGINT") && d.contains(" UNSIGNED")
}

/// A `TIMESTAMP[(n)]` declared type.
fn timestamp_decl(decl: &str) -> bool {
    decl.get(..9)
        .is_some_and(|p| p.eq_ignore_ascii_case("TIMESTAMP"))
}

/// The width of a `BIT(n)` declared type.
fn bit_width(decl: &str) -> Option<usize> {
    let n = decl.strip_prefix("BIT(")?.strip_suffix(')')?;
    n.parse().ok()
}

/// A BIT(n) column's number (see storage's `bits`) as MariaDB sends it: its (n + 7) / 8
/// bytes, big-endian.
fn bit_bytes(v: &Value, width: usize) -> Value {
    match v {
        Value::Int(i) => {
            let bytes = (*i as u64).to_be_bytes();
            Value::Blob(bytes[8 - width.div_ceil(8).min(8)..].to_vec())
        }
        other => other.clone(),
    }
}

/// A result column as SQLite describes it.
pub struct Declared {
    /// Its name.
    pub name: String,
    /// Its declared type (None for a computed column).
    pub decl: Option<String>,
    /// The column of a table of the main database it reads as is.
    pub origin: Option<Origin>,
}

impl Declared {
    /// The result columns of a statement.
    fn all(stmt: &Statement<'_>) -> Vec<Declared> {
        stmt.columns()
            .zip(stmt.columns_with_metadata())
            .map(|(c, m)| Declared::of(&c, &m))
            .collect()
    }

    fn of(c: &rusqlite::Column<'_>, m: &rusqlite::ColumnMetadata<'_>) -> Declared {
        // A temporary table's column has no origin here: the catalog describes the
        // main database's tables.
        let origin = match (m.database_name(), m.table_name(), m.origin_name()) {
            (Some("main"), Some(table), Some(column)) => Some(Origin {
                table: table.to_string(),
                column: column.to_string(),
            }),
            _ => None,
        };
        Declared {
            name: c.name().to_string(),
            decl: c.decl_type().map(str::to_string),
            origin,
        }
    }
}

/// Runs a row-returning statement: its columns as declared, and its rows.
pub fn query_declared(
    conn: &Connection,
    sql: &str,
    params: &[Value],
) -> Result<(Vec<Declared>, Vec<Vec<Value>>), ExecError> {
    let mut stmt = prepare(conn, sql)?;
    let rows = run_rows(&mut stmt, params)?;
    Ok((Declared::all(&stmt), rows))
}

/// Statements longer than this are compiled for one run, not kept in the connection's
/// statement cache: a multi-row INSERT of a megabyte is rarely sent twice, and its compiled
/// program would hold its memory until a thousand others push it out.
const CACHED_SQL_MAX: usize = 4096;

/// A compiled statement: from the connection's cache, or for this run only.
enum Prepared<'c> {
    Cached(rusqlite::CachedStatement<'c>),
    Once(Statement<'c>),
}

impl<'c> std::ops::Deref for Prepared<'c> {
    type Target = Statement<'c>;
    fn deref(&self) -> &Statement<'c> {
        match self {
            Prepared::Cached(s) => s,
            Prepared::Once(s) => s,
        }
    }
}

impl<'c> std::ops::DerefMut for Prepared<'c> {
    fn deref_mut(&mut self) -> &mut Statement<'c> {
        match self {
            Prepared::Cached(s) => s,
            Prepared::Once(s) => s,
        }
    }
}

/// `sql` compiled: cached unless longer than [`CACHED_SQL_MAX`].
fn prepare<'c>(conn: &'c Connection, sql: &str) -> rusqlite::Result<Prepared<'c>> {
    if sql.len() > CACHED_SQL_MAX {
        conn.prepare(sql).map(Prepared::Once)
    } else {
        conn.prepare_cached(sql).map(Prepared::Cached)
    }
}

/// Binds and runs a statement, collecting its rows.
fn run_rows(stmt: &mut Statement<'_>, params: &[Value]) -> Result<Vec<Vec<Value>>, ExecError> {
    bind(stmt, params)?;
    tutti_storage::clear_assigned();
    let mut rows_out = Vec::new();
    let mut rows = stmt.raw_query();
    while let Some(row) = rows.next()? {
        let n = row.as_ref().column_count();
        let mut vals = Vec::with_capacity(n);
        for i in 0..n {
            let v = row.get_ref(i)?;
            if matches!(v, ValueRef::Real(r) if !r.is_finite()) {
                // SQLite's arithmetic overflows to infinity; MariaDB's is an error.
                let name = row.as_ref().column_name(i).unwrap_or("?");
                return Err(ExecError::ValueOutOfRange(format!(
                    "DOUBLE value is out of range in '{name}'"
                )));
            }
            vals.push(from_ref(v));
        }
        rows_out.push(vals);
    }
    Ok(rows_out)
}

/// Column names and types of a statement without running it (for COM_STMT_PREPARE).
/// Prepared afresh: a cached statement may still describe the schema before a change.
pub fn describe(conn: &Connection, sql: &str) -> Result<(usize, Vec<Column>), ExecError> {
    let stmt = conn.prepare(sql)?;
    let mut shape = Shape::of(&Declared::all(&stmt));
    for &i in &shape.by_values {
        shape.columns[i].kind = ColumnKind::Text;
    }
    Ok((stmt.parameter_count(), shape.columns))
}

/// Rolls a SQLite transaction back when dropped (errors and panics included).
struct Rollback<'a>(&'a Connection);

impl Drop for Rollback<'_> {
    fn drop(&mut self) {
        if !self.0.is_autocommit() {
            let _ = run_cached(self.0, "ROLLBACK");
        }
    }
}

/// Opens the throw-away transaction and re-applies the MySQL transaction's changes.
fn replay<'a>(
    w: &'a Connection,
    changes: &[u8],
    fk_actions: bool,
) -> Result<Rollback<'a>, ExecError> {
    run_cached(w, "BEGIN")?;
    let guard = Rollback(w);
    if let Err(c) = apply_changeset(w, changes, fk_actions) {
        tracing::debug!("transaction replay conflicts ({c}): a newer write-set changed its rows");
        return Err(ExecError::Deadlock);
    }
    Ok(guard)
}

/// Runs a SELECT on the writer, on top of the transaction's own changes.
pub fn query_in_txn(
    w: &Connection,
    changes: &[u8],
    fk_actions: bool,
    sql: &str,
    params: &[Value],
    known: Option<Arc<Shape>>,
) -> Result<ShapedRows, ExecError> {
    let _guard = replay(w, changes, fk_actions)?;
    query_shaped(w, sql, params, known)
}

/// Runs two SELECTs on the writer on top of the transaction's own changes, in one
/// replay (a locking read's key query and the read itself see the same state): the
/// keys' rows, and the read's shape and rows.
pub fn query_pair_in_txn(
    w: &Connection,
    changes: &[u8],
    fk_actions: bool,
    sql: (&str, &str),
    params: &[Value],
    known: Option<Arc<Shape>>,
) -> Result<(ResultSet, ShapedRows), ExecError> {
    let _guard = replay(w, changes, fk_actions)?;
    Ok((
        query(w, sql.0, params)?,
        query_shaped(w, sql.1, params, known)?,
    ))
}

/// What a captured write statement did.
#[derive(Debug)]
pub struct Captured {
    /// The whole MySQL transaction's changes so far, this statement included.
    pub changeset: Vec<u8>,
    /// The statement's own effect.
    pub written: Written,
}

/// How a statement's affected-row count is made, as MySQL defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Rows inserted or deleted (SQLite's own count).
    Changes,
    /// An UPDATE: rows whose values changed, or the rows matched with CLIENT_FOUND_ROWS.
    Update { found_rows: bool },
    /// INSERT ... ON DUPLICATE KEY UPDATE: 1 per row inserted, 2 per row updated, 0 per row
    /// set to its current values (1 with CLIENT_FOUND_ROWS).
    Upsert { found_rows: bool },
    /// REPLACE: rows inserted plus rows deleted to make room. `deletes_same`: a row in the
    /// way is deleted and the new one inserted even when they are the same (2 affected
    /// rows; see `TableInfo::replace_deletes_same`); otherwise it is updated in place, and
    /// one left as it was is not counted.
    Replace { deletes_same: bool },
}

impl Count {
    /// The count of a statement of `kind` into `table`.
    pub fn of(
        kind: tutti_sql::QueryKind,
        found_rows: bool,
        table: Option<&tutti_sql::TableInfo>,
    ) -> Count {
        use tutti_sql::QueryKind as K;
        match kind {
            K::Update => Count::Update { found_rows },
            K::Upsert => Count::Upsert { found_rows },
            K::Replace => Count::Replace {
                deletes_same: table.is_some_and(|t| t.replace_deletes_same()),
            },
            K::Select | K::Insert | K::Delete => Count::Changes,
        }
    }

    /// The affected rows: `changes` is SQLite's count, `rewritten` the rows an UPDATE (or an
    /// upsert's update) wrote, `net` the statement's own changes to its table.
    fn affected(self, changes: u64, rewritten: u64, net: &NetChanges) -> u64 {
        let changed = self.changed(net);
        match self {
            Count::Changes | Count::Update { found_rows: true } => changes,
            Count::Update { found_rows: false } => changed,
            Count::Upsert { found_rows } => {
                let inserted = changes.saturating_sub(rewritten);
                let unchanged = rewritten.saturating_sub(changed);
                inserted + 2 * changed + if found_rows { unchanged } else { 0 }
            }
            Count::Replace { .. } => changes + changed,
        }
    }

    /// The rows an UPDATE changed, an upsert updated or a REPLACE deleted to make room.
    fn changed(self, net: &NetChanges) -> u64 {
        match self {
            Count::Changes => 0,
            Count::Update { .. } => net.updates + net.moved(),
            Count::Upsert { .. } => net.updates,
            Count::Replace { deletes_same: true } => net.deletions,
            Count::Replace {
                deletes_same: false,
            } => net.deletes + net.updates,
        }
    }
}

/// Rows of one table a statement updated (values changed), deleted and inserted, from its
/// own changeset (a row set to its current values is not in it).
#[derive(Default)]
struct NetChanges {
    updates: u64,
    deletes: u64,
    inserts: u64,
    /// Row deletions, each one (a row REPLACE deleted and put back as it was included).
    deletions: u64,
}

impl NetChanges {
    /// Rows an UPDATE gave a new rowid (an INTEGER PRIMARY KEY set to another value): the
    /// changeset has them as a delete and an insert.
    fn moved(&self) -> u64 {
        self.deletes.min(self.inserts)
    }

    fn of(session: &mut SqliteSession<'_>, table: &str) -> Result<NetChanges, ExecError> {
        use rusqlite::fallible_streaming_iterator::FallibleStreamingIterator as _;
        use rusqlite::hooks::Action;
        let bytes = session.changeset()?;
        let mut input: &[u8] = &bytes;
        let reader: &mut dyn std::io::Read = &mut input;
        let mut it = rusqlite::session::ChangesetIter::start_strm(&reader)?;
        let mut net = NetChanges {
            deletions: session.deletes(),
            ..NetChanges::default()
        };
        while let Some(item) = it.next()? {
            let op = item.op()?;
            if op.table_name() != table {
                continue;
            }
            match op.code() {
                Action::SQLITE_UPDATE => net.updates += 1,
                Action::SQLITE_DELETE => net.deletes += 1,
                Action::SQLITE_INSERT => net.inserts += 1,
                _ => {}
            }
        }
        Ok(net)
    }
}

/// The AUTO_INCREMENT ids a write generates.
pub struct Ids {
    /// The SQLite name of its table.
    pub table: String,
    /// This node's `auto_increment_offset` and `auto_increment_increment`.
    pub grid: (u64, u64),
    /// How they are reserved and given back.
    pub plan: IdPlan,
}

impl Ids {
    /// The ids of a statement into `table`, as InnoDB's consecutive mode hands them out
    /// (or MyISAM, one at a time).
    pub fn new(table: String, grid: (u64, u64), ids: &tutti_sql::InsertIds) -> Ids {
        let reserve = match ids.values {
            _ if ids.one_at_a_time => Reserve::Each,
            Some(rows) => Reserve::Rows(rows),
            None => Reserve::Doubling,
        };
        let plan = IdPlan {
            reserve,
            restore: ids.restore,
        };
        Ids { table, grid, plan }
    }
}

/// What the write capture needs to know about the statement.
pub struct WriteStmt<'a> {
    /// SQLite SQL.
    pub sql: &'a str,
    /// Bound parameters.
    pub params: &'a [Value],
    /// The ids it generates, if any.
    pub autoinc: Option<Ids>,
    /// The ids are for a table's invisible key: SQLite's rowid without AUTOINCREMENT, not
    /// reported to the client.
    pub invisible_key: bool,
    /// The statement removes rows (for foreign-key error wording).
    pub deleting: bool,
    /// How its affected-row count is made.
    pub count: Count,
    /// The SQLite name of the table it writes.
    pub target: Option<String>,
    /// Its assignments mark the rows they change (see `tutti_sql::Query::marks_changes`).
    pub marks_changes: bool,
}

/// Captures a write statement's effect; the database is left unchanged. `copies` are the
/// session's temporary tables the statement reads.
pub(crate) fn capture(
    w: &Connection,
    autoinc: &AutoInc,
    changes: &[u8],
    fk_actions: bool,
    stmt: &WriteStmt<'_>,
    copies: &[TempCopy],
) -> Result<Captured, ExecError> {
    run_cached(w, "BEGIN")?;
    let _guard = Rollback(w);
    // Attached before the replay, so the session records the whole transaction.
    let mut session = SqliteSession::new(w)?;
    session.attach(None)?;
    if let Err(c) = apply_changeset(w, changes, fk_actions) {
        tracing::debug!("transaction replay conflicts ({c}): a newer write-set changed its rows");
        return Err(ExecError::Deadlock);
    }
    for copy in copies {
        copy.install(w)?;
    }
    let written = execute_write(w, autoinc, stmt, c"main")?;
    let changeset = session.changeset()?;
    Ok(Captured { changeset, written })
}

/// What a write statement did.
#[derive(Debug)]
pub struct Written {
    /// Rows it changed.
    pub affected: u64,
    /// SQLite's count of the rows it inserted, updated or deleted (an upsert's updates
    /// and a REPLACE's inserts included, the rows REPLACE deleted not).
    pub changes: u64,
    /// Rows of its table it changed (an UPDATE), updated (an upsert) or deleted to make
    /// room (a REPLACE).
    pub changed: u64,
    /// The rows the SELECT of an INSERT IGNORE ... SELECT offered.
    pub offered: Option<u64>,
    /// First AUTO_INCREMENT id it generated.
    pub insert_id: Option<i64>,
    /// Every row an UPDATE rewrote, changed or not: (SQLite table, rowid and current values).
    pub rewritten: Vec<(String, Vec<Value>)>,
}

/// Runs a write statement in the connection's open transaction and counts the rows it
/// affected as MySQL does; its target table is in `schema` (`main`, or `temp` for a
/// session's temporary table).
pub fn execute_write(
    w: &Connection,
    autoinc: &AutoInc,
    stmt: &WriteStmt<'_>,
    schema: &std::ffi::CStr,
) -> Result<Written, ExecError> {
    if let Some(ids) = &stmt.autoinc {
        // The largest id ever used: AUTOINCREMENT tables keep it in sqlite_sequence (updated
        // by every insert, replicated ones too), so ids are never reused, as in MySQL 8.
        let table = &ids.table;
        let quoted = table.replace('"', "\"\"");
        let max: i64 = if stmt.invisible_key {
            let sql = format!("SELECT coalesce(max(rowid), 0) FROM \"{quoted}\"");
            w.prepare_cached(&sql)?.query_row([], |r| r.get(0))?
        } else {
            let sql = format!(
                "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0), \
                 coalesce((SELECT max(rowid) FROM \"{quoted}\"), 0))"
            );
            w.prepare_cached(&sql)?.query_row([table], |r| r.get(0))?
        };
        autoinc.prepare(table, !stmt.invisible_key, max, ids.grid, ids.plan);
    }
    // The statement's own changes, when its count needs them and its assignments do not
    // mark the rows they change.
    let marked =
        stmt.marks_changes && matches!(stmt.count, Count::Update { .. } | Count::Upsert { .. });
    let mut own = match (stmt.count, &stmt.target) {
        (Count::Changes, _) | (_, None) => None,
        _ if marked => None,
        _ => {
            let mut s = SqliteSession::new_in(w, schema)?;
            s.attach(stmt.target.as_deref())?;
            Some(s)
        }
    };
    let matched = crate::matched::MatchedRows::start(w);
    let changes = {
        let mut s = prepare(w, stmt.sql)?;
        bind(&mut s, stmt.params)?;
        tutti_storage::clear_assigned();
        tutti_storage::clear_conditions();
        tutti_storage::clear_row_changed();
        tutti_storage::clear_offered();
        s.raw_execute()
            .map_err(|e| from_sqlite(&e, stmt.deleting))? as u64
    };
    let crate::matched::Rewrites {
        rows: rewritten,
        changed,
    } = matched.finish(stmt.target.as_deref())?;
    let net = match (&mut own, &stmt.target) {
        (Some(session), Some(table)) => NetChanges::of(session, table)?,
        _ if marked => NetChanges {
            updates: changed,
            ..NetChanges::default()
        },
        _ => NetChanges::default(),
    };
    drop(own);
    let of_target = rewritten
        .iter()
        .filter(|(t, _)| Some(t) == stmt.target.as_ref())
        .count();
    let affected = stmt.count.affected(changes, of_target as u64, &net);
    // Foreign keys are declared deferred (see tutti_storage::deferred_fk_violations):
    // the statement fails if it left any violation behind, as MySQL's check would.
    if deferred_fk_violations(w) > 0 {
        return Err(if stmt.deleting {
            ExecError::ForeignKeyParent
        } else {
            ExecError::ForeignKeyChild
        });
    }
    let insert_id = stmt
        .autoinc
        .as_ref()
        .filter(|_| !stmt.invisible_key)
        .and_then(|_| autoinc.first_generated());
    Ok(Written {
        affected,
        changes,
        changed: stmt.count.changed(&net),
        offered: tutti_storage::take_offered(),
        insert_id,
        rewritten,
    })
}
