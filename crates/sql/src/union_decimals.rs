//! A UNION's column of DECIMALs (and integers) is a DECIMAL in MariaDB, each row shown with
//! the column's scale: `SELECT 1.50 UNION SELECT 2` gives `1.50`, `2.00`, and a
//! `DECIMAL(10,2)` column's `price … UNION SELECT 0` shows `0.00`. SQLite keeps each
//! member's value as it is, so the members of such a column are cast to the largest scale
//! among them, `tutti_dec_cast(x, 65, s)` (the column keeps its name). The same holds for a
//! UNION in a derived table or CTE; a plain derived SELECT keeps its DECIMAL literals'
//! digits (`(SELECT 1.50 AS q) d` shows `1.50`) as the statement's own SELECT does.
//!
//! The members' types are taken in MySQL form, before the rewrite ([`plan`]); the casts are
//! added after it ([`apply`]).

use sqlparser::ast::{Expr, Select, SelectItem, SetExpr, Value as SqlValue};

use crate::decimal::DecimalType;
use crate::result_types::ResultType;

/// The widest DECIMAL: the cast never clamps a member's value.
const PRECISION: &str = "65";

/// What one SELECT of a UNION gives in a result column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Member {
    Int,
    Decimal(u32),
    Null,
    Other,
}

fn member(item: &SelectItem, ty: Option<&ResultType>) -> Member {
    if let SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } = item {
        if matches!(e, Expr::Value(v) if v.value == SqlValue::Null) {
            return Member::Null;
        }
    }
    let decl = match ty {
        Some(ResultType::Column { column, .. }) => column.decl_type.to_ascii_uppercase(),
        Some(ResultType::Computed { mysql_type, .. }) => mysql_type.to_ascii_uppercase(),
        None => return Member::Other,
    };
    if let Some(t) = DecimalType::of_decl(&decl) {
        return Member::Decimal(t.scale);
    }
    if let Some(scale) = computed_decimal_scale(&decl) {
        return Member::Decimal(scale);
    }
    let big_unsigned = decl.starts_with("BIGINT") && decl.contains("UNSIGNED");
    if decl.contains("INT") && !big_unsigned {
        Member::Int
    } else {
        Member::Other
    }
}

/// The scale of a computed `DECIMAL(p,s)` type.
fn computed_decimal_scale(mysql_type: &str) -> Option<u32> {
    let inner = mysql_type.strip_prefix("DECIMAL(")?;
    let (_, rest) = inner.split_once(',')?;
    rest.split(')').next()?.trim().parse().ok()
}

/// For each column of a UNION whose members are `selects` with their result `types`: the
/// scale its members are cast to, None where the column is no DECIMAL.
pub(crate) fn plan(selects: &[&Select], types: &[Vec<Option<ResultType>>]) -> Vec<Option<u32>> {
    let Some(width) = selects.first().map(|s| s.projection.len()) else {
        return Vec::new();
    };
    let columns: Option<Vec<Vec<Member>>> = selects
        .iter()
        .zip(types)
        .map(|(s, t)| {
            (s.projection.len() == width && t.len() == width).then(|| {
                s.projection
                    .iter()
                    .zip(t)
                    .map(|(item, ty)| member(item, ty.as_ref()))
                    .collect()
            })
        })
        .collect();
    let Some(columns) = columns.filter(|c| c.len() == selects.len()) else {
        return Vec::new();
    };
    (0..width)
        .map(|i| {
            let mut scale = None;
            for m in columns.iter().map(|c| c[i]) {
                match m {
                    Member::Decimal(s) => scale = Some(scale.unwrap_or(0).max(s)),
                    Member::Int | Member::Null => {}
                    Member::Other => return None,
                }
            }
            scale
        })
        .collect()
}

/// Casts the members of the UNION `body`'s DECIMAL columns to their scales (see [`plan`]).
pub(crate) fn apply(body: &mut SetExpr, scales: &[Option<u32>]) {
    if scales.iter().all(Option::is_none) {
        return;
    }
    let mut selects = Vec::new();
    crate::union_floats::members(body, &mut selects);
    for s in selects {
        for (item, scale) in s.projection.iter_mut().zip(scales) {
            let Some(scale) = scale else { continue };
            crate::union_floats::keep_name(item);
            if let SelectItem::ExprWithAlias { expr, .. } = item {
                if matches!(expr, Expr::Value(v) if v.value == SqlValue::Null) {
                    continue;
                }
                let x = std::mem::replace(expr, crate::ast_build::null());
                *expr = crate::typing::decimal_cast(x, PRECISION, &scale.to_string());
            }
        }
    }
}

/// The DECIMAL literals among a derived table's plain SELECT items keep their digits.
pub(crate) fn exact_literals(body: &mut SetExpr) {
    if let SetExpr::Select(s) = body {
        for item in &mut s.projection {
            let literal = match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    crate::typing::decimal_literal_text(e).is_some()
                }
                _ => false,
            };
            if !literal {
                continue;
            }
            crate::union_floats::keep_name(item);
            if let SelectItem::ExprWithAlias { expr, .. } = item {
                let x = std::mem::replace(expr, crate::ast_build::null());
                *expr = crate::typing::exact_item(x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_scales() {
        assert_eq!(computed_decimal_scale("DECIMAL(14,4)"), Some(4));
        assert_eq!(computed_decimal_scale("DECIMAL(3,0) UNSIGNED"), Some(0));
        assert_eq!(computed_decimal_scale("DOUBLE"), None);
    }
}
