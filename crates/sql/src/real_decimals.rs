//! The decimals MariaDB shows a DOUBLE result with.
//!
//! A DOUBLE expression carries MariaDB's `decimals`: a FLOAT(M,D) or DOUBLE(M,D) column
//! has D, an integer 0, a DECIMAL its scale, and a plain FLOAT/DOUBLE, an approximate
//! literal (`1e0`), a string or a function of doubles (`SQRT`) none ("not fixed", 31).
//! `+ - * MOD`, `IF`, `IFNULL`, `COALESCE`, `GREATEST`, `LEAST`, `CASE`, `ABS`, `SUM`, `MIN`
//! and `MAX` keep the most of their arguments, `/` and `AVG` add `div_precision_increment`
//! (4), `ROUND(x, n)`/`TRUNCATE(x, n)` have n, `PI()` 6. A result with fixed decimals is shown with
//! exactly that many (`f*3` of a FLOAT(5,2) 1.1 is `3.30`, not the double's
//! 3.3000000000000003); one that is not fixed, with the double's shortest digits.

use sqlparser::ast::{BinaryOperator, Expr, UnaryOperator, Value as SqlValue};

use crate::ast_build::{binop, func, is_comparison, number};
use crate::typing::{args, decl_of, function_name, type_of, NumType, Scopes};

/// MariaDB's `NOT_FIXED_DEC`: the decimals of a double shown with its own digits.
const NOT_FIXED: u32 = 31;
/// Digits a division (and AVG) adds.
const DIV_PRECISION_INCREMENT: u32 = 4;

/// The fixed decimals of the DOUBLE result `e`, None when they are not fixed or unknown.
pub(crate) fn fixed(e: &Expr, scopes: &Scopes) -> Option<u8> {
    let d = decimals(e, scopes)?;
    (d < NOT_FIXED).then_some(d as u8)
}

/// `l op r` (a comparison) when MariaDB compares the two as doubles with fixed decimals
/// (`Arg_comparator::compare_real_fixed`): one is a DOUBLE, the other a number, both with
/// fixed decimals; values within half a unit of the last of the most decimals are equal.
/// So `a + b = 0.3` of DOUBLE(5,2) columns 0.1 and 0.2 holds (the double sum is
/// 0.30000000000000004), and a FLOAT(5,2) 1.1 (kept as the single 1.100000023841858)
/// equals 1.1. `tutti_real_cmp(l, r, precision[, null_safe]) op 0`.
pub(crate) fn fixed_comparison(
    l: &Expr,
    op: &BinaryOperator,
    r: &Expr,
    scopes: &Scopes,
) -> Option<Expr> {
    let comparison = is_comparison(op) || *op == BinaryOperator::Spaceship;
    let (lt, rt) = (type_of(l, scopes), type_of(r, scopes));
    let numeric = |t: NumType| matches!(t, NumType::Int | NumType::Decimal | NumType::Double);
    let double = lt == NumType::Double || rt == NumType::Double;
    if !(comparison && numeric(lt) && numeric(rt) && double) {
        return None;
    }
    let most = fixed(l, scopes)?.max(fixed(r, scopes)?);
    let precision = format!("5e-{}", u32::from(most) + 1);
    let mut cmp_args = vec![l.clone(), r.clone(), number(precision)];
    let op = if *op == BinaryOperator::Spaceship {
        cmp_args.push(number("1"));
        BinaryOperator::Eq
    } else {
        op.clone()
    };
    Some(binop(func("tutti_real_cmp", cmp_args), op, number("0")))
}

/// MariaDB's decimals of `e` (31: not fixed); None when unknown.
fn decimals(e: &Expr, scopes: &Scopes) -> Option<u32> {
    let most = |xs: &[&Expr]| {
        xs.iter()
            .map(|x| decimals(x, scopes))
            .try_fold(0, |m, d| Some(m.max(d?)))
    };
    match e {
        Expr::Nested(x) => decimals(x, scopes),
        Expr::UnaryOp {
            op: UnaryOperator::Minus | UnaryOperator::Plus,
            expr,
        } => decimals(expr, scopes),
        Expr::BinaryOp { left, op, right } => match op {
            BinaryOperator::Plus
            | BinaryOperator::Minus
            | BinaryOperator::Multiply
            | BinaryOperator::Modulo => most(&[left, right]),
            BinaryOperator::Divide => {
                Some((most(&[left, right])? + DIV_PRECISION_INCREMENT).min(NOT_FIXED))
            }
            _ => None,
        },
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) if n.contains(['e', 'E']) => Some(NOT_FIXED),
            SqlValue::Number(n, _) => Some(n.split_once('.').map_or(0, |(_, f)| f.len() as u32)),
            SqlValue::SingleQuotedString(_) | SqlValue::DoubleQuotedString(_) => Some(NOT_FIXED),
            SqlValue::Null => Some(0),
            _ => None,
        },
        Expr::Case {
            conditions,
            else_result,
            ..
        } => {
            let mut results: Vec<&Expr> = conditions.iter().map(|c| &c.result).collect();
            results.extend(else_result.as_deref());
            most(&results)
        }
        Expr::Function(f) if f.over.is_none() && f.filter.is_none() => {
            let a = args(f);
            match function_name(f).as_str() {
                "round" | "truncate" | "tutti_double_round" => match a[..] {
                    [_] => Some(0),
                    // 31 places or more: not fixed; places left of the point: none.
                    [_, Expr::Value(v)] => match &v.value {
                        SqlValue::Number(n, _) => {
                            Some(n.parse::<i64>().ok()?.clamp(0, NOT_FIXED as i64) as u32)
                        }
                        _ => None,
                    },
                    [_, Expr::UnaryOp {
                        op: UnaryOperator::Minus,
                        expr,
                    }] if matches!(expr.as_ref(), Expr::Value(v) if matches!(v.value, SqlValue::Number(..))) => {
                        Some(0)
                    }
                    [x, _] => decimals(x, scopes),
                    _ => None,
                },
                "abs" | "sum" | "min" | "max" if a.len() == 1 => decimals(a[0], scopes),
                "avg" if a.len() == 1 => {
                    Some((decimals(a[0], scopes)? + DIV_PRECISION_INCREMENT).min(NOT_FIXED))
                }
                "if" if a.len() == 3 => most(&a[1..]),
                "pi" => Some(6),
                "ifnull" | "coalesce" | "greatest" | "least" | "mod" => most(&a),
                _ => by_type(e, scopes),
            }
        }
        _ => by_type(e, scopes),
    }
}

/// The decimals of a column or value by its type.
fn by_type(e: &Expr, scopes: &Scopes) -> Option<u32> {
    if let Some(t) = decl_of(e, scopes).and_then(crate::real::RealType::of_decl) {
        return Some(t.decimals().unwrap_or(NOT_FIXED));
    }
    match type_of(e, scopes) {
        NumType::Int => Some(0),
        NumType::Decimal => crate::result_types::exact_scale(e, scopes),
        NumType::Str => Some(NOT_FIXED),
        _ => None,
    }
}
