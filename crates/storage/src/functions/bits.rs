//! BIT(n) columns. MariaDB's BIT is an unsigned number of n bits that prints as its n/8
//! bytes; tutti stores it as an SQLite INTEGER, so `a + 0`, `HEX(a)`, `a = b'101'`,
//! ordering and indexes work on the number, and the executor sends the bytes.
//!
//! `tutti_bit_store(x, n, column, row[, strict])` gives the number a BIT(n) column stores for
//! `x`, as MariaDB converts it: an integer as it is (a negative one as its 64-bit two's
//! complement), a double rounded (half to even), a binary literal or any string by its
//! bytes (big-endian: `'1'` is 0x31). A value with more than n bits is error 1406 in strict mode
//! and all n bits set otherwise. Values of 2^63 and more (BIT(64) only) are refused with
//! 1264: SQLite's integers are signed, and tutti does not store a number it cannot read back.
//!
//! `tutti_bit_store_dec(x, ...)` is the same for a DECIMAL value (exact text, which the
//! front-end knows by its type): its number, rounded half away from zero, not its bytes.
//!
//! `tutti_bit_bytes(x, n)` gives the bytes string functions (`CONCAT`, `CRC32`, ...) see.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::decimal::value::Decimal;
use super::stored::{Target, CODE_OUT_OF_RANGE};
use super::PURE;

/// The number of bits `raw` sets, as MariaDB converts it to a BIT (None: more than 64).
fn bits_of(raw: ValueRef<'_>) -> Option<u64> {
    match raw {
        ValueRef::Null => Some(0),
        ValueRef::Integer(i) => Some(i as u64),
        ValueRef::Real(x) => {
            let r = x.round_ties_even();
            if r < 0.0 {
                Some(r as i64 as u64)
            } else {
                (r < 18_446_744_073_709_551_616.0).then_some(r as u64)
            }
        }
        ValueRef::Text(b) | ValueRef::Blob(b) => bytes_value(b),
    }
}

/// Bytes as a big-endian number (None: more than 8 significant bytes).
fn bytes_value(b: &[u8]) -> Option<u64> {
    let significant = &b[b.iter().position(|&x| x != 0).unwrap_or(b.len())..];
    (significant.len() <= 8).then(|| {
        significant
            .iter()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
    })
}

/// `tutti_bit_store(x, n, column, row[, strict])`.
fn bit_store(ctx: &Context<'_>) -> Result<Value> {
    store(ctx, bits_of(ctx.get_raw(0)))
}

/// `tutti_bit_store_dec(x, n, column, row[, strict])`: `x` is a DECIMAL's text.
fn bit_store_dec(ctx: &Context<'_>) -> Result<Value> {
    let bits = match ctx.get_raw(0) {
        ValueRef::Text(t) => {
            let d = Decimal::parse(&String::from_utf8_lossy(t)).0;
            d.and_then(|d| d.round_to(0).to_i64()).map(|i| i as u64)
        }
        other => bits_of(other),
    };
    store(ctx, bits)
}

/// The value a BIT(n) column stores for `bits` (None: more than 64 bits).
fn store(ctx: &Context<'_>, bits: Option<u64>) -> Result<Value> {
    let width: u32 = ctx.get::<i64>(1)?.clamp(1, 64) as u32;
    let target = Target::of(ctx, 2, "bit")?;
    let raw = ctx.get_raw(0);
    if raw == ValueRef::Null {
        return Ok(Value::Null);
    }
    let max = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let v = match bits {
        Some(v) if v <= max => v,
        _ if target.strict => return Err(target.too_long()),
        _ => target.adjust(CODE_OUT_OF_RANGE, target.out_of_range(), max)?,
    };
    i64::try_from(v)
        .map(Value::Integer)
        .map_err(|_| target.out_of_range())
}

/// `tutti_bit_bytes(x, n)`: a BIT(n) column's number as the string MariaDB's string
/// functions see, its (n + 7) / 8 bytes, big-endian.
fn bit_bytes(ctx: &Context<'_>) -> Result<Value> {
    let width = ctx.get::<i64>(1)?.clamp(1, 64) as usize;
    Ok(match ctx.get_raw(0) {
        ValueRef::Integer(i) => {
            let bytes = (i as u64).to_be_bytes();
            Value::Blob(bytes[8 - width.div_ceil(8)..].to_vec())
        }
        ValueRef::Null => Value::Null,
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(b) | ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    })
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    for n in [4, 5] {
        c.create_scalar_function("tutti_bit_store", n, PURE, bit_store)?;
        c.create_scalar_function("tutti_bit_store_dec", n, PURE, bit_store_dec)?;
    }
    c.create_scalar_function("tutti_bit_bytes", 2, PURE, bit_bytes)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    fn store(c: &Connection, args: &str) -> std::result::Result<Option<i64>, String> {
        c.query_row(&format!("SELECT tutti_bit_store({args})"), [], |r| r.get(0))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn bits_are_stored_as_mariadb_stores_them() {
        let c = Connection::open_in_memory().unwrap();
        super::register(&c).unwrap();
        let col = "'`d`.`t`.`a`', 1";
        for (v, width, want) in [
            ("X'0F'", 4, Some(15)),
            ("15", 4, Some(15)),
            ("1.5", 4, Some(2)),
            ("2.5e0", 4, Some(2)),
            ("X'000000000000000001'", 4, Some(1)),
            ("'A'", 8, Some(65)),
            ("NULL", 4, None),
        ] {
            assert_eq!(store(&c, &format!("{v}, {width}, {col}")), Ok(want), "{v}");
        }
        for (v, width, want) in [
            ("16", 4, "Data too long for column 'a' at row 1"),
            ("'1'", 4, "Data too long"),
            ("'1.5'", 8, "Data too long"),
            ("-1", 4, "Data too long"),
            ("X'010000000000000000'", 64, "Data too long"),
            ("-1", 64, "Out of range value for column 'a'"),
        ] {
            let e = store(&c, &format!("{v}, {width}, {col}")).unwrap_err();
            assert!(e.contains(want), "{v}: {e}");
        }
        // Outside strict mode: all bits set.
        assert_eq!(store(&c, &format!("100, 4, {col}, 0")), Ok(Some(15)));
        assert_eq!(store(&c, &format!("'abc', 4, {col}, 0")), Ok(Some(15)));
    }

    #[test]
    fn a_decimal_is_stored_by_its_number_not_its_bytes() {
        let c = Connection::open_in_memory().unwrap();
        super::register(&c).unwrap();
        let dec = |v: &str| -> std::result::Result<Option<i64>, String> {
            c.query_row(
                &format!("SELECT tutti_bit_store_dec({v}, 8, '`d`.`t`.`a`', 1)"),
                [],
                |r| r.get(0),
            )
            .map_err(|e| e.to_string())
        };
        assert_eq!(dec("'7'"), Ok(Some(7)));
        assert_eq!(dec("'5.0'"), Ok(Some(5)));
        assert_eq!(dec("'2.5'"), Ok(Some(3)));
        assert_eq!(dec("NULL"), Ok(None));
        assert!(dec("'256'").is_err());
    }
}
