//! Writing a tree back as text, in MariaDB's three layouts.
//!
//! Scalars and keys are written exactly as they were read (see `parse`); only the space
//! between them changes:
//!
//! * loose (what most functions return, and `JSON_LOOSE`): `{"a": 1, "b": [1, 2]}`;
//! * compact (`JSON_COMPACT`): `{"a":1,"b":[1,2]}`;
//! * detailed (`JSON_DETAILED`/`JSON_PRETTY`): one member or element per line, indented
//!   by `tab` spaces a level, a container that is a member's value on the line after its
//!   key, and an array of a single scalar kept on one line (`[1]`); an empty object is
//!   written `{` newline `}`, an empty array `[]` (all as MariaDB 10.11 writes them).

use super::parse::{parse_valid, Node, Val};

/// The loose layout.
pub(crate) fn loose(n: &Node) -> String {
    let mut out = String::new();
    flat(n, ", ", "\": ", &mut out);
    out
}

/// A built document in the loose layout, as MariaDB returns one: it reads back what it
/// built, and a number left at the very end where it may not end (`1e`, `-`) makes the
/// result NULL.
pub(crate) fn loose_checked(n: &Node) -> Option<String> {
    let out = loose(n);
    parse_valid(&out).map(|_| out)
}

/// The compact layout.
pub(crate) fn compact(n: &Node) -> String {
    let mut out = String::new();
    flat(n, ",", "\":", &mut out);
    out
}

/// A scalar's text.
pub(crate) fn scalar(v: &Val, out: &mut String) {
    match v {
        Val::Str(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Val::Num(s) => out.push_str(s),
        Val::True => out.push_str("true"),
        Val::False => out.push_str("false"),
        Val::Null => out.push_str("null"),
        Val::Arr(_) | Val::Obj(_) | Val::Bad => {}
    }
}

fn flat(n: &Node, comma: &str, colon: &str, out: &mut String) {
    match &n.val {
        Val::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(comma);
                }
                flat(item, comma, colon, out);
            }
            out.push(']');
        }
        Val::Obj(members) => {
            out.push('{');
            for (i, m) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(comma);
                }
                out.push('"');
                out.push_str(&m.key);
                out.push_str(colon);
                flat(&m.val, comma, colon, out);
            }
            out.push('}');
        }
        v => scalar(v, out),
    }
}

/// The detailed layout, `tab` spaces a level (0 to 8).
pub(crate) fn detailed(n: &Node, tab: usize) -> String {
    let mut out = String::new();
    pretty(n, 0, tab, &mut out);
    out
}

fn newline(depth: usize, tab: usize, out: &mut String) {
    out.push('\n');
    out.push_str(&" ".repeat(depth * tab));
}

fn pretty(n: &Node, depth: usize, tab: usize, out: &mut String) {
    match &n.val {
        Val::Arr(items) => {
            out.push('[');
            let scalars = items.iter().all(Node::is_scalar);
            if scalars && items.len() == 1 {
                scalar(&items[0].val, out);
            } else if !items.is_empty() {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(depth + 1, tab, out);
                    pretty(item, depth + 1, tab, out);
                }
                newline(depth, tab, out);
            }
            out.push(']');
        }
        Val::Obj(members) => {
            out.push('{');
            for (i, m) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(depth + 1, tab, out);
                out.push('"');
                out.push_str(&m.key);
                out.push_str("\": ");
                if !m.val.is_scalar() {
                    newline(depth + 1, tab, out);
                }
                pretty(&m.val, depth + 1, tab, out);
            }
            newline(depth, tab, out);
            out.push('}');
        }
        v => scalar(v, out),
    }
}
