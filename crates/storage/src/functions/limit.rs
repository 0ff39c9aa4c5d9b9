//! A `LIMIT ?` / `OFFSET ?` placeholder's value, as MariaDB takes it: SQLite reads a
//! negative LIMIT as "no limit" (`LIMIT -1` returned every row, MariaDB refuses it with
//! 1210) and fails on text with its own "datatype mismatch". `tutti_limit(v, strict)`:
//! a number is rounded to an integer and a string read by its numeric prefix (`'2x'` is 2)
//! and NULL is 0 — in `GROUP_CONCAT(… LIMIT ?)` (`strict` 1) only an integer is taken,
//! anything else is 4107; a negative value is 1210, one beyond BIGINT the largest.

use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};

use super::PURE;

/// MariaDB's `ER_INVALID_VALUE_TO_LIMIT` (4107).
pub const LIMIT_NOT_INTEGER: &str = "Limit only accepts integer values";

/// MariaDB's `ER_WRONG_ARGUMENTS` (1210) for a negative limit.
pub const LIMIT_NEGATIVE: &str = "Incorrect arguments to EXECUTE";

/// The row count `v` stands for (see the module doc).
fn limit(v: ValueRef<'_>, strict: bool) -> std::result::Result<i64, &'static str> {
    let n = match v {
        ValueRef::Integer(i) => i as f64,
        ValueRef::Null if !strict => 0.0,
        ValueRef::Real(r) if !strict => r.round(),
        ValueRef::Text(t) | ValueRef::Blob(t) if !strict => {
            super::math::parse_prefix(&String::from_utf8_lossy(t)).round()
        }
        _ => return Err(LIMIT_NOT_INTEGER),
    };
    if n < 0.0 {
        return Err(LIMIT_NEGATIVE);
    }
    Ok(match v {
        ValueRef::Integer(i) => i,
        _ => n.min(i64::MAX as f64) as i64,
    })
}

fn tutti_limit(ctx: &Context<'_>) -> Result<i64> {
    let strict = ctx.get::<i64>(1)? != 0;
    limit(ctx.get_raw(0), strict).map_err(|m| Error::UserFunctionError(m.into()))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_limit", 2, PURE, tutti_limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_as_mariadb_takes_them() {
        assert_eq!(limit(ValueRef::Integer(3), false), Ok(3));
        assert_eq!(limit(ValueRef::Real(1.5), false), Ok(2));
        assert_eq!(limit(ValueRef::Text(b" 2x"), false), Ok(2));
        assert_eq!(limit(ValueRef::Text(b"1.0"), false), Ok(1));
        assert_eq!(limit(ValueRef::Text(b"1e30"), false), Ok(i64::MAX));
        assert_eq!(limit(ValueRef::Integer(-1), false), Err(LIMIT_NEGATIVE));
        assert_eq!(limit(ValueRef::Text(b"-1"), false), Err(LIMIT_NEGATIVE));
        assert_eq!(limit(ValueRef::Null, false), Ok(0));
        assert_eq!(limit(ValueRef::Null, true), Err(LIMIT_NOT_INTEGER));
        assert_eq!(limit(ValueRef::Integer(2), true), Ok(2));
        assert_eq!(limit(ValueRef::Integer(-1), true), Err(LIMIT_NEGATIVE));
        assert_eq!(limit(ValueRef::Text(b"1"), true), Err(LIMIT_NOT_INTEGER));
        assert_eq!(limit(ValueRef::Real(1.0), true), Err(LIMIT_NOT_INTEGER));
    }
}
