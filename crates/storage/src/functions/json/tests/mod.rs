//! Unit tests of the JSON functions; expected values are MariaDB 10.11's answers.

mod build;
mod errors;
mod lookup;
mod marks;
mod modify;
mod parse;

use rusqlite::types::Value;
use rusqlite::Connection;

/// A connection with tutti's functions.
pub(super) fn conn() -> Connection {
    let c = Connection::open_in_memory().unwrap();
    crate::functions::register(&c).unwrap();
    c
}

/// The value of `SELECT <expr>`, as text ("NULL" for NULL).
pub(super) fn eval(c: &Connection, expr: &str) -> String {
    let v: Value = c
        .query_row(&format!("SELECT {expr}"), [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
    match v {
        Value::Null => "NULL".into(),
        Value::Integer(i) => i.to_string(),
        Value::Real(r) => r.to_string(),
        Value::Text(t) => t,
        Value::Blob(b) => String::from_utf8_lossy(&b).into_owned(),
    }
}

/// Checks each `(expression, MariaDB's answer)`.
pub(super) fn check(cases: &[(&str, &str)]) {
    let c = conn();
    let mut wrong = Vec::new();
    for (expr, want) in cases {
        let got = eval(&c, expr);
        if got != *want {
            wrong.push(format!("{expr}\n   got:  {got}\n   want: {want}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The error message of `SELECT <expr>`.
pub(super) fn error(expr: &str) -> String {
    let c = conn();
    match c.query_row(&format!("SELECT {expr}"), [], |r| r.get::<_, Value>(0)) {
        Ok(v) => panic!("{expr}: no error, {v:?}"),
        Err(e) => e.to_string(),
    }
}
