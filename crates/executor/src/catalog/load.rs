//! Reading one table's metadata from SQLite's schema pragmas.
//!
//! Key definitions follow what SQLite enforces: the primary key in its declared order, a
//! unique index in its index order, a foreign key in the order of the parent key it
//! references (so a child and its parent hash the same values in the same order).

use rusqlite::Connection;
use tutti_sql::{ColumnInfo, IndexInfo, TableInfo, TableName, INVISIBLE_KEY};

use super::{row_namespace, KeyDef, TableMeta};
use crate::ExecError;

/// An index's key columns in index order (None for an index over expressions).
fn index_key(c: &Connection, index: &str) -> Result<Option<Vec<String>>, ExecError> {
    let mut s = c.prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")?;
    let rows = s.query_map([index], |r| r.get::<_, Option<String>>(0))?;
    rows.collect::<Result<Option<Vec<_>>, _>>()
        .map_err(Into::into)
}

/// (name, unique, origin) of every index of a table.
fn index_list(c: &Connection, table: &str) -> Result<Vec<(String, bool, String)>, ExecError> {
    let mut s =
        c.prepare("SELECT name, \"unique\", origin FROM pragma_index_list(?1) ORDER BY seq DESC")?;
    let rows = s.query_map([table], |r| {
        Ok((r.get(0)?, r.get::<_, i64>(1)? != 0, r.get(2)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn columns_of(c: &Connection, table: &str) -> Result<Vec<ColumnInfo>, ExecError> {
    let mut s = c.prepare(
        "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1) ORDER BY cid",
    )?;
    let rows = s.query_map([table], |r| {
        Ok(ColumnInfo {
            name: r.get(0)?,
            decl_type: r.get(1)?,
            not_null: r.get::<_, i64>(2)? != 0,
            default: r.get(3)?,
            pk: r.get::<_, i64>(4)? as u32,
            computed: None,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The AUTO_INCREMENT column is declared `INTEGER` in SQLite (the rowid alias); its MySQL
/// type is kept in a comment of the table's definition (see `tutti_sql::AUTOINC_TYPE_MARK`).
fn declare_autoinc_type(create_sql: &str, column: &str, columns: &mut [ColumnInfo]) {
    if let Some(ty) = tutti_sql::autoinc_declared_type(create_sql) {
        if let Some(col) = columns.iter_mut().find(|c| c.name == column) {
            col.decl_type = ty.to_string();
        }
    }
}

/// The table's SQLite definition (a temporary table's, on a session's own connection).
fn create_sql(c: &Connection, table: &str) -> Result<String, ExecError> {
    let sql: Option<String> = c
        .prepare_cached(
            "SELECT sql FROM temp.sqlite_schema WHERE name = ?1 \
             UNION ALL SELECT sql FROM main.sqlite_schema WHERE name = ?1 LIMIT 1",
        )?
        .query_row([table], |r| r.get(0))?;
    Ok(sql.unwrap_or_default())
}

/// True if another table's foreign key references this one.
fn referenced(c: &Connection, table: &str) -> Result<bool, ExecError> {
    Ok(c.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema s, pragma_foreign_key_list(s.name) f
         WHERE s.type = 'table' AND s.name <> ?1 AND f.\"table\" = ?1 COLLATE NOCASE)",
    )?
    .query_row([table], |r| r.get(0))?)
}

/// A table's primary key columns, in key order.
fn primary_key(c: &Connection, table: &str) -> Result<Vec<String>, ExecError> {
    let mut cols: Vec<ColumnInfo> = columns_of(c, table)?
        .into_iter()
        .filter(|c| c.pk > 0)
        .collect();
    cols.sort_by_key(|c| c.pk);
    Ok(cols.into_iter().map(|c| c.name).collect())
}

/// A key over the columns of a row image (see [`TableMeta::image_columns`]).
fn key_def(namespace: String, key: &[String], image: &[&str]) -> Option<KeyDef> {
    let positions: Option<Vec<usize>> = key
        .iter()
        .map(|n| image.iter().position(|c| c.eq_ignore_ascii_case(n)))
        .collect();
    Some(KeyDef {
        namespace,
        columns: positions?,
    })
}

/// Metadata of a table by SQLite name (None if it does not exist).
pub(crate) fn table(c: &Connection, table: &str) -> Result<Option<TableMeta>, ExecError> {
    let Some(name) = TableName::from_sqlite_name(table) else {
        return Ok(None);
    };
    let columns = match columns_of(c, table) {
        Ok(columns) if !columns.is_empty() => columns,
        _ => return broken_view(c, table, name),
    };
    let pk = primary_key(c, table)?;
    // A table without PRIMARY KEY is keyed by its rowid, the invisible key.
    let invisible = pk.is_empty().then_some(INVISIBLE_KEY);
    let image: Vec<&str> = invisible
        .into_iter()
        .chain(columns.iter().map(|c| c.name.as_str()))
        .collect();
    let key = match invisible {
        Some(k) => vec![k.to_string()],
        None => pk.clone(),
    };
    let primary = key_def(row_namespace(table), &key, &image).ok_or_else(|| {
        ExecError::Sqlite(format!("table {table}: primary key columns not found"))
    })?;
    let autoinc = match invisible {
        Some(k) => Some(k.to_string()),
        None => {
            let pk_info: Vec<&ColumnInfo> = primary.columns.iter().map(|p| &columns[*p]).collect();
            (pk_info.len() == 1 && pk_info[0].decl_type.eq_ignore_ascii_case("INTEGER"))
                .then(|| pk_info[0].name.clone())
        }
    };
    let mut indexes = Vec::new();
    if !pk.is_empty() {
        indexes.push(IndexInfo {
            name: "PRIMARY".into(),
            sqlite_name: String::new(),
            unique: true,
            columns: pk.clone(),
        });
    }
    let mut uniques = Vec::new();
    for (iname, unique, origin) in index_list(c, table)? {
        if origin == "pk" {
            continue;
        }
        let key = index_key(c, &iname)?;
        if unique {
            if let Some(k) = key
                .as_ref()
                .and_then(|k| key_def(iname.to_ascii_lowercase(), k, &image))
            {
                uniques.push(k);
            }
        }
        let prefix = format!("{table}.");
        let mysql_name =
            if iname.len() > prefix.len() && iname[..prefix.len()].eq_ignore_ascii_case(&prefix) {
                iname[prefix.len()..].to_string()
            } else {
                iname.clone()
            };
        indexes.push(IndexInfo {
            name: mysql_name,
            sqlite_name: iname,
            unique,
            columns: key.unwrap_or_default(),
        });
    }
    let foreign_keys = foreign_keys(c, table, &image)?;
    let mut columns = columns;
    let create_sql = create_sql(c, table)?;
    if let Some(col) = autoinc.as_deref().filter(|_| invisible.is_none()) {
        declare_autoinc_type(&create_sql, col, &mut columns);
    }
    for (name, decl) in tutti_sql::view_decimal_columns(&create_sql) {
        if let Some(c) = columns.iter_mut().find(|c| c.name == name) {
            c.decl_type = decl;
        }
    }
    let info = TableInfo {
        name,
        columns,
        autoinc,
        indexes,
        referenced: referenced(c, table)?,
        create_sql,
    };
    Ok(Some(TableMeta {
        sent: crate::column_def::table_defs(&info),
        info,
        primary,
        uniques,
        foreign_keys,
    }))
}

/// A view whose columns SQLite cannot work out (a table it reads was dropped): known by
/// its definition alone, without columns, so that it can still be dropped or replaced.
fn broken_view(
    c: &Connection,
    table: &str,
    name: TableName,
) -> Result<Option<TableMeta>, ExecError> {
    let Ok(create_sql) = create_sql(c, table) else {
        return Ok(None);
    };
    let info = TableInfo {
        name,
        columns: vec![],
        autoinc: None,
        indexes: vec![],
        referenced: false,
        create_sql,
    };
    if !info.is_view() {
        return Ok(None);
    }
    let key = [INVISIBLE_KEY.to_string()];
    let primary = key_def(row_namespace(table), &key, &[INVISIBLE_KEY])
        .ok_or_else(|| ExecError::Sqlite(format!("view {table}: no key")))?;
    Ok(Some(TableMeta {
        info,
        primary,
        uniques: vec![],
        foreign_keys: vec![],
        sent: vec![],
    }))
}

/// The foreign keys of a table, each as the parent's key over the child's columns.
fn foreign_keys(c: &Connection, table: &str, image: &[&str]) -> Result<Vec<KeyDef>, ExecError> {
    let mut s = c.prepare(
        "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?1) ORDER BY id, seq",
    )?;
    let rows: Vec<(i64, String, String, Option<String>)> = s
        .query_map([table], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for group in rows.chunk_by(|a, b| a.0 == b.0) {
        let parent = &group[0].1;
        // (child column, parent column) pairs; without parent columns, the parent's
        // primary key in its order.
        let parent_pk = primary_key(c, parent)?;
        let pairs: Vec<(String, String)> = group
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let to = r.3.clone().or_else(|| parent_pk.get(i).cloned());
                (r.2.clone(), to.unwrap_or_default())
            })
            .collect();
        let same = |a: &[String]| {
            a.len() == pairs.len()
                && a.iter()
                    .all(|n| pairs.iter().any(|(_, to)| to.eq_ignore_ascii_case(n)))
        };
        let (namespace, parent_key) = if same(&parent_pk) {
            (row_namespace(parent), parent_pk)
        } else {
            let mut found = None;
            for (iname, unique, _) in index_list(c, parent)? {
                if let Some(k) = index_key(c, &iname)?.filter(|k| unique && same(k)) {
                    found = Some((iname.to_ascii_lowercase(), k));
                    break;
                }
            }
            match found {
                Some(f) => f,
                None => continue,
            }
        };
        // The child's columns in the parent key's order.
        let child_key: Option<Vec<String>> = parent_key
            .iter()
            .map(|pcol| {
                pairs
                    .iter()
                    .find(|(_, to)| to.eq_ignore_ascii_case(pcol))
                    .map(|(from, _)| from.clone())
            })
            .collect();
        if let Some(k) = child_key.and_then(|k| key_def(namespace, &k, image)) {
            out.push(k);
        }
    }
    Ok(out)
}
