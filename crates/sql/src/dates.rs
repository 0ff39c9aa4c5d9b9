//! Date arithmetic and `EXTRACT`: `d + INTERVAL n UNIT`, `d - INTERVAL ..`,
//! `INTERVAL .. + d`, `DATE_ADD(d, INTERVAL ..)`, `DATE_SUB`, `ADDDATE`, `SUBDATE` (with an
//! INTERVAL, or a number of days) and `TIMESTAMPADD(UNIT, n, d)` become
//! `tutti_date_add(d, n, 'UNIT'[, 'time'])` or `tutti_date_sub(..)`, and
//! `EXTRACT(UNIT FROM d)` becomes `tutti_extract('UNIT', d)`: tutti_storage's `interval` and
//! `time_parts` compute them as MariaDB does.
//!
//! A compound unit (`DAY_SECOND`, ...) reaches here as the interval `DAYS TO SECOND` (the
//! token pass spells it so, sqlparser cannot parse MySQL's words; see `lexer`).
//!
//! MariaDB moves a TIME value as a TIME (`TIME'10:00:00' + INTERVAL 1 DAY` is `34:00:00`)
//! but reads a string as a datetime, and tutti stores both as text: the fourth argument
//! `'time'` marks a value known to be a TIME — a TIME column, `CAST(.. AS TIME)`, a
//! function that returns one, or a `TIME'..'` literal (which becomes a cast before the
//! rewrite erases its type: `time_literal_bases`; elsewhere it stays a plain string, which
//! comparisons with TIME columns convert as they should).

use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, DateTimeField, Expr, Function, FunctionArg,
    FunctionArgExpr, FunctionArguments, Interval, TimezoneInfo, Value as SqlValue,
};

use crate::ast_build::{func, number, string};
use crate::typing::{self, Scopes};
use crate::SqlError;

/// Functions whose result is a TIME (as tutti names them after rewriting).
const TIME_FUNCTIONS: [&str; 7] = [
    "time",
    "sec_to_time",
    "maketime",
    "timediff",
    "curtime",
    "utc_time",
    "current_time",
];

/// `base ± interval` for an INTERVAL expression.
pub(crate) fn add_interval(
    base: Expr,
    interval: &Interval,
    subtract: bool,
    scopes: &Scopes,
) -> Result<Expr, SqlError> {
    let unit = interval_unit(interval)
        .ok_or_else(|| SqlError::Unsupported(format!("the interval {interval}")))?;
    Ok(call(
        base,
        (*interval.value).clone(),
        unit,
        subtract,
        scopes,
    ))
}

/// `ADDDATE(d, n)` / `SUBDATE(d, n)`: n days.
pub(crate) fn add_days(base: Expr, days: Expr, subtract: bool, scopes: &Scopes) -> Expr {
    call(base, days, "DAY", subtract, scopes)
}

/// `TIMESTAMPADD(unit, n, d)` with its unit word (`SQL_TSI_` prefix allowed).
pub(crate) fn timestamp_add(
    unit: &str,
    n: Expr,
    base: Expr,
    scopes: &Scopes,
) -> Result<Expr, SqlError> {
    let upper = unit.to_ascii_uppercase();
    let word = upper.strip_prefix("SQL_TSI_").unwrap_or(&upper);
    let unit = SIMPLE_UNITS
        .iter()
        .find(|(_, name)| *name == word)
        .ok_or_else(|| SqlError::Unsupported(format!("TIMESTAMPADD({unit}, ...)")))?;
    Ok(call(base, n, unit.1, false, scopes))
}

/// `EXTRACT(unit FROM d)`.
pub(crate) fn extract(field: &DateTimeField, d: Expr) -> Result<Expr, SqlError> {
    let unit = simple_unit(field)
        .ok_or_else(|| SqlError::Unsupported(format!("EXTRACT({field} FROM ...)")))?;
    Ok(func("tutti_extract", vec![string(unit), d]))
}

/// `DATE_ADD(d, INTERVAL ..)`, `DATE_SUB`, `ADDDATE(d, INTERVAL ..|days)`, `SUBDATE`: None
/// when the call has not two plain arguments.
pub(crate) fn date_function(
    f: &Function,
    subtract: bool,
    scopes: &Scopes,
) -> Result<Option<Expr>, SqlError> {
    let FunctionArguments::List(list) = &f.args else {
        return Ok(None);
    };
    let mut args = list.args.iter().filter_map(|a| match a {
        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
        _ => None,
    });
    let (Some(base), Some(amount), None) = (args.next(), args.next(), args.next()) else {
        return Ok(None);
    };
    let base = base.clone();
    Ok(Some(match amount {
        Expr::Interval(i) => add_interval(base, i, subtract, scopes)?,
        days => add_days(base, days.clone(), subtract, scopes),
    }))
}

/// Functions that read a date, and which of their arguments (by position; None: all) do.
const DATE_READERS: [(&str, Option<usize>); 22] = [
    ("date", None),
    ("timestamp", Some(0)),
    ("convert_tz", Some(0)),
    ("year", None),
    ("month", None),
    ("day", None),
    ("dayofmonth", None),
    ("dayofweek", None),
    ("dayofyear", None),
    ("weekday", None),
    ("week", Some(0)),
    ("weekofyear", None),
    ("yearweek", Some(0)),
    ("quarter", None),
    ("monthname", None),
    ("dayname", None),
    ("to_days", None),
    ("to_seconds", None),
    ("last_day", None),
    ("datediff", None),
    ("unix_timestamp", Some(0)),
    ("timestampdiff", None),
];

/// A TIME value where a function reads a date (`DATE(TIME'10:00:00')`, `TIMESTAMP(t, i)`,
/// `DATEDIFF(t, d)`): MariaDB reads it as that time of the current day, where its text
/// would be read as a (wrong) date → `tutti_time_today(t)`.
pub(crate) fn time_args_as_today(f: &mut Function, name: &str, scopes: &Scopes) {
    let Some((_, which)) = DATE_READERS.iter().find(|(n, _)| *n == name) else {
        return;
    };
    let FunctionArguments::List(list) = &mut f.args else {
        return;
    };
    for (i, arg) in list.args.iter_mut().enumerate() {
        if which.is_some_and(|w| w != i) {
            continue;
        }
        if let FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) = arg {
            if is_time(e, scopes) {
                let t = std::mem::replace(e, crate::ast_build::null());
                *e = func("tutti_time_today", vec![t]);
            }
        }
    }
}

/// `TIME(x)`, `SEC_TO_TIME(x)`, `ADDTIME(a, b)`, `SUBTIME`, `TIMEDIFF` of a DOUBLE or of a
/// string read from a table: MariaDB gives the result six fraction digits (a non-constant
/// string's or a double's precision is not known before it is read), where the value alone
/// would show fewer → `tutti_fsp(f(..), 6)`.
pub(crate) fn six_fraction_digits(f: &Function, scopes: &Scopes) -> Option<Expr> {
    let unknown_precision = |e: &&Expr| match typing::type_of(e, scopes) {
        _ if fraction_digits(e).is_some() => true,
        typing::NumType::Double => true,
        typing::NumType::Str => typing::reads_column(e) && typing::value_kind(e, scopes).is_none(),
        _ => false,
    };
    let args = typing::args(f);
    if args.iter().any(unknown_precision) {
        return Some(func(
            "tutti_fsp",
            vec![Expr::Function(f.clone()), number("6")],
        ));
    }
    decimal_seconds(f, &args, scopes).or_else(|| typed_sum(f, &args, scopes))
}

/// `ADDTIME(t, x)`, `SUBTIME(t, x)` of a TIME, DATETIME or TIMESTAMP `t` (a column, a
/// literal) and an `x` of known digits: the result has the more fraction digits of the two,
/// also where it is clamped (`ADDTIME(TIME'-838:59:59.9', 876494155959)` is 838:59:59.9).
fn typed_sum(f: &Function, args: &[&Expr], scopes: &Scopes) -> Option<Expr> {
    if !matches!(typing::function_name(f).as_str(), "addtime" | "subtime") {
        return None;
    }
    let [t, x] = args else {
        return None;
    };
    let (_, t_digits) = typing::value_kind(t, scopes)?;
    let x_digits = match typing::value_kind(x, scopes) {
        Some((_, fsp)) => fsp,
        None => match x {
            Expr::Value(v) => match &v.value {
                SqlValue::Number(n, _) if !n.contains(['e', 'E']) => {
                    n.split_once('.').map_or(0, |(_, f)| f.len().min(6) as u32)
                }
                SqlValue::SingleQuotedString(s) => crate::result_types::text_fraction_digits(s),
                _ => return None,
            },
            _ => return None,
        },
    };
    Some(func(
        "tutti_fsp",
        vec![
            Expr::Function(f.clone()),
            number(t_digits.max(x_digits).to_string()),
        ],
    ))
}

/// `SEC_TO_TIME(d)` of a computed DECIMAL (`SEC_TO_TIME(n / 6.21)`): as many fraction digits
/// as the DECIMAL's scale (at most 6), where its text alone would say six.
fn decimal_seconds(f: &Function, args: &[&Expr], scopes: &Scopes) -> Option<Expr> {
    let [d] = args else {
        return None;
    };
    let computed =
        !matches!(d, Expr::Value(_)) && typing::type_of(d, scopes) == typing::NumType::Decimal;
    let scale = crate::result_types::exact_scale(d, scopes).filter(|_| computed)?;
    Some(func(
        "tutti_fsp",
        vec![Expr::Function(f.clone()), number(scale.min(6).to_string())],
    ))
}

/// The kind and fraction digits of `tutti_fsp(f(..), n)` (see `six_fraction_digits`): a
/// TIME for the TIME functions, ADDTIME's and SUBTIME's first argument's kind for them.
pub(crate) fn fraction_digits_kind(e: &Expr, scopes: &Scopes) -> Option<(&'static str, u32)> {
    let n = fraction_digits(e)?;
    let Expr::Function(f) = typing::args(fsp_call(e)?).first().copied()? else {
        return None;
    };
    let kind = match f.name.to_string().to_ascii_lowercase().as_str() {
        "addtime" | "subtime" => match typing::value_kind(typing::args(f).first()?, scopes)? {
            ("time", _) => "time",
            ("date", _) | ("datetime", _) | ("timestamp", _) => "datetime",
            _ => return None,
        },
        name if TIME_FUNCTIONS.contains(&name) => "time",
        // `temporal_numbers::rounded`: its kind is its fourth argument.
        "tutti_temporal_round" => match typing::args(f).get(3)?.to_string().as_str() {
            "'time'" => "time",
            _ => "datetime",
        },
        _ => return None,
    };
    Some((kind, n))
}

fn fsp_call(e: &Expr) -> Option<&Function> {
    match e {
        Expr::Function(f) if f.name.to_string() == "tutti_fsp" => Some(f),
        _ => None,
    }
}

/// The `n` of `tutti_fsp(x, n)`.
fn fraction_digits(e: &Expr) -> Option<u32> {
    match typing::args(fsp_call(e)?).get(1)? {
        Expr::Value(v) => v.value.to_string().parse().ok(),
        _ => None,
    }
}

/// `DATE_FORMAT(t, format)` of a TIME value → `tutti_time_date_format(t, format)`: MariaDB
/// formats the duration (`%H` of 33:00:00 is 33) on the zero date, where SQLite's text would
/// be read as a datetime and fail.
pub(crate) fn date_format_of_time(f: &Function, scopes: &Scopes) -> Option<Expr> {
    let FunctionArguments::List(list) = &f.args else {
        return None;
    };
    match list.args.as_slice() {
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(t)), FunctionArg::Unnamed(FunctionArgExpr::Expr(format))]
            if is_time(t, scopes) =>
        {
            Some(func(
                "tutti_time_date_format",
                vec![t.clone(), format.clone()],
            ))
        }
        _ => None,
    }
}

/// `ADDTIME(d, t)` / `SUBTIME(d, t)` of a DATE value: MariaDB moves it as the DATETIME at
/// midnight (`2010-01-01 01:01:01`); tutti's DATE text alone would read as no time at all.
pub(crate) fn add_time_to_date(f: &mut Function, scopes: &Scopes) {
    let FunctionArguments::List(list) = &mut f.args else {
        return;
    };
    let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(base))) = list.args.first_mut() else {
        return;
    };
    if typing::value_kind(base, scopes).is_some_and(|(kind, _)| kind == "date") {
        let date = std::mem::replace(base, crate::ast_build::null());
        *base = func(
            "tutti_temporal",
            vec![date, string("datetime"), crate::ast_build::number("0")],
        );
    }
}

/// Top-down, before the rewrite: a `TIME'..'` literal moved by date arithmetic becomes
/// `CAST('..' AS TIME(fsp))`, fsp its fraction digits, so that `is_time` knows it.
pub(crate) fn time_literal_bases(e: &mut Expr) {
    match e {
        Expr::BinaryOp {
            left,
            op: BinaryOperator::Plus | BinaryOperator::Minus,
            right,
        } => {
            if matches!(right.as_ref(), Expr::Interval(_)) {
                time_literal_to_cast(left);
            } else if matches!(left.as_ref(), Expr::Interval(_)) {
                time_literal_to_cast(right);
            }
        }
        Expr::Function(f) => {
            let name = f.name.to_string().to_ascii_lowercase();
            let base = match name.as_str() {
                "date_add" | "date_sub" | "adddate" | "subdate" => 0,
                "timestampadd" => 2,
                _ => return,
            };
            if let FunctionArguments::List(list) = &mut f.args {
                if let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(b))) =
                    list.args.get_mut(base)
                {
                    time_literal_to_cast(b);
                }
            }
        }
        _ => {}
    }
}

fn time_literal_to_cast(e: &mut Expr) {
    let Expr::TypedString(t) = e else {
        return;
    };
    if !matches!(t.data_type, DataType::Time(..)) {
        return;
    }
    let text = t.value.value.clone().into_string().unwrap_or_default();
    let fsp = crate::result_types::text_fraction_digits(&text);
    *e = Expr::Cast {
        kind: CastKind::Cast,
        expr: Box::new(string(text)),
        data_type: DataType::Time(Some(fsp.into()), TimezoneInfo::None),
        format: None,
    };
}

/// `tutti_date_add(base, amount, 'UNIT'[, 'time'])` or `tutti_date_sub(..)`.
fn call(base: Expr, amount: Expr, unit: &str, subtract: bool, scopes: &Scopes) -> Expr {
    let name = if subtract {
        "tutti_date_sub"
    } else {
        "tutti_date_add"
    };
    let time = is_time(&base, scopes);
    let mut args = vec![base, amount, string(unit)];
    if time {
        args.push(string("time"));
    }
    func(name, args)
}

/// Whether an (already rewritten) expression is known to be a TIME.
pub(crate) fn is_time(e: &Expr, scopes: &Scopes) -> bool {
    if typing::value_kind(e, scopes).is_some_and(|(kind, _)| kind == "time") {
        return true;
    }
    let f = match e {
        Expr::Function(f) => f,
        // TIME casts and literals carry the duration order (`COLLATE tutti_time`).
        Expr::Collate { expr, collation } => {
            return collation.to_string() == crate::columns::TIME_ORDER || is_time(expr, scopes)
        }
        _ => return false,
    };
    let name = f.name.to_string().to_ascii_lowercase();
    if TIME_FUNCTIONS.contains(&name.as_str()) {
        return true;
    }
    if name == "tutti_fsp" {
        return typing::args(f).first().is_some_and(|x| is_time(x, scopes));
    }
    // GREATEST, COALESCE, ... of TIMEs
    if typing::SAME_TYPE.contains(&name.as_str()) {
        let a = typing::args(f);
        return !a.is_empty() && a.iter().all(|x| is_time(x, scopes));
    }
    // `CAST(x AS TIME)` is `tutti_cast_temporal(x, 'time', fsp, ..)`.
    let FunctionArguments::List(list) = &f.args else {
        return false;
    };
    name == "tutti_cast_temporal"
        && matches!(list.args.get(1), Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(k)))
            if k.to_string() == "'time'")
}

/// The one-word units, by their DateTimeField.
const SIMPLE_UNITS: [(DateTimeField, &str); 9] = [
    (DateTimeField::Microsecond, "MICROSECOND"),
    (DateTimeField::Second, "SECOND"),
    (DateTimeField::Minute, "MINUTE"),
    (DateTimeField::Hour, "HOUR"),
    (DateTimeField::Day, "DAY"),
    (DateTimeField::Week(None), "WEEK"),
    (DateTimeField::Month, "MONTH"),
    (DateTimeField::Quarter, "QUARTER"),
    (DateTimeField::Year, "YEAR"),
];

/// The compound units, by the interval the token pass spells them as (`DAYS TO HOUR`).
const COMPOUND_UNITS: [(DateTimeField, DateTimeField, &str); 11] = [
    (DateTimeField::Years, DateTimeField::Month, "YEAR_MONTH"),
    (DateTimeField::Days, DateTimeField::Hour, "DAY_HOUR"),
    (DateTimeField::Days, DateTimeField::Minute, "DAY_MINUTE"),
    (DateTimeField::Days, DateTimeField::Second, "DAY_SECOND"),
    (
        DateTimeField::Days,
        DateTimeField::Microsecond,
        "DAY_MICROSECOND",
    ),
    (DateTimeField::Hours, DateTimeField::Minute, "HOUR_MINUTE"),
    (DateTimeField::Hours, DateTimeField::Second, "HOUR_SECOND"),
    (
        DateTimeField::Hours,
        DateTimeField::Microsecond,
        "HOUR_MICROSECOND",
    ),
    (
        DateTimeField::Minutes,
        DateTimeField::Second,
        "MINUTE_SECOND",
    ),
    (
        DateTimeField::Minutes,
        DateTimeField::Microsecond,
        "MINUTE_MICROSECOND",
    ),
    (
        DateTimeField::Seconds,
        DateTimeField::Microsecond,
        "SECOND_MICROSECOND",
    ),
];

fn simple_unit(field: &DateTimeField) -> Option<&'static str> {
    SIMPLE_UNITS
        .iter()
        .find(|(f, _)| f == field)
        .map(|(_, name)| *name)
}

/// The MySQL unit of an INTERVAL expression (None for what MySQL has not).
pub(crate) fn interval_unit(i: &Interval) -> Option<&'static str> {
    if i.leading_precision.is_some() || i.fractional_seconds_precision.is_some() {
        return None;
    }
    let leading = i.leading_field.as_ref()?;
    match &i.last_field {
        None => simple_unit(leading),
        Some(last) => COMPOUND_UNITS
            .iter()
            .find(|(l, t, _)| l == leading && t == last)
            .map(|(_, _, name)| *name),
    }
}

/// The spelling the token pass gives a compound unit word (`DAY_HOUR` → `DAYS TO HOUR`),
/// None for other words.
pub(crate) fn compound_spelling(word: &str) -> Option<(&'static str, &'static str)> {
    let name = word.to_ascii_uppercase();
    let (_, _, unit) = COMPOUND_UNITS.iter().find(|(_, _, n)| *n == name)?;
    let (leading, last) = unit.split_once('_')?;
    let plural = match leading {
        "YEAR" => "YEARS",
        "DAY" => "DAYS",
        "HOUR" => "HOURS",
        "MINUTE" => "MINUTES",
        _ => "SECONDS",
    };
    let last = SIMPLE_UNITS.iter().find(|(_, n)| *n == last)?.1;
    Some((plural, last))
}

/// Whether `word` is a compound unit (`DAY_HOUR`, ...), its canonical name.
pub(crate) fn compound_unit(word: &str) -> Option<&'static str> {
    let name = word.to_ascii_uppercase();
    COMPOUND_UNITS
        .iter()
        .find(|(_, _, n)| *n == name)
        .map(|(_, _, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast_build::{column, number};

    fn interval(value: Expr, field: DateTimeField, last: Option<DateTimeField>) -> Interval {
        Interval {
            value: Box::new(value),
            leading_field: Some(field),
            leading_precision: None,
            last_field: last,
            fractional_seconds_precision: None,
        }
    }

    #[test]
    fn intervals_become_date_add_calls() {
        let scopes = Scopes::new();
        let add = |i: Interval, subtract| {
            add_interval(column("d"), &i, subtract, &scopes)
                .unwrap()
                .to_string()
        };
        assert_eq!(
            add(interval(number("2"), DateTimeField::Hour, None), false),
            "tutti_date_add(\"d\", 2, 'HOUR')"
        );
        assert_eq!(
            add(
                interval(
                    string("1:1"),
                    DateTimeField::Minutes,
                    Some(DateTimeField::Second)
                ),
                true
            ),
            "tutti_date_sub(\"d\", '1:1', 'MINUTE_SECOND')"
        );
        let plain_to = interval(
            number("1"),
            DateTimeField::Minute,
            Some(DateTimeField::Second),
        );
        assert!(matches!(
            add_interval(column("d"), &plain_to, false, &scopes),
            Err(SqlError::Unsupported(_))
        ));
        let e = add_days(
            func("sec_to_time", vec![number("1")]),
            column("n"),
            true,
            &scopes,
        );
        assert_eq!(
            e.to_string(),
            "tutti_date_sub(sec_to_time(1), \"n\", 'DAY', 'time')"
        );
    }

    #[test]
    fn compound_words_are_spelled_for_sqlparser() {
        assert_eq!(compound_spelling("day_hour"), Some(("DAYS", "HOUR")));
        assert_eq!(
            compound_spelling("SECOND_MICROSECOND"),
            Some(("SECONDS", "MICROSECOND"))
        );
        assert_eq!(compound_spelling("YEAR_MONTH"), Some(("YEARS", "MONTH")));
        assert_eq!(compound_spelling("DAY"), None);
        assert_eq!(compound_unit("minute_second"), Some("MINUTE_SECOND"));
    }
}
