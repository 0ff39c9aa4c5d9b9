//! SQLite's changeset format, written: the bytes `sqlite3session_changeset` produces, so
//! that SQLite's changeset iterator (the apply, certification keys) reads ours unchanged.
//!
//! A changeset is a run of tables, each a header — `'T'`, the column count (varint), one
//! byte per column (its place in the primary key, 0 for none), the NUL-terminated name — followed by its
//! changes: an operation byte (INSERT 18, DELETE 9, UPDATE 23), an "indirect" byte (1 for a
//! change a trigger or foreign-key action made) and records. A record is one field per
//! column: a type byte (0 undefined, 1 integer, 2 real, 3 text, 4 blob, 5 NULL) and, for
//! integers and reals, 8 big-endian bytes; for text and blobs a varint length and the bytes.

use rusqlite::types::ValueRef;

/// Operation bytes (SQLite's action codes).
pub(super) const INSERT: u8 = 18;
pub(super) const DELETE: u8 = 9;
pub(super) const UPDATE: u8 = 23;

/// Field type bytes.
const UNDEFINED: u8 = 0;
const INTEGER: u8 = 1;
const REAL: u8 = 2;
const TEXT: u8 = 3;
const BLOB: u8 = 4;
const NULL: u8 = 5;

/// Appends SQLite's varint of `n` (big-endian groups of 7 bits, the high bit set on all but
/// the last).
fn put_varint(out: &mut Vec<u8>, n: u64) {
    let mut groups = [0u8; 10];
    let mut len = 0;
    let mut v = n;
    loop {
        groups[len] = (v & 0x7f) as u8;
        len += 1;
        v >>= 7;
        if v == 0 {
            break;
        }
    }
    for i in (0..len).rev() {
        out.push(groups[i] | if i > 0 { 0x80 } else { 0 });
    }
}

/// Reads a varint at the start of `bytes`: (value, its length).
fn get_varint(bytes: &[u8]) -> (u64, usize) {
    let mut v = 0u64;
    for (i, b) in bytes.iter().enumerate() {
        v = (v << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return (v, i + 1);
        }
    }
    (v, bytes.len())
}

/// Appends one field holding `v`.
pub(super) fn put_value(out: &mut Vec<u8>, v: ValueRef<'_>) {
    match v {
        ValueRef::Null => out.push(NULL),
        ValueRef::Integer(i) => {
            out.push(INTEGER);
            out.extend_from_slice(&i.to_be_bytes());
        }
        ValueRef::Real(r) => {
            out.push(REAL);
            out.extend_from_slice(&r.to_bits().to_be_bytes());
        }
        ValueRef::Text(t) => {
            out.push(TEXT);
            put_varint(out, t.len() as u64);
            out.extend_from_slice(t);
        }
        ValueRef::Blob(b) => {
            out.push(BLOB);
            put_varint(out, b.len() as u64);
            out.extend_from_slice(b);
        }
    }
}

/// Appends an undefined field (a column a record leaves out).
pub(super) fn put_undefined(out: &mut Vec<u8>) {
    out.push(UNDEFINED);
}

/// One field of a record: its bytes (type byte included) and its value.
pub(super) struct Field<'a> {
    pub bytes: &'a [u8],
    /// None for an undefined field.
    pub value: Option<ValueRef<'a>>,
}

/// The first field of `record`: its length and value (None: undefined).
pub(super) fn first_field(record: &[u8]) -> (usize, Option<ValueRef<'_>>) {
    let kind = record[0];
    match kind {
        INTEGER | REAL => {
            let mut b = [0u8; 8];
            b.copy_from_slice(&record[1..9]);
            let v = if kind == INTEGER {
                ValueRef::Integer(i64::from_be_bytes(b))
            } else {
                ValueRef::Real(f64::from_bits(u64::from_be_bytes(b)))
            };
            (9, Some(v))
        }
        TEXT | BLOB => {
            let (n, h) = get_varint(&record[1..]);
            let data = &record[1 + h..1 + h + n as usize];
            let v = if kind == TEXT {
                ValueRef::Text(data)
            } else {
                ValueRef::Blob(data)
            };
            (1 + h + n as usize, Some(v))
        }
        NULL => (1, Some(ValueRef::Null)),
        _ => (1, None),
    }
}

/// Splits a record into its fields.
pub(super) fn fields(mut record: &[u8]) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    while !record.is_empty() {
        let (len, value) = first_field(record);
        out.push(Field {
            bytes: &record[..len],
            value,
        });
        record = &record[len..];
    }
    out
}

/// Reads a varint at the start of `bytes` (for readers of whole changesets).
#[cfg(test)]
pub(super) fn varint(bytes: &[u8]) -> (u64, usize) {
    get_varint(bytes)
}

/// Two fields hold the same value, as the session module compares them: the same type
/// and the same bytes (reals by value, so 0.0 equals -0.0).
pub(super) fn same(old: &Field<'_>, new: ValueRef<'_>) -> bool {
    match (old.value, new) {
        (Some(ValueRef::Null), ValueRef::Null) => true,
        (Some(ValueRef::Integer(a)), ValueRef::Integer(b)) => a == b,
        (Some(ValueRef::Real(a)), ValueRef::Real(b)) => a == b,
        (Some(ValueRef::Text(a)), ValueRef::Text(b)) => a == b,
        (Some(ValueRef::Blob(a)), ValueRef::Blob(b)) => a == b,
        _ => false,
    }
}

/// Appends a table header; `pk`: each column's place in the primary key (0: none).
pub(super) fn put_table(out: &mut Vec<u8>, name: &str, pk: &[u8]) {
    out.push(b'T');
    put_varint(out, pk.len() as u64);
    out.extend_from_slice(pk);
    out.extend_from_slice(name.as_bytes());
    out.push(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_sqlites() {
        for (n, bytes) in [
            (0u64, vec![0u8]),
            (127, vec![0x7f]),
            (128, vec![0x81, 0x00]),
            (300, vec![0x82, 0x2c]),
            (16384, vec![0x81, 0x80, 0x00]),
        ] {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            assert_eq!(out, bytes, "{n}");
            assert_eq!(get_varint(&bytes), (n, bytes.len()));
        }
    }

    #[test]
    fn fields_read_back_what_was_put() {
        let mut rec = Vec::new();
        let text = "x".repeat(200);
        let values = [
            ValueRef::Integer(-5),
            ValueRef::Real(1.5),
            ValueRef::Text(text.as_bytes()),
            ValueRef::Blob(b""),
            ValueRef::Null,
        ];
        for v in values {
            put_value(&mut rec, v);
        }
        put_undefined(&mut rec);
        let f = fields(&rec);
        assert_eq!(f.len(), 6);
        for (field, v) in f.iter().zip(values) {
            assert_eq!(field.value, Some(v));
            assert!(same(field, v));
        }
        assert!(f[5].value.is_none());
        assert!(!same(&f[0], ValueRef::Real(-5.0)));
    }
}
