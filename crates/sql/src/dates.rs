//! Date arithmetic: `d + INTERVAL n UNIT`, `d - INTERVAL n UNIT`, `DATE_ADD(d, INTERVAL ..)`,
//! `DATE_SUB`, `ADDDATE`, `SUBDATE` → SQLite's date functions with a modifier.
//!
//! Units of a day or more keep a DATE a DATE, like MySQL: the result is
//! `CASE WHEN length(d) = 10 THEN date(d, m) ELSE datetime(d, m) END` (a DATE is stored as
//! `YYYY-MM-DD` text). Month arithmetic adds SQLite's `'floor'` modifier so that
//! `'2020-01-31' + INTERVAL 1 MONTH` is `2020-02-29` as in MySQL rather than March 2nd.
//! WEEK is 7 days and QUARTER 3 months. Compound units (`DAY_HOUR`, ...) and MICROSECOND are
//! not supported. A literal amount becomes a literal modifier (`'+3 days'`); any other amount
//! (a placeholder, a column) is concatenated at run time: `(n) || ' days'`.

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    BinaryOperator, CaseWhen, DateTimeField, Expr, Interval, UnaryOperator, Value as SqlValue,
};

use crate::ast_build::{binop, func, nested, number, string};
use crate::SqlError;

/// `base ± interval` for an INTERVAL expression.
pub(crate) fn add_interval(
    base: Expr,
    interval: &Interval,
    subtract: bool,
) -> Result<Expr, SqlError> {
    if interval.last_field.is_some() {
        return Err(unsupported_unit(interval));
    }
    let (unit, factor) = match &interval.leading_field {
        Some(DateTimeField::Second) => ("seconds", 1),
        Some(DateTimeField::Minute) => ("minutes", 1),
        Some(DateTimeField::Hour) => ("hours", 1),
        Some(DateTimeField::Day) => ("days", 1),
        Some(DateTimeField::Week(None)) => ("days", 7),
        Some(DateTimeField::Month) => ("months", 1),
        Some(DateTimeField::Quarter) => ("months", 3),
        Some(DateTimeField::Year) => ("years", 1),
        _ => return Err(unsupported_unit(interval)),
    };
    Ok(apply(
        base,
        modifier(&interval.value, unit, factor, subtract),
        unit,
    ))
}

/// `ADDDATE(d, n)` / `SUBDATE(d, n)`: n days.
pub(crate) fn add_days(base: Expr, days: &Expr, subtract: bool) -> Expr {
    apply(base, modifier(days, "days", 1, subtract), "days")
}

fn unsupported_unit(interval: &Interval) -> SqlError {
    SqlError::Unsupported(format!("the interval {interval}"))
}

/// The SQLite modifier for `n` units (times `factor`), negated for subtraction.
fn modifier(n: &Expr, unit: &str, factor: i64, subtract: bool) -> Expr {
    if let Some(k) = literal_amount(n) {
        let k = if subtract { -k } else { k };
        let sign = if k < 0.0 { "" } else { "+" };
        return string(format!("{sign}{} {unit}", k * factor as f64));
    }
    let mut amount = nested(n.clone());
    if factor != 1 {
        amount = nested(binop(
            amount,
            BinaryOperator::Multiply,
            number(factor.to_string()),
        ));
    }
    if subtract {
        amount = Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr: Box::new(amount),
        };
    }
    binop(
        nested(amount),
        BinaryOperator::StringConcat,
        string(format!(" {unit}")),
    )
}

/// A literal interval amount: `5`, `-5`, `'5'`, `1.5`.
fn literal_amount(n: &Expr) -> Option<f64> {
    match n {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(s, _) | SqlValue::SingleQuotedString(s) => s.trim().parse().ok(),
            _ => None,
        },
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => literal_amount(expr).map(|k| -k),
        Expr::Nested(e) => literal_amount(e),
        _ => None,
    }
}

/// `datetime(base, m)`, or the DATE-preserving form for units of a day or more.
fn apply(base: Expr, modifier: Expr, unit: &str) -> Expr {
    let mut mods = vec![modifier];
    if unit == "months" || unit == "years" {
        mods.push(string("floor"));
    }
    let call = |f: &str| {
        let mut args = vec![base.clone()];
        args.extend(mods.iter().cloned());
        func(f, args)
    };
    if matches!(unit, "seconds" | "minutes" | "hours") {
        return call("datetime");
    }
    Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: vec![CaseWhen {
            condition: binop(
                func("length", vec![base.clone()]),
                BinaryOperator::Eq,
                number("10"),
            ),
            result: call("date"),
        }],
        else_result: Some(Box::new(call("datetime"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast_build::column;

    fn interval(value: Expr, field: DateTimeField) -> Interval {
        Interval {
            value: Box::new(value),
            leading_field: Some(field),
            leading_precision: None,
            last_field: None,
            fractional_seconds_precision: None,
        }
    }

    #[test]
    fn literal_amounts_become_modifiers() {
        let e = add_interval(
            column("d"),
            &interval(number("2"), DateTimeField::Hour),
            false,
        );
        assert_eq!(e.unwrap().to_string(), "datetime(\"d\", '+2 hours')");
        let e = add_interval(
            column("d"),
            &interval(number("2"), DateTimeField::Week(None)),
            true,
        );
        assert_eq!(
            e.unwrap().to_string(),
            "CASE WHEN length(\"d\") = 10 THEN date(\"d\", '-14 days') ELSE datetime(\"d\", '-14 days') END"
        );
        let e = add_interval(
            column("d"),
            &interval(string("1"), DateTimeField::Month),
            false,
        );
        assert!(e
            .unwrap()
            .to_string()
            .contains("date(\"d\", '+1 months', 'floor')"));
    }

    #[test]
    fn other_amounts_are_concatenated() {
        let p = Expr::value(SqlValue::Placeholder("?1".into()));
        let e = add_interval(column("d"), &interval(p, DateTimeField::Minute), true).unwrap();
        assert_eq!(e.to_string(), "datetime(\"d\", (-?1) || ' minutes')");
        let e = add_days(column("d"), &column("n"), false);
        assert!(
            e.to_string().contains("date(\"d\", \"n\" || ' days')"),
            "{e}"
        );
    }

    #[test]
    fn compound_units_are_unsupported() {
        let e = add_interval(
            column("d"),
            &interval(number("1"), DateTimeField::Microsecond),
            false,
        );
        assert!(matches!(e, Err(SqlError::Unsupported(_))));
    }
}
