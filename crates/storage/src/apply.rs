//! Group apply: many ordered items per SQLite transaction, seqno written with the data.
//!
//! Items arrive in seqno order. Each is applied inside the batch's single transaction; the
//! last seqno is stored in `tutti_meta` before COMMIT, so the database always holds a
//! prefix of the history and says which one. Items at or below the stored seqno are
//! skipped (replaying the log after a crash is idempotent). A DDL that fails (e.g. `CREATE
//! DATABASE` of an existing name) fails identically on every node and changes nothing; a
//! row write-set that does not apply is an inconsistency: the batch stops right before it,
//! commits what preceded it, and reports it.

use rusqlite::Connection;
use tutti_wsrep::{Ddl, DdlFailure, Seqno};

use crate::changeset::{apply_changeset, ChangesetConflict};
use crate::{system, AutoInc, StorageError};

/// One ordered item to apply.
#[derive(Debug, Clone, Copy)]
pub struct ApplyItem<'a> {
    /// Its position in the total order.
    pub seqno: Seqno,
    /// What to do.
    pub op: ApplyOp<'a>,
}

/// What applying an item does.
#[derive(Debug, Clone, Copy)]
pub enum ApplyOp<'a> {
    /// Apply a row changeset.
    Rows(&'a [u8]),
    /// Execute a schema change.
    Ddl(&'a Ddl),
    /// Nothing to do but advance the seqno (failed certification, membership, no-op).
    Skip,
}

/// A schema change that failed on this node (and, being deterministic, on every node).
#[derive(Debug, thiserror::Error)]
pub(crate) enum DdlError {
    /// `CREATE DATABASE` of an existing database.
    #[error("Can't create database '{0}'; database exists")]
    DatabaseExists(String),
    /// The database does not exist.
    #[error("Unknown database '{0}'")]
    UnknownDatabase(String),
    /// `DROP DATABASE` of a missing database.
    #[error("Can't drop database '{0}'; database doesn't exist")]
    DropMissingDatabase(String),
    /// SQLite refused a statement.
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// The result of one item.
#[derive(Debug)]
pub enum Outcome {
    /// Rows applied.
    Applied,
    /// A schema change applied; `rows` are the rows it copied (see [`copied_rows`]).
    SchemaChanged { rows: u64 },
    /// Nothing to do (or already applied before).
    Skipped,
    /// The DDL failed; nothing changed.
    DdlFailed(DdlFailure),
}

/// The result of a batch.
#[derive(Debug)]
pub struct BatchResult {
    /// The seqno now stored with the data.
    pub applied: Seqno,
    /// One outcome per applied item, in order (shorter than the batch when it stopped).
    pub outcomes: Vec<Outcome>,
    /// The write-set that did not apply, if any: the node is inconsistent from there on.
    pub inconsistency: Option<StorageError>,
    /// A schema change was applied (cached table metadata is stale).
    pub schema_changed: bool,
}

pub(crate) fn apply_batch(
    c: &Connection,
    applied: Seqno,
    items: &[ApplyItem<'_>],
    fk_actions: &mut bool,
    autoinc: &AutoInc,
) -> Result<BatchResult, StorageError> {
    let mut result = BatchResult {
        applied,
        outcomes: Vec::with_capacity(items.len()),
        inconsistency: None,
        schema_changed: false,
    };
    if items.is_empty() {
        return Ok(result);
    }
    crate::run_cached(c, "BEGIN IMMEDIATE")?;
    match apply_items(c, items, &mut result, fk_actions, autoinc) {
        Ok(()) => {
            if result.applied > applied {
                system::set_seqno(c, result.applied)?;
            }
            crate::run_cached(c, "COMMIT")?;
            Ok(result)
        }
        Err(e) => {
            let _ = crate::run_cached(c, "ROLLBACK");
            Err(e)
        }
    }
}

fn apply_items(
    c: &Connection,
    items: &[ApplyItem<'_>],
    result: &mut BatchResult,
    fk_actions: &mut bool,
    autoinc: &AutoInc,
) -> Result<(), StorageError> {
    for item in items {
        if item.seqno <= result.applied {
            result.outcomes.push(Outcome::Skipped);
            continue;
        }
        let outcome = match item.op {
            ApplyOp::Skip => Outcome::Skipped,
            ApplyOp::Rows(cs) => match apply_changeset(c, cs, *fk_actions) {
                Ok(()) => Outcome::Applied,
                Err(ChangesetConflict::Sqlite(e)) if is_fatal(&e) => return Err(e.into()),
                Err(conflict) => {
                    result.inconsistency = Some(StorageError::Inconsistent {
                        seqno: item.seqno,
                        detail: conflict.to_string(),
                    });
                    return Ok(());
                }
            },
            ApplyOp::Ddl(ddl) => {
                // The ids this node reserved go where the schema change keeps them.
                autoinc.fold(c, "main")?;
                c.execute_batch("SAVEPOINT tutti_ddl")?;
                match run_ddl(c, ddl) {
                    Ok(rows) => {
                        c.execute_batch("RELEASE tutti_ddl")?;
                        result.schema_changed = true;
                        *fk_actions = has_fk_actions(c)?;
                        Outcome::SchemaChanged { rows }
                    }
                    Err(DdlError::Sqlite(e)) if is_fatal(&e) => return Err(e.into()),
                    Err(e) => {
                        c.execute_batch("ROLLBACK TO tutti_ddl; RELEASE tutti_ddl")?;
                        Outcome::DdlFailed(e.into())
                    }
                }
            }
        };
        result.outcomes.push(outcome);
        result.applied = item.seqno;
    }
    Ok(())
}

/// Errors that say the database itself cannot be written (disk full, I/O, corruption):
/// the batch fails as a whole and the node must stop, rather than record a wrong outcome.
fn is_fatal(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::*;
    matches!(
        e.sqlite_error_code(),
        Some(
            DiskFull
                | SystemIoFailure
                | DatabaseCorrupt
                | NotADatabase
                | CannotOpen
                | OutOfMemory
                | ReadOnly
        )
    )
}

/// Runs a schema change; returns the rows it copied.
fn run_ddl(c: &Connection, ddl: &Ddl) -> Result<u64, DdlError> {
    let exists = |db: &str| system::database_exists(c, db);
    match ddl {
        Ddl::CreateDatabase {
            name,
            if_not_exists,
            collation,
        } => {
            if exists(name)? {
                return if *if_not_exists {
                    Ok(0)
                } else {
                    Err(DdlError::DatabaseExists(name.clone()))
                };
            }
            system::add_database(c, name, collation.as_deref())?;
            Ok(0)
        }
        Ddl::AlterDatabase { name, collation } => {
            if !exists(name)? {
                return Err(DdlError::UnknownDatabase(name.clone()));
            }
            system::set_database_collation(c, name, collation)?;
            Ok(0)
        }
        Ddl::DropDatabase { name, if_exists } => {
            if !exists(name)? {
                return if *if_exists {
                    Ok(0)
                } else {
                    Err(DdlError::DropMissingDatabase(name.clone()))
                };
            }
            // Tables of one database may reference each other: check FKs at commit, when
            // all of them are gone.
            c.execute_batch("PRAGMA defer_foreign_keys = ON")?;
            let mut objects = system::objects_of(c, name)?;
            objects.sort_by(|a, b| b.0.cmp(&a.0)); // views before tables
            for (kind, obj) in objects {
                let kw = if kind == "view" { "VIEW" } else { "TABLE" };
                c.execute_batch(&format!("DROP {kw} \"{}\"", obj.replace('"', "\"\"")))?;
            }
            system::remove_database(c, name)?;
            Ok(0)
        }
        Ddl::Schema {
            database,
            statements,
        } => {
            if !exists(database)? {
                return Err(DdlError::UnknownDatabase(database.clone()));
            }
            let mut rows = 0;
            for s in statements {
                c.execute_batch(s)?;
                if copied_rows(s) {
                    rows += c.changes();
                }
            }
            Ok(rows)
        }
    }
}

/// True for the statements of a schema change whose rows count as its affected rows: an
/// `INSERT` into a user table (always a quoted name, `"db.t"`; the counter bookkeeping in
/// `sqlite_sequence` does not count).
fn copied_rows(statement: &str) -> bool {
    statement.starts_with("INSERT INTO \"")
}

impl From<DdlError> for DdlFailure {
    fn from(e: DdlError) -> DdlFailure {
        match e {
            DdlError::DatabaseExists(n) => DdlFailure::DatabaseExists(n),
            DdlError::UnknownDatabase(n) => DdlFailure::UnknownDatabase(n),
            DdlError::DropMissingDatabase(n) => DdlFailure::DropMissingDatabase(n),
            DdlError::Sqlite(e) => {
                let (code, message) = match &e {
                    rusqlite::Error::SqliteFailure(f, Some(m)) => (f.extended_code, m.clone()),
                    rusqlite::Error::SqlInputError { error, msg, .. } => {
                        (error.extended_code, msg.clone())
                    }
                    rusqlite::Error::SqliteFailure(f, None) => (f.extended_code, e.to_string()),
                    other => (rusqlite::ffi::SQLITE_ERROR, other.to_string()),
                };
                DdlFailure::Sqlite { code, message }
            }
        }
    }
}

/// True if any foreign key has an action (CASCADE, SET NULL, SET DEFAULT).
pub(crate) fn has_fk_actions(c: &Connection) -> rusqlite::Result<bool> {
    c.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema s, pragma_foreign_key_list(s.name) f
         WHERE s.type = 'table' AND (f.on_delete NOT IN ('NO ACTION', 'RESTRICT')
                                  OR f.on_update NOT IN ('NO ACTION', 'RESTRICT')))",
        [],
        |r| r.get(0),
    )
}
