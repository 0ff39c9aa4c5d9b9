//! Applying a SQLite session changeset the way replication needs it.
//!
//! A changeset is the *net* effect of a transaction, one change per primary key, grouped by
//! table in an order that has nothing to do with the order of the statements. Applied row
//! by row, its intermediate states can break a UNIQUE constraint that holds both before and
//! after: a REPLACE that moves a unique value to a new id, a swap of two unique values, a
//! DELETE and re-INSERT of the same value under another key. [`rows`] therefore sets such
//! rows aside and inserts them once every other change is in; after certification a
//! write-set from a consistent node always applies.
//!
//! Any other conflict (a row missing, a row whose old values differ, a primary key taken,
//! foreign keys left broken) means this node's data differs from the cluster's: the apply
//! is undone and the conflict returned, never papered over.
//!
//! Foreign-key *actions* (ON DELETE CASCADE, SET NULL, ...) already happened on the node
//! that ran the transaction and their effects are rows of the changeset; they must not fire
//! again. When the schema has any, enforcement is switched off for the apply (SQLite's own
//! `SQLITE_CHANGESETAPPLY_FKNOACTION` does the same; switching expires the connection's
//! prepared statements, so it is done only when the schema needs it).

mod columns;
mod rows;

use rusqlite::config::DbConfig;
use rusqlite::Connection;

/// Why a changeset did not apply.
#[derive(Debug)]
pub enum ChangesetConflict {
    /// A row conflicted: (conflict kind, table name).
    Row(&'static str, String),
    /// Foreign keys would be violated after the apply.
    ForeignKey,
    /// SQLite failed for another reason.
    Sqlite(rusqlite::Error),
}

impl std::fmt::Display for ChangesetConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChangesetConflict::Row(kind, table) => write!(f, "{kind} conflict on table {table}"),
            ChangesetConflict::ForeignKey => f.write_str("foreign key violation"),
            ChangesetConflict::Sqlite(e) => write!(f, "{e}"),
        }
    }
}

impl From<rusqlite::Error> for ChangesetConflict {
    fn from(e: rusqlite::Error) -> Self {
        ChangesetConflict::Sqlite(e)
    }
}

/// Applies `changeset` to the connection's current transaction; on any conflict nothing of
/// it is applied and the conflict is returned. `fk_actions`: the schema has foreign keys
/// with actions (see [`crate::Storage::fk_actions`]).
pub fn apply_changeset(
    conn: &Connection,
    changeset: &[u8],
    fk_actions: bool,
) -> Result<(), ChangesetConflict> {
    if changeset.is_empty() {
        return Ok(());
    }
    if !fk_actions {
        return rows::apply(conn, changeset);
    }
    let _off = ForeignKeysOff::new(conn)?;
    rows::apply(conn, changeset)
}

/// Foreign-key enforcement switched off for its lifetime (errors and panics included).
struct ForeignKeysOff<'a>(&'a Connection);

impl<'a> ForeignKeysOff<'a> {
    fn new(conn: &'a Connection) -> rusqlite::Result<Self> {
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_FKEY, false)?;
        Ok(ForeignKeysOff(conn))
    }
}

impl Drop for ForeignKeysOff<'_> {
    fn drop(&mut self) {
        if let Err(e) = self
            .0
            .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_FKEY, true)
        {
            // Cannot happen for a valid handle; without enforcement the node must not go on.
            panic!("cannot switch foreign keys back on: {e}");
        }
    }
}

#[cfg(test)]
mod tests;
