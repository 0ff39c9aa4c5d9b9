//! ENUM columns: the member a value stores as (`tutti_enum_store`) and the index a member
//! reads as in numeric context (`tutti_enum_index`), as MariaDB's `Field_enum` does.
//!
//! A member is found by its spelling (case-insensitively, trailing spaces ignored, as the
//! column compares); a number is a 1-based index (a DOUBLE truncated to an integer first,
//! a string of digits too when no member is spelled so). Anything else — 0, an index past
//! the last member, an unknown string — is MariaDB's 1265: an error in strict mode, the
//! empty string (index 0) with a warning outside it or under IGNORE.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::stored::{Target, CODE_TRUNCATED};
use super::{general_ci, text_of, PURE};

/// `tutti_enum_index(e, member1, member2, ...)`: the 1-based position of ENUM value `e`
/// among the members, 0 for the empty string of an invalid value, NULL for NULL.
fn enum_index(ctx: &Context<'_>) -> Result<Option<i64>> {
    // A value computed from an ENUM may be a number.
    let value = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(None),
        v => text_of(v),
    };
    for i in 1..ctx.len() {
        if let ValueRef::Text(m) = ctx.get_raw(i) {
            if general_ci::eq(&value, &String::from_utf8_lossy(m), true) {
                return Ok(Some(i as i64));
            }
        }
    }
    Ok(Some(0))
}

/// `tutti_enum_store(v, member1, ..., memberN, column, row[, mode])`: the member an ENUM
/// column stores for `v`, spelled as declared.
fn enum_store(ctx: &Context<'_>) -> Result<Value> {
    let is_int = |i: usize| matches!(ctx.get_raw(i), ValueRef::Integer(_));
    let n = ctx.len();
    // column, row and, when the last two are integers, the mode.
    let tail = if n >= 4 && is_int(n - 1) && is_int(n - 2) {
        3
    } else {
        2
    };
    let members: Vec<String> = (1..n.saturating_sub(tail).max(1))
        .filter_map(|i| match ctx.get_raw(i) {
            ValueRef::Text(m) => Some(String::from_utf8_lossy(m).into_owned()),
            _ => None,
        })
        .collect();
    let found = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(Value::Null),
        ValueRef::Integer(i) => member_at(&members, i),
        // MariaDB's `(longlong) nr`: toward zero.
        ValueRef::Real(r) => member_at(&members, r.trunc() as i64),
        v => member_named(&members, &text_of(v)),
    };
    match found {
        Some(m) => Ok(Value::Text(m.clone())),
        None => {
            let target = Target::of(ctx, n - tail, "enum")?;
            target.adjust(
                CODE_TRUNCATED,
                target.truncated(),
                Value::Text(String::new()),
            )
        }
    }
}

/// The `i`th member (1-based).
fn member_at(members: &[String], i: i64) -> Option<&String> {
    usize::try_from(i)
        .ok()?
        .checked_sub(1)
        .and_then(|i| members.get(i))
}

/// The member spelled `text`, or else, for a short string of digits, the member at that
/// index (MariaDB reads numbers so for LOAD DATA).
fn member_named<'a>(members: &'a [String], text: &str) -> Option<&'a String> {
    members
        .iter()
        .find(|m| general_ci::eq(text, m, true))
        .or_else(|| {
            let digits =
                text.len() < 6 && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            digits
                .then(|| member_at(members, text.parse().ok()?))
                .flatten()
        })
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_enum_index", -1, PURE, enum_index)?;
    c.create_scalar_function("tutti_enum_store", -1, PURE, enum_store)
}
