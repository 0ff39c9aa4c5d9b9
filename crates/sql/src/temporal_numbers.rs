//! A temporal value where a number is wanted. MariaDB's numeric functions read a DATE,
//! DATETIME or TIME as its number (`ABS(TIME'00:01:00')` is 100, `SUM(d)` adds 20200101s),
//! where SQLite would read the text's leading digits (`ABS('00:01:00')` is 0): such an
//! argument becomes `tutti_temporal_number(x)`, an exact DECIMAL with the value's fraction.
//!
//! So do the counts and positions string functions take (`LEFT(s, TIME'00:00:03')` is
//! `abc`, `SUBSTRING(s FROM t)`).
//!
//! `ROUND`, `TRUNCATE`, `FLOOR` and `CEILING` keep a TIME or DATETIME a TIME or DATETIME
//! with the places asked for (`ROUND(TIME'10:00:01.56', 1)` is `10:00:01.6`):
//! `tutti_fsp(tutti_temporal_round(x, places, mode, kind), places)` (tutti_storage's
//! `temporal_round`); a DATE is rounded as its number (`ROUND(DATE'2020-12-12')` is
//! 20201212).

use sqlparser::ast::{Expr, Function, UnaryOperator, Value as SqlValue};

use crate::ast_build::{func, number, string};
use crate::typing::{self, Scopes};

/// The rounding functions, in MariaDB's names.
const ROUNDING: [&str; 5] = ["round", "truncate", "floor", "ceil", "ceiling"];

/// The temporal argument `e` of the numeric function `name`, read as a number unless the
/// function rounds a TIME or DATETIME (see `rounded`).
pub(crate) fn numeric_argument(name: &str, e: &mut Expr, scopes: &Scopes) {
    if !(ROUNDING.contains(&name) && rounding_kind(e, scopes).is_some()) {
        typing::temporal_as_number(e, scopes);
    }
}

/// String functions and the arguments of theirs that are counts or positions.
const COUNTS: [(&str, &[usize]); 15] = [
    ("left", &[1]),
    ("right", &[1]),
    ("repeat", &[1]),
    ("space", &[0]),
    ("lpad", &[1]),
    ("rpad", &[1]),
    ("substr", &[1, 2]),
    ("substring", &[1, 2]),
    ("mid", &[1, 2]),
    ("insert", &[1, 2]),
    ("locate", &[2]),
    ("substring_index", &[2]),
    ("elt", &[0]),
    ("format", &[1]),
    ("random_bytes", &[0]),
];

/// The counts and positions of a string function (`name`, lowercase) read as numbers.
pub(crate) fn count_arguments(name: &str, f: &mut Function, scopes: &Scopes) {
    let Some((_, at)) = COUNTS.iter().find(|(n, _)| *n == name) else {
        return;
    };
    for (i, e) in typing::args_from(f, 0).enumerate() {
        if at.contains(&i) {
            typing::temporal_as_number(e, scopes);
        }
    }
}

/// `SUBSTRING(s FROM p FOR n)`'s position and length read as numbers.
pub(crate) fn substring_bounds(
    from: Option<&mut Expr>,
    length: Option<&mut Expr>,
    scopes: &Scopes,
) {
    for e in from.into_iter().chain(length) {
        typing::temporal_as_number(e, scopes);
    }
}

/// `ROUND(x, places)` and the others (`mode` is the function's name) of a TIME or DATETIME
/// `x`; None for other values.
pub(crate) fn rounded(
    mode: &str,
    x: &Expr,
    places: Option<&Expr>,
    scopes: &Scopes,
) -> Option<Expr> {
    let kind = rounding_kind(x, scopes)?;
    let mode = if mode == "ceil" { "ceiling" } else { mode };
    let call = func(
        "tutti_temporal_round",
        vec![
            x.clone(),
            places.cloned().unwrap_or_else(|| number("0")),
            string(mode),
            string(kind),
        ],
    );
    Some(match places.map_or(Some(0), constant_digits) {
        Some(n) => func("tutti_fsp", vec![call, number(n.to_string())]),
        None => call,
    })
}

/// `time` for a TIME, `datetime` for a DATETIME or TIMESTAMP (None for a DATE or other
/// values).
fn rounding_kind(x: &Expr, scopes: &Scopes) -> Option<&'static str> {
    if crate::dates::is_time(x, scopes) {
        Some("time")
    } else if date_valued(x, scopes) {
        None
    } else {
        typing::is_temporal(x, scopes).then_some("datetime")
    }
}

/// A DATE, or `GREATEST`, `COALESCE`, ... of DATEs.
fn date_valued(x: &Expr, scopes: &Scopes) -> bool {
    if typing::value_kind(x, scopes).is_some_and(|(kind, _)| kind == "date") {
        return true;
    }
    let Expr::Function(f) = x else { return false };
    let a = typing::args(f);
    match typing::function_name(f).as_str() {
        // a value read as a DATE to be compared with one (`typing::compared_temporal`)
        "tutti_temporal" => a.get(1).is_some_and(|k| k.to_string() == "'date'"),
        name if typing::SAME_TYPE.contains(&name) => {
            !a.is_empty() && a.iter().all(|x| date_valued(x, scopes))
        }
        _ => false,
    }
}

/// The fraction digits a constant number of places keeps: 0 to 6, as MariaDB takes them.
fn constant_digits(e: &Expr) -> Option<u32> {
    match e {
        Expr::Nested(x) | Expr::Collate { expr: x, .. } => constant_digits(x),
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => constant_digits(expr).map(|_| 0),
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) | SqlValue::SingleQuotedString(n) => n
                .trim()
                .parse::<f64>()
                .ok()
                .map(|x| x.round().clamp(0.0, 6.0) as u32),
            _ => None,
        },
        _ => None,
    }
}
