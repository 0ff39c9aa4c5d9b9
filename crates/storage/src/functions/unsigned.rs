//! MySQL's integer casts and bit operators, which work on 64-bit values that SQLite's
//! signed integers cannot always hold: `CAST(-1 AS UNSIGNED)` is 18446744073709551615 and
//! `~0`, `1 << 63`, `x | y` are unsigned. A result above 2^63 − 1 is returned as its
//! decimal digits (text), which the SQL front-end types as a DECIMAL, so arithmetic on it
//! stays exact.
//!
//! * `tutti_cast_int(x, unsigned, kind)`: `CAST(x AS SIGNED | UNSIGNED)`, `kind` saying how
//!   MariaDB reads `x`: 0 (integers wrap between the signed and unsigned views,
//!   doubles round half to even and clamp, strings give their integer prefix — `'1.9'` is
//!   1 — clamped to 64 bits and then wrapped), [`DECIMAL`] (rounded half away from zero
//!   and clamped to the target's range; an integer literal beyond BIGINT is MariaDB's
//!   BIGINT UNSIGNED and wraps), [`TEMPORAL`] (a date `2001-02-03` is 20010203, a time
//!   `-10:20:30.6` is -102030).
//! * `tutti_temporal_number(x)`: a temporal value in numeric context (`d + 0`), its digits
//!   with the fraction.
//! * `tutti_bitop(op, a, b)`: `a | b`, `a & b`, `a ^ b`, `a << b`, `a >> b` and `~a`
//!   (`op` is the operator, `b` ignored for `~`) on the 64-bit two's-complement values.
//! * `tutti_int_op(op, a, b)`: `a + b`, `a - b`, `a * b` of BIGINTs: MariaDB's 1690 `BIGINT
//!   value is out of range` where SQLite would silently go on in a double.
//! * `tutti_uint_op(op, a, b)`: the same when one operand is UNSIGNED (a BIGINT UNSIGNED
//!   literal, column or cast): the result is unsigned, so below 0 or above 2^64 − 1 it is
//!   1690 `BIGINT UNSIGNED value is out of range` (`CAST(1 AS UNSIGNED) - 2`).

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::decimal::value::{Decimal, Parsed};
use super::diagnostics::{raise, warn, Level};
use super::PURE;

/// `tutti_cast_int` kind: a DECIMAL (exact text). 0 is any other value.
const DECIMAL: i64 = 1;
/// `tutti_cast_int` kind: a DATE, DATETIME, TIMESTAMP or TIME value.
const TEMPORAL: i64 = 2;

/// A 64-bit result: an INTEGER when SQLite holds it, else its digits.
fn result(v: u64, unsigned: bool) -> Value {
    match i64::try_from(v) {
        Ok(i) => Value::Integer(i),
        Err(_) if unsigned => Value::Text(v.to_string()),
        Err(_) => Value::Integer(v as i64),
    }
}

/// A double rounded half to even and clamped to `[min, max]`.
fn clamp_double(x: f64, unsigned: bool) -> u64 {
    let r = x.round_ties_even();
    if unsigned {
        if r <= 0.0 {
            0
        } else if r >= 18_446_744_073_709_551_615.0 {
            u64::MAX
        } else {
            r as u64
        }
    } else {
        (r as i64) as u64
    }
}

/// A string's integer prefix as MariaDB reads it for a cast: 64 bits, a negative value
/// clamped at −2^63, a positive one at 2^64 − 1 (the caller wraps it to its view).
fn string_bits(s: &[u8]) -> u64 {
    let s = std::str::from_utf8(s).unwrap_or("").trim_start();
    let (negative, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let digits: &str = &rest[..rest.bytes().take_while(u8::is_ascii_digit).count()];
    let value: u128 = digits
        .bytes()
        .try_fold(0u128, |acc, d| {
            let next = acc * 10 + u128::from(d - b'0');
            (next <= u128::from(u64::MAX) + 1).then_some(next)
        })
        .unwrap_or(u128::from(u64::MAX) + 1);
    if negative {
        let v = value.min(1u128 << 63);
        (v as u64).wrapping_neg()
    } else {
        value.min(u128::from(u64::MAX)) as u64
    }
}

/// A DECIMAL's value rounded and clamped to the target's range; an integer beyond BIGINT
/// (MariaDB's BIGINT UNSIGNED literal) keeps its bits.
fn decimal_bits(text: &str, unsigned: bool) -> u64 {
    let t = text.trim();
    if !t.contains(['.', 'e', 'E']) {
        if let Ok(u) = t.parse::<u64>() {
            return u;
        }
    }
    let (d, _) = Decimal::parse(t);
    let Some(d) = d else { return 0 };
    let r = d.round_to(0);
    if let Some(i) = r.to_i64() {
        return if unsigned && i < 0 { 0 } else { i as u64 };
    }
    match (r.is_negative(), unsigned) {
        (true, true) => 0,
        (true, false) => i64::MIN as u64,
        (false, true) => r.to_string().parse().unwrap_or(u64::MAX),
        (false, false) => i64::MAX as u64,
    }
}

/// A temporal value as MariaDB's number: its digits (`2001-02-03 04:05:06.7` is
/// 20010203040506; the fraction is dropped), negative for a negative TIME.
fn temporal_bits(text: &str) -> u64 {
    let t = text.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let whole = t.split('.').next().unwrap_or("");
    let v: i64 = whole
        .bytes()
        .filter(u8::is_ascii_digit)
        .fold(0i64, |acc, d| {
            acc.saturating_mul(10).saturating_add(i64::from(d - b'0'))
        });
    (if negative { -v } else { v }) as u64
}

/// `tutti_temporal_number(x)`: a DATE, DATETIME or TIME value as MariaDB's number in
/// numeric context — its digits, with the fraction (`10:11:12.0987` is 101112.0987): an
/// INTEGER, or DECIMAL text when there is a fraction.
fn temporal_number(ctx: &Context<'_>) -> Result<Value> {
    let text = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(Value::Null),
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Integer(i) => return Ok(Value::Integer(i)),
        ValueRef::Real(x) => return Ok(Value::Real(x)),
    };
    let whole = temporal_bits(&text) as i64;
    match text.trim().split_once('.') {
        Some((_, fraction)) if fraction.bytes().all(|b| b.is_ascii_digit()) => {
            let sign = if whole == 0 && text.trim().starts_with('-') {
                "-"
            } else {
                ""
            };
            Ok(Value::Text(format!("{sign}{whole}.{fraction}")))
        }
        _ => Ok(Value::Integer(whole)),
    }
}

/// `tutti_cast_int(x, unsigned, kind)`.
fn cast_int(ctx: &Context<'_>) -> Result<Value> {
    let unsigned = ctx.get::<i64>(1)? != 0;
    let kind: i64 = ctx.get(2)?;
    let bits = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(Value::Null),
        ValueRef::Integer(i) => {
            if unsigned && i < 0 {
                complement_note();
            }
            i as u64
        }
        ValueRef::Real(x) => clamp_double(x, unsigned),
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let text = String::from_utf8_lossy(t);
            let negative = unsigned && text.trim_start().starts_with('-');
            match kind {
                DECIMAL => {
                    if negative {
                        // MariaDB clamps a negative DECIMAL to 0, with this warning.
                        let msg = format!(
                            "Got overflow when converting '{}' to UNSIGNED INT. Value truncated",
                            text.trim()
                        );
                        warn(OVERFLOW_CONVERTING, msg);
                    }
                    decimal_bits(&text, unsigned)
                }
                // A negative TIME is 0 as UNSIGNED.
                TEMPORAL if negative => 0,
                TEMPORAL => temporal_bits(&text),
                _ => {
                    let bits = string_bits(t);
                    if negative {
                        complement_note();
                    }
                    bits
                }
            }
        }
    };
    Ok(result(bits, unsigned))
}

/// MariaDB's `ER_DATA_OVERFLOW`.
const OVERFLOW_CONVERTING: u16 = 1916;

/// The note MariaDB gives when a negative integer becomes its 64-bit complement as UNSIGNED.
fn complement_note() {
    raise(
        Level::Note,
        1105,
        "Cast to unsigned converted negative integer to it's positive complement",
    );
}

/// An operand of a bit operator as its 64 bits.
fn operand_bits(v: ValueRef<'_>) -> Option<u64> {
    Some(match v {
        ValueRef::Null => return None,
        ValueRef::Integer(i) => i as u64,
        // Bit operators round a double half away from zero (CAST rounds half to even).
        ValueRef::Real(x) => clamp_double(x.round(), x >= 9_223_372_036_854_775_808.0),
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let text = String::from_utf8_lossy(t);
            match Decimal::parse(&text) {
                (Some(_), Parsed::Whole) => decimal_bits(&text, !text.trim().starts_with('-')),
                _ => string_bits(t),
            }
        }
    })
}

/// `tutti_bitop(op, a, b)`.
fn bitop(ctx: &Context<'_>) -> Result<Value> {
    let op: String = ctx.get(0)?;
    let Some(a) = operand_bits(ctx.get_raw(1)) else {
        return Ok(Value::Null);
    };
    if op == "~" {
        return Ok(result(!a, true));
    }
    let Some(b) = operand_bits(ctx.get_raw(2)) else {
        return Ok(Value::Null);
    };
    let v = match op.as_str() {
        "|" => a | b,
        "&" => a & b,
        "^" => a ^ b,
        "<<" => a.checked_shl(u32::try_from(b).unwrap_or(64)).unwrap_or(0),
        ">>" => a.checked_shr(u32::try_from(b).unwrap_or(64)).unwrap_or(0),
        other => {
            return Err(rusqlite::Error::UserFunctionError(
                format!("unknown bit operator {other}").into(),
            ))
        }
    };
    Ok(result(v, true))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_cast_int", 3, PURE, cast_int)?;
    c.create_scalar_function("tutti_temporal_number", 1, PURE, temporal_number)?;
    c.create_scalar_function("tutti_bitop", 3, PURE, bitop)?;
    c.create_scalar_function("tutti_int_op", 3, PURE, int_op)?;
    c.create_scalar_function("tutti_uint_op", 3, PURE, uint_op)
}

/// `tutti_uint_op(op, a, b)`.
fn uint_op(ctx: &Context<'_>) -> Result<Value> {
    let op: String = ctx.get(0)?;
    let integer = |i: usize| -> Option<i128> {
        match ctx.get_raw(i) {
            ValueRef::Integer(v) => Some(i128::from(v)),
            ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
            _ => None,
        }
    };
    if matches!(ctx.get_raw(1), ValueRef::Null) || matches!(ctx.get_raw(2), ValueRef::Null) {
        return Ok(Value::Null);
    }
    let (Some(a), Some(b)) = (integer(1), integer(2)) else {
        // Not two integers after all: the signed operator decides.
        return int_op(ctx);
    };
    let v = match op.as_str() {
        "+" => a.checked_add(b),
        "-" => a.checked_sub(b),
        _ => a.checked_mul(b),
    };
    match v.and_then(|v| u64::try_from(v).ok()) {
        Some(v) => Ok(result(v, true)),
        None => {
            let msg = format!("BIGINT UNSIGNED value is out of range in '{a} {op} {b}'");
            Err(rusqlite::Error::UserFunctionError(msg.into()))
        }
    }
}

/// `tutti_int_op(op, a, b)`.
fn int_op(ctx: &Context<'_>) -> Result<Value> {
    let op: String = ctx.get(0)?;
    let (a, b) = match (ctx.get_raw(1), ctx.get_raw(2)) {
        (ValueRef::Null, _) | (_, ValueRef::Null) => return Ok(Value::Null),
        (ValueRef::Integer(a), ValueRef::Integer(b)) => (a, b),
        // Not two integers after all: the double arithmetic SQLite would do.
        _ => {
            let number = |i| super::math::num(ctx, i).map_or(0.0, |n| n.f64());
            let (x, y) = (number(1), number(2));
            return Ok(Value::Real(match op.as_str() {
                "+" => x + y,
                "-" => x - y,
                _ => x * y,
            }));
        }
    };
    let result = match op.as_str() {
        "+" => a.checked_add(b),
        "-" => a.checked_sub(b),
        _ => a.checked_mul(b),
    };
    result.map(Value::Integer).ok_or_else(|| {
        let msg = format!("BIGINT value is out of range in '{a} {op} {b}'");
        rusqlite::Error::UserFunctionError(msg.into())
    })
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    fn one(c: &Connection, sql: &str) -> String {
        c.query_row(&format!("SELECT {sql}"), [], |r| {
            r.get::<_, rusqlite::types::Value>(0)
        })
        .map(|v| match v {
            rusqlite::types::Value::Integer(i) => i.to_string(),
            rusqlite::types::Value::Text(t) => t,
            other => format!("{other:?}"),
        })
        .unwrap()
    }

    /// MariaDB 10.11: `SELECT 9223372036854775808 + 1` is 9223372036854775809,
    /// `CAST(1 AS UNSIGNED) - 2` and `18446744073709551615 + 1` are 1690.
    #[test]
    fn unsigned_arithmetic_stays_in_range() {
        let c = Connection::open_in_memory().unwrap();
        super::register(&c).unwrap();
        assert_eq!(
            one(&c, "tutti_uint_op('+', '9223372036854775808', 1)"),
            "9223372036854775809"
        );
        assert_eq!(one(&c, "tutti_uint_op('-', 5, 2)"), "3");
        assert_eq!(one(&c, "tutti_uint_op('*', 3, NULL)"), "Null");
        for sql in [
            "tutti_uint_op('-', 1, 2)",
            "tutti_uint_op('+', '18446744073709551615', 1)",
            "tutti_uint_op('*', '9223372036854775808', 2)",
        ] {
            let e = c
                .query_row(&format!("SELECT {sql}"), [], |r| r.get::<_, i64>(0))
                .unwrap_err();
            assert!(
                e.to_string()
                    .contains("BIGINT UNSIGNED value is out of range"),
                "{sql}: {e}"
            );
        }
    }

    /// Expected values observed on MariaDB 10.11.
    #[test]
    fn casts_and_bit_operators_match_mariadb() {
        let c = Connection::open_in_memory().unwrap();
        super::register(&c).unwrap();
        for (sql, want) in [
            ("tutti_cast_int(-1, 1, 0)", "18446744073709551615"),
            ("tutti_cast_int(-5, 1, 0)", "18446744073709551611"),
            ("tutti_cast_int('18446744073709551615', 0, 1)", "-1"),
            (
                "tutti_cast_int('19999999999999999999', 0, 1)",
                "9223372036854775807",
            ),
            (
                "tutti_cast_int('19999999999999999999', 1, 1)",
                "18446744073709551615",
            ),
            ("tutti_cast_int('-19999999999999999999', 1, 1)", "0"),
            ("tutti_cast_int('2.5', 1, 1)", "3"),
            ("tutti_cast_int('-2.5', 0, 1)", "-3"),
            ("tutti_cast_int('-0.5', 1, 1)", "0"),
            ("tutti_cast_int(1.5e0, 1, 0)", "2"),
            ("tutti_cast_int(2.5e0, 1, 0)", "2"),
            ("tutti_cast_int(-1e0, 1, 0)", "0"),
            ("tutti_cast_int(1e30, 0, 0)", "9223372036854775807"),
            (
                "tutti_cast_int(9999999999999999999e0, 1, 0)",
                "10000000000000000000",
            ),
            (
                "tutti_cast_int('18446744073709551616', 1, 0)",
                "18446744073709551615",
            ),
            ("tutti_cast_int('18446744073709551616', 0, 0)", "-1"),
            (
                "tutti_cast_int('9223372036854775809', 0, 0)",
                "-9223372036854775807",
            ),
            (
                "tutti_cast_int('-18446744073709551616', 0, 0)",
                "-9223372036854775808",
            ),
            (
                "tutti_cast_int('-18446744073709551616', 1, 0)",
                "9223372036854775808",
            ),
            ("tutti_cast_int('-1', 1, 0)", "18446744073709551615"),
            ("tutti_cast_int('1.9', 1, 0)", "1"),
            ("tutti_cast_int(' -12abc', 0, 0)", "-12"),
            ("tutti_cast_int('1e3', 0, 0)", "1"),
            ("tutti_cast_int('abc', 1, 0)", "0"),
            (
                "tutti_cast_int('11111111111111111111', 0, 0)",
                "-7335632962598440505",
            ),
            ("tutti_cast_int('2001-02-03', 1, 2)", "20010203"),
            (
                "tutti_cast_int('2001-02-03 04:05:06.7', 0, 2)",
                "20010203040506",
            ),
            ("tutti_cast_int('-10:20:30', 0, 2)", "-102030"),
            (
                "tutti_temporal_number('2006-08-10 10:11:12.000014')",
                "20060810101112.000014",
            ),
            ("tutti_temporal_number('-10:11:12.5')", "-101112.5"),
            ("tutti_temporal_number('-00:00:01.5')", "-1.5"),
            ("tutti_temporal_number('2006-08-10')", "20060810"),
            ("tutti_bitop('~', 5, 0)", "18446744073709551610"),
            (
                "tutti_bitop('|', '18446744073709551611', 1)",
                "18446744073709551611",
            ),
            ("tutti_bitop('&', -5, -1)", "18446744073709551611"),
            ("tutti_bitop('<<', 1, 63)", "9223372036854775808"),
            ("tutti_bitop('<<', 1, 64)", "0"),
            ("tutti_bitop('>>', -1, 60)", "15"),
            ("tutti_bitop('^', 6, 3)", "5"),
        ] {
            assert_eq!(one(&c, sql), want, "{sql}");
        }
        assert_eq!(
            c.query_row("SELECT tutti_bitop('|', NULL, 1)", [], |r| r
                .get::<_, Option<i64>>(0))
                .unwrap(),
            None
        );
    }
}

#[cfg(test)]
mod notes {
    use super::super::diagnostics::{clear_conditions, take_conditions};
    use rusqlite::Connection;

    /// MariaDB notes 1105 for a negative integer cast to UNSIGNED and warns 1916 for a
    /// negative DECIMAL, which becomes 0.
    #[test]
    fn negative_casts_to_unsigned_are_noted() {
        let c = Connection::open_in_memory().unwrap();
        super::register(&c).unwrap();
        let codes = |sql: &str| {
            clear_conditions();
            c.query_row(sql, [], |_| Ok(())).unwrap();
            let (conditions, _) = take_conditions();
            conditions.iter().map(|w| w.code).collect::<Vec<_>>()
        };
        assert_eq!(codes("SELECT tutti_cast_int(-1, 1, 0)"), [1105]);
        assert_eq!(codes("SELECT tutti_cast_int('-1', 1, 0)"), [1105]);
        assert_eq!(codes("SELECT tutti_cast_int('-1.5', 1, 1)"), [1916]);
        assert!(codes("SELECT tutti_cast_int(-1, 0, 0)").is_empty());
        assert!(codes("SELECT tutti_cast_int(5, 1, 0)").is_empty());
    }
}
