//! The catalog: what the executor knows about user tables, read from SQLite's schema.
//!
//! Table metadata serves the SQL front-end (columns, AUTO_INCREMENT column, indexes) and
//! certification keys (unique indexes, foreign keys). It is cached per table and dropped
//! whenever the storage's schema epoch moves (any applied schema change).

use parking_lot::Mutex;
use rusqlite::Connection;
use std::collections::HashMap;
use std::sync::Arc;
use tutti_sql::{ColumnInfo, IndexInfo, TableInfo, TableName};
use tutti_storage::Storage;

use crate::ExecError;

/// A foreign key of a table, as certification needs it.
#[derive(Clone, Debug)]
pub struct ForeignKey {
    /// The key namespace of the parent row: the parent table (references its primary
    /// key) or the parent's unique index.
    pub namespace: String,
    /// Child columns, by position.
    pub columns: Vec<usize>,
}

/// Everything known about one table.
#[derive(Clone, Debug)]
pub struct TableMeta {
    /// The front-end's view.
    pub info: TableInfo,
    /// Unique indexes other than the primary key: (key namespace, column positions).
    pub uniques: Vec<(String, Vec<usize>)>,
    /// Foreign keys.
    pub foreign_keys: Vec<ForeignKey>,
}

/// The key namespace of a table's rows (its primary key).
pub fn row_namespace(sqlite_table: &str) -> String {
    sqlite_table.to_ascii_lowercase()
}

/// Tables by lower-case SQLite name (None: known not to exist).
type Tables = HashMap<String, Option<Arc<TableMeta>>>;

/// Cached table metadata, valid for one schema epoch.
#[derive(Default)]
pub struct Catalog {
    cache: Mutex<(u64, Tables)>,
}

impl Catalog {
    /// Metadata of a table by SQLite name (None if it does not exist).
    pub fn table(
        &self,
        storage: &Storage,
        sqlite_name: &str,
    ) -> Result<Option<Arc<TableMeta>>, ExecError> {
        let epoch = storage.schema_epoch();
        let key = sqlite_name.to_ascii_lowercase();
        {
            let mut c = self.cache.lock();
            if c.0 != epoch {
                *c = (epoch, HashMap::new());
            }
            if let Some(hit) = c.1.get(&key) {
                return Ok(hit.clone());
            }
        }
        let reader = storage
            .reader()
            .map_err(|e| ExecError::Sqlite(e.to_string()))?;
        let meta = load(&reader, sqlite_name)?.map(Arc::new);
        let mut c = self.cache.lock();
        if c.0 == epoch {
            c.1.insert(key, meta.clone());
        }
        Ok(meta)
    }

    /// Every user table and view of a database: (MySQL name, is_view).
    pub fn tables_of(&self, storage: &Storage, db: &str) -> Result<Vec<(String, bool)>, ExecError> {
        let reader = storage
            .reader()
            .map_err(|e| ExecError::Sqlite(e.to_string()))?;
        let prefix = format!("{db}.");
        let mut s = reader.prepare_cached(
            "SELECT name, type FROM sqlite_schema WHERE type IN ('table','view')
             AND substr(name, 1, length(?1)) = ?1 COLLATE NOCASE ORDER BY name",
        )?;
        let rows = s.query_map([&prefix], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)? == "view"))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (name, view) = row?;
            out.push((name[prefix.len()..].to_string(), view));
        }
        Ok(out)
    }

    /// The SQL SQLite stored for a table (for SHOW CREATE TABLE).
    pub fn create_sql(
        &self,
        storage: &Storage,
        sqlite_name: &str,
    ) -> Result<Option<String>, ExecError> {
        let reader = storage
            .reader()
            .map_err(|e| ExecError::Sqlite(e.to_string()))?;
        let mut s = reader
            .prepare_cached("SELECT sql FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE")?;
        let mut rows = s.query([sqlite_name])?;
        Ok(match rows.next()? {
            Some(r) => r.get(0)?,
            None => None,
        })
    }
}

fn pk_columns(c: &Connection, table: &str) -> Result<Vec<String>, ExecError> {
    let mut s = c.prepare("SELECT name, pk FROM pragma_table_info(?1) WHERE pk > 0 ORDER BY pk")?;
    let rows = s.query_map([table], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn index_columns(c: &Connection, index: &str) -> Result<Vec<String>, ExecError> {
    let mut s = c.prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")?;
    let rows = s.query_map([index], |r| r.get::<_, Option<String>>(0))?;
    Ok(rows
        .filter_map(|r| r.transpose())
        .collect::<Result<_, _>>()?)
}

fn load(c: &Connection, table: &str) -> Result<Option<TableMeta>, ExecError> {
    let Some(name) = TableName::from_sqlite_name(table) else {
        return Ok(None);
    };
    let mut s = c.prepare(
        "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1) ORDER BY cid",
    )?;
    let columns: Vec<ColumnInfo> = s
        .query_map([table], |r| {
            Ok(ColumnInfo {
                name: r.get(0)?,
                decl_type: r.get(1)?,
                not_null: r.get::<_, i64>(2)? != 0,
                default: r.get(3)?,
                pk: r.get::<_, i64>(4)? as u32,
            })
        })?
        .collect::<Result<_, _>>()?;
    if columns.is_empty() {
        return Ok(None);
    }
    let pos = |col: &str| {
        columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(col))
    };
    let pks: Vec<&ColumnInfo> = columns.iter().filter(|c| c.pk > 0).collect();
    let autoinc = (pks.len() == 1 && pks[0].decl_type.eq_ignore_ascii_case("INTEGER"))
        .then(|| pks[0].name.clone());

    let mut indexes = Vec::new();
    let mut pk_sorted = pks.clone();
    pk_sorted.sort_by_key(|c| c.pk);
    if !pk_sorted.is_empty() {
        indexes.push(IndexInfo {
            name: "PRIMARY".into(),
            sqlite_name: String::new(),
            unique: true,
            columns: pk_sorted.iter().map(|c| c.name.clone()).collect(),
        });
    }
    let mut uniques = Vec::new();
    let mut s =
        c.prepare("SELECT name, \"unique\", origin FROM pragma_index_list(?1) ORDER BY seq DESC")?;
    let list: Vec<(String, bool, String)> = s
        .query_map([table], |r| {
            Ok((r.get(0)?, r.get::<_, i64>(1)? != 0, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    for (iname, unique, origin) in list {
        if origin == "pk" {
            continue;
        }
        let cols = index_columns(c, &iname)?;
        let prefix = format!("{table}.");
        let mysql_name =
            if iname.len() > prefix.len() && iname[..prefix.len()].eq_ignore_ascii_case(&prefix) {
                iname[prefix.len()..].to_string()
            } else {
                iname.clone()
            };
        if unique {
            let positions: Option<Vec<usize>> = cols.iter().map(|c| pos(c)).collect();
            if let Some(p) = positions {
                uniques.push((iname.to_ascii_lowercase(), p));
            }
        }
        indexes.push(IndexInfo {
            name: mysql_name,
            sqlite_name: iname,
            unique,
            columns: cols,
        });
    }

    let mut foreign_keys = Vec::new();
    let mut s = c.prepare(
        "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?1) ORDER BY id, seq",
    )?;
    let fk_rows: Vec<(i64, String, String, Option<String>)> = s
        .query_map([table], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<_, _>>()?;
    let mut i = 0;
    while i < fk_rows.len() {
        let id = fk_rows[i].0;
        let group: Vec<_> = fk_rows[i..].iter().take_while(|r| r.0 == id).collect();
        i += group.len();
        let parent = group[0].1.clone();
        let child_cols: Option<Vec<usize>> = group.iter().map(|r| pos(&r.2)).collect();
        let Some(child_cols) = child_cols else {
            continue;
        };
        let to: Vec<String> = group.iter().filter_map(|r| r.3.clone()).collect();
        let parent_pk = pk_columns(c, &parent)?;
        let refs_pk = to.is_empty()
            || to
                .iter()
                .map(|s| s.to_ascii_lowercase())
                .eq(parent_pk.iter().map(|s| s.to_ascii_lowercase()));
        let namespace = if refs_pk {
            row_namespace(&parent)
        } else {
            // The parent's unique index over exactly these columns.
            let mut s = c.prepare("SELECT name FROM pragma_index_list(?1) WHERE \"unique\" = 1")?;
            let names: Vec<String> = s
                .query_map([&parent], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            let mut found = None;
            for n in names {
                let cols = index_columns(c, &n)?;
                if cols
                    .iter()
                    .map(|s| s.to_ascii_lowercase())
                    .eq(to.iter().map(|s| s.to_ascii_lowercase()))
                {
                    found = Some(n.to_ascii_lowercase());
                    break;
                }
            }
            match found {
                Some(n) => n,
                None => continue,
            }
        };
        foreign_keys.push(ForeignKey {
            namespace,
            columns: child_cols,
        });
    }
    Ok(Some(TableMeta {
        info: TableInfo {
            name,
            columns,
            autoinc,
            indexes,
        },
        uniques,
        foreign_keys,
    }))
}
