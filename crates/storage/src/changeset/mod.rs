//! Applying a SQLite session changeset the way replication needs it.
//!
//! Any conflict aborts the apply and nothing of the changeset stays: after certification a
//! write-set must apply cleanly, so a conflict means the data differs, and it is reported,
//! never papered over. Two implementations with the same semantics:
//! - [`fast`]: walks the changeset with the session iterator and runs INSERT / UPDATE /
//!   DELETE statements from the connection's prepared-statement cache. SQLite's own apply
//!   prepares its statements and reads table info on every call, which made it the most
//!   expensive step of both the executor's per-statement replay and the applier.
//! - [`sqlite_apply`]: SQLite's `sqlite3changeset_apply_v2`, needed when foreign keys have
//!   actions (their effects are already in the changeset and must not fire again).

mod fast;
mod sqlite_apply;

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
    if fk_actions {
        sqlite_apply::apply(conn, changeset)
    } else {
        fast::apply(conn, changeset)
    }
}
