//! `JSON_SEARCH(doc, 'one'|'all', pattern[, escape[, path, ...]])`.
//!
//! As in MariaDB 10.11: every scalar of the document, in document order, is matched with
//! `LIKE` against the pattern (`%`, `_`, the escape character, `\` when it is NULL or
//! empty), ignoring case and accents as MariaDB's default collation does; a string
//! compares by its characters (escapes decoded), a number as written, `true`, `false` and
//! `null` as those words. With paths, only values at or below one of them count. The
//! result is the path of the first match (`'one'`, which reads no further) or of all of
//! them: a JSON string (`"$[1].a"`, keys as written and unquoted) or an array of them,
//! returned as a document (see `args`); none is NULL. An escape of more than one
//! character is MariaDB's error 1210.

use rusqlite::functions::Context;
use rusqlite::{Connection, Error, Result};

use super::args::{self, check_arity, json_out, FLAGS};
use super::lookup::one_or_all;
use super::matching::{compare, walk, At, Flow};
use super::parse::{unescape, Val};
use super::path::Path;
use crate::functions::general_ci::weight;

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_search", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_search", 3, usize::MAX)?;
        let escape = match ctx.len() > 3 {
            true => args::text(ctx, 3).unwrap_or_default(),
            false => String::new(),
        };
        let escape = match escape.chars().count() {
            0 => '\\',
            1 => escape.chars().next().unwrap_or('\\'),
            _ => {
                return Err(Error::UserFunctionError(
                    "Incorrect arguments to ESCAPE".into(),
                ))
            }
        };
        Ok(json_out(search(ctx, escape)))
    })
}

fn search(ctx: &Context<'_>, escape: char) -> Option<String> {
    let doc = args::doc(ctx, 0)?;
    let pattern = args::text(ctx, 2)?;
    let one = one_or_all(ctx, 1)?;
    let paths: Vec<Path> = (4..ctx.len())
        .map(|i| args::path(ctx, i))
        .collect::<Option<_>>()?;
    let pattern = tokens(&pattern, escape);
    let mut found: Vec<String> = Vec::new();
    walk(&doc, &mut |n, place| {
        let text = match &n.val {
            Val::Str(s) => unescape(s),
            Val::Num(s) => s.clone(),
            Val::True => "true".into(),
            Val::False => "false".into(),
            Val::Null => "null".into(),
            Val::Arr(_) | Val::Obj(_) | Val::Bad => return Flow::Go,
        };
        let under = paths.is_empty() || paths.iter().any(|p| compare(p, place, false) >= 0);
        if under && like(&text, &pattern) {
            found.push(path_text(&place.path));
            if one {
                return Flow::Stop;
            }
        }
        Flow::Go
    })
    .ok()?;
    match found.len() {
        0 => None,
        1 => Some(found.remove(0)),
        _ => Some(format!("[{}]", found.join(", "))),
    }
}

/// A value's path as JSON_SEARCH writes it, quoted.
fn path_text(at: &[At<'_>]) -> String {
    let mut out = String::from("\"$");
    for step in at {
        match step {
            At::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            At::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out.push('"');
    out
}

/// A LIKE pattern element.
#[derive(Clone, Copy, PartialEq)]
enum Tok {
    Many,
    One,
    Char(char),
}

fn tokens(pattern: &str, escape: char) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            c if c == escape => match chars.next() {
                Some(n) => Tok::Char(n),
                None => Tok::Char(c),
            },
            '%' => Tok::Many,
            '_' => Tok::One,
            c => Tok::Char(c),
        });
    }
    out
}

/// `s LIKE pattern`, characters compared as general_ci does.
fn like(s: &str, pattern: &[Tok]) -> bool {
    let s: Vec<char> = s.chars().collect();
    let (mut i, mut p) = (0, 0);
    let mut retry: Option<(usize, usize)> = None;
    while i < s.len() {
        match pattern.get(p) {
            Some(Tok::Many) => {
                p += 1;
                retry = Some((p, i));
                continue;
            }
            Some(Tok::One) => {
                i += 1;
                p += 1;
                continue;
            }
            Some(Tok::Char(c)) if weight(*c) == weight(s[i]) => {
                i += 1;
                p += 1;
                continue;
            }
            _ => {}
        }
        match retry {
            Some((rp, ri)) => {
                p = rp;
                i = ri + 1;
                retry = Some((rp, ri + 1));
            }
            None => return false,
        }
    }
    pattern[p..].iter().all(|t| *t == Tok::Many)
}
