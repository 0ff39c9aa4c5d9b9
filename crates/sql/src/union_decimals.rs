//! A UNION's column of DECIMALs (and integers) is a DECIMAL in MariaDB, each row shown with
//! the column's scale: `SELECT 1.50 UNION SELECT 2` gives `1.50`, `2.00`, and a
//! `DECIMAL(10,2)` column's `price … UNION SELECT 0` shows `0.00`. SQLite keeps each
//! member's value as it is, so the members of such a column are cast to the largest scale
//! among them, `tutti_dec_cast(x, 65, s)` (the column keeps its name). The same holds for a
//! UNION in a derived table or CTE; a plain derived SELECT keeps its DECIMAL literals'
//! digits (`(SELECT 1.50 AS q) d` shows `1.50`) as the statement's own SELECT does.
//!
//! A UNION's column with a string member is a string in MariaDB, and a DECIMAL literal
//! in it shows its digits as written (`SELECT 'a' UNION SELECT 1.50` gives `1.50`; SQLite's
//! REAL printed `1.5`): such literals become their text.
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
    Text,
    Other,
}

/// What a UNION's column is shown as, where its members need a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shown {
    /// A DECIMAL of this scale: every member is cast to it.
    Decimal(u32),
    /// A string: DECIMAL literals become their text.
    Text,
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
    } else if decl.contains("CHAR") || decl.contains("TEXT") {
        Member::Text
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

/// For each column of a UNION whose members are `selects` with their result `types`: how
/// it is shown, None where its members stay as they are.
pub(crate) fn plan(selects: &[&Select], types: &[Vec<Option<ResultType>>]) -> Vec<Option<Shown>> {
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
            let members = || columns.iter().map(|c| c[i]);
            if members().any(|m| m == Member::Text) {
                return Some(Shown::Text);
            }
            let mut scale = None;
            for m in members() {
                match m {
                    Member::Decimal(s) => scale = Some(scale.unwrap_or(0).max(s)),
                    Member::Int | Member::Null => {}
                    Member::Text | Member::Other => return None,
                }
            }
            scale.map(Shown::Decimal)
        })
        .collect()
}

/// Casts the members of the UNION `body`'s DECIMAL columns to their scales, and gives its
/// string columns' DECIMAL literals as text (see [`plan`]).
pub(crate) fn apply(body: &mut SetExpr, plan: &[Option<Shown>]) {
    if plan.iter().all(Option::is_none) {
        return;
    }
    let mut selects = Vec::new();
    crate::union_floats::members(body, &mut selects);
    for s in selects {
        for (item, shown) in s.projection.iter_mut().zip(plan) {
            let Some(shown) = shown else { continue };
            if *shown == Shown::Text && !literal_item(item) {
                continue;
            }
            crate::union_floats::keep_name(item);
            if let SelectItem::ExprWithAlias { expr, .. } = item {
                if matches!(expr, Expr::Value(v) if v.value == SqlValue::Null) {
                    continue;
                }
                let x = std::mem::replace(expr, crate::ast_build::null());
                *expr = match shown {
                    Shown::Decimal(scale) => {
                        crate::typing::decimal_cast(x, PRECISION, &scale.to_string())
                    }
                    Shown::Text => crate::typing::decimal_literal_text(&x).unwrap_or(x),
                };
            }
        }
    }
}

/// A SELECT item that is a DECIMAL literal (or its negation).
fn literal_item(item: &SelectItem) -> bool {
    match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
            crate::typing::decimal_literal_text(e).is_some()
        }
        _ => false,
    }
}

/// The DECIMAL literals among a derived table's plain SELECT items keep their digits.
pub(crate) fn exact_literals(body: &mut SetExpr) {
    if let SetExpr::Select(s) = body {
        for item in &mut s.projection {
            if !literal_item(item) {
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
