//! IFNULL, COALESCE, IF and CASE whose results are numbers of different types take one type
//! in MariaDB, every value shown as that type shows it:
//!
//! * integers with DECIMALs (or DECIMALs of different scales) are a DECIMAL of the largest
//!   scale: `IFNULL(price, 0)` of a `DECIMAL(10,2)` NULL is `0.00`, `COALESCE(d, i)` is
//!   `4.00`, `IFNULL((SELECT SUM(amount) ...), 0)` is `0.00`;
//! * DECIMALs with a DOUBLE are a DOUBLE: `IFNULL(d, 0.5e0)` of a `2.50` is `2.5` (a FLOAT
//!   among them is left alone: MariaDB shows it with its own digits).
//!
//! SQLite returns whichever argument it picked as it is, so the results of another type are
//! cast, in MySQL form before the rewrite: `CAST(x AS DECIMAL(65, s))` (exact: an integer
//! or a shorter DECIMAL fits) or `CAST(x AS DOUBLE)`.
//!
//! Only results that are all numbers are touched (a string among them makes the whole a
//! string in MariaDB too); a scalar subquery's item is typed in the scope of its own FROM
//! clause; anything not known leaves the expression alone.

use sqlparser::ast::{DataType, ExactNumberInfo, Expr, Query};

use crate::ast_build::cast;
use crate::result_types::{numeric, Numeric};
use crate::typing::{args_from, function_name, single_item, unnested, Scopes};

/// The widest DECIMAL: the cast never clamps a value.
const PRECISION: u64 = 65;

/// `DECIMAL(65, scale)`: the widest DECIMAL of that scale, to which a shorter exact value
/// casts exactly.
pub(crate) fn exact(scale: u32) -> DataType {
    DataType::Decimal(ExactNumberInfo::PrecisionAndScale(
        PRECISION,
        i64::from(scale),
    ))
}

/// The scopes a scalar subquery's item is typed in (None: not known).
pub(crate) type SubqueryScopes<'a> = dyn Fn(&Query) -> Option<Scopes> + 'a;

/// Casts the results of `e` that are not of its type when it is an IFNULL, COALESCE, IF or
/// CASE (see the module doc).
pub(crate) fn widen(e: &mut Expr, scopes: &Scopes, subquery: &SubqueryScopes<'_>) {
    let mut results: Vec<&mut Expr> = match e {
        Expr::Function(f) => match function_name(f).as_str() {
            "ifnull" | "nvl" | "coalesce" => args_from(f, 0).collect(),
            "if" => args_from(f, 1).collect(),
            _ => return,
        },
        Expr::Case {
            conditions,
            else_result,
            ..
        } => conditions
            .iter_mut()
            .map(|c| &mut c.result)
            .chain(else_result.as_deref_mut())
            .collect(),
        _ => return,
    };
    let mut kinds = Vec::with_capacity(results.len());
    for r in &results {
        let kind = match unnested(r) {
            Expr::Subquery(q) => single_item(q).and_then(|item| numeric(item, &subquery(q)?)),
            r => numeric(r, scopes),
        };
        match kind {
            Some(k) => kinds.push(k),
            None => return,
        }
    }
    if kinds.contains(&Numeric::Float) {
        return;
    }
    let target = if kinds.contains(&Numeric::Double) {
        DataType::Double(ExactNumberInfo::None)
    } else {
        let scales = kinds.iter().filter_map(|k| match k {
            Numeric::Exact(s) => Some(*s),
            _ => None,
        });
        let Some(widest) = scales.max().filter(|&s| s > 0) else {
            return;
        };
        exact(widest)
    };
    for (r, kind) in results.iter_mut().zip(kinds) {
        let short = match (kind, &target) {
            // an integer shows the same either way
            (Numeric::Exact(s), DataType::Double(_)) => s > 0,
            (Numeric::Exact(s), DataType::Decimal(ExactNumberInfo::PrecisionAndScale(_, w))) => {
                i64::from(s) < *w
            }
            _ => false,
        };
        if short {
            let x = std::mem::replace(&mut **r, crate::ast_build::null());
            **r = cast(x, target.clone());
        }
    }
}
