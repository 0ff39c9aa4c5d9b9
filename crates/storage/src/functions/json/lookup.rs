//! Values found by path: `JSON_EXISTS`, `JSON_VALUE`, `JSON_QUERY`, `JSON_EXTRACT`,
//! `JSON_CONTAINS_PATH`.
//!
//! As in MariaDB 10.11:
//!
//! * `JSON_VALUE` returns the first scalar the path reaches, unquoted (`true` as 1,
//!   `false` as 0), skipping arrays and objects, NULL at a JSON `null`; `JSON_QUERY` the
//!   first array or object, exactly as written, skipping scalars. Both read no further
//!   than that value, so a mistake after it goes unnoticed. `JSON_VALUE` refuses
//!   wildcards and ranges; `JSON_QUERY` and `JSON_EXISTS` take the first match.
//! * `JSON_EXISTS` is 1 as soon as the path reaches a key or element, whatever follows.
//! * `JSON_EXTRACT` reads the whole document and returns the values in document order, in
//!   the loose layout; with several paths or a wildcard, a range or `**` in the first
//!   path they come as an array (a value matched by two paths twice), otherwise the first
//!   match alone (NULL if that is a number MariaDB cannot read back alone: `1e`, `-`).
//!   Nothing found is NULL.
//! * `JSON_CONTAINS_PATH(doc, 'one'|'all', path, ...)`: whether one/all of the paths reach
//!   a value ('one'/'all' in any case; anything else gives NULL).
//!
//! Invalid JSON or paths and NULL arguments give NULL.

use rusqlite::functions::Context;
use rusqlite::{Connection, Result};

use super::args::{self, bool_out, check_arity, json_out, FLAGS};
use super::matching::{compare, find_first_in, find_in, walk, Broken, Flow};
use super::parse::{unescape, Doc, Node, Val};
use super::path::Path;
use super::print::loose;

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_exists", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_exists", 2, 2)?;
        Ok(bool_out(exists(ctx)))
    })?;
    c.create_scalar_function("json_value", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_value", 2, 2)?;
        Ok(value(ctx))
    })?;
    c.create_scalar_function("json_query", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_query", 2, 2)?;
        Ok(json_out(query(ctx)))
    })?;
    c.create_scalar_function("json_extract", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_extract", 2, usize::MAX)?;
        Ok(json_out(extract(ctx)))
    })?;
    c.create_scalar_function("json_contains_path", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_contains_path", 3, usize::MAX)?;
        Ok(bool_out(contains_path(ctx)))
    })?;
    Ok(())
}

fn exists(ctx: &Context<'_>) -> Option<bool> {
    let doc = args::doc(ctx, 0)?;
    let path = args::path(ctx, 1)?;
    find_first_in(&doc, &path).ok().map(|n| n.is_some())
}

fn value(ctx: &Context<'_>) -> Option<String> {
    let doc = args::doc(ctx, 0)?;
    let path = args::plain_path(ctx, 1)?;
    first_picked(&doc, &path, |n| match &n.val {
        Val::Str(s) => Some(unescape(s)),
        Val::Num(s) => Some(s.clone()),
        Val::True => Some("1".into()),
        Val::False => Some("0".into()),
        _ => None,
    })
}

fn query(ctx: &Context<'_>) -> Option<String> {
    let text = args::text(ctx, 0)?;
    let doc = super::parse::parse(&text);
    let path = args::path(ctx, 1)?;
    first_picked(&doc, &path, |n| match &n.val {
        Val::Arr(_) | Val::Obj(_) => Some(text[n.span.0..n.span.1].to_string()),
        _ => None,
    })
}

/// JSON_VALUE / JSON_QUERY's walk: the first match `pick` takes; a JSON null stops it
/// (NULL), broken JSON or an unfinished array/object before that gives NULL too.
fn first_picked(
    doc: &Doc,
    path: &Path,
    mut pick: impl FnMut(&Node) -> Option<String>,
) -> Option<String> {
    let mut out = None;
    find_in(doc, path, &mut |n| {
        Ok(match &n.val {
            Val::Bad => return Err(Broken),
            Val::Null => Flow::Stop,
            Val::Arr(_) | Val::Obj(_) if !n.done => return Err(Broken),
            _ => match pick(n) {
                Some(v) => {
                    out = Some(v);
                    Flow::Stop
                }
                None => Flow::Go,
            },
        })
    })
    .ok()?;
    out
}

/// The paths in arguments `from..`; None if one is NULL or not a path.
fn paths(ctx: &Context<'_>, from: usize) -> Option<Vec<Path>> {
    (from..ctx.len()).map(|i| args::path(ctx, i)).collect()
}

fn extract(ctx: &Context<'_>) -> Option<String> {
    let doc = args::doc(ctx, 0)?;
    let paths = paths(ctx, 1)?;
    if !doc.valid {
        return None;
    }
    let several = paths.len() > 1 || paths[0].wild();
    let mut found = Vec::new();
    walk(&doc, &mut |n, place| {
        let array = matches!(n.val, Val::Arr(_));
        let hits = paths
            .iter()
            .filter(|p| compare(p, place, array) == 0)
            .count();
        for _ in 0..hits {
            found.push(loose(n));
        }
        if hits > 0 && !several {
            Flow::Stop
        } else {
            Flow::Go
        }
    })
    .ok()?;
    if several {
        (!found.is_empty()).then(|| format!("[{}]", found.join(", ")))
    } else {
        // Read back as MariaDB does: a number left at the end where it may not end is NULL.
        found
            .into_iter()
            .next()
            .filter(|v| super::parse::parse_valid(v).is_some())
    }
}

/// 'one' (true) or 'all' (false), in any case; None otherwise.
pub(crate) fn one_or_all(ctx: &Context<'_>, i: usize) -> Option<bool> {
    let mode = args::text(ctx, i)?;
    if mode.eq_ignore_ascii_case("one") {
        Some(true)
    } else if mode.eq_ignore_ascii_case("all") {
        Some(false)
    } else {
        None
    }
}

fn contains_path(ctx: &Context<'_>) -> Option<bool> {
    let doc = args::doc(ctx, 0)?;
    let one = one_or_all(ctx, 1)?;
    let paths = paths(ctx, 2)?;
    if !doc.valid {
        return None;
    }
    let mut reached = vec![false; paths.len()];
    walk(&doc, &mut |n, place| {
        let array = matches!(n.val, Val::Arr(_));
        for (i, p) in paths.iter().enumerate() {
            if compare(p, place, array) >= 0 {
                reached[i] = true;
            }
        }
        Flow::Go
    })
    .ok()?;
    Some(if one {
        reached.iter().any(|&r| r)
    } else {
        reached.iter().all(|&r| r)
    })
}
