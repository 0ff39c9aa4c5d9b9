//! Changeset apply with cached prepared statements.
//!
//! Same rules as SQLite's apply: an INSERT must not find its row, an UPDATE or DELETE must
//! find the row with the old values the changeset recorded (primary key, and the changed
//! columns for an UPDATE, every column for a DELETE), and foreign keys are checked once at
//! the end (they are declared deferred, since a changeset orders rows by table, not by
//! dependency). All of it inside a savepoint that is rolled back on any conflict.

use rusqlite::hooks::Action;
use rusqlite::session::{ChangesetItem, ChangesetIter};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::Connection;
use std::io::Read;

use super::ChangesetConflict;
use crate::{deferred_fk_violations, run_cached};

fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

pub(super) fn apply(conn: &Connection, changeset: &[u8]) -> Result<(), ChangesetConflict> {
    let before = deferred_fk_violations(conn);
    run_cached(conn, "SAVEPOINT tutti_apply")?;
    let mut result = apply_ops(conn, changeset);
    if result.is_ok() && deferred_fk_violations(conn) > before {
        result = Err(ChangesetConflict::ForeignKey);
    }
    if result.is_err() {
        run_cached(conn, "ROLLBACK TO tutti_apply")?;
    }
    run_cached(conn, "RELEASE tutti_apply")?;
    result
}

fn apply_ops(conn: &Connection, changeset: &[u8]) -> Result<(), ChangesetConflict> {
    use rusqlite::fallible_streaming_iterator::FallibleStreamingIterator as _;
    let mut input: &[u8] = changeset;
    let reader: &mut dyn Read = &mut input;
    let mut it = ChangesetIter::start_strm(&reader)?;
    let mut sql = String::with_capacity(256);
    let mut columns: Vec<String> = Vec::new();
    let mut current_table = String::new();
    while let Some(item) = it.next()? {
        let op = item.op()?;
        let table = op.table_name();
        let n = op.number_of_columns() as usize;
        if table != current_table || columns.len() != n {
            current_table = table.to_string();
            let select = format!("SELECT * FROM {} LIMIT 0", quote(table));
            columns = conn
                .prepare_cached(&select)?
                .column_names()
                .map(quote)
                .collect();
            if columns.len() != n {
                return Err(ChangesetConflict::Row("column count", current_table));
            }
        }
        let pk = item.pk()?.to_vec();
        let done = match op.code() {
            Action::SQLITE_INSERT => insert(conn, &mut sql, &current_table, &columns, item)?,
            Action::SQLITE_DELETE => delete(conn, &mut sql, &current_table, &columns, &pk, item)?,
            Action::SQLITE_UPDATE => update(conn, &mut sql, &current_table, &columns, &pk, item)?,
            _ => false,
        };
        if !done {
            let kind = match op.code() {
                Action::SQLITE_INSERT => "row exists",
                _ => "row not found or changed",
            };
            return Err(ChangesetConflict::Row(kind, current_table));
        }
    }
    Ok(())
}

fn bind(
    stmt: &mut rusqlite::CachedStatement<'_>,
    i: usize,
    v: ValueRef<'_>,
) -> rusqlite::Result<()> {
    stmt.raw_bind_parameter(i, ToSqlOutput::Borrowed(v))
}

fn insert(
    conn: &Connection,
    sql: &mut String,
    table: &str,
    cols: &[String],
    item: &ChangesetItem,
) -> Result<bool, ChangesetConflict> {
    sql.clear();
    sql.push_str(&format!("INSERT INTO {} (", quote(table)));
    sql.push_str(&cols.join(", "));
    sql.push_str(") VALUES (");
    for i in 0..cols.len() {
        sql.push_str(if i == 0 { "?" } else { ", ?" });
    }
    sql.push(')');
    let mut stmt = conn.prepare_cached(sql)?;
    for i in 0..cols.len() {
        bind(&mut stmt, i + 1, item.new_value(i)?)?;
    }
    match stmt.raw_execute() {
        Ok(_) => Ok(true),
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) => {
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// Appends `"a" = ?` / `"b" IS ?` conditions for the given columns.
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
    table: &str,
    cols: &[String],
    pk: &[u8],
    item: &ChangesetItem,
) -> Result<bool, ChangesetConflict> {
    sql.clear();
    sql.push_str(&format!("DELETE FROM {}", quote(table)));
    let all: Vec<usize> = (0..cols.len()).collect();
    conditions(sql, cols, &all, pk);
    let mut stmt = conn.prepare_cached(sql)?;
    for i in 0..cols.len() {
        bind(&mut stmt, i + 1, item.old_value(i)?)?;
    }
    Ok(stmt.raw_execute()? == 1)
}

fn update(
    conn: &Connection,
    sql: &mut String,
    table: &str,
    cols: &[String],
    pk: &[u8],
    item: &ChangesetItem,
) -> Result<bool, ChangesetConflict> {
    let changed: Vec<usize> = (0..cols.len())
        .filter(|i| item.new_value(*i).is_ok())
        .collect();
    if changed.is_empty() {
        return Ok(true);
    }
    let checked: Vec<usize> = (0..cols.len())
        .filter(|i| pk[*i] != 0 || item.old_value(*i).is_ok())
        .collect();
    sql.clear();
    sql.push_str(&format!("UPDATE {} SET ", quote(table)));
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
    match stmt.raw_execute() {
        Ok(n) => Ok(n == 1),
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) => {
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}
