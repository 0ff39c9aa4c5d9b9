//! End-to-end translation tests: `translate()` against a scripted [`TestEnv`], and execution
//! of the output on a real SQLite (`sqlite`).

use crate::testenv::TestEnv;
use crate::*;

mod misc;
mod queries;
mod schema;
mod sqlite;
mod writes;

/// The usual session: current database `app`, the sysbench table and a few others.
pub(crate) fn env() -> TestEnv {
    TestEnv::new()
        .with_db("app")
        .with_sbtest()
        .with_table(
            "app",
            "t",
            &[("id", "INT"), ("a", "INT"), ("b", "TEXT"), ("d", "TEXT")],
            &["id"],
            None,
            &[("ia", &["a"])],
        )
        .with_table(
            "app",
            "u",
            &[("id", "INTEGER"), ("a", "INT")],
            &["id"],
            Some("id"),
            &[],
        )
        .with_table(
            "app",
            "nk",
            &[("a", "INT"), ("b", "TEXT")],
            &[],
            Some(crate::INVISIBLE_KEY),
            &[],
        )
}

/// Translates one statement.
pub(crate) fn one(sql: &str) -> Result<Stmt, SqlError> {
    let mut v = translate(sql, &env())?;
    assert_eq!(v.len(), 1, "{v:?}");
    Ok(v.remove(0))
}

/// Translates one statement that must be a query.
pub(crate) fn q(sql: &str) -> Query {
    match one(sql) {
        Ok(Stmt::Query(q)) => q,
        other => panic!("{sql}: {other:?}"),
    }
}

/// The SQLite text of a query.
pub(crate) fn s(sql: &str) -> String {
    q(sql).sql
}

/// The error a statement fails with.
pub(crate) fn err(sql: &str) -> SqlError {
    match one(sql) {
        Err(e) => e,
        Ok(s) => panic!("{sql}: expected an error, got {s:?}"),
    }
}
