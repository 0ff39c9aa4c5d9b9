//! A UNION's string column compares in MariaDB's derived collation, the default
//! case-insensitive one for literals and computed strings (`SELECT 'test' UNION SELECT
//! 'TEST'` is one row). SQLite compares a compound's column in the collation of its
//! leftmost SELECT that has one, and a literal or a function's value has none: where no
//! SELECT's item is a column or carries a `COLLATE`, the leftmost item gets the default
//! collation, for the duplicates a UNION drops and for its ORDER BY.

use sqlparser::ast::{Expr, SelectItem, SetExpr};

use crate::typing::{self, NumType};
use crate::union_floats::item_expr;

/// Collates the leftmost items of `body`'s string columns that no SELECT collates.
pub(crate) fn apply(body: &mut SetExpr) {
    if !matches!(body, SetExpr::SetOperation { .. }) {
        return;
    }
    let mut selects = Vec::new();
    crate::union_floats::members(body, &mut selects);
    let Some(width) = selects.first().map(|s| s.projection.len()) else {
        return;
    };
    if selects.iter().any(|s| s.projection.len() != width) {
        return;
    }
    for i in 0..width {
        let items: Vec<Option<&Expr>> = selects
            .iter()
            .map(|s| item_expr(&s.projection[i]))
            .collect();
        let textual = |e: &Option<&Expr>| {
            e.is_some_and(|e| {
                !typing::collation_decided(e)
                    && matches!(
                        typing::type_of(e, &Vec::new()),
                        NumType::Str | NumType::Null | NumType::Int | NumType::Double
                    )
            })
        };
        let first_string =
            items[0].is_some_and(|e| typing::type_of(e, &Vec::new()) == NumType::Str);
        if !first_string || !items.iter().all(textual) {
            continue;
        }
        let item = &mut selects[0].projection[i];
        crate::union_floats::keep_name(item);
        if let SelectItem::ExprWithAlias { expr, .. } = item {
            typing::collate_in_connection(expr, &Vec::new());
        }
    }
}
