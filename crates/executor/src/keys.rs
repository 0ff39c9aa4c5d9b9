//! Certification keys of a write-set, read from its changeset.
//!
//! For every changed row: an exclusive key for its primary key (old and, if it changed,
//! new), exclusive keys for the unique-index values it takes or frees, shared keys for the
//! foreign-key parents it references, and a shared table key. Keys are stable 64-bit
//! hashes ([`tutti_wsrep::hash_key`]); a collision can only cause a needless conflict.

use rusqlite::hooks::Action as Op;
use rusqlite::session::{ChangesetItem, ChangesetIter};
use rusqlite::types::ValueRef;
use std::collections::BTreeSet;
use std::io::Read;
use std::sync::Arc;
use tutti_wsrep::{hash_key, CertKeys, Value};

use crate::catalog::{row_namespace, TableMeta};
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

/// The row image a key is computed from: old (before) or new (after) values.
fn image(item: &ChangesetItem, n: usize, new: bool) -> Vec<Option<Value>> {
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

fn key_of(namespace: &str, row: &[Option<Value>], cols: &[usize]) -> Option<u64> {
    let vals: Option<Vec<&Value>> = cols
        .iter()
        .map(|c| row.get(*c).and_then(|v| v.as_ref()))
        .collect();
    let vals = vals?;
    if vals.iter().any(|v| v.is_null()) {
        return None; // NULLs never conflict in unique indexes, and reference no parent
    }
    Some(hash_key(namespace, &vals))
}

/// Extracts the keys of a changeset; `meta` looks up a table by SQLite name.
pub fn extract(
    changeset: &[u8],
    mut meta: impl FnMut(&str) -> Result<Option<Arc<TableMeta>>, ExecError>,
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
        let pk_cols: Vec<usize> = item
            .pk()?
            .iter()
            .enumerate()
            .filter(|(_, f)| **f != 0)
            .map(|(i, _)| i)
            .collect();
        tables.insert(table_key(&table));
        let ns = row_namespace(&table);
        let old =
            matches!(code, Op::SQLITE_DELETE | Op::SQLITE_UPDATE).then(|| image(item, n, false));
        let new =
            matches!(code, Op::SQLITE_INSERT | Op::SQLITE_UPDATE).then(|| image(item, n, true));
        // For an UPDATE, unchanged columns are only in the old image (PK) or nowhere:
        // merge so that new values win and PK values come from the old image.
        let after: Option<Vec<Option<Value>>> = match (&old, &new) {
            (Some(o), Some(nw)) => Some(
                o.iter()
                    .zip(nw)
                    .map(|(a, b)| b.clone().or_else(|| a.clone()))
                    .collect(),
            ),
            (None, Some(nw)) => Some(nw.clone()),
            _ => None,
        };
        for row in [&old, &after].into_iter().flatten() {
            if let Some(k) = key_of(&ns, row, &pk_cols) {
                ex.insert(k);
            }
        }
        let Some(m) = meta(&table)? else { continue };
        for (ins, cols) in &m.uniques {
            // Values an UPDATE frees or takes, the values an INSERT takes, a DELETE frees.
            let changed =
                |row: &Option<Vec<Option<Value>>>| row.as_ref().and_then(|r| key_of(ins, r, cols));
            if code == Op::SQLITE_UPDATE {
                let touched = cols
                    .iter()
                    .any(|c| new.as_ref().is_some_and(|nw| nw[*c].is_some()));
                if !touched {
                    continue;
                }
            }
            for k in [changed(&old), changed(&after)].into_iter().flatten() {
                ex.insert(k);
            }
        }
        if let Some(after) = &after {
            for fk in &m.foreign_keys {
                if code == Op::SQLITE_UPDATE
                    && !fk
                        .columns
                        .iter()
                        .any(|c| new.as_ref().is_some_and(|nw| nw[*c].is_some()))
                {
                    continue;
                }
                if let Some(k) = key_of(&fk.namespace, after, &fk.columns) {
                    sh.insert(k);
                }
            }
        }
    }
    Ok(CertKeys {
        exclusive: ex.into_iter().collect(),
        shared: sh.into_iter().collect(),
        tables: tables.into_iter().collect(),
    })
}
