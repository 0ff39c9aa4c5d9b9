//! Registering tutti's collations on a connection, comparing SQLite's bytes as they are.
//!
//! rusqlite's `create_collation` hands its closure two `&str` made with
//! `String::from_utf8_lossy` on every comparison: a sort of a hundred 120-character strings
//! (`ORDER BY c` in sysbench's range selects) spent a tenth of oltp_read_write's CPU
//! re-validating them. These collations are registered with SQLite's C API instead and
//! get the bytes: general_ci compares ASCII bytes directly and decodes only from the first
//! non-ASCII byte on; the others take `&str` after one strict (fast) UTF-8 check.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::ffi::{c_int, c_void, CString};

use rusqlite::{ffi, Connection, Result};
use tutti_wsrep::charsets::Collation;

use super::{decimal, general_ci, time_order, uca};

/// A comparison of two values' bytes.
type Compare = fn(&[u8], &[u8]) -> Ordering;

/// The collation of MariaDB's `_bin` (and `_cs`) collations: bytes (code points, for UTF-8)
/// compared as they are, but PAD SPACE — the shorter value is compared as if padded with
/// spaces, so `'a' = 'a '` and `'a\t' < 'a'`.
pub const BIN_PAD: &str = "tutti_bin";

/// Registers general_ci, the UCA collations, bin_pad, the time order and the decimal order
/// on `c`.
pub(crate) fn register(c: &Connection) -> Result<()> {
    create(c, general_ci::COLLATION, general_ci::collate_bytes)?;
    create(c, uca::UNICODE_CI, uca::unicode_ci_bytes)?;
    create(c, uca::UNICODE_520_CI, uca::unicode_520_ci_bytes)?;
    create(c, BIN_PAD, bin_pad)?;
    create(c, time_order::COLLATION, |a, b| {
        time_order::compare(&text(a), &text(b))
    })?;
    create(c, decimal::collation::NAME, |a, b| {
        decimal::collation::compare(&text(a), &text(b))
    })?;
    for collation in Collation::all() {
        create_single_byte(c, collation)?;
    }
    Ok(())
}

/// [`BIN_PAD`]'s comparison.
fn bin_pad(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.len().min(b.len());
    match a[..common].cmp(&b[..common]) {
        Ordering::Equal => {}
        o => return o,
    }
    // The rest of the longer value against the spaces padding the shorter one.
    let rest_order = |rest: &[u8]| {
        rest.iter()
            .find(|&&c| c != b' ')
            .map_or(Ordering::Equal, |&c| c.cmp(&b' '))
    };
    if a.len() > common {
        rest_order(&a[common..])
    } else {
        rest_order(&b[common..]).reverse()
    }
}

/// SQLite's text as UTF-8 (what tutti stores; anything else read with replacements).
pub(crate) fn text(b: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

fn create(c: &Connection, name: &str, compare: Compare) -> Result<()> {
    // SAFETY: the argument is a plain function pointer (no destructor needed), read back by
    // `call` with its type.
    unsafe { register_raw(c, name, compare as *mut c_void, call) }
}

/// Registers a single-byte character set's collation: `call_single_byte` gets the
/// `'static` [`Collation`].
fn create_single_byte(c: &Connection, collation: &'static Collation) -> Result<()> {
    let arg = collation as *const Collation as *mut c_void;
    // SAFETY: the argument is a `&'static Collation` (no destructor needed), read back by
    // `call_single_byte` with its type.
    unsafe { register_raw(c, collation.sqlite_name(), arg, call_single_byte) }
}

/// The C side of a collation, as SQLite calls it.
type RawCompare =
    unsafe extern "C" fn(*mut c_void, c_int, *const c_void, c_int, *const c_void) -> c_int;

/// # Safety
/// `arg` is what `compare` expects as its first argument, valid as long as `c`.
unsafe fn register_raw(
    c: &Connection,
    name: &str,
    arg: *mut c_void,
    compare: RawCompare,
) -> Result<()> {
    let name = CString::new(name).expect("collation names have no NUL");
    // SAFETY: the handle is the live connection's; SQLite copies the name; the caller
    // vouches for the argument.
    let rc = unsafe {
        ffi::sqlite3_create_collation_v2(
            c.handle(),
            name.as_ptr(),
            ffi::SQLITE_UTF8,
            arg,
            Some(compare),
            None,
        )
    };
    match rc {
        ffi::SQLITE_OK => Ok(()),
        rc => Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), None)),
    }
}

/// The C side of a collation: SQLite's two byte strings to the registered comparison.
unsafe extern "C" fn call(
    arg: *mut c_void,
    len_a: c_int,
    a: *const c_void,
    len_b: c_int,
    b: *const c_void,
) -> c_int {
    // SAFETY: `arg` is the `Compare` registered by `create`; SQLite passes each string
    // as a pointer and a length (a null pointer only with length 0).
    let (compare, a, b) = unsafe {
        (
            std::mem::transmute::<*mut c_void, Compare>(arg),
            bytes(a, len_a),
            bytes(b, len_b),
        )
    };
    // A panic must not cross into C: treat the values as equal.
    std::panic::catch_unwind(|| compare(a, b)).map_or(0, |o| o as c_int)
}

/// The C side of a single-byte character set's collation.
unsafe extern "C" fn call_single_byte(
    arg: *mut c_void,
    len_a: c_int,
    a: *const c_void,
    len_b: c_int,
    b: *const c_void,
) -> c_int {
    // SAFETY: `arg` is the `&'static Collation` registered by `create_single_byte`; SQLite
    // passes each string as a pointer and a length.
    let (collation, a, b) = unsafe {
        (
            &*(arg as *const Collation),
            bytes(a, len_a),
            bytes(b, len_b),
        )
    };
    std::panic::catch_unwind(|| collation.compare(&text(a), &text(b))).map_or(0, |o| o as c_int)
}

/// # Safety
/// `p` points to `len` readable bytes that outlive the returned slice, or `len` is 0.
unsafe fn bytes<'a>(p: *const c_void, len: c_int) -> &'a [u8] {
    match usize::try_from(len) {
        Ok(n) if n > 0 && !p.is_null() => unsafe { std::slice::from_raw_parts(p.cast(), n) },
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(c: &Connection, collation: &str, values: &[&str]) -> Vec<String> {
        c.execute_batch("CREATE TEMP TABLE IF NOT EXISTS v (x TEXT); DELETE FROM v")
            .unwrap();
        for v in values {
            c.execute("INSERT INTO v VALUES (?1)", [v]).unwrap();
        }
        let sql = format!("SELECT x FROM v ORDER BY x COLLATE {collation}, x");
        let mut stmt = c.prepare(&sql).unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.map(|r| r.unwrap()).collect()
    }

    #[test]
    fn collations_sort_sqlite_text_as_their_functions_compare() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        assert_eq!(
            sorted(
                &c,
                general_ci::COLLATION,
                &["b", "É", "a ", "e", "A", "d\u{e9}"]
            ),
            ["A", "a ", "b", "d\u{e9}", "e", "É"]
        );
        let sql = format!(
            "SELECT 'Straße ' = 'STRASE' COLLATE {0}, 'é' = 'E' COLLATE {0}, \
             'Straße' = 'STRASSE' COLLATE {0}",
            general_ci::COLLATION
        );
        let eq: (i64, i64, i64) = c
            .query_row(&sql, [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap();
        assert_eq!(eq, (1, 1, 0), "ß weighs as S (no expansion), é as E");
        assert_eq!(
            sorted(&c, BIN_PAD, &["a ", "b", "A", "a\t", "a", "a\0"]),
            ["A", "a\0", "a\t", "a", "a ", "b"]
        );
        let sql = format!(
            "SELECT 'a' = 'a  ' COLLATE {0}, 'a' = 'A' COLLATE {0}",
            BIN_PAD
        );
        let eq: (i64, i64) = c
            .query_row(&sql, [], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap();
        assert_eq!(eq, (1, 0), "trailing spaces are padding, case counts");
        assert_eq!(
            sorted(&c, decimal::collation::NAME, &["10.5", "-2", "9.75", "0"]),
            ["-2", "0", "9.75", "10.5"]
        );
    }
}
