//! Following a path through a tree, the two ways MariaDB does it.
//!
//! * [`find`] follows one path to the values it reaches, in document order (`JSON_VALUE`,
//!   `JSON_QUERY`, `JSON_EXISTS`, `JSON_CONTAINS`, `JSON_LENGTH`, `JSON_KEYS` and the
//!   functions that change a document). A scalar, or an object, reached where the path
//!   wants an array element `[0]` is taken as that element (`$.a[0]` is `$.a` when `a` is
//!   1). Keys compare by the characters they stand for. A `**` is ignored, except that it
//!   keeps `[0]` from taking a non-array as its element. A negative index or range bound
//!   counts from the end, and a range whose start is negative is compared in that
//!   counting: `[-2 to 1]` is the last two elements, `[1 to -1]` none.
//! * [`walk`] visits every value with its path, and [`compare`] tells how a path relates
//!   to a value's path (`JSON_EXTRACT`, `JSON_CONTAINS_PATH`, `JSON_SEARCH`): a match, or
//!   the value lies below a match. Here keys compare as written (`$."\u0061"` does not
//!   find `"a"`), `**` means any depth, a range's bounds each count from the end when
//!   negative, and a non-array value is its own element `[0]` (or `[0 to n]`).
//!
//! Both stop with [`Broken`] where they would have to read past a mistake in the text;
//! a search that finds nothing (or is not stopped) has read all of it.

use super::parse::{unescape, Doc, Node, Val, DEPTH_LIMIT};
use super::path::{Path, Sel, Step};

/// The search needed a part of the text that is not valid JSON.
#[derive(Debug)]
pub(crate) struct Broken;

/// Whether a search goes on after a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Flow {
    Go,
    Stop,
}

type Visit<'a, 'f> = &'f mut dyn FnMut(&'a Node) -> Result<Flow, Broken>;

/// Calls `f` on each value `path` reaches, in document order, until it says stop.
pub(crate) fn find<'a>(
    node: &'a Node,
    path: &Path,
    f: &mut dyn FnMut(&'a Node) -> Result<Flow, Broken>,
) -> Result<Flow, Broken> {
    find_at(node, &path.steps, f)
}

/// [`find`] in a parsed text: a search that was not stopped has read to the end of the
/// text, which must then be valid.
pub(crate) fn find_in<'a>(
    doc: &'a Doc,
    path: &Path,
    f: &mut dyn FnMut(&'a Node) -> Result<Flow, Broken>,
) -> Result<Flow, Broken> {
    match find(&doc.root, path, f)? {
        Flow::Go if !doc.valid => Err(Broken),
        flow => Ok(flow),
    }
}

/// The first value `path` reaches in a parsed text (see [`find_in`]).
pub(crate) fn find_first_in<'a>(doc: &'a Doc, path: &Path) -> Result<Option<&'a Node>, Broken> {
    let mut found = None;
    find_in(doc, path, &mut |n| {
        found = Some(n);
        Ok(Flow::Stop)
    })?;
    Ok(found)
}

/// The first value `path` reaches.
pub(crate) fn find_first<'a>(node: &'a Node, path: &Path) -> Result<Option<&'a Node>, Broken> {
    let mut found = None;
    find(node, path, &mut |n| {
        found = Some(n);
        Ok(Flow::Stop)
    })?;
    Ok(found)
}

fn readable(n: &Node) -> Result<(), Broken> {
    if n.done {
        Ok(())
    } else {
        Err(Broken)
    }
}

fn find_at<'a>(node: &'a Node, steps: &[Step], f: Visit<'a, '_>) -> Result<Flow, Broken> {
    if steps.is_empty() {
        return f(node);
    }
    if matches!(node.val, Val::Bad) {
        return Err(Broken);
    }
    let mut steps = steps;
    if node.is_scalar() {
        return if steps.iter().all(Step::plain_zero) {
            f(node)
        } else {
            Ok(Flow::Go)
        };
    }
    if matches!(node.val, Val::Obj(_)) {
        while steps.first().is_some_and(Step::plain_zero) {
            steps = &steps[1..];
        }
        if steps.is_empty() {
            return f(node);
        }
    }
    match (&node.val, &steps[0]) {
        (Val::Obj(members), Step::Key { name, lost, .. }) => {
            for m in members {
                let hit = match name {
                    _ if *lost => false,
                    None => true,
                    Some(name) => unescape(&m.key) == *name,
                };
                if hit {
                    if find_at(&m.val, &steps[1..], f)? == Flow::Stop {
                        return Ok(Flow::Stop);
                    }
                } else {
                    readable(&m.val)?;
                }
            }
        }
        (Val::Arr(items), Step::Index { sel, .. }) => {
            let from_end = match sel {
                Sel::All => false,
                Sel::One(n) | Sel::Range(n, _) => *n < 0,
            };
            if from_end {
                readable(node)?;
            }
            let base = if from_end { -(items.len() as i64) } else { 0 };
            for (k, item) in items.iter().enumerate() {
                let c = k as i64 + base;
                let hit = match *sel {
                    Sel::All => true,
                    Sel::One(n) => i64::from(n) == c,
                    Sel::Range(a, b) => i64::from(a) <= c && c <= i64::from(b),
                };
                if hit {
                    if find_at(item, &steps[1..], f)? == Flow::Stop {
                        return Ok(Flow::Stop);
                    }
                } else {
                    readable(item)?;
                }
            }
        }
        _ => {}
    }
    readable(node)?;
    Ok(Flow::Go)
}

/// One step of a value's path.
#[derive(Clone, Copy, Debug)]
pub(crate) enum At<'a> {
    /// A member, by its key as written.
    Key(&'a str),
    /// An element.
    Index(usize),
}

/// Where a walk is: the value's path, and the length of the array last met at each depth
/// (what MariaDB keeps to count from the end; see [`compare`]).
pub(crate) struct Place<'a> {
    pub path: Vec<At<'a>>,
    pub sizes: [usize; DEPTH_LIMIT + 1],
}

/// Calls `f` on every value of a parsed text in document order (a container before what
/// it holds), with its place, until it says stop; a walk that was not stopped has read to
/// the end of the text, which must then be valid.
pub(crate) fn walk<'a>(
    doc: &'a Doc,
    f: &mut dyn FnMut(&'a Node, &Place<'a>) -> Flow,
) -> Result<Flow, Broken> {
    let mut place = Place {
        path: Vec::new(),
        sizes: [0; DEPTH_LIMIT + 1],
    };
    match walk_at(&doc.root, &mut place, f)? {
        Flow::Go if !doc.valid => Err(Broken),
        flow => Ok(flow),
    }
}

fn walk_at<'a>(
    node: &'a Node,
    place: &mut Place<'a>,
    f: &mut dyn FnMut(&'a Node, &Place<'a>) -> Flow,
) -> Result<Flow, Broken> {
    if matches!(node.val, Val::Bad) {
        return Err(Broken);
    }
    if let Val::Arr(items) = &node.val {
        place.sizes[place.path.len().min(DEPTH_LIMIT)] = items.len();
    }
    if f(node, place) == Flow::Stop {
        return Ok(Flow::Stop);
    }
    let children: Vec<(At<'a>, &'a Node)> = match &node.val {
        Val::Arr(items) => items
            .iter()
            .enumerate()
            .map(|(k, item)| (At::Index(k), item))
            .collect(),
        Val::Obj(members) => members.iter().map(|m| (At::Key(&m.key), &m.val)).collect(),
        _ => Vec::new(),
    };
    for (at, child) in children {
        place.path.push(at);
        let flow = walk_at(child, place, f)?;
        place.path.pop();
        if flow == Flow::Stop {
            return Ok(Flow::Stop);
        }
    }
    readable(node)?;
    Ok(Flow::Go)
}

/// How `pattern` relates to the value at `place` (`array`: the value is an array): 0 a
/// match, 1 the value lies below a match, negative no match (-2: the value lies above
/// where the pattern leads).
///
/// An array's length (to count from its end) is looked up by depth in `place.sizes`, as
/// MariaDB does; where a `**[0]` takes a member for its element it looks one depth too
/// shallow from then on, which is reproduced (`lag`).
pub(crate) fn compare(pattern: &Path, place: &Place<'_>, array: bool) -> i32 {
    compare_steps(&pattern.steps, place, 0, array, 0)
}

/// Whether element `k` of an array of `len` is selected.
fn selected(sel: Sel, k: usize, len: usize) -> bool {
    let from_end = |n: i32| {
        if n >= 0 {
            i64::from(n)
        } else {
            len as i64 + i64::from(n)
        }
    };
    let k = k as i64;
    match sel {
        Sel::All => true,
        Sel::One(n) => from_end(n) == k,
        Sel::Range(a, b) => from_end(a) <= k && k <= from_end(b),
    }
}

fn compare_steps(a: &[Step], place: &Place<'_>, from: usize, array: bool, lag: usize) -> i32 {
    enum Fit {
        Yes,
        /// A non-array value taken as element [0]: the pattern step is used up, not the value's.
        Wrapped,
        No,
    }
    let b = &place.path;
    let (mut i, mut j) = (0, from);
    while i < a.len() {
        if j == b.len() {
            if !array {
                while i < a.len() && zero_first(&a[i]) {
                    i += 1;
                }
                if i == a.len() {
                    return 0;
                }
            }
            return -2;
        }
        let fit = match (&a[i], b[j]) {
            (Step::Index { sel, .. }, At::Index(k)) => {
                let len = j
                    .checked_sub(lag)
                    .map_or(0, |d| place.sizes[d.min(DEPTH_LIMIT)]);
                if selected(*sel, k, len) {
                    Fit::Yes
                } else {
                    Fit::No
                }
            }
            (Step::Index { sel, .. }, At::Key(_)) if sel.zero_first() => Fit::Wrapped,
            (Step::Key { lost: true, .. }, _) => Fit::No,
            (Step::Key { name: None, .. }, At::Key(_)) => Fit::Yes,
            (Step::Key { raw, .. }, At::Key(k)) if raw == k => Fit::Yes,
            _ => Fit::No,
        };
        let deep = a[i].deep();
        match fit {
            Fit::No if !deep => return -1,
            Fit::No => j += 1,
            Fit::Yes | Fit::Wrapped if !deep => {
                if matches!(fit, Fit::Yes) {
                    j += 1;
                }
                i += 1;
            }
            Fit::Yes | Fit::Wrapped => {
                // `**` may stop here or go on deeper.
                let lag = lag + usize::from(matches!(fit, Fit::Wrapped));
                let here = compare_steps(&a[i + 1..], place, j + 1, array, lag);
                if here == 0 {
                    return 0;
                }
                let deeper = compare_steps(&a[i..], place, j + 1, array, lag);
                return if deeper >= 0 { deeper } else { here };
            }
        }
    }
    i32::from(j < b.len())
}

/// An array step a non-array value matches as itself when its path has ended.
fn zero_first(s: &Step) -> bool {
    matches!(s, Step::Index { sel, .. } if sel.zero_first())
}
