//! What a document is: `JSON_VALID`, `JSON_TYPE`, `JSON_DEPTH`, `JSON_LENGTH`, `JSON_KEYS`.
//!
//! As in MariaDB 10.11: invalid JSON gives NULL (MariaDB adds a warning), except that
//! `JSON_VALID` says 0. `JSON_TYPE` names OBJECT, ARRAY, STRING, INTEGER, DOUBLE (a number
//! with a fraction part: `1.` is one, `1e5` is not), BOOLEAN or NULL. `JSON_DEPTH` counts a
//! scalar or an empty container as 1. `JSON_LENGTH` counts array elements or object members
//! (a scalar is 1) of the document or of the value at a path (NULL where none); it reads
//! no further than a scalar it is asked about. `JSON_KEYS` lists an object's keys once each,
//! as written (see `listed` for MariaDB's way of spotting repeats), reading only that
//! object; anything but an object gives NULL.

use rusqlite::{Connection, Result};

use super::args::{self, bool_out, check_arity, FLAGS};
use super::matching::find_first_in;
use super::parse::{Doc, Node, Val};
use super::print::scalar;

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_valid", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_valid", 1, 1)?;
        Ok(bool_out(args::doc(ctx, 0).map(|d| d.valid)))
    })?;
    c.create_scalar_function("json_type", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_type", 1, 1)?;
        Ok(args::doc(ctx, 0)
            .and_then(|d| d.into_valid())
            .map(|n| type_name(&n).to_string()))
    })?;
    c.create_scalar_function("json_depth", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_depth", 1, 1)?;
        Ok(args::doc(ctx, 0)
            .and_then(|d| d.into_valid())
            .map(|n| depth(&n)))
    })?;
    c.create_scalar_function("json_length", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_length", 1, 2)?;
        Ok(length(ctx))
    })?;
    c.create_scalar_function("json_keys", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_keys", 1, 2)?;
        Ok(keys(ctx))
    })?;
    Ok(())
}

fn type_name(n: &Node) -> &'static str {
    match &n.val {
        Val::Obj(_) => "OBJECT",
        Val::Arr(_) => "ARRAY",
        Val::Str(_) => "STRING",
        Val::Num(s) if s.contains('.') => "DOUBLE",
        Val::Num(_) => "INTEGER",
        Val::True | Val::False => "BOOLEAN",
        Val::Null | Val::Bad => "NULL",
    }
}

fn depth(n: &Node) -> i64 {
    let inner = match &n.val {
        Val::Arr(items) => items.iter().map(depth).max(),
        Val::Obj(members) => members.iter().map(|m| depth(&m.val)).max(),
        _ => None,
    };
    1 + inner.unwrap_or(0)
}

/// The node the optional path (argument 1) selects, the root without one; None when the
/// path is invalid or selects nothing.
fn selected<'d>(ctx: &rusqlite::functions::Context<'_>, doc: &'d Doc) -> Option<&'d Node> {
    if ctx.len() > 1 {
        let path = args::plain_path(ctx, 1)?;
        find_first_in(doc, &path).ok()?
    } else {
        Some(&doc.root)
    }
}

fn length(ctx: &rusqlite::functions::Context<'_>) -> Option<i64> {
    let doc = args::doc(ctx, 0)?;
    let target = selected(ctx, &doc)?;
    match &target.val {
        Val::Bad => None,
        Val::Arr(items) if doc.valid => Some(items.len() as i64),
        Val::Obj(members) if doc.valid => Some(members.len() as i64),
        Val::Arr(_) | Val::Obj(_) => None,
        _ => Some(1),
    }
}

fn keys(ctx: &rusqlite::functions::Context<'_>) -> Option<String> {
    let doc = args::doc(ctx, 0)?;
    let target = selected(ctx, &doc)?;
    let Val::Obj(members) = &target.val else {
        return None;
    };
    if !target.done {
        return None;
    }
    let mut out = String::from("[");
    for m in members {
        if listed(out.as_bytes(), m.key.as_bytes()) {
            continue;
        }
        if out.len() > 1 {
            out.push_str(", ");
        }
        scalar(&Val::Str(m.key.clone()), &mut out);
    }
    out.push(']');
    Some(out)
}

/// Whether `key` is in the list `["k1", "k2", ...` being built, as MariaDB looks for it:
/// each listed key is read up to the next `"` (an escaped quote ends it too), and an empty
/// key is not found where it ends the list. So `{"":1,"":2}` lists `""` twice.
fn listed(list: &[u8], key: &[u8]) -> bool {
    let end = list.len().saturating_sub(1);
    let mut c = 2;
    while c < end {
        let mut n = 0;
        while list[c + n] != b'"' && n < key.len() && list[c + n] == key[n] {
            n += 1;
        }
        if list[c + n] == b'"' {
            if n == key.len() {
                return true;
            }
        } else {
            while list[c + n] != b'"' {
                n += 1;
            }
        }
        c += n + 4;
    }
    false
}
