//! `REGEXP`/`RLIKE` (SQLite's `x REGEXP p` calls `regexp(p, x)`), `REGEXP_REPLACE`,
//! `REGEXP_INSTR` and `REGEXP_SUBSTR`.
//!
//! MariaDB uses PCRE and matches case-insensitively unless a binary string is involved, like
//! its default collation; here the `regex` crate does the matching with `(?i)` under the same
//! rule. PCRE features the `regex` crate lacks (back-references, look-around) fail with an
//! error instead of matching differently. Compiled patterns are cached per thread.

use regex::Regex;
use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};
use std::cell::RefCell;
use std::collections::HashMap;

use super::{text_of, PURE};

thread_local! {
    static CACHE: RefCell<HashMap<(String, bool), Regex>> = RefCell::new(HashMap::new());
}

/// The compiled pattern, case-insensitive unless `binary`.
fn compile(pattern: &str, binary: bool) -> Result<Regex> {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let key = (pattern.to_string(), binary);
        if let Some(r) = cache.get(&key) {
            return Ok(r.clone());
        }
        let src = if binary {
            pattern.to_string()
        } else {
            format!("(?i){pattern}")
        };
        let r = Regex::new(&src)
            .map_err(|e| Error::UserFunctionError(format!("Regex error '{e}'").into()))?;
        if cache.len() >= 64 {
            cache.clear();
        }
        cache.insert(key, r.clone());
        Ok(r)
    })
}

/// The subject and compiled pattern, or None when either is NULL.
fn args(ctx: &Context<'_>, subject: usize, pattern: usize) -> Result<Option<(String, Regex)>> {
    let (s, p) = (ctx.get_raw(subject), ctx.get_raw(pattern));
    if matches!(s, ValueRef::Null) || matches!(p, ValueRef::Null) {
        return Ok(None);
    }
    let binary = matches!(s, ValueRef::Blob(_)) || matches!(p, ValueRef::Blob(_));
    Ok(Some((text_of(s), compile(&text_of(p), binary)?)))
}

/// A MariaDB replacement string (`\1` is group 1) in the `regex` crate's syntax.
fn replacement(rep: &str) -> String {
    let mut out = String::new();
    let mut it = rep.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '$' => out.push_str("$$"),
            '\\' => match it.next() {
                Some(d) if d.is_ascii_digit() => out.push_str(&format!("${{{d}}}")),
                Some('$') => out.push_str("$$"),
                Some(o) => out.push(o),
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("regexp", 2, PURE, |ctx| {
        Ok(args(ctx, 1, 0)?.map(|(s, r)| r.is_match(&s)))
    })?;
    // `x REGEXP p` where a `_bin` collation makes the match case-sensitive.
    c.create_scalar_function("tutti_regexp_cs", 2, PURE, |ctx| {
        let (s, p) = (ctx.get_raw(1), ctx.get_raw(0));
        if matches!(s, ValueRef::Null) || matches!(p, ValueRef::Null) {
            return Ok(None);
        }
        Ok(Some(compile(&text_of(p), true)?.is_match(&text_of(s))))
    })?;
    c.create_scalar_function("regexp_replace", 3, PURE, |ctx| {
        let Some((s, r)) = args(ctx, 0, 1)? else {
            return Ok(None);
        };
        Ok(match ctx.get_raw(2) {
            ValueRef::Null => None,
            rep => Some(r.replace_all(&s, replacement(&text_of(rep))).into_owned()),
        })
    })?;
    c.create_scalar_function("regexp_instr", 2, PURE, |ctx| {
        Ok(args(ctx, 0, 1)?.map(|(s, r)| {
            r.find(&s)
                .map_or(0, |m| s[..m.start()].chars().count() as i64 + 1)
        }))
    })?;
    c.create_scalar_function("regexp_substr", 2, PURE, |ctx| {
        Ok(args(ctx, 0, 1)?.map(|(s, r)| r.find(&s).map_or("", |m| m.as_str()).to_string()))
    })?;
    Ok(())
}
