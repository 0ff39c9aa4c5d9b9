//! `JSON_NORMALIZE` and `JSON_EQUALS`: documents in a canonical form.
//!
//! MariaDB's canonical form (10.11): the compact layout, object members sorted by key
//! (bytes as written), members with the same key by value (see `Canon::cmp`), numbers
//! rewritten from their text as `d.dddE<exponent>` (`1.0E0`, `-1.5E3`, `0.0E0` for any
//! zero, exponent exact however large), strings as written.
//! `JSON_EQUALS` compares the canonical forms; invalid JSON gives NULL.

use std::cmp::Ordering;

use rusqlite::{Connection, Result};

use super::args::{self, bool_out, check_arity, json_out, FLAGS};
use super::parse::{Node, Val};

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_normalize", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_normalize", 1, 1)?;
        Ok(json_out(
            args::doc(ctx, 0)
                .and_then(|d| d.into_valid())
                .map(|n| canonical(&n)),
        ))
    })?;
    c.create_scalar_function("json_equals", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_equals", 2, 2)?;
        let side = |i| {
            args::doc(ctx, i)
                .and_then(|d| d.into_valid())
                .map(|n| canonical(&n))
        };
        Ok(bool_out(match (side(0), side(1)) {
            (Some(a), Some(b)) => Some(a == b),
            _ => None,
        }))
    })?;
    Ok(())
}

/// A value in canonical form: objects' members sorted, numbers rewritten.
enum Canon {
    Obj(Vec<(String, Canon)>),
    Arr(Vec<Canon>),
    Str(String),
    Num(String),
    True,
    False,
    Null,
}

impl Canon {
    fn of(n: &Node) -> Canon {
        match &n.val {
            Val::Arr(items) => Canon::Arr(items.iter().map(Canon::of).collect()),
            Val::Obj(members) => {
                let mut members: Vec<(String, Canon)> = members
                    .iter()
                    .map(|m| (m.key.clone(), Canon::of(&m.val)))
                    .collect();
                members.sort_by(|a, b| {
                    a.0.as_bytes()
                        .cmp(b.0.as_bytes())
                        .then_with(|| a.1.cmp(&b.1))
                });
                Canon::Obj(members)
            }
            Val::Str(s) => Canon::Str(s.clone()),
            Val::Num(s) => Canon::Num(number(s)),
            Val::True => Canon::True,
            Val::False => Canon::False,
            Val::Null | Val::Bad => Canon::Null,
        }
    }

    /// The order of kinds.
    fn kind(&self) -> u8 {
        match self {
            Canon::Obj(_) => 1,
            Canon::Arr(_) => 2,
            Canon::Str(_) => 3,
            Canon::Num(_) => 4,
            Canon::True => 5,
            Canon::False => 6,
            Canon::Null => 7,
        }
    }

    /// MariaDB's order of values under the same key: by kind; texts (strings as written,
    /// numbers canonical) shorter first, then by bytes; containers with fewer members
    /// first, then member by member (key, then value).
    fn cmp(&self, other: &Canon) -> Ordering {
        let text = |a: &str, b: &str| a.len().cmp(&b.len()).then_with(|| a.cmp(b));
        match (self, other) {
            (Canon::Str(a), Canon::Str(b)) | (Canon::Num(a), Canon::Num(b)) => text(a, b),
            (Canon::Arr(a), Canon::Arr(b)) => a.len().cmp(&b.len()).then_with(|| {
                a.iter()
                    .zip(b)
                    .map(|(x, y)| x.cmp(y))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            }),
            (Canon::Obj(a), Canon::Obj(b)) => a.len().cmp(&b.len()).then_with(|| {
                a.iter()
                    .zip(b)
                    .map(|(x, y)| {
                        x.0.as_bytes()
                            .cmp(y.0.as_bytes())
                            .then_with(|| x.1.cmp(&y.1))
                    })
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            }),
            (a, b) => a.kind().cmp(&b.kind()),
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Canon::Obj(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    out.push_str(k);
                    out.push_str("\":");
                    v.write(out);
                }
                out.push('}');
            }
            Canon::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Canon::Str(s) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            Canon::Num(s) => out.push_str(s),
            Canon::True => out.push_str("true"),
            Canon::False => out.push_str("false"),
            Canon::Null => out.push_str("null"),
        }
    }
}

/// The canonical text of a value.
pub(crate) fn canonical(n: &Node) -> String {
    let mut out = String::new();
    Canon::of(n).write(&mut out);
    out
}

/// A number's canonical text, from its text: the significant digits as `d.ddd`, and the
/// exponent that places them.
fn number(text: &str) -> String {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    let mut magnitude = int.len() as i64 - 1;
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    let leading = digits.iter().take_while(|&&d| d == b'0').count();
    digits.drain(..leading);
    magnitude -= leading as i64;
    if digits.is_empty() {
        return "0.0E0".into();
    }
    magnitude = magnitude.saturating_add(exponent.map_or(0, strtol));
    let rest = if digits.len() == 1 {
        "0".to_string()
    } else {
        String::from_utf8_lossy(&digits[1..]).into_owned()
    };
    format!(
        "{}{}.{}E{}",
        if negative { "-" } else { "" },
        digits[0] as char,
        rest,
        magnitude
    )
}

/// C's `strtol`: an optional sign and the digits that follow (0 if none), saturating.
fn strtol(s: &str) -> i64 {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut v: i64 = 0;
    for d in digits.bytes().take_while(u8::is_ascii_digit) {
        v = v.saturating_mul(10).saturating_add(i64::from(d - b'0'));
    }
    if negative {
        -v
    } else {
        v
    }
}
