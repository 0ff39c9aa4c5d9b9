//! SQL values into and out of the JSON functions.
//!
//! MariaDB puts a value into a document according to its SQL type: a string is quoted
//! and escaped, a number written as it is, a boolean as `true`/`false`, NULL as `null`,
//! and a value of type JSON (the result of a JSON function that returns a document)
//! spliced in unquoted. SQLite values have no such types, so tutti marks what its JSON
//! functions return with SQLite's subtype mechanism: [`JSON`] on documents (the subtype
//! SQLite's own json1 uses), [`BOOL`] on the 0/1 of `JSON_VALID`, `JSON_CONTAINS`, ...
//! A subtype survives only from one function straight into another, which is where
//! MariaDB's JSON type matters most (`JSON_OBJECT('a', JSON_ARRAY(1))`); `marks` lets the
//! SQL front-end mark other values ([`NUMBER`]: a DECIMAL's text, written unquoted).
//!
//! A double is written as MariaDB writes one: its shortest exact digits, in exponent form
//! from 1e15 up and below 1e-15 (`1e15`, `1.5e-16`), plainly otherwise.

use rusqlite::functions::{Context, FunctionFlags, SubType};
use rusqlite::types::ValueRef;
use rusqlite::Error;

use super::parse::{escape, parse_valid, Node, Val};

/// Subtype of a JSON document ('J', as SQLite's json1 uses).
pub(crate) const JSON: u32 = 74;
/// Subtype of a boolean result ('B').
pub(crate) const BOOL: u32 = 66;
/// Subtype of a number held as text, a DECIMAL ('N').
pub(crate) const NUMBER: u32 = 78;

/// Flags of a deterministic function that reads and sets subtypes.
pub(crate) const FLAGS: FunctionFlags = FunctionFlags::SQLITE_UTF8
    .union(FunctionFlags::SQLITE_DETERMINISTIC)
    .union(FunctionFlags::SQLITE_SUBTYPE)
    .union(FunctionFlags::SQLITE_RESULT_SUBTYPE);

/// A document result (NULL stays NULL).
pub(crate) type JsonOut = (Option<String>, SubType);

pub(crate) fn json_out(s: Option<String>) -> JsonOut {
    (s, Some(JSON))
}

/// A boolean result.
pub(crate) type BoolOut = (Option<i64>, SubType);

pub(crate) fn bool_out(b: Option<bool>) -> BoolOut {
    (b.map(i64::from), Some(BOOL))
}

/// MariaDB's error for a call with the wrong number of arguments.
pub(crate) fn arity(name: &str) -> Error {
    Error::UserFunctionError(
        format!("Incorrect parameter count in the call to native function '{name}'").into(),
    )
}

/// Refuses a call whose argument count is outside `min..=max`.
pub(crate) fn check_arity(
    ctx: &Context<'_>,
    name: &str,
    min: usize,
    max: usize,
) -> rusqlite::Result<()> {
    if ctx.len() < min || ctx.len() > max {
        return Err(arity(name));
    }
    Ok(())
}

pub(crate) fn is_null(ctx: &Context<'_>, i: usize) -> bool {
    matches!(ctx.get_raw(i), ValueRef::Null)
}

/// An argument's text (a number as MariaDB prints it), None for NULL.
pub(crate) fn text(ctx: &Context<'_>, i: usize) -> Option<String> {
    Some(match ctx.get_raw(i) {
        ValueRef::Null => return None,
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(r) => double_text(r),
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
    })
}

/// Whether an argument is a string (MariaDB quotes strings and nothing else).
pub(crate) fn is_string(ctx: &Context<'_>, i: usize) -> bool {
    matches!(ctx.get_raw(i), ValueRef::Text(_) | ValueRef::Blob(_))
}

/// Whether an argument is a document returned by a JSON function.
pub(crate) fn is_json(ctx: &Context<'_>, i: usize) -> bool {
    ctx.get_subtype(i) == JSON
}

/// An argument as the text MariaDB puts into a document it builds.
pub(crate) fn value_text(ctx: &Context<'_>, i: usize) -> String {
    let raw = ctx.get_raw(i);
    if ctx.get_subtype(i) == BOOL {
        if let ValueRef::Integer(n) = raw {
            return if n != 0 { "true" } else { "false" }.into();
        }
    }
    match raw {
        ValueRef::Null => "null".into(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(r) => double_text(r),
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let s = String::from_utf8_lossy(t);
            if is_json(ctx, i) || ctx.get_subtype(i) == NUMBER {
                s.into_owned()
            } else {
                format!("\"{}\"", escape(&s))
            }
        }
    }
}

/// An argument as a value to put into a document; None when it is a document that is
/// not valid JSON (MariaDB's result is then NULL).
pub(crate) fn value_node(ctx: &Context<'_>, i: usize) -> Option<Node> {
    if is_null(ctx, i) {
        return Some(Node::new(Val::Null));
    }
    if is_json(ctx, i) {
        return parse_valid(&text(ctx, i)?);
    }
    if ctx.get_subtype(i) == BOOL {
        if let ValueRef::Integer(n) = ctx.get_raw(i) {
            return Some(Node::new(if n != 0 { Val::True } else { Val::False }));
        }
    }
    if ctx.get_subtype(i) == NUMBER {
        if let Some(t) = text(ctx, i) {
            return Some(Node::new(Val::Num(t)));
        }
    }
    Some(Node::new(match ctx.get_raw(i) {
        ValueRef::Null => Val::Null,
        ValueRef::Integer(n) => Val::Num(n.to_string()),
        ValueRef::Real(r) => Val::Num(double_text(r)),
        ValueRef::Text(t) | ValueRef::Blob(t) => Val::Str(escape(&String::from_utf8_lossy(t))),
    }))
}

/// A double as MariaDB prints it.
pub(crate) fn double_text(r: f64) -> String {
    if r == 0.0 {
        return "0".into();
    }
    if !r.is_finite() {
        return if r.is_nan() {
            "nan"
        } else if r > 0.0 {
            "inf"
        } else {
            "-inf"
        }
        .into();
    }
    let sci = format!("{r:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-15..=14).contains(&exp) {
        return sci;
    }
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let point = exp + 1;
    let body = if point <= 0 {
        format!("0.{}{}", "0".repeat((-point) as usize), digits)
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    format!("{sign}{body}")
}

/// An argument as a document (None for NULL).
pub(crate) fn doc(ctx: &Context<'_>, i: usize) -> Option<super::parse::Doc> {
    text(ctx, i).map(|t| super::parse::parse(&t))
}

/// An argument as a path; None for NULL or what is not a path.
pub(crate) fn path(ctx: &Context<'_>, i: usize) -> Option<super::path::Path> {
    super::path::parse_path(&text(ctx, i)?)
}

/// An argument as a path without wildcards or ranges (what most functions accept); None
/// for NULL, what is not a path, or a path with them.
pub(crate) fn plain_path(ctx: &Context<'_>, i: usize) -> Option<super::path::Path> {
    path(ctx, i).filter(|p| !p.wild())
}
