//! `JSON_COMPACT`, `JSON_LOOSE`, `JSON_DETAILED` (`JSON_PRETTY`): a document re-laid out
//! (see `print`), NULL if it is not valid JSON. `JSON_DETAILED`'s second argument is the
//! indent, clamped to 0..8 (default 4; NULL gives NULL).

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use super::args::{self, check_arity, json_out, FLAGS};
use super::print::{compact, detailed, loose};

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_compact", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_compact", 1, 1)?;
        Ok(json_out(valid_root(ctx).map(|n| compact(&n))))
    })?;
    c.create_scalar_function("json_loose", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_loose", 1, 1)?;
        Ok(json_out(valid_root(ctx).map(|n| loose(&n))))
    })?;
    for name in ["json_detailed", "json_pretty"] {
        c.create_scalar_function(name, -1, FLAGS, move |ctx| {
            check_arity(ctx, name, 1, 2)?;
            let tab = if ctx.len() > 1 {
                match indent(ctx.get_raw(1)) {
                    Some(t) => t,
                    None => return Ok(json_out(None)),
                }
            } else {
                4
            };
            Ok(json_out(valid_root(ctx).map(|n| detailed(&n, tab))))
        })?;
    }
    Ok(())
}

fn valid_root(ctx: &rusqlite::functions::Context<'_>) -> Option<super::parse::Node> {
    args::doc(ctx, 0)?.into_valid()
}

/// The indent argument as MariaDB reads it (an integer, rounded), clamped to 0..8.
fn indent(v: ValueRef<'_>) -> Option<usize> {
    let n: i64 = match v {
        ValueRef::Null => return None,
        ValueRef::Integer(i) => i,
        ValueRef::Real(r) => r.round() as i64,
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let s = String::from_utf8_lossy(t);
            let s = s.trim();
            let end = s
                .char_indices()
                .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+'))))
                .map_or(s.len(), |(i, _)| i);
            s[..end].parse().unwrap_or(0)
        }
    };
    Some(n.clamp(0, 8) as usize)
}
