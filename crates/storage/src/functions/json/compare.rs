//! `JSON_CONTAINS(doc, value[, path])` and `JSON_OVERLAPS(a, b)`.
//!
//! MariaDB 10.11's rules, which are its own:
//!
//! * contains: an object contains an object whose every member's value is contained in
//!   the value of the first member of the same key (keys compare by their characters); an
//!   array contains an array whose every element it contains, and any other value that one
//!   of its elements (at any depth of arrays) contains; strings are equal as written
//!   (escapes not decoded), numbers when they differ by less than 1e-12, `true`, `false`
//!   and `null` when of the same kind. A path that reaches nothing gives 0.
//! * overlaps: scalars as for contains; a scalar and an array when one element equals it;
//!   two arrays when two elements overlap (elements that are containers compared whole:
//!   objects by canonical form, arrays element by element, the second one's elements
//!   the first's leading ones); two objects when one key's values overlap that way; an
//!   array and an object when an element of the array equals the object.
//!   Invalid JSON makes it 0, not NULL.

use rusqlite::functions::Context;
use rusqlite::{Connection, Result};

use super::args::{self, bool_out, check_arity, FLAGS};
use super::matching::{find_first_in, Broken};
use super::normalize::canonical;
use super::parse::{unescape, Member, Node, Val};

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_contains", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_contains", 2, 3)?;
        Ok(bool_out(json_contains(ctx)))
    })?;
    c.create_scalar_function("json_overlaps", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_overlaps", 2, 2)?;
        let (Some(a), Some(b)) = (args::doc(ctx, 0), args::doc(ctx, 1)) else {
            return Ok(bool_out(None));
        };
        Ok(bool_out(Some(
            overlaps(&a.root, &b.root, false).unwrap_or(false),
        )))
    })?;
    Ok(())
}

fn json_contains(ctx: &Context<'_>) -> Option<bool> {
    let doc = args::doc(ctx, 0)?;
    let value = args::doc(ctx, 1)?;
    let target = if ctx.len() > 2 {
        let path = args::plain_path(ctx, 2)?;
        match find_first_in(&doc, &path).ok()? {
            Some(n) => n,
            None => return Some(false),
        }
    } else {
        &doc.root
    };
    contains(target, &value.root).ok()
}

fn done(n: &Node) -> Result<(), Broken> {
    if n.done {
        Ok(())
    } else {
        Err(Broken)
    }
}

/// The first member whose key stands for the same characters.
fn member<'a>(members: &'a [Member], key: &str) -> Option<&'a Member> {
    let key = unescape(key);
    members.iter().find(|m| unescape(&m.key) == key)
}

/// A number's value as C's strtod reads its text (the longest prefix that is a number).
fn number(text: &str) -> f64 {
    (1..=text.len())
        .rev()
        .find_map(|n| text.get(..n)?.parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// Scalars of the same kind and value.
fn scalar_eq(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Num(x), Val::Num(y)) => (number(x) - number(y)).abs() < 1e-12,
        (Val::True, Val::True) | (Val::False, Val::False) | (Val::Null, Val::Null) => true,
        _ => false,
    }
}

fn contains(js: &Node, v: &Node) -> Result<bool, Broken> {
    if matches!(js.val, Val::Bad) || matches!(v.val, Val::Bad) {
        return Err(Broken);
    }
    match (&js.val, &v.val) {
        (Val::Obj(members), Val::Obj(wanted)) => {
            for w in wanted {
                let Some(m) = member(members, &w.key) else {
                    done(js)?;
                    return Ok(false);
                };
                if !contains(&m.val, &w.val)? {
                    return Ok(false);
                }
            }
            done(v)?;
            done(js)?;
            Ok(true)
        }
        (Val::Obj(_), _) => Ok(false),
        (Val::Arr(_), Val::Arr(wanted)) => {
            for w in wanted {
                if !contains(js, w)? {
                    return Ok(false);
                }
            }
            done(v)?;
            Ok(true)
        }
        (Val::Arr(items), _) => {
            for item in items {
                if contains(item, v)? {
                    done(js)?;
                    return Ok(true);
                }
            }
            done(js)?;
            Ok(false)
        }
        (a, b) => Ok(scalar_eq(a, b)),
    }
}

fn same_kind(a: &Node, b: &Node) -> bool {
    std::mem::discriminant(&a.val) == std::mem::discriminant(&b.val)
}

/// Two objects equal as wholes (canonical forms).
fn equal_objects(a: &Node, b: &Node) -> Result<bool, Broken> {
    done(a)?;
    done(b)?;
    Ok(canonical(a) == canonical(b))
}

fn overlaps(js: &Node, v: &Node, whole: bool) -> Result<bool, Broken> {
    if matches!(js.val, Val::Bad) || matches!(v.val, Val::Bad) {
        return Err(Broken);
    }
    match (&js.val, &v.val) {
        (Val::Obj(_), Val::Obj(_)) if whole => equal_objects(js, v),
        (Val::Obj(members), Val::Obj(wanted)) => {
            for w in wanted {
                if let Some(m) = member(members, &w.key) {
                    if same_kind(&m.val, &w.val) && overlaps(&m.val, &w.val, true)? {
                        return Ok(true);
                    }
                }
            }
            done(js)?;
            done(v)?;
            Ok(false)
        }
        (Val::Obj(_), Val::Arr(_)) | (Val::Arr(_), Val::Obj(_)) if whole => Ok(false),
        (Val::Obj(_), Val::Arr(items)) => element_equals_object(items, js),
        (Val::Arr(items), Val::Obj(_)) => element_equals_object(items, v),
        (Val::Arr(a), Val::Arr(b)) if whole => {
            if b.len() > a.len() {
                return Ok(false);
            }
            for (x, y) in a.iter().zip(b) {
                if !same_kind(x, y) || !overlaps(x, y, true)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        (Val::Arr(a), Val::Arr(b)) => {
            for x in a {
                for y in b {
                    if same_kind(x, y) && overlaps(x, y, true)? {
                        return Ok(true);
                    }
                }
            }
            done(js)?;
            done(v)?;
            Ok(false)
        }
        (Val::Arr(items), _) => scalar_in(v, items, js),
        (_, Val::Arr(items)) => scalar_in(js, items, v),
        (Val::Obj(_), _) | (_, Val::Obj(_)) => Ok(false),
        (a, b) => Ok(scalar_eq(a, b)),
    }
}

/// Whether an element of `items` (of `array`) is an object equal to `object`.
fn element_equals_object(items: &[Node], object: &Node) -> Result<bool, Broken> {
    for e in items {
        if matches!(e.val, Val::Obj(_)) && equal_objects(e, object)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether the scalar `s` equals an element of `items` (of `array`).
fn scalar_in(s: &Node, items: &[Node], array: &Node) -> Result<bool, Broken> {
    for e in items {
        if scalar_eq(&s.val, &e.val) {
            return Ok(true);
        }
    }
    done(array)?;
    Ok(false)
}
