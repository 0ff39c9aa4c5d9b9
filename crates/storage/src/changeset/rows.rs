//! The row-by-row apply, with cached prepared statements.
//!
//! Same checks as SQLite's own apply: an INSERT must not find its primary key taken, an
//! UPDATE or DELETE must find its row with the old values the changeset recorded (primary
//! key, plus the changed columns for an UPDATE, every column for a DELETE), and foreign
//! keys are checked once at the end (tutti declares them deferred). All of it inside a
//! savepoint that is rolled back on any conflict.
//!
//! What differs is UNIQUE constraints other than the primary key. A changeset holds the
//! final state of every row it touches, and that final state satisfies every constraint
//! (it committed on its origin), but the rows come in an arbitrary order. So a row whose
//! INSERT or UPDATE hits a UNIQUE constraint is *set aside*: an INSERT is kept for later,
//! an UPDATE removes the row (after checking it as usual) and keeps its new version for
//! later. Once every change has been made, each row still in the table is either
//! untouched or in its final state, so the rows set aside go in without conflict — unless
//! this node's data differs, which is then reported like any other conflict. This covers
//! REPLACE moving a unique value, swaps of unique values (neither order works row by
//! row), and a value deleted and re-inserted under another key.

use rusqlite::ffi;
use rusqlite::hooks::Action;
use rusqlite::session::{ChangesetItem, ChangesetIter};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{CachedStatement, Connection};
use std::io::Read;

use super::columns::{self, quote};
use super::ChangesetConflict;
use crate::{deferred_fk_violations, run_cached};

pub(super) fn apply(conn: &Connection, changeset: &[u8]) -> Result<(), ChangesetConflict> {
    let before = deferred_fk_violations(conn);
    run_cached(conn, "SAVEPOINT tutti_apply")?;
    let mut result = apply_all(conn, changeset);
    if result.is_ok() && deferred_fk_violations(conn) > before {
        result = Err(ChangesetConflict::ForeignKey);
    }
    if result.is_err() {
        run_cached(conn, "ROLLBACK TO tutti_apply")?;
    }
    run_cached(conn, "RELEASE tutti_apply")?;
    result
}

/// A table of the changeset: its SQLite name and quoted column names.
struct Table {
    name: String,
    columns: Vec<String>,
}

/// A value copied out of the changeset or the table (text kept as bytes, exactly).
#[derive(Debug, Clone)]
enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

impl From<ValueRef<'_>> for Value {
    fn from(v: ValueRef<'_>) -> Value {
        match v {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(r) => Value::Real(r),
            ValueRef::Text(t) => Value::Text(t.to_vec()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        }
    }
}

impl Value {
    fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Value::Null => ValueRef::Null,
            Value::Integer(i) => ValueRef::Integer(*i),
            Value::Real(r) => ValueRef::Real(*r),
            Value::Text(t) => ValueRef::Text(t),
            Value::Blob(b) => ValueRef::Blob(b),
        }
    }
}

/// A row to insert once every other change is made: (index into the tables, values).
type SetAside = (usize, Vec<Value>);

/// What a single INSERT, UPDATE or DELETE did.
#[derive(Debug, PartialEq, Eq)]
enum Write {
    /// Exactly one row written.
    Done,
    /// No row matched (UPDATE / DELETE).
    Missing,
    /// A UNIQUE constraint other than the primary key was hit.
    UniqueTaken,
    /// The primary key is taken (INSERT).
    PrimaryKeyTaken,
}

fn apply_all(conn: &Connection, changeset: &[u8]) -> Result<(), ChangesetConflict> {
    use rusqlite::fallible_streaming_iterator::FallibleStreamingIterator as _;
    let mut input: &[u8] = changeset;
    let reader: &mut dyn Read = &mut input;
    let mut it = ChangesetIter::start_strm(&reader)?;
    let mut tables: Vec<Table> = Vec::new();
    let mut aside: Vec<SetAside> = Vec::new();
    let mut sql = String::with_capacity(256);
    while let Some(item) = it.next()? {
        let op = item.op()?;
        let t = table_index(conn, &mut tables, op.table_name(), op.number_of_columns())?;
        let table = &tables[t];
        let pk = item.pk()?.to_vec();
        let conflict = |kind| Err(ChangesetConflict::Row(kind, table.name.clone()));
        match op.code() {
            Action::SQLITE_INSERT => match insert(conn, &mut sql, table, |i| item.new_value(i))? {
                Write::Done => {}
                Write::UniqueTaken => aside.push((t, owned_new_row(table, item)?)),
                Write::PrimaryKeyTaken | Write::Missing => return conflict("row exists"),
            },
            Action::SQLITE_DELETE => match delete(conn, &mut sql, table, &pk, item)? {
                Write::Done => {}
                _ => return conflict("row not found or changed"),
            },
            Action::SQLITE_UPDATE => match update(conn, &mut sql, table, &pk, item)? {
                Write::Done => {}
                Write::UniqueTaken => match take_row(conn, &mut sql, table, &pk, item)? {
                    Some(row) => aside.push((t, row)),
                    None => return conflict("row not found or changed"),
                },
                Write::Missing | Write::PrimaryKeyTaken => {
                    return conflict("row not found or changed")
                }
            },
            _ => {}
        }
    }
    for (t, row) in &aside {
        let table = &tables[*t];
        match insert(conn, &mut sql, table, |i| Ok(row[i].as_ref()))? {
            Write::Done => {}
            Write::UniqueTaken => {
                return Err(ChangesetConflict::Row("unique key", table.name.clone()))
            }
            _ => return Err(ChangesetConflict::Row("row exists", table.name.clone())),
        }
    }
    Ok(())
}

/// The index of `name` in `tables`, reading its columns the first time it is seen.
fn table_index(
    conn: &Connection,
    tables: &mut Vec<Table>,
    name: &str,
    n: i32,
) -> Result<usize, ChangesetConflict> {
    let t = match tables.iter().position(|t| t.name == name) {
        Some(t) => t,
        None => {
            tables.push(Table {
                name: name.to_string(),
                columns: columns::of(conn, name, n as usize)?,
            });
            tables.len() - 1
        }
    };
    if tables[t].columns.len() != n as usize {
        return Err(ChangesetConflict::Row("column count", name.to_string()));
    }
    Ok(t)
}

fn owned_new_row(table: &Table, item: &ChangesetItem) -> rusqlite::Result<Vec<Value>> {
    (0..table.columns.len())
        .map(|i| item.new_value(i).map(Value::from))
        .collect()
}

fn bind(stmt: &mut CachedStatement<'_>, i: usize, v: ValueRef<'_>) -> rusqlite::Result<()> {
    stmt.raw_bind_parameter(i, ToSqlOutput::Borrowed(v))
}

/// Runs a bound INSERT / UPDATE / DELETE and says what it did.
fn run(stmt: &mut CachedStatement<'_>) -> Result<Write, ChangesetConflict> {
    match stmt.raw_execute() {
        Ok(1) => Ok(Write::Done),
        Ok(_) => Ok(Write::Missing),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == ffi::SQLITE_CONSTRAINT_UNIQUE =>
        {
            Ok(Write::UniqueTaken)
        }
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                || e.extended_code == ffi::SQLITE_CONSTRAINT_ROWID =>
        {
            Ok(Write::PrimaryKeyTaken)
        }
        Err(e) => Err(e.into()),
    }
}

fn insert<'v>(
    conn: &Connection,
    sql: &mut String,
    table: &Table,
    value: impl Fn(usize) -> rusqlite::Result<ValueRef<'v>>,
) -> Result<Write, ChangesetConflict> {
    let cols = &table.columns;
    sql.clear();
    sql.push_str("INSERT INTO ");
    sql.push_str(&quote(&table.name));
    sql.push_str(" (");
    sql.push_str(&cols.join(", "));
    sql.push_str(") VALUES (");
    for i in 0..cols.len() {
        sql.push_str(if i == 0 { "?" } else { ", ?" });
    }
    sql.push(')');
    let mut stmt = conn.prepare_cached(sql)?;
    for i in 0..cols.len() {
        bind(&mut stmt, i + 1, value(i)?)?;
    }
    run(&mut stmt)
}

/// Appends `WHERE "a" = ? AND "b" IS ?` for the given columns (`=` for key columns).
fn conditions(sql: &mut String, cols: &[String], which: &[usize], pk: &[u8]) {
    for (k, c) in which.iter().enumerate() {
        sql.push_str(if k == 0 { " WHERE " } else { " AND " });
        sql.push_str(&cols[*c]);
        sql.push_str(if pk[*c] != 0 { " = ?" } else { " IS ?" });
    }
}

fn delete(
    conn: &Connection,
    sql: &mut String,
    table: &Table,
    pk: &[u8],
    item: &ChangesetItem,
) -> Result<Write, ChangesetConflict> {
    let all: Vec<usize> = (0..table.columns.len()).collect();
    delete_where(conn, sql, table, &all, pk, |i| item.old_value(i))
}

/// `DELETE FROM table WHERE` the `which` columns equal `value(column)`.
fn delete_where<'v>(
    conn: &Connection,
    sql: &mut String,
    table: &Table,
    which: &[usize],
    pk: &[u8],
    value: impl Fn(usize) -> rusqlite::Result<ValueRef<'v>>,
) -> Result<Write, ChangesetConflict> {
    sql.clear();
    sql.push_str("DELETE FROM ");
    sql.push_str(&quote(&table.name));
    conditions(sql, &table.columns, which, pk);
    let mut stmt = conn.prepare_cached(sql)?;
    for (p, c) in which.iter().enumerate() {
        bind(&mut stmt, p + 1, value(*c)?)?;
    }
    run(&mut stmt)
}

/// Columns an UPDATE record checks: the primary key and every column with an old value.
fn checked_columns(n: usize, pk: &[u8], item: &ChangesetItem) -> Vec<usize> {
    (0..n)
        .filter(|i| pk[*i] != 0 || item.old_value(*i).is_ok())
        .collect()
}

fn update(
    conn: &Connection,
    sql: &mut String,
    table: &Table,
    pk: &[u8],
    item: &ChangesetItem,
) -> Result<Write, ChangesetConflict> {
    let cols = &table.columns;
    let changed: Vec<usize> = (0..cols.len())
        .filter(|i| item.new_value(*i).is_ok())
        .collect();
    if changed.is_empty() {
        return Ok(Write::Done);
    }
    let checked = checked_columns(cols.len(), pk, item);
    sql.clear();
    sql.push_str("UPDATE ");
    sql.push_str(&quote(&table.name));
    sql.push_str(" SET ");
    for (k, c) in changed.iter().enumerate() {
        if k > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&cols[*c]);
        sql.push_str(" = ?");
    }
    conditions(sql, cols, &checked, pk);
    let mut stmt = conn.prepare_cached(sql)?;
    let mut p = 1;
    for c in &changed {
        bind(&mut stmt, p, item.new_value(*c)?)?;
        p += 1;
    }
    for c in &checked {
        bind(&mut stmt, p, item.old_value(*c)?)?;
        p += 1;
    }
    run(&mut stmt)
}

/// For an UPDATE that hit a UNIQUE constraint: reads the row (checked like the UPDATE),
/// deletes it, and returns its new version (None if the row is not as recorded).
fn take_row(
    conn: &Connection,
    sql: &mut String,
    table: &Table,
    pk: &[u8],
    item: &ChangesetItem,
) -> Result<Option<Vec<Value>>, ChangesetConflict> {
    let cols = &table.columns;
    let checked = checked_columns(cols.len(), pk, item);
    sql.clear();
    sql.push_str("SELECT ");
    sql.push_str(&cols.join(", "));
    sql.push_str(" FROM ");
    sql.push_str(&quote(&table.name));
    conditions(sql, cols, &checked, pk);
    let mut row: Vec<Value> = {
        let mut stmt = conn.prepare_cached(sql)?;
        for (p, c) in checked.iter().enumerate() {
            bind(&mut stmt, p + 1, item.old_value(*c)?)?;
        }
        let mut rows = stmt.raw_query();
        let Some(r) = rows.next()? else {
            return Ok(None);
        };
        (0..cols.len())
            .map(|i| r.get_ref(i).map(Value::from))
            .collect::<rusqlite::Result<_>>()?
    };
    let keys: Vec<usize> = (0..cols.len()).filter(|i| pk[*i] != 0).collect();
    if delete_where(conn, sql, table, &keys, pk, |c| Ok(row[c].as_ref()))? != Write::Done {
        return Ok(None);
    }
    for (i, v) in row.iter_mut().enumerate() {
        if let Ok(new) = item.new_value(i) {
            *v = Value::from(new);
        }
    }
    Ok(Some(row))
}
