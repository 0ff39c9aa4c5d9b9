//! Scalar subqueries that return more than one row fail, as in MySQL.
//!
//! SQLite takes the first row of a scalar subquery and ignores the rest; MySQL fails the
//! statement with 1242 (`Subquery returns more than 1 row`). A silently chosen row is a
//! different answer, so every scalar subquery `(SELECT c ...)` becomes
//!
//! ```sql
//! (SELECT CASE count(*) WHEN 0 THEN NULL WHEN 1 THEN min("c")
//!         ELSE tutti_subquery_rows() END
//!  FROM (SELECT "c" FROM (SELECT c ...) LIMIT 2))
//! ```
//!
//! which yields the one value (or NULL for no row) and calls a function that raises
//! MySQL's error for a second row; at most two rows are read. The subquery's single column
//! needs a name to be referred to: its alias, or `tutti_v` given to it. Subqueries with
//! `*` or several columns (row comparisons) are left alone; `IN`, `EXISTS` and derived
//! tables are other AST nodes and are not touched.

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    CaseWhen, Expr, GroupByExpr, Ident, LimitClause, Query, SelectItem, SetExpr, Value,
};

use crate::ast_build::{derived, func, null, number, query, select};
use crate::names::quoted;

/// Name of the SQLite function that raises 1242 (registered by `tutti-storage`).
pub const TOO_MANY_ROWS_FN: &str = "tutti_subquery_rows";
/// The message it raises, which the executor maps back to 1242.
pub const TOO_MANY_ROWS: &str = "Subquery returns more than 1 row";
/// Alias given to an unnamed single column.
const COLUMN: &str = "tutti_v";
/// Wraps `e` if it is a scalar subquery that may return several rows (see the module doc).
pub(crate) fn guard_scalar(e: &mut Expr) {
    let Expr::Subquery(q) = e else { return };
    if at_most_one_row(q) {
        return;
    }
    let Some(column) = name_single_column(q) else {
        return;
    };
    // a FLOAT item stays one seen from outside (`typing::float_typed`)
    let float = float_item(q);
    // and a DECIMAL one a DECIMAL (`1 + (SELECT AVG(a) ..)` is exact, with AVG's scale)
    let decimal = crate::typing::computed_item_type(q) == crate::typing::NumType::Decimal;
    let col = || Expr::Identifier(quoted(&column));
    let inner = std::mem::replace(
        &mut **q,
        query(SetExpr::Select(Box::new(select(vec![], vec![], None)))),
    );
    let mut first_two = query(SetExpr::Select(Box::new(select(
        vec![SelectItem::UnnamedExpr(col())],
        vec![derived(inner)],
        None,
    ))));
    first_two.limit_clause = Some(LimitClause::LimitOffset {
        limit: Some(number("2")),
        offset: None,
        limit_by: vec![],
    });
    let when = |n: &str, result: Expr| CaseWhen {
        condition: number(n),
        result,
    };
    let one_value = Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: Some(Box::new(func("count", vec![number("1")]))),
        conditions: vec![when("0", null()), when("1", func("min", vec![col()]))],
        else_result: Some(Box::new(func(TOO_MANY_ROWS_FN, vec![]))),
    };
    let one_value = if float {
        func(crate::typing::FLOAT_CAST, vec![one_value])
    } else if decimal {
        crate::typing::collated(one_value)
    } else {
        one_value
    };
    **q = query(SetExpr::Select(Box::new(select(
        vec![SelectItem::UnnamedExpr(one_value)],
        vec![derived(first_two)],
        None,
    ))));
}

/// Whether `q`'s single item is `CAST(x AS FLOAT)` (see `rewrite`'s
/// `typed_scalar_subquery`).
pub(crate) fn float_item(q: &Query) -> bool {
    matches!(crate::typing::single_item(q),
        Some(Expr::Function(f)) if f.name.to_string() == crate::typing::FLOAT_CAST)
}

/// `cmp`, a comparison with the row subquery `q` (several columns), failing with 1242
/// when `q` returns more than one row (SQLite would compare with its first):
/// `CASE WHEN (SELECT count(*) FROM (SELECT * FROM (q) LIMIT 2)) > 1 THEN
/// tutti_subquery_rows() ELSE cmp END`.
pub(crate) fn guard_row(cmp: Expr, q: &Query) -> Expr {
    if at_most_one_row(q) {
        return cmp;
    }
    let mut first_two = query(SetExpr::Select(Box::new(select(
        vec![SelectItem::Wildcard(Default::default())],
        vec![derived(q.clone())],
        None,
    ))));
    first_two.limit_clause = Some(LimitClause::LimitOffset {
        limit: Some(number("2")),
        offset: None,
        limit_by: vec![],
    });
    let rows = query(SetExpr::Select(Box::new(select(
        vec![SelectItem::UnnamedExpr(func("count", vec![number("1")]))],
        vec![derived(first_two)],
        None,
    ))));
    Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: vec![CaseWhen {
            condition: crate::ast_build::binop(
                Expr::Subquery(Box::new(rows)),
                sqlparser::ast::BinaryOperator::Gt,
                number("1"),
            ),
            result: func(TOO_MANY_ROWS_FN, vec![]),
        }],
        else_result: Some(Box::new(cmp)),
    }
}

/// A SELECT without FROM, of aggregates only without GROUP BY, or with `LIMIT 0|1`.
fn at_most_one_row(q: &Query) -> bool {
    if let Some(LimitClause::LimitOffset {
        limit: Some(Expr::Value(v)),
        ..
    }) = &q.limit_clause
    {
        if matches!(&v.value, Value::Number(n, _) if n == "0" || n == "1") {
            return true;
        }
    }
    let SetExpr::Select(s) = &*q.body else {
        return false;
    };
    let no_groups = matches!(&s.group_by, GroupByExpr::Expressions(g, _) if g.is_empty());
    // aggregates without GROUP BY return exactly one row
    let aggregate = |item: &SelectItem| match item {
        SelectItem::UnnamedExpr(Expr::Function(f))
        | SelectItem::ExprWithAlias {
            expr: Expr::Function(f),
            ..
        } => crate::having::is_aggregate(f),
        _ => false,
    };
    s.from.is_empty() || (no_groups && s.projection.iter().all(aggregate))
}
/// The name of the query's only column, aliasing it when it has none (None: `*` or
/// several columns).
fn name_single_column(q: &mut Query) -> Option<String> {
    let item = single_column(q)?;
    match item {
        SelectItem::ExprWithAlias { alias, .. } => Some(alias.value.clone()),
        SelectItem::UnnamedExpr(_) => {
            alias_column(item, COLUMN);
            Some(COLUMN.to_string())
        }
        _ => None,
    }
}

/// The only result column of a query, `*` included (None: several columns). The leftmost
/// SELECT names a compound query's columns.
pub(crate) fn single_column(q: &mut Query) -> Option<&mut SelectItem> {
    let mut body = &mut *q.body;
    loop {
        match body {
            SetExpr::Select(s) => {
                let [item] = s.projection.as_mut_slice() else {
                    return None;
                };
                return Some(item);
            }
            SetExpr::SetOperation { left, .. } => body = left,
            SetExpr::Query(inner) => body = &mut inner.body,
            _ => return None,
        }
    }
}

/// Gives an expression column the name `name` (false for `*`).
pub(crate) fn alias_column(item: &mut SelectItem, name: &str) -> bool {
    let expr = match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
            std::mem::replace(e, null())
        }
        _ => return false,
    };
    *item = SelectItem::ExprWithAlias {
        expr,
        alias: Ident::with_quote('"', name),
    };
    true
}
