//! MySQL dialect → SQLite.
//!
//! Every statement a client sends is parsed with `sqlparser` (MySQL dialect) and translated
//! into something tutti can run: a SQLite statement (queries and DML), a replicated schema
//! change ([`tutti_wsrep::Ddl`], executed in total order), or a session command (BEGIN,
//! SET, USE, SHOW, ...). Translation is a pure function of the SQL text and an [`Env`] that
//! answers for the session (current database, variables) and the catalog (tables).
//!
//! Naming: tutti keeps every MySQL database in one SQLite file (one transaction can span
//! databases and the seqno update). A MySQL table `db.t` is the SQLite table `"db.t"`
//! (MySQL forbids `.` in database names, so the split is unambiguous), an index `i` on it is
//! `"db.t.i"`, and system tables have no dot, so users can never name them.

mod error;
mod types;

pub use error::SqlError;
pub use types::*;
pub use tutti_wsrep::Value;

/// Translates one client request (possibly several `;`-separated statements).
pub fn translate(sql: &str, env: &dyn Env) -> Result<Vec<Stmt>, SqlError> {
    let _ = (sql, env);
    Err(SqlError::Unsupported("the SQL front-end is being written".into()))
}
