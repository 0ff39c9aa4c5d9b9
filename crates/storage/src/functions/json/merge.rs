//! `JSON_MERGE` / `JSON_MERGE_PRESERVE` and `JSON_MERGE_PATCH`.
//!
//! As in MariaDB 10.11 (results in the loose layout, any NULL argument NULL except as
//! `JSON_MERGE_PATCH` says):
//!
//! * preserve: two objects merge member by member (each member of the first, duplicates
//!   included, merged with the first member of the second of the same key, then the
//!   second's members whose key the first lacks); anything else concatenates as arrays (a
//!   non-array being an array of itself).
//! * patch (RFC 7396): an object patch replaces members, a `null` member removes one,
//!   nulls inside objects it adds are dropped; a non-object patch replaces the whole. A
//!   NULL argument makes the result NULL until a later argument that is not an object,
//!   which then becomes the result as written. One quirk is kept: while no member has been
//!   kept yet, the search for the next member's patch goes on from after the previous one
//!   (`{"a":1,"a":2}` patched by `{"a":null}` keeps `"a":2`).
//!
//! MariaDB merges as it reads, so what it notices of a mistake in a document depends on
//! what it reads: an argument is read to the end of its first value at most; the end of an
//! object is read only when a key is looked for in it and not found, when a key of the
//! other object is looked for, or when the object is taken whole; a member's value only
//! when it is used. So `JSON_MERGE('{}', '{"a": 1')` is `{"a": 1}`.

use rusqlite::functions::Context;
use rusqlite::{Connection, Result};

use super::args::{self, check_arity, json_out, FLAGS};
use super::matching::Broken;
use super::parse::{parse, parse_valid, unescape, Doc, Member, Node, Val};
use super::print::loose_checked;

pub(crate) fn register(c: &Connection) -> Result<()> {
    for name in ["json_merge", "json_merge_preserve"] {
        c.create_scalar_function(name, -1, FLAGS, move |ctx| {
            check_arity(ctx, name, 2, usize::MAX)?;
            Ok(json_out(merge_preserve(ctx)))
        })?;
    }
    c.create_scalar_function("json_merge_patch", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_merge_patch", 2, usize::MAX)?;
        Ok(json_out(merge_patch(ctx)))
    })?;
    Ok(())
}

type Read<T> = std::result::Result<T, Broken>;

/// A value read to its end.
fn whole(n: &Node) -> Read<()> {
    if n.done {
        Ok(())
    } else {
        Err(Broken)
    }
}

/// The first member, from `from` on, whose key stands for the same characters as `key`
/// (members passed over have their values read; not finding it reads `obj` to its end).
fn lookup<'a>(
    obj: &Node,
    members: &'a [Member],
    key: &str,
    from: usize,
) -> Read<Option<(usize, &'a Member)>> {
    let key = unescape(key);
    for (i, m) in members.iter().enumerate().skip(from) {
        if unescape(&m.key) == key {
            return Ok(Some((i, m)));
        }
        whole(&m.val)?;
    }
    whole(obj)?;
    Ok(None)
}

fn merge_preserve(ctx: &Context<'_>) -> Option<String> {
    let mut acc: Option<Node> = None;
    for i in 0..ctx.len() {
        let next = args::doc(ctx, i)?.root;
        acc = Some(match acc {
            None => next,
            Some(a) => preserve(&a, &next).ok()?,
        });
    }
    let root = acc?;
    // A single argument cannot get here (arity); the fold above built a fresh value.
    loose_checked(&root)
}

/// A value's elements when merged as arrays.
fn elements(n: &Node) -> Vec<Node> {
    match &n.val {
        Val::Arr(items) => items.clone(),
        _ => vec![n.clone()],
    }
}

fn preserve(a: &Node, b: &Node) -> Read<Node> {
    if matches!(a.val, Val::Bad) || matches!(b.val, Val::Bad) {
        return Err(Broken);
    }
    if let (Val::Obj(left), Val::Obj(right)) = (&a.val, &b.val) {
        let mut out = Vec::new();
        for m in left {
            match lookup(b, right, &m.key, 0)? {
                Some((_, r)) => out.push(Member {
                    key: m.key.clone(),
                    val: preserve(&m.val, &r.val)?,
                }),
                None => {
                    whole(&m.val)?;
                    out.push(m.clone());
                }
            }
        }
        for r in right {
            let found = lookup(a, left, &r.key, 0)?.is_some();
            whole(&r.val)?;
            if found {
                whole(a)?;
            } else {
                out.push(r.clone());
            }
        }
        return Ok(Node::new(Val::Obj(out)));
    }
    whole(a)?;
    whole(b)?;
    let mut items = elements(a);
    items.extend(elements(b));
    Ok(Node::new(Val::Arr(items)))
}

/// A patch value as it is added: an object without its null members (at any depth of
/// objects), anything else whole. An object is read only as far as its members go; one
/// inside it, unfinished, too unless MariaDB's reader can resume after the mistake
/// (`resumable`, see `Doc`), which makes it fail.
fn without_nulls(n: &Node, top: bool, resumable: bool) -> Read<Node> {
    match &n.val {
        Val::Obj(_) if !top && !n.done && resumable => Err(Broken),
        Val::Obj(members) => {
            let mut out = Vec::new();
            for m in members {
                match m.val.val {
                    Val::Bad => return Err(Broken),
                    Val::Null => {}
                    _ => out.push(Member {
                        key: m.key.clone(),
                        val: without_nulls(&m.val, false, resumable)?,
                    }),
                }
            }
            Ok(Node::new(Val::Obj(out)))
        }
        Val::Bad => Err(Broken),
        _ => {
            whole(n)?;
            Ok(n.clone())
        }
    }
}

/// `target` patched by `with` (from a text that is `resumable`, see `Doc`); None when the
/// patch removes it.
fn patch(target: &Node, with: &Node, resumable: bool) -> Read<Option<Node>> {
    if matches!(target.val, Val::Bad) || matches!(with.val, Val::Bad) {
        return Err(Broken);
    }
    if let (Val::Obj(left), Val::Obj(right)) = (&target.val, &with.val) {
        let mut out = Vec::new();
        let mut from = 0;
        for m in left {
            if !out.is_empty() {
                from = 0;
            }
            match lookup(with, right, &m.key, from)? {
                Some((i, r)) => {
                    from = i + 1;
                    if let Some(v) = patch(&m.val, &r.val, resumable)? {
                        out.push(Member {
                            key: m.key.clone(),
                            val: v,
                        });
                    }
                }
                None => {
                    from = right.len();
                    whole(&m.val)?;
                    out.push(m.clone());
                }
            }
        }
        for r in right {
            if lookup(target, left, &r.key, 0)?.is_some() {
                whole(&r.val)?;
                whole(target)?;
                continue;
            }
            match r.val.val {
                Val::Bad => return Err(Broken),
                Val::Null => {}
                _ => out.push(Member {
                    key: r.key.clone(),
                    val: without_nulls(&r.val, false, resumable)?,
                }),
            }
        }
        return Ok(Some(Node::new(Val::Obj(out))));
    }
    if !target.is_scalar() {
        whole(target)?;
    }
    if with.val == Val::Null {
        return Ok(None);
    }
    without_nulls(with, true, resumable).map(Some)
}

fn merge_patch(ctx: &Context<'_>) -> Option<String> {
    // The result so far: NULL, an argument taken as written, or a value.
    enum Acc {
        Null,
        Text(String),
        Doc(Node),
    }
    let mut acc = match args::doc(ctx, 0) {
        None => Acc::Null,
        Some(d) => Acc::Doc(d.root),
    };
    for i in 1..ctx.len() {
        let Some(text) = args::text(ctx, i) else {
            acc = Acc::Null;
            continue;
        };
        let Doc {
            root: with,
            resumable,
            ..
        } = parse(&text);
        let target = match acc {
            Acc::Null => {
                acc = match with.val {
                    Val::Bad => return None,
                    Val::Obj(_) => Acc::Null,
                    _ => Acc::Text(text),
                };
                continue;
            }
            Acc::Text(t) => parse(&t).root,
            Acc::Doc(n) => n,
        };
        let patched = patch(&target, &with, resumable).ok()?;
        acc = Acc::Doc(patched.unwrap_or_else(|| Node::new(Val::Null)));
    }
    match acc {
        Acc::Null => None,
        Acc::Text(t) => parse_valid(&t).and_then(|n| loose_checked(&n)),
        Acc::Doc(n) => loose_checked(&n),
    }
}
