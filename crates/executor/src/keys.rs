//! Certification keys of a write-set, read from its changeset.
//!
//! For every changed row: an exclusive key for its primary key (old and, if it changed,
//! new), exclusive keys for the unique-index values it takes or frees, shared keys for the
//! foreign-key parents it references, and a shared table key. Keys are stable 64-bit
//! hashes ([`tutti_wsrep::hash_key`]); a collision can only cause a needless conflict.
//!
//! Two transactions whose rows would collide in an index must share a key, or both pass
//! certification and the second cannot be applied anywhere. So a key hashes its values in
//! the key's own column order (a foreign key in its parent key's order), and an UPDATE
//! that changes only some columns of a composite key gets the others from the row itself
//! (a changeset records only changed columns), read from the committed database by
//! primary key. If that row changed since the transaction read it, the two transactions
//! already share the primary-key key.

use rusqlite::hooks::Action as Op;
use rusqlite::session::{ChangesetItem, ChangesetIter};
use rusqlite::types::ValueRef;
use std::collections::BTreeSet;
use std::io::Read;
use std::sync::Arc;
use tutti_wsrep::{hash_key, CertKeys, Value};

use crate::catalog::{row_namespace, KeyDef, TableMeta};
use crate::ExecError;

/// The key of a table as a whole (schema changes conflict with its writers).
pub fn table_key(sqlite_table: &str) -> u64 {
    hash_key(
        &format!("#table:{}", sqlite_table.to_ascii_lowercase()),
        &[],
    )
}

fn value(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// A row image: one value per column, None where the changeset has none.
pub type Image = Vec<Option<Value>>;

/// The old (before) or new (after) values a changeset item records.
fn image(item: &ChangesetItem, n: usize, new: bool) -> Image {
    (0..n)
        .map(|i| {
            let v = if new {
                item.new_value(i)
            } else {
                item.old_value(i)
            };
            v.ok().map(value)
        })
        .collect()
}

/// The hash of a key over a row image; None if a value is missing or NULL (NULLs never
/// conflict in unique indexes, and reference no parent).
fn key_of(def: &KeyDef, row: &[Option<Value>]) -> Option<u64> {
    let vals: Option<Vec<&Value>> = def
        .columns
        .iter()
        .map(|c| row.get(*c)?.as_ref().filter(|v| !v.is_null()))
        .collect();
    Some(hash_key(&def.namespace, &vals?))
}

/// Reads a row of the committed database by the primary key in `row` (see the module doc).
pub type CurrentRow<'a> =
    dyn FnMut(&TableMeta, &Image) -> Result<Option<Vec<Value>>, ExecError> + 'a;

/// What an UPDATE's images lack for a key it touches: filled from the current row, once.
struct Fill<'a, 'b> {
    meta: &'a TableMeta,
    current: &'a mut CurrentRow<'b>,
    row: Option<Option<Vec<Value>>>,
}

impl Fill<'_, '_> {
    fn complete(&mut self, def: &KeyDef, images: [&mut Image; 2]) -> Result<(), ExecError> {
        let missing = |img: &Image| def.columns.iter().any(|c| img[*c].is_none());
        if !images.iter().any(|i| missing(i)) {
            return Ok(());
        }
        if self.row.is_none() {
            let pk: Image = images[0].clone();
            self.row = Some((self.current)(self.meta, &pk)?);
        }
        if let Some(Some(row)) = &self.row {
            for img in images {
                for c in &def.columns {
                    if img[*c].is_none() {
                        img[*c] = row.get(*c).cloned();
                    }
                }
            }
        }
        Ok(())
    }
}

/// Extracts the keys of a changeset; `meta` looks up a table by SQLite name, `current`
/// reads a row of the committed database by primary key.
pub fn extract(
    changeset: &[u8],
    mut meta: impl FnMut(&str) -> Result<Option<Arc<TableMeta>>, ExecError>,
    current: &mut CurrentRow<'_>,
) -> Result<CertKeys, ExecError> {
    let (mut ex, mut sh, mut tables) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let mut input: &[u8] = changeset;
    let reader: &mut dyn Read = &mut input;
    let mut it = ChangesetIter::start_strm(&reader)?;
    use rusqlite::fallible_streaming_iterator::FallibleStreamingIterator as _;
    while let Some(item) = it.next()? {
        let op = item.op()?;
        let table = op.table_name().to_string();
        let n = op.number_of_columns() as usize;
        let code = op.code();
        tables.insert(table_key(&table));
        let m = meta(&table)?;
        let primary = match &m {
            Some(m) if m.image_len() == n => m.primary.clone(),
            // The table is gone or changed: its raw primary key still names the row.
            _ => KeyDef {
                namespace: row_namespace(&table),
                columns: (0..n)
                    .filter(|i| item.pk().is_ok_and(|p| p[*i] != 0))
                    .collect(),
            },
        };
        let mut old = match code {
            Op::SQLITE_DELETE | Op::SQLITE_UPDATE => image(item, n, false),
            _ => vec![None; n],
        };
        let new = match code {
            Op::SQLITE_INSERT | Op::SQLITE_UPDATE => image(item, n, true),
            _ => vec![None; n],
        };
        // After the change: new values where given, else the old ones (the primary key of
        // an UPDATE, whose unchanged columns are in neither image).
        let mut after: Image = if code == Op::SQLITE_DELETE {
            vec![None; n]
        } else {
            new.iter()
                .zip(&old)
                .map(|(b, a)| b.clone().or_else(|| a.clone()))
                .collect()
        };
        for row in [&old, &after] {
            ex.extend(key_of(&primary, row));
        }
        let Some(m) = m.filter(|m| m.image_len() == n) else {
            continue;
        };
        let touched = |def: &KeyDef| {
            code != Op::SQLITE_UPDATE || def.columns.iter().any(|c| new[*c].is_some())
        };
        let mut fill = Fill {
            meta: &m,
            current: &mut *current,
            row: None,
        };
        // Values an UPDATE frees or takes, the values an INSERT takes, a DELETE frees.
        for def in m.uniques.iter().filter(|d| touched(d)) {
            if code == Op::SQLITE_UPDATE {
                fill.complete(def, [&mut old, &mut after])?;
            }
            ex.extend(key_of(def, &old));
            ex.extend(key_of(def, &after));
        }
        for def in m.foreign_keys.iter().filter(|d| touched(d)) {
            if code == Op::SQLITE_DELETE {
                continue;
            }
            if code == Op::SQLITE_UPDATE {
                fill.complete(def, [&mut old, &mut after])?;
            }
            sh.extend(key_of(def, &after));
        }
    }
    Ok(CertKeys {
        exclusive: ex.into_iter().collect(),
        shared: sh.into_iter().collect(),
        tables: tables.into_iter().collect(),
    })
}

/// Reads a row by primary key on `conn` (the [`CurrentRow`] of the executor).
pub fn read_row(
    conn: &rusqlite::Connection,
    meta: &TableMeta,
    pk: &Image,
) -> Result<Option<Vec<Value>>, ExecError> {
    let cols = meta.image_columns();
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let list: Vec<String> = cols.iter().map(|c| quote(c)).collect();
    let mut sql = format!(
        "SELECT {} FROM {}",
        list.join(", "),
        quote(&meta.info.name.sqlite_name())
    );
    for (k, c) in meta.primary.columns.iter().enumerate() {
        sql.push_str(if k == 0 { " WHERE " } else { " AND " });
        sql.push_str(&list[*c]);
        sql.push_str(" = ?");
    }
    let mut stmt = conn.prepare_cached(&sql)?;
    for (k, c) in meta.primary.columns.iter().enumerate() {
        let Some(v) = pk.get(*c).cloned().flatten() else {
            return Ok(None);
        };
        stmt.raw_bind_parameter(k + 1, crate::sqlite::to_sql(&v))?;
    }
    let mut rows = stmt.raw_query();
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    let n = row.as_ref().column_count();
    (0..n)
        .map(|i| {
            row.get_ref(i)
                .map(crate::sqlite::from_ref)
                .map_err(Into::into)
        })
        .collect::<Result<Vec<_>, ExecError>>()
        .map(Some)
}

/// The keys of a changeset on this executor: its catalog, and rows read on a reader.
pub(crate) fn of(exec: &crate::Executor, changeset: &[u8]) -> Result<CertKeys, ExecError> {
    let mut reader = None;
    let mut current = |meta: &TableMeta, pk: &Image| {
        if reader.is_none() {
            reader = Some(
                exec.storage
                    .reader()
                    .map_err(|e| ExecError::Sqlite(e.to_string()))?,
            );
        }
        match reader.as_ref() {
            Some(r) => read_row(r, meta, pk),
            None => Ok(None),
        }
    };
    extract(
        changeset,
        |t| exec.catalog.table(&exec.storage, t),
        &mut current,
    )
}

/// The primary-key key of a row of `meta`'s table, from its rowid and its values in column
/// order.
pub fn row_key(meta: &TableMeta, rowid_and_row: &[Value]) -> Option<u64> {
    let skip = usize::from(!meta.info.has_invisible_key());
    let image: Image = rowid_and_row.iter().skip(skip).cloned().map(Some).collect();
    key_of(&meta.primary, &image)
}
