//! `tutti_charset_bytes(x, charset)`: the bytes of a string in a single-byte character set
//! (a `SET NAMES latin1` connection's literal, `_koi8r'...'`). tutti holds the text as
//! UTF-8; MariaDB's byte functions (`LENGTH`, `HEX`, `MD5`, ...) read the set's bytes, so
//! the front-end passes them these. Other values pass as they are.
//!
//! `tutti_charset_text(x, charset)`: text converted to a single-byte set and kept as text
//! (`CONVERT(x USING latin1)`): each character the set lacks becomes `?`, as MariaDB
//! converts it. Other values pass as they are.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};
use tutti_wsrep::charsets::SingleByte;

use super::{text_of, PURE};

fn charset_bytes(ctx: &Context<'_>) -> Result<Value> {
    let set = SingleByte::named(&text_of(ctx.get_raw(1)));
    Ok(match (ctx.get_raw(0), set) {
        (ValueRef::Text(t), Some(set)) => Value::Blob(set.encode(&String::from_utf8_lossy(t))),
        (ValueRef::Null, _) => Value::Null,
        (ValueRef::Integer(i), _) => Value::Integer(i),
        (ValueRef::Real(r), _) => Value::Real(r),
        (ValueRef::Text(t), None) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        (ValueRef::Blob(b), _) => Value::Blob(b.to_vec()),
    })
}

fn charset_text(ctx: &Context<'_>) -> Result<Value> {
    let set = SingleByte::named(&text_of(ctx.get_raw(1)));
    Ok(match (ctx.get_raw(0), set) {
        (ValueRef::Text(t), Some(set)) if !t.is_ascii() => {
            Value::Text(set.converted(&String::from_utf8_lossy(t)))
        }
        (_, _) => ctx.get::<Value>(0)?,
    })
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_charset_bytes", 2, PURE, charset_bytes)?;
    c.create_scalar_function("tutti_charset_text", 2, PURE, charset_text)
}
