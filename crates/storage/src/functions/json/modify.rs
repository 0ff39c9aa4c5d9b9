//! Documents changed at paths: `JSON_INSERT`, `JSON_SET`, `JSON_REPLACE`, `JSON_REMOVE`,
//! `JSON_ARRAY_APPEND`, `JSON_ARRAY_INSERT`.
//!
//! As in MariaDB 10.11, each (path, value) pair applies in turn to the result of the
//! previous one; paths may not hold wildcards or ranges; a NULL or bad path, or a value
//! that is an invalid document, makes the result NULL, and so does invalid JSON anywhere
//! in the document. The result is in the loose layout.
//!
//! * INSERT adds what is missing, REPLACE changes what exists, SET does both. The path
//!   leads to the parent (first match, see `matching`); a missing parent changes nothing.
//!   A key adds a member at the end (its key as the path writes it). An index past the
//!   end (or before the start, counting from the end) appends. On a non-array, `[0]` is
//!   the value itself (REPLACE/SET replace it, INSERT leaves it), and another index makes
//!   `[value, new]` (INSERT, and SET for a positive index; SET replaces for a negative
//!   one). `$` itself is replaced by SET and REPLACE.
//! * REMOVE deletes the first member of the key or the element (`$` is refused).
//! * ARRAY_APPEND appends to the array at the path, or makes `[value, new]` of another
//!   value; a path that reaches nothing makes the result NULL.
//! * ARRAY_INSERT inserts before the element (the last step must be an index; past the
//!   end appends; a negative index counts from after the last element), into an array.

use rusqlite::functions::Context;
use rusqlite::{Connection, Result};

use super::args::{self, arity, json_out, FLAGS};
use super::matching::find_first;
use super::parse::{parse_valid, unescape, Member, Node, Val};
use super::path::{Path, Sel, Step};
use super::print::loose_checked;

/// What JSON_INSERT, JSON_SET and JSON_REPLACE may do.
#[derive(Clone, Copy)]
struct Mode {
    insert: bool,
    replace: bool,
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    for (name, insert, replace) in [
        ("json_insert", true, false),
        ("json_set", true, true),
        ("json_replace", false, true),
    ] {
        let mode = Mode { insert, replace };
        c.create_scalar_function(name, -1, FLAGS, move |ctx| {
            pairs_arity(ctx, name)?;
            Ok(json_out(edit(ctx, |doc, path, value| {
                set(doc, path, value, mode);
                Some(())
            })))
        })?;
    }
    c.create_scalar_function("json_array_append", -1, FLAGS, |ctx| {
        pairs_arity(ctx, "json_array_append")?;
        Ok(json_out(edit(ctx, append)))
    })?;
    c.create_scalar_function("json_array_insert", -1, FLAGS, |ctx| {
        pairs_arity(ctx, "json_array_insert")?;
        Ok(json_out(edit(ctx, array_insert)))
    })?;
    c.create_scalar_function("json_remove", -1, FLAGS, |ctx| {
        if ctx.len() < 2 {
            return Err(arity("json_remove"));
        }
        Ok(json_out(remove(ctx)))
    })?;
    Ok(())
}

fn pairs_arity(ctx: &Context<'_>, name: &str) -> Result<()> {
    if ctx.len() < 3 || ctx.len().is_multiple_of(2) {
        return Err(arity(name));
    }
    Ok(())
}

/// Applies `f(doc, path, value)` for each pair of arguments; None (NULL) if `f` says so,
/// or an argument is NULL or bad.
fn edit(
    ctx: &Context<'_>,
    mut f: impl FnMut(&mut Node, &Path, Node) -> Option<()>,
) -> Option<String> {
    let mut doc = parse_valid(&args::text(ctx, 0)?)?;
    for i in (1..ctx.len()).step_by(2) {
        let path = args::plain_path(ctx, i)?;
        let value = args::value_node(ctx, i + 1)?;
        f(&mut doc, &path, value)?;
    }
    loose_checked(&doc)
}

/// The position (child indexes from the root) of `target` inside `root`.
fn address(root: &Node, target: &Node) -> Option<Vec<usize>> {
    if std::ptr::eq(root, target) {
        return Some(Vec::new());
    }
    let children: Vec<&Node> = match &root.val {
        Val::Arr(items) => items.iter().collect(),
        Val::Obj(members) => members.iter().map(|m| &m.val).collect(),
        _ => return None,
    };
    children.into_iter().enumerate().find_map(|(i, c)| {
        let mut a = address(c, target)?;
        a.insert(0, i);
        Some(a)
    })
}

fn at_mut<'a>(mut node: &'a mut Node, address: &[usize]) -> &'a mut Node {
    for &i in address {
        node = match &mut node.val {
            Val::Arr(items) => &mut items[i],
            Val::Obj(members) => &mut members[i].val,
            _ => unreachable!("address leads through containers"),
        };
    }
    node
}

/// The first value `steps` reach, to change it.
fn locate<'a>(doc: &'a mut Node, steps: &[Step]) -> Option<&'a mut Node> {
    let path = Path {
        steps: steps.to_vec(),
    };
    let found = find_first(doc, &path).ok()??;
    let addr = address(doc, found)?;
    Some(at_mut(doc, &addr))
}

/// An index counted from the end when negative, as a position if it is one.
fn position(n: i32, len: usize) -> Option<usize> {
    let k = if n < 0 {
        i64::from(n) + len as i64
    } else {
        i64::from(n)
    };
    (0..len as i64).contains(&k).then_some(k as usize)
}

fn set(doc: &mut Node, path: &Path, value: Node, mode: Mode) {
    let Some((last, parent)) = path.steps.split_last() else {
        if mode.replace {
            *doc = value;
        }
        return;
    };
    let Some(parent) = locate(doc, parent) else {
        return;
    };
    match (last, &mut parent.val) {
        (
            Step::Index {
                sel: Sel::One(n), ..
            },
            Val::Arr(items),
        ) => match position(*n, items.len()) {
            Some(k) if mode.replace => items[k] = value,
            Some(_) => {}
            None if mode.insert => items.push(value),
            None => {}
        },
        (
            Step::Index {
                sel: Sel::One(n), ..
            },
            _,
        ) => {
            let wrap = match (mode.insert, mode.replace) {
                (true, true) => *n > 0,
                (true, false) if *n == 0 => return,
                (true, false) => true,
                (false, _) if *n != 0 => return,
                (false, _) => false,
            };
            *parent = if wrap {
                Node::new(Val::Arr(vec![parent.clone(), value]))
            } else {
                value
            };
        }
        (
            Step::Key {
                raw,
                name: Some(name),
                ..
            },
            Val::Obj(members),
        ) => match members.iter_mut().find(|m| unescape(&m.key) == *name) {
            Some(m) if mode.replace => m.val = value,
            Some(_) => {}
            None if mode.insert => members.push(Member {
                key: raw.clone(),
                val: value,
            }),
            None => {}
        },
        _ => {}
    }
}

fn append(doc: &mut Node, path: &Path, value: Node) -> Option<()> {
    let target = locate(doc, &path.steps)?;
    match &mut target.val {
        Val::Arr(items) => items.push(value),
        _ => *target = Node::new(Val::Arr(vec![target.clone(), value])),
    }
    Some(())
}

fn array_insert(doc: &mut Node, path: &Path, value: Node) -> Option<()> {
    let Some((
        Step::Index {
            sel: Sel::One(n),
            deep: false,
        },
        parent,
    )) = path.steps.split_last()
    else {
        return None;
    };
    if let Some(target) = locate(doc, parent) {
        if let Val::Arr(items) = &mut target.val {
            let k = if *n < 0 {
                i64::from(*n) + items.len() as i64 + 1
            } else {
                i64::from(*n)
            };
            if (0..items.len() as i64).contains(&k) {
                items.insert(k as usize, value);
            } else {
                items.push(value);
            }
        }
    }
    Some(())
}

fn remove(ctx: &Context<'_>) -> Option<String> {
    let mut doc = parse_valid(&args::text(ctx, 0)?)?;
    for i in 1..ctx.len() {
        let path = args::plain_path(ctx, i)?;
        let (last, parent) = path.steps.split_last()?;
        let Some(parent) = locate(&mut doc, parent) else {
            continue;
        };
        match (last, &mut parent.val) {
            (
                Step::Index {
                    sel: Sel::One(n), ..
                },
                Val::Arr(items),
            ) => {
                if let Some(k) = position(*n, items.len()) {
                    items.remove(k);
                }
            }
            (
                Step::Key {
                    name: Some(name), ..
                },
                Val::Obj(members),
            ) => {
                if let Some(k) = members.iter().position(|m| unescape(&m.key) == *name) {
                    members.remove(k);
                }
            }
            _ => {}
        }
    }
    loose_checked(&doc)
}
