//! Quantified comparisons: `x op ANY (subquery)`, `x op SOME (...)`, `x op ALL (...)`.
//!
//! SQLite has none. `= ANY` is `IN` and `<> ALL` is `NOT IN`, exactly (NULLs included).
//! The others become `CASE` over two `EXISTS`, which keeps SQL's three-valued answer:
//!
//! ```sql
//! x op ANY (S)  →  CASE WHEN EXISTS (SELECT 1 FROM (S) WHERE x op tutti_q) THEN 1
//!                       WHEN EXISTS (SELECT 1 FROM (S) WHERE (x op tutti_q) IS NULL) THEN NULL
//!                       ELSE 0 END
//! x op ALL (S)  →  CASE WHEN EXISTS (SELECT 1 FROM (S) WHERE NOT (x op tutti_q)) THEN 0
//!                       WHEN EXISTS (SELECT 1 FROM (S) WHERE (x op tutti_q) IS NULL) THEN NULL
//!                       ELSE 1 END
//! ```
//!
//! (no row: ANY is false, ALL true). The subquery's single column is renamed `tutti_q`, so
//! that `x` still means the outer query's columns. It runs before the rest of the rewrite,
//! which then treats the comparisons as any other. A subquery of several columns or `*` is
//! left alone (an error, as in MySQL for several columns).

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{BinaryOperator, CaseWhen, Expr, Query, SelectItem, SetExpr, UnaryOperator};

use crate::ast_build::{binop, derived, nested, null, number, query, select, values};
use crate::names::quoted;
use crate::subquery::{alias_column, single_column};

/// The name the subquery's column gets.
const COLUMN: &str = "tutti_q";

/// Rewrites `e` if it is a quantified comparison with a subquery.
pub(crate) fn quantified(e: &mut Expr) {
    let (all, left, op, right) = match e {
        Expr::AnyOp {
            left,
            compare_op,
            right,
            ..
        } => (false, left, compare_op, right),
        Expr::AllOp {
            left,
            compare_op,
            right,
        } => (true, left, compare_op, right),
        _ => return,
    };
    let Expr::Subquery(q) = right.as_mut() else {
        return;
    };
    let in_list = match (all, &op) {
        (false, BinaryOperator::Eq) => Some(false),
        (true, BinaryOperator::NotEq) => Some(true),
        _ => None,
    };
    if let Some(negated) = in_list {
        *e = Expr::InSubquery {
            expr: Box::new(std::mem::replace(left.as_mut(), null())),
            subquery: Box::new(std::mem::replace(q.as_mut(), values(vec![]))),
            negated,
        };
        return;
    }
    if !single_column(q).is_some_and(|item| alias_column(item, COLUMN)) {
        return;
    }
    let x = std::mem::replace(left.as_mut(), null());
    let op = op.clone();
    let s = std::mem::replace(q.as_mut(), values(vec![]));
    let cmp = || {
        nested(binop(
            x.clone(),
            op.clone(),
            Expr::Identifier(quoted(COLUMN)),
        ))
    };
    let decisive = if all {
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr: Box::new(cmp()),
        }
    } else {
        cmp()
    };
    let unknown = Expr::IsNull(Box::new(cmp()));
    let exists = |condition: Expr| Expr::Exists {
        subquery: Box::new(rows_where(s.clone(), condition)),
        negated: false,
    };
    let (hit, miss) = if all { ("0", "1") } else { ("1", "0") };
    *e = Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: vec![
            CaseWhen {
                condition: exists(decisive),
                result: number(hit),
            },
            CaseWhen {
                condition: exists(unknown),
                result: null(),
            },
        ],
        else_result: Some(Box::new(number(miss))),
    };
}

/// `SELECT 1 FROM (s) WHERE condition`.
fn rows_where(s: Query, condition: Expr) -> Query {
    query(SetExpr::Select(Box::new(select(
        vec![SelectItem::UnnamedExpr(number("1"))],
        vec![derived(s)],
        Some(condition),
    ))))
}

#[cfg(test)]
mod tests {
    use crate::tests::s as sql;

    #[test]
    fn equal_any_and_not_equal_all_are_in_lists() {
        let s = sql("SELECT a FROM t WHERE a = ANY (SELECT id FROM t)");
        assert!(s.contains("\"a\" IN (SELECT \"id\""), "{s}");
        let s = sql("SELECT a FROM t WHERE a <> ALL (SELECT id FROM t)");
        assert!(s.contains("\"a\" NOT IN (SELECT \"id\""), "{s}");
    }

    #[test]
    fn other_comparisons_keep_three_values() {
        let s = sql("SELECT a FROM t WHERE a > SOME (SELECT id FROM t)");
        assert!(
            s.contains("CASE WHEN EXISTS (SELECT 1 AS \"1\" FROM (SELECT \"id\" AS \"tutti_q\""),
            "{s}"
        );
        assert!(
            s.contains("THEN 1 WHEN EXISTS") && s.contains("ELSE 0 END"),
            "{s}"
        );
        let s = sql("SELECT a FROM t WHERE a >= ALL (SELECT id FROM t)");
        assert!(s.contains("WHERE NOT (\"a\" >= \"tutti_q\")"), "{s}");
        assert!(s.contains("IS NULL) THEN NULL ELSE 1 END"), "{s}");
    }
}
