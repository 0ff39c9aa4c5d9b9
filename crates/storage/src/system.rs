//! System tables: the node's position and the list of MySQL databases.
//!
//! `tutti_meta` holds the cluster uuid and the last applied seqno; the applier updates the
//! seqno in the same transaction as the data, so after any crash the database says exactly
//! which write-sets it contains. `tutti_databases` lists MySQL databases (SQLite has one
//! namespace; a database is a name prefix of its tables plus a row here).

use rusqlite::{params, Connection, OptionalExtension};
use tutti_wsrep::{ClusterUuid, Seqno};

use crate::StorageError;

/// What the system tables say about this node's data.
pub(crate) struct Stored {
    pub cluster: ClusterUuid,
    pub seqno: Seqno,
}

pub(crate) fn create(c: &Connection) -> Result<(), StorageError> {
    c.execute_batch(
        "CREATE TABLE IF NOT EXISTS tutti_meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
         CREATE TABLE IF NOT EXISTS tutti_databases(name TEXT PRIMARY KEY COLLATE NOCASE);
         INSERT OR IGNORE INTO tutti_meta(k, v) VALUES ('seqno', '0');
         INSERT OR IGNORE INTO tutti_meta(k, v) VALUES ('cluster_uuid', '');",
    )?;
    // A database's default collation (NULL: utf8mb4_general_ci), added to datadirs of
    // earlier versions.
    let has_collation: bool = c.query_row(
        "SELECT COUNT(*) > 0 FROM pragma_table_info('tutti_databases') WHERE name = 'collation'",
        [],
        |r| r.get(0),
    )?;
    if !has_collation {
        c.execute_batch("ALTER TABLE tutti_databases ADD COLUMN collation TEXT")?;
    }
    Ok(())
}

/// The applied seqno as this connection sees it (cached statement: hot path).
pub(crate) fn seqno(c: &Connection) -> Result<Seqno, StorageError> {
    let v: String = c
        .prepare_cached("SELECT v FROM tutti_meta WHERE k = 'seqno'")?
        .query_row([], |r| r.get(0))?;
    v.parse()
        .map_err(|_| StorageError::Corrupt("tutti_meta.seqno is not a number".into()))
}

pub(crate) fn load(c: &Connection) -> Result<Stored, StorageError> {
    let get = |k: &str| -> Result<String, StorageError> {
        Ok(c.query_row("SELECT v FROM tutti_meta WHERE k = ?1", [k], |r| r.get(0))?)
    };
    let seqno = get("seqno")?
        .parse()
        .map_err(|_| StorageError::Corrupt("tutti_meta.seqno is not a number".into()))?;
    let uuid = get("cluster_uuid")?;
    let cluster = if uuid.is_empty() {
        ClusterUuid::nil()
    } else {
        uuid.parse()
            .map_err(|_| StorageError::Corrupt(format!("bad cluster uuid {uuid:?}")))?
    };
    Ok(Stored { cluster, seqno })
}

pub(crate) fn set_cluster_uuid(c: &Connection, uuid: ClusterUuid) -> Result<(), StorageError> {
    c.execute(
        "UPDATE tutti_meta SET v = ?1 WHERE k = 'cluster_uuid'",
        [uuid.to_string()],
    )?;
    Ok(())
}

pub(crate) fn set_seqno(c: &Connection, seqno: Seqno) -> Result<(), StorageError> {
    c.prepare_cached("UPDATE tutti_meta SET v = ?1 WHERE k = 'seqno'")?
        .execute([seqno.to_string()])?;
    Ok(())
}

pub(crate) fn database_exists(c: &Connection, name: &str) -> rusqlite::Result<bool> {
    Ok(
        c.prepare_cached("SELECT 1 FROM tutti_databases WHERE name = ?1")?
            .query_row([name], |_| Ok(()))
            .optional()?
            .is_some(),
    )
}

pub(crate) fn add_database(
    c: &Connection,
    name: &str,
    collation: Option<&str>,
) -> rusqlite::Result<()> {
    c.execute(
        "INSERT INTO tutti_databases(name, collation) VALUES (?1, ?2)",
        params![name, collation],
    )?;
    Ok(())
}

pub(crate) fn set_database_collation(
    c: &Connection,
    name: &str,
    collation: &str,
) -> rusqlite::Result<()> {
    c.execute(
        "UPDATE tutti_databases SET collation = ?2 WHERE name = ?1",
        params![name, collation],
    )?;
    Ok(())
}

/// A database's default collation (None: the server's, or no such database).
pub(crate) fn database_collation(c: &Connection, name: &str) -> rusqlite::Result<Option<String>> {
    Ok(
        c.prepare_cached("SELECT collation FROM tutti_databases WHERE name = ?1")?
            .query_row([name], |r| r.get(0))
            .optional()?
            .flatten(),
    )
}

pub(crate) fn remove_database(c: &Connection, name: &str) -> rusqlite::Result<()> {
    c.execute("DELETE FROM tutti_databases WHERE name = ?1", params![name])?;
    Ok(())
}

/// Every table and view of a database: (type, sqlite name).
pub(crate) fn objects_of(c: &Connection, db: &str) -> rusqlite::Result<Vec<(String, String)>> {
    let prefix = format!("{db}.");
    let mut s = c.prepare(
        "SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view')
         AND substr(name, 1, ?2) = ?1 COLLATE NOCASE",
    )?;
    // The prefix's length in characters (SQL `length()` counts bytes, as MySQL's does).
    let chars = prefix.chars().count() as i64;
    let rows = s.query_map(rusqlite::params![prefix, chars], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
    rows.collect()
}

pub(crate) fn databases(c: &Connection) -> Result<Vec<String>, StorageError> {
    let mut s = c.prepare_cached("SELECT name FROM tutti_databases ORDER BY name")?;
    let rows = s.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_datadir_of_an_earlier_version_gets_database_collations() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(
            "CREATE TABLE tutti_databases(name TEXT PRIMARY KEY COLLATE NOCASE);
             INSERT INTO tutti_databases VALUES ('old');",
        )
        .unwrap();
        create(&c).unwrap();
        create(&c).unwrap();
        assert_eq!(database_collation(&c, "old").unwrap(), None);
        add_database(&c, "new", Some("utf8mb4_unicode_ci")).unwrap();
        set_database_collation(&c, "OLD", "latin1_swedish_ci").unwrap();
        assert_eq!(
            database_collation(&c, "new").unwrap().as_deref(),
            Some("utf8mb4_unicode_ci")
        );
        assert_eq!(
            database_collation(&c, "old").unwrap().as_deref(),
            Some("latin1_swedish_ci")
        );
    }
}
