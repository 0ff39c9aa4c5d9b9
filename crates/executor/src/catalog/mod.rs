//! The catalog: what the executor knows about user tables, read from SQLite's schema.
//!
//! Table metadata serves the SQL front-end (columns, AUTO_INCREMENT column, indexes) and
//! certification keys (unique indexes, foreign keys). It is cached per table and dropped
//! whenever the storage's schema epoch moves (any applied schema change).

mod load;

pub(crate) use load::table as load_table;

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use tutti_sql::TableInfo;
use tutti_storage::Storage;

use crate::ExecError;

/// A key of a table's rows, as certification hashes it: a namespace and the columns whose
/// values make it, in the key's order (a foreign key hashes the same values in the same
/// order as the parent key it references).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDef {
    /// The key namespace: the table (its primary key) or a unique index.
    pub namespace: String,
    /// Column positions, in the key's order.
    pub columns: Vec<usize>,
}

/// Everything known about one table.
#[derive(Clone, Debug)]
pub struct TableMeta {
    /// The front-end's view.
    pub info: TableInfo,
    /// The primary key.
    pub primary: KeyDef,
    /// Unique indexes other than the primary key.
    pub uniques: Vec<KeyDef>,
    /// Foreign keys: the parent's key (namespace, order) over the child's columns.
    pub foreign_keys: Vec<KeyDef>,
    /// What a result set says of each column read as is, in column order.
    pub sent: Vec<crate::result::TableColumnDef>,
}

impl TableMeta {
    /// What a result set says of the column `name` read as is.
    pub fn sent_column(&self, name: &str) -> Option<crate::result::TableColumnDef> {
        let i = self.info.columns.iter().position(|c| c.name == name)?;
        self.sent.get(i).copied()
    }

    /// The columns of a row image (a changeset's row, the positions of the key
    /// definitions): the invisible key first for a table without PRIMARY KEY.
    pub fn image_columns(&self) -> Vec<&str> {
        let invisible = self
            .info
            .has_invisible_key()
            .then_some(tutti_sql::INVISIBLE_KEY);
        invisible
            .into_iter()
            .chain(self.info.columns.iter().map(|c| c.name.as_str()))
            .collect()
    }

    /// The number of values in a row image.
    pub fn image_len(&self) -> usize {
        self.info.columns.len() + usize::from(self.info.has_invisible_key())
    }
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
        let meta = load::table(&reader, sqlite_name)?.map(Arc::new);
        let mut c = self.cache.lock();
        if c.0 == epoch {
            c.1.insert(key, meta.clone());
        }
        Ok(meta)
    }

    /// Every user table and view of a database: (MySQL name, is_view).
    pub fn tables_of(&self, storage: &Storage, db: &str) -> Result<Vec<(String, bool)>, ExecError> {
        let list = self.definitions_of(storage, db)?;
        Ok(list.into_iter().map(|(t, view, _)| (t, view)).collect())
    }

    /// Every user table and view of a database with its SQLite definition: (MySQL name,
    /// is_view, SQL).
    pub fn definitions_of(
        &self,
        storage: &Storage,
        db: &str,
    ) -> Result<Vec<(String, bool, String)>, ExecError> {
        let reader = storage
            .reader()
            .map_err(|e| ExecError::Sqlite(e.to_string()))?;
        let prefix = format!("{db}.");
        let mut s = reader.prepare_cached(
            "SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table','view')
             AND substr(name, 1, ?2) = ?1 COLLATE NOCASE ORDER BY name",
        )?;
        // The prefix's length in characters (SQL `length()` counts bytes, as MySQL's does).
        let chars = prefix.chars().count() as i64;
        let rows = s.query_map(rusqlite::params![&prefix, chars], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)? == "view",
                r.get::<_, Option<String>>(2)?.unwrap_or_default(),
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (name, view, sql) = row?;
            out.push((name[prefix.len()..].to_string(), view, sql));
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
