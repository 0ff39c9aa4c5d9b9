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
//! that `x` still means the outer query's columns. A subquery of `*` gets the name from a
//! CTE's column list instead (`WITH tutti_s(tutti_q) AS (S) SELECT 1 FROM tutti_s WHERE …`;
//! a table of several columns then fails as in MySQL, 1241). It runs before the rest of the
//! rewrite, which then treats the comparisons as any other. A subquery of several columns is
//! left alone (an error, as in MySQL).

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    BinaryOperator, CaseWhen, Expr, Query, SelectItem, SetExpr, TableAlias, TableFactor,
    UnaryOperator,
};

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
    let source = match single_column(q) {
        Some(SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..)) => Source::Cte,
        Some(item) => {
            if !alias_column(item, COLUMN) {
                return;
            }
            Source::Derived
        }
        None => return,
    };
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
        subquery: Box::new(rows_where(source, s.clone(), condition)),
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

/// How the subquery's column gets its name `tutti_q`.
#[derive(Clone, Copy)]
enum Source {
    /// Its single item is aliased; the subquery is a derived table.
    Derived,
    /// It is `SELECT *`: a CTE names its column.
    Cte,
}

/// The name of the CTE of [`Source::Cte`] (SQLite's error for a `*` of several columns
/// names it: "table tutti_s has 2 values for 1 columns").
pub const QUANTIFIED_CTE: &str = "tutti_s";

/// `SELECT 1 FROM (s) WHERE condition`, or `WITH tutti_s(tutti_q) AS (s) SELECT 1 FROM
/// tutti_s WHERE condition`.
fn rows_where(source: Source, s: Query, condition: Expr) -> Query {
    let one = vec![SelectItem::UnnamedExpr(number("1"))];
    match source {
        Source::Derived => {
            // Aliased, so that the comparison knows the column's type (a DECIMAL such as
            // `s1/s1` compares by number: see `derived`).
            let mut from = derived(s);
            if let TableFactor::Derived { alias, .. } = &mut from.relation {
                *alias = Some(TableAlias {
                    explicit: true,
                    name: quoted(QUANTIFIED_CTE),
                    columns: vec![],
                    at: None,
                });
            }
            query(SetExpr::Select(Box::new(select(
                one,
                vec![from],
                Some(condition),
            ))))
        }
        Source::Cte => {
            let from = crate::ast_build::named_table(QUANTIFIED_CTE);
            let mut q = query(SetExpr::Select(Box::new(select(
                one,
                vec![from],
                Some(condition),
            ))));
            q.with = Some(crate::ast_build::named_cte(
                QUANTIFIED_CTE,
                &[COLUMN.to_string()],
                s,
            ));
            q
        }
    }
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

    #[test]
    fn a_star_subquery_is_named_by_a_cte() {
        let s = sql("SELECT 10 > ALL (SELECT * FROM t)");
        assert!(
            s.contains(
                "EXISTS (WITH \"tutti_s\" (\"tutti_q\") AS (SELECT * FROM \"app.t\" AS \"t\")"
            ),
            "{s}"
        );
        assert!(
            s.contains("FROM \"tutti_s\" WHERE NOT (10 > \"tutti_q\")"),
            "{s}"
        );
    }
}
