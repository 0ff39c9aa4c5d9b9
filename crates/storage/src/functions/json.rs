//! MySQL JSON functions SQLite's json1 lacks: `JSON_UNQUOTE` and `JSON_LENGTH`.
//!
//! `JSON_UNQUOTE` decodes a JSON string literal and leaves anything else as it is (as MariaDB
//! does for `'abc'` or `'[1,2]'`). `JSON_LENGTH` counts array elements or object members (a
//! scalar counts 1); invalid JSON or a path that selects nothing gives NULL. Paths support
//! `$`, `.key`, `."key"` and `[n]`.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};
use serde_json::Value as Json;

use super::{text_of, PURE};

/// The value at a simple JSON path (`$`, `.key`, `."key"`, `[n]`), or None.
fn select<'a>(doc: &'a Json, path: &str) -> Result<Option<&'a Json>> {
    let bad = || Error::UserFunctionError(format!("Invalid JSON path '{path}'").into());
    let mut rest = path.trim().strip_prefix('$').ok_or_else(bad)?;
    let mut cur = doc;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let (key, tail) = if let Some(q) = r.strip_prefix('"') {
                let end = q.find('"').ok_or_else(bad)?;
                (&q[..end], &q[end + 1..])
            } else {
                let end = r.find(['.', '[']).unwrap_or(r.len());
                (&r[..end], &r[end..])
            };
            if key.is_empty() || key.contains('*') {
                return Err(bad());
            }
            match cur.get(key) {
                Some(v) => cur = v,
                None => return Ok(None),
            }
            rest = tail;
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').ok_or_else(bad)?;
            let i: usize = r[..end].trim().parse().map_err(|_| bad())?;
            match cur.get(i) {
                Some(v) => cur = v,
                None => return Ok(None),
            }
            rest = &r[end + 1..];
        } else {
            return Err(bad());
        }
    }
    Ok(Some(cur))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_unquote", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            v => {
                let s = text_of(v);
                let t = s.trim();
                Some(
                    match (t.len() >= 2 && t.starts_with('"') && t.ends_with('"'))
                        .then(|| serde_json::from_str::<String>(t).ok())
                        .flatten()
                    {
                        Some(u) => u,
                        None => s,
                    },
                )
            }
        })
    })?;
    c.create_scalar_function("json_length", -1, PURE, |ctx| {
        if !(1..=2).contains(&ctx.len()) {
            return Err(Error::UserFunctionError(
                "Incorrect parameter count in the call to native function 'json_length'".into(),
            ));
        }
        if (0..ctx.len()).any(|i| matches!(ctx.get_raw(i), ValueRef::Null)) {
            return Ok(None);
        }
        let Ok(doc) = serde_json::from_str::<Json>(&text_of(ctx.get_raw(0))) else {
            return Ok(None);
        };
        let target = if ctx.len() == 2 {
            select(&doc, &text_of(ctx.get_raw(1)))?
        } else {
            Some(&doc)
        };
        Ok(target.map(|v| match v {
            Json::Array(a) => a.len() as i64,
            Json::Object(o) => o.len() as i64,
            _ => 1,
        }))
    })?;
    Ok(())
}
