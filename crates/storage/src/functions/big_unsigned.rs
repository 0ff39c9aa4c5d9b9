//! `BIGINT UNSIGNED` values above 2^63 − 1 in a column, which SQLite's signed integers
//! cannot hold.
//!
//! Such a value is stored as its 8 bytes, big-endian, a BLOB; every smaller value stays an
//! INTEGER. SQLite orders every INTEGER before every BLOB and BLOBs by their bytes, so the
//! column keeps MySQL's order, its keys stay unique and its indexes work for `=`, ranges and
//! `ORDER BY` without any function in the way.
//!
//! * `tutti_u64(x)`: a column's value in an expression: such a BLOB becomes its decimal
//!   digits (the representation `unsigned` gives a result above 2^63 − 1), anything else
//!   stays as it is. The SQL front-end wraps every reference to such a column in it, except
//!   where the stored form compares right (see `tutti_u64_key`).
//! * `tutti_u64_key(x)`: a constant compared with such a column, in the column's stored
//!   form: an integer above 2^63 − 1 becomes its 8 bytes; a non-integral value between two
//!   of them the bytes of the one below and a zero byte (between the two, equal to none);
//!   a value above 2^64 − 1 nine bytes (above them all). The column's index stays usable.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::decimal::value::Decimal;
use super::PURE;

/// The stored form of a BIGINT UNSIGNED value.
pub(crate) fn encode(v: u64) -> Value {
    match i64::try_from(v) {
        Ok(i) => Value::Integer(i),
        Err(_) => Value::Blob(v.to_be_bytes().to_vec()),
    }
}

/// The value of a stored BLOB, if it is one (8 bytes, the high bit set).
pub fn decode(bytes: &[u8]) -> Option<u64> {
    let bytes: [u8; 8] = bytes.try_into().ok()?;
    let v = u64::from_be_bytes(bytes);
    (v > i64::MAX as u64).then_some(v)
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_u64", 1, PURE, value)?;
    c.create_scalar_function("tutti_u64_key", 1, PURE, key)
}

/// `tutti_u64(x)`.
fn value(ctx: &Context<'_>) -> Result<Value> {
    if let ValueRef::Blob(b) = ctx.get_raw(0) {
        if let Some(v) = decode(b) {
            return Ok(Value::Text(v.to_string()));
        }
    }
    ctx.get(0)
}

/// `tutti_u64_key(x)`.
fn key(ctx: &Context<'_>) -> Result<Value> {
    let exact = match ctx.get_raw(0) {
        ValueRef::Real(x) if x.is_finite() && x > i64::MAX as f64 => Decimal::from_f64(x),
        ValueRef::Text(t) => Decimal::parse(std::str::from_utf8(t).unwrap_or("")).0,
        _ => None,
    };
    match exact.filter(|d| !d.is_negative()).and_then(|d| key_of(&d)) {
        Some(key) => Ok(key),
        None => ctx.get(0),
    }
}

/// The stored-form key of a non-negative exact value above 2^63 − 1 (None below).
fn key_of(d: &Decimal) -> Option<Value> {
    let whole = d.floor();
    let fractional = whole.cmp(d) != std::cmp::Ordering::Equal;
    let mut bytes = match whole.to_string().parse::<u64>() {
        Ok(v) if v < i64::MAX as u64 => return None,
        Ok(v) if v == i64::MAX as u64 && !fractional => return None,
        Ok(v) => v.to_be_bytes().to_vec(),
        Err(_) => vec![0xFF; 9],
    };
    if fractional && bytes.len() == 8 {
        bytes.push(0);
    }
    Some(Value::Blob(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_text(s: &str) -> Option<Value> {
        key_of(&Decimal::parse(s).0.unwrap())
    }

    #[test]
    fn the_stored_form_orders_as_the_numbers() {
        let values = [0, 1, i64::MAX as u64, 1 << 63, (1 << 63) + 1, u64::MAX];
        let stored: Vec<Value> = values.iter().map(|&v| encode(v)).collect();
        assert_eq!(stored[2], Value::Integer(i64::MAX));
        for w in stored[3..].windows(2) {
            let (Value::Blob(a), Value::Blob(b)) = (&w[0], &w[1]) else {
                panic!("{w:?}")
            };
            assert!(a < b);
        }
        assert_eq!(decode(&u64::MAX.to_be_bytes()), Some(u64::MAX));
        assert_eq!(decode(&7u64.to_be_bytes()), None);
        assert_eq!(decode(b"abc"), None);
    }

    #[test]
    fn keys_fall_between_the_stored_values() {
        assert_eq!(key_text("100"), None);
        assert_eq!(key_text("9223372036854775807"), None);
        let at = |v: u64| Value::Blob(v.to_be_bytes().to_vec());
        assert_eq!(key_text("9223372036854775808"), Some(at(1 << 63)));
        assert_eq!(key_text("18446744073709551615"), Some(at(u64::MAX)));
        let Some(Value::Blob(half)) = key_text("9223372036854775808.5") else {
            panic!()
        };
        assert!(half.as_slice() > (1u64 << 63).to_be_bytes().as_slice());
        assert!(half.as_slice() < ((1u64 << 63) + 1).to_be_bytes().as_slice());
        let Some(Value::Blob(beyond)) = key_text("18446744073709551616") else {
            panic!()
        };
        assert!(beyond.as_slice() > u64::MAX.to_be_bytes().as_slice());
        let Some(Value::Blob(below)) = key_text("9223372036854775807.5") else {
            panic!()
        };
        assert!(below.as_slice() < (1u64 << 63).to_be_bytes().as_slice());
    }
}
