//! MariaDB's functions that spell the bits of a number with strings: `MAKE_SET(bits, s1,
//! s2, ...)`, the strings whose bits are set joined by commas (NULL strings skipped), and
//! `EXPORT_SET(bits, on, off[, separator[, count]])`, one `on` or `off` per bit from the
//! lowest, `count` bits (64 when it is missing, negative or above 64). The number is
//! rounded to an integer and read as 64 bits, so -1 sets them all.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::math::{num, Num};
use super::{bytes_of, PURE};

const BITS: usize = 64;

fn bits(ctx: &Context<'_>) -> Option<u64> {
    num(ctx, 0).map(Num::int).map(|n| n as u64)
}

/// Text when every piece is text, else a binary string (as MariaDB's result charset).
fn joined(pieces: &[ValueRef<'_>], parts: Vec<Vec<u8>>, separator: &[u8]) -> Value {
    let out = parts.join(separator);
    if pieces.iter().any(|p| matches!(p, ValueRef::Blob(_))) {
        return Value::Blob(out);
    }
    match String::from_utf8(out) {
        Ok(s) => Value::Text(s),
        Err(e) => Value::Blob(e.into_bytes()),
    }
}

fn make_set(ctx: &Context<'_>) -> Result<Option<Value>> {
    let Some(bits) = bits(ctx) else {
        return Ok(None);
    };
    let strings: Vec<ValueRef<'_>> = (1..ctx.len()).map(|i| ctx.get_raw(i)).collect();
    let chosen: Vec<Vec<u8>> = strings
        .iter()
        .enumerate()
        .filter(|(i, s)| *i < BITS && bits >> i & 1 == 1 && !matches!(s, ValueRef::Null))
        .map(|(_, s)| bytes_of(*s))
        .collect();
    Ok(Some(joined(&strings, chosen, b",")))
}

fn export_set(ctx: &Context<'_>) -> Result<Option<Value>> {
    let args: Vec<ValueRef<'_>> = (1..ctx.len()).map(|i| ctx.get_raw(i)).collect();
    let Some(bits) = bits(ctx) else {
        return Ok(None);
    };
    if args.iter().any(|a| matches!(a, ValueRef::Null)) {
        return Ok(None);
    }
    let count = match (ctx.len() > 4).then(|| num(ctx, 4)).flatten().map(Num::int) {
        Some(n) if (0..=BITS as i64).contains(&n) => n as usize,
        _ => BITS,
    };
    let (on, off) = (bytes_of(args[0]), bytes_of(args[1]));
    let separator = args.get(2).map_or(b",".to_vec(), |s| bytes_of(*s));
    let parts = (0..count)
        .map(|i| {
            if bits >> i & 1 == 1 {
                on.clone()
            } else {
                off.clone()
            }
        })
        .collect();
    Ok(Some(joined(&args[..args.len().min(3)], parts, &separator)))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("make_set", -1, PURE, make_set)?;
    for arity in 3..=5 {
        c.create_scalar_function("export_set", arity, PURE, export_set)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_bits_as_mariadb() {
        let c = Connection::open_in_memory().unwrap();
        super::super::register(&c).unwrap();
        let q = |sql: &str| -> Option<String> { c.query_row(sql, [], |r| r.get(0)).unwrap() };
        // Values from MariaDB 10.11.
        assert_eq!(
            q("SELECT make_set(5, 'a', NULL, 'c')").as_deref(),
            Some("a,c")
        );
        assert_eq!(
            q("SELECT make_set(3.7, 'a', 'b', 'c')").as_deref(),
            Some("c")
        );
        assert_eq!(q("SELECT make_set(-1, 'a', 'b')").as_deref(), Some("a,b"));
        assert_eq!(q("SELECT make_set(0, 'a')").as_deref(), Some(""));
        assert_eq!(q("SELECT make_set(NULL, 'a')"), None);
        assert_eq!(
            q("SELECT export_set(5, 'Y', 'N', ',', 4)").as_deref(),
            Some("Y,N,Y,N")
        );
        assert_eq!(
            q("SELECT export_set('5', 'Y', 'N', '-', 3)").as_deref(),
            Some("Y-N-Y")
        );
        assert_eq!(
            q("SELECT export_set(-1, '1', '0', '', 3)").as_deref(),
            Some("111")
        );
        assert_eq!(
            q("SELECT export_set(5, 'Y', 'N', ',', 0)").as_deref(),
            Some("")
        );
        assert_eq!(
            q("SELECT length(export_set(5, 'Y', 'N', ',', 70)) || ''"),
            Some("127".into())
        );
        assert_eq!(q("SELECT export_set(5, 'Y', 'N', NULL)"), None);
        // Without a count (64 bits), and without a separator (a comma).
        assert_eq!(
            q("SELECT length(export_set(5, 'Y', 'N', '')) || ''"),
            Some("64".into())
        );
        assert_eq!(
            q("SELECT length(export_set(5, 'Y', 'N')) || ''"),
            Some("127".into())
        );
    }
}
