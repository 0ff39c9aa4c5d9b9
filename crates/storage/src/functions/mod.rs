//! MySQL functions SQLite lacks, registered on every connection, and `tutti_autoinc()`
//! (see [`crate::autoinc`]).
//!
//! The SQL front-end leaves function calls alone, so MySQL's names must exist in SQLite
//! with MySQL's behaviour: `NOW()`, `UNIX_TIMESTAMP()`, `CONCAT()` (NULL if any argument
//! is NULL, unlike SQLite's), `DATE_FORMAT()`, ... Time is UTC. Non-deterministic functions
//! are safe in writes because tutti replicates the resulting rows, not the statement.

mod aes;
mod aggregate;
mod big_unsigned;
mod bit_sets;
mod bits;
mod calendar;
mod changed;
mod charset_bytes;
mod clock;
mod collations;
mod crypt;
mod decimal;
mod diagnostics;
mod duplicate;
mod enums;
mod gcvt;
mod general_ci;
mod hash;
mod interval;
mod json;
mod like;
mod limit;
mod locale;
mod math;
mod network;
mod offered;
mod random;
mod regex;
mod settings;
mod stored;
mod string;
mod temporal;
mod temporal_round;
mod time;
mod time_order;
mod time_parts;
mod timestamps;
mod uca;
mod unsigned;
mod user_locks;
mod utf8_convert;
mod variables;

pub use big_unsigned::decode as big_unsigned_value;
pub use changed::{clear_row_changed, take_row_changed};
pub use diagnostics::{clear_conditions, raise, take_conditions, warn, Condition, Level, MAX_KEPT};
pub use duplicate::DUPLICATE_ENTRY;
use gcvt::double_text;
pub use gcvt::real_text;
pub use limit::{LIMIT_NEGATIVE, LIMIT_NOT_INTEGER};
pub use offered::{clear_offered, take_offered};
pub use settings::{set_function_settings, FunctionSettings, TimeZone};
pub use stored::{
    temporal_default, DATA_TOO_LONG, DATA_TRUNCATED, INCORRECT_LITERAL, INCORRECT_TEMPORAL,
    INCORRECT_VALUE, OUT_OF_RANGE, TRUNCATED_INCORRECT,
};
pub use timestamps::{session_in_utc, timestamp_in_session};
pub use user_locks::{release_all_locks, set_current_connection, WAIT_ON_WRITER};
pub use variables::{clear_assigned, take_assigned, Assigned};

use crate::autoinc::AutoInc;
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, Error, Result};
use std::sync::Arc;

const PURE: FunctionFlags = FunctionFlags::SQLITE_UTF8.union(FunctionFlags::SQLITE_DETERMINISTIC);
const VOLATILE: FunctionFlags = FunctionFlags::SQLITE_UTF8;

/// The result of CONCAT and CONCAT_WS, piece by piece.
#[derive(Default)]
struct Joined {
    bytes: Vec<u8>,
    /// A piece was binary: so is the whole.
    binary: bool,
}

impl Joined {
    fn push(&mut self, v: ValueRef<'_>) {
        match v {
            ValueRef::Blob(b) => {
                self.binary = true;
                self.bytes.extend_from_slice(b);
            }
            v => self.bytes.extend_from_slice(text_of(v).as_bytes()),
        }
    }

    /// The value, NULL when longer than max_allowed_packet.
    fn finish(self) -> Option<SqlValue> {
        if self.bytes.len() > MAX_ALLOWED_PACKET {
            None
        } else if self.binary {
            Some(SqlValue::Blob(self.bytes))
        } else {
            // the pieces are UTF-8 text: the whole is
            Some(SqlValue::Text(
                String::from_utf8(self.bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            ))
        }
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    time::register(c)?;
    calendar::register(c)?;
    big_unsigned::register(c)?;
    changed::register(c)?;
    offered::register(c)?;
    interval::register(c)?;
    time_parts::register(c)?;
    clock::register(c)?;
    temporal_round::register(c)?;
    utf8_convert::register(c)?;
    charset_bytes::register(c)?;
    math::register(c)?;
    string::register(c)?;
    enums::register(c)?;
    hash::register(c)?;
    crypt::register(c)?;
    aes::register(c)?;
    network::register(c)?;
    bit_sets::register(c)?;
    random::register(c)?;
    regex::register(c)?;
    json::register(c)?;
    like::register(c)?;
    limit::register(c)?;
    aggregate::register(c)?;
    decimal::register(c)?;
    stored::register(c)?;
    gcvt::register(c)?;
    bits::register(c)?;
    unsigned::register(c)?;
    variables::register(c)?;
    user_locks::register(c)?;
    collations::register(c)?;
    duplicate::register(c)?;
    timestamps::register(c)?;
    // Reached when a scalar subquery yields a second row (the SQL front-end's guard):
    // MySQL's error 1242. Volatile, so SQLite never evaluates it ahead of time.
    c.create_scalar_function("tutti_subquery_rows", 0, VOLATILE, |_| -> Result<i64> {
        Err(Error::UserFunctionError(
            "Subquery returns more than 1 row".into(),
        ))
    })?;
    // NULL when longer than max_allowed_packet, as in MariaDB; a binary argument makes the
    // result binary (its bytes kept), as MariaDB's string type aggregation does.
    c.create_scalar_function("concat", -1, PURE, |ctx| {
        let mut out = Joined::default();
        for i in 0..ctx.len() {
            match ctx.get_raw(i) {
                ValueRef::Null => return Ok(None),
                v => out.push(v),
            }
        }
        Ok(out.finish())
    })?;
    // CONCAT_WS(sep, ...): NULL arguments are skipped, a NULL separator makes NULL. The
    // numbers are shown as MariaDB shows them (SQLite's own writes `1.0e+20`).
    c.create_scalar_function("concat_ws", -1, PURE, |ctx| {
        let separator = match ctx.get_raw(0) {
            ValueRef::Null => return Ok(None),
            v => v,
        };
        let mut out = Joined::default();
        for (n, v) in (1..ctx.len())
            .map(|i| ctx.get_raw(i))
            .filter(|v| *v != ValueRef::Null)
            .enumerate()
        {
            if n > 0 {
                out.push(separator);
            }
            out.push(v);
        }
        Ok(out.finish())
    })?;
    c.create_scalar_function("isnull", 1, PURE, |ctx| {
        Ok(matches!(ctx.get_raw(0), ValueRef::Null))
    })?;
    // VALUE(c) outside ON DUPLICATE KEY UPDATE (where the SQL front-end makes it the new
    // row's column): NULL, as in MariaDB.
    c.create_scalar_function("value", 1, PURE, |_| Ok(None::<i64>))?;
    // BENCHMARK(count, expr): 0, or NULL (warning 1411 for a negative count). The
    // expression is an argument, evaluated once.
    c.create_scalar_function("benchmark", 2, VOLATILE, |ctx| {
        Ok(match math::num(ctx, 0).map(math::Num::int) {
            Some(n) if n < 0 => {
                warn(
                    1411,
                    format!("Incorrect count value: '{n}' for function benchmark"),
                );
                None
            }
            n => n.map(|_| 0),
        })
    })?;
    // Characters of a text, bytes of a binary string (which stays binary, as in MariaDB:
    // `LEFT(UNHEX('003200'), 2)` is the bytes 00 32).
    c.create_scalar_function("left", 2, PURE, |ctx| str_n(ctx, left::<char>, left::<u8>))?;
    c.create_scalar_function("right", 2, PURE, |ctx| {
        str_n(ctx, right::<char>, right::<u8>)
    })?;
    // Results longer than max_allowed_packet are NULL, as in MariaDB (warning 1301).
    c.create_scalar_function("repeat", 2, PURE, |ctx| {
        str_n(ctx, repeat_chars, repeat_bytes)
    })?;
    c.create_scalar_function("space", 1, PURE, |ctx| {
        let n = math::num(ctx, 0).map(math::Num::int);
        Ok(n.and_then(|n| {
            let n = n.max(0) as usize;
            (n <= MAX_ALLOWED_PACKET).then(|| " ".repeat(n))
        }))
    })?;
    c.create_scalar_function("reverse", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => SqlValue::Null,
            ValueRef::Blob(b) => SqlValue::Blob(b.iter().rev().copied().collect()),
            v => SqlValue::Text(text_of(v).chars().rev().collect()),
        })
    })?;
    for name in ["char_length", "character_length"] {
        c.create_scalar_function(name, 1, PURE, |ctx| {
            Ok(opt_text(ctx, 0).map(|s| s.chars().count() as i64))
        })?;
    }
    for (name, greatest) in [("greatest", true), ("least", false)] {
        c.create_scalar_function(name, -1, PURE, move |ctx| {
            let mut best: Option<SqlValue> = None;
            for i in 0..ctx.len() {
                let v: SqlValue = ctx.get(i)?;
                if matches!(v, SqlValue::Null) {
                    return Ok(SqlValue::Null);
                }
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let keep_b = match cmp_values(&b, &v) {
                            std::cmp::Ordering::Less => !greatest,
                            _ => greatest,
                        };
                        if keep_b {
                            b
                        } else {
                            v
                        }
                    }
                });
            }
            Ok(best.unwrap_or(SqlValue::Null))
        })?;
    }
    for name in ["sha1", "sha"] {
        c.create_scalar_function(name, 1, PURE, |ctx| {
            use sha1::{Digest, Sha1};
            Ok(match ctx.get_raw(0) {
                ValueRef::Null => None,
                v => Some(hex(&Sha1::digest(bytes_of(v)))),
            })
        })?;
    }
    c.create_scalar_function(
        "uuid",
        0,
        VOLATILE,
        |_| Ok(uuid::Uuid::new_v4().to_string()),
    )?;
    Ok(())
}

/// The text form of a value, as MySQL's string functions see it.
fn text_of(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => String::new(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(r) => double_text(r),
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
    }
}

fn bytes_of(v: ValueRef<'_>) -> Vec<u8> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => t.to_vec(),
        other => text_of(other).into_bytes(),
    }
}

fn opt_text(ctx: &Context<'_>, i: usize) -> Option<String> {
    match ctx.get_raw(i) {
        ValueRef::Null => None,
        v => Some(text_of(v)),
    }
}

/// MariaDB's default `max_allowed_packet`, the longest string a function returns.
pub(crate) const MAX_ALLOWED_PACKET: usize = 16 << 20;

/// `f(s, n)` of a string and a count: over the characters of a text (`text`), the bytes of a
/// binary string (`bin`, the result binary too); NULL for NULL arguments and for a result
/// `f` refuses.
fn str_n(
    ctx: &Context<'_>,
    text: impl Fn(&[char], usize) -> Option<Vec<char>>,
    bin: impl Fn(&[u8], usize) -> Option<Vec<u8>>,
) -> Result<SqlValue> {
    let n = match math::num(ctx, 1).map(math::Num::int) {
        Some(n) => n.max(0) as usize,
        None => return Ok(SqlValue::Null),
    };
    Ok(match ctx.get_raw(0) {
        ValueRef::Null => None,
        ValueRef::Blob(b) => bin(b, n).map(SqlValue::Blob),
        v => {
            let chars: Vec<char> = text_of(v).chars().collect();
            text(&chars, n).map(|c| SqlValue::Text(c.into_iter().collect()))
        }
    }
    .unwrap_or(SqlValue::Null))
}

fn left<T: Clone>(s: &[T], n: usize) -> Option<Vec<T>> {
    Some(s[..n.min(s.len())].to_vec())
}

fn right<T: Clone>(s: &[T], n: usize) -> Option<Vec<T>> {
    Some(s[s.len().saturating_sub(n)..].to_vec())
}

fn repeat_bytes(s: &[u8], n: usize) -> Option<Vec<u8>> {
    (s.len().saturating_mul(n) <= MAX_ALLOWED_PACKET).then(|| s.repeat(n))
}

fn repeat_chars(s: &[char], n: usize) -> Option<Vec<char>> {
    let bytes: usize = s.iter().map(|c| c.len_utf8()).sum();
    (bytes.saturating_mul(n) <= MAX_ALLOWED_PACKET).then(|| s.repeat(n))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn cmp_values(a: &SqlValue, b: &SqlValue) -> std::cmp::Ordering {
    use SqlValue::*;
    let num = |v: &SqlValue| match v {
        Integer(i) => Some(*i as f64),
        Real(r) => Some(*r),
        _ => None,
    };
    match (num(a), num(b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
        _ => format!("{a:?}").cmp(&format!("{b:?}")),
    }
}

/// The writer's own functions: user locks and `tutti_autoinc()` with the writer's state.
pub(crate) fn register_writer(c: &Connection, autoinc: Arc<AutoInc>) -> Result<()> {
    user_locks::register_writer(c)?;
    crate::autoinc::register(c, autoinc)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mysql_string_functions() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        let q = |sql: &str| -> SqlValue { c.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(
            q("SELECT concat('a', 1, 'b')"),
            SqlValue::Text("a1b".into())
        );
        assert_eq!(q("SELECT concat('a', NULL)"), SqlValue::Null);
        assert_eq!(
            q("SELECT left('hello', 2) || right('hello', 3)"),
            SqlValue::Text("hello".into())
        );
        assert_eq!(q("SELECT locate('l', 'hello')"), SqlValue::Integer(3));
        assert_eq!(q("SELECT locate('l', 'hello', 4)"), SqlValue::Integer(4));
        assert_eq!(q("SELECT lpad('7', 3, '0')"), SqlValue::Text("007".into()));
        assert_eq!(q("SELECT greatest(3, 9, 4)"), SqlValue::Integer(9));
        assert_eq!(q("SELECT least(3, 9, 4)"), SqlValue::Integer(3));
        assert_eq!(q("SELECT if(1 > 0, 'y', 'n')"), SqlValue::Text("y".into()));
        assert_eq!(
            q("SELECT sha1('abc')"),
            SqlValue::Text("a9993e364706816aba3e25717850c26c9cd0d89d".into())
        );
        assert_eq!(q("SELECT length(uuid())"), SqlValue::Integer(36));
        // Longer than max_allowed_packet: NULL (as observed on MariaDB 10.11).
        let null = |sql: &str| q(&format!("SELECT ({sql}) IS NULL"));
        assert_eq!(null("repeat('a', 16777217)"), SqlValue::Integer(1));
        assert_eq!(null("repeat('a', 16777216)"), SqlValue::Integer(0));
        assert_eq!(null("space(16777217)"), SqlValue::Integer(1));
        assert_eq!(
            null("rpad('hello', 18446744073709551615, '1')"),
            SqlValue::Integer(1)
        );
        assert_eq!(null("lpad(x'61', 16777217, x'62')"), SqlValue::Integer(1));
    }
}

#[cfg(test)]
mod observed;
