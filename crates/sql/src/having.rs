//! `HAVING` without `GROUP BY` in a query without aggregates.
//!
//! MySQL filters the rows of such a query by its HAVING condition, where a name means a
//! result alias first (`SELECT a + 1 AS x FROM t HAVING x > 1`), then a column; SQLite
//! refuses HAVING on a non-aggregate query. The condition moves into WHERE, ANDed with any
//! WHERE, each alias replaced by the expression it names. A query with an aggregate
//! anywhere (even in a subquery) is left alone: there HAVING filters the one aggregate row,
//! which SQLite does as MySQL does; so is one whose HAVING names a window function's alias.
//!
//! An aggregate only in `ORDER BY` or `HAVING` (`SELECT 1 FROM t ORDER BY COUNT(*)`,
//! `SELECT a FROM t HAVING MIN(a) > 0`) makes the query an aggregate one in MySQL: one row,
//! even over no rows. SQLite decides that by the result columns alone, so the first one
//! carries an aggregate that does not change its value (`CASE WHEN COUNT(*) >= 0 THEN e
//! END`; its name stays the source text, see `item_names`).

use std::ops::ControlFlow;

use sqlparser::ast::helpers::attached_token::AttachedToken;

use sqlparser::ast::{
    visit_expressions, visit_expressions_mut, BinaryOperator, Expr, Function, GroupByExpr, Ident,
    Query, Select, SelectItem, SetExpr, Visit, VisitMut, Visitor, VisitorMut,
};

use crate::ast_build::{binop, nested};

/// MariaDB's standard deviation and variance aggregates, by lower-case name.
pub(crate) const DEVIATIONS: [&str; 7] = [
    "std",
    "stddev",
    "stddev_pop",
    "stddev_samp",
    "variance",
    "var_pop",
    "var_samp",
];

/// The other aggregate functions (MariaDB's), by lower-case name.
const AGGREGATES: [&str; 11] = [
    "count",
    "sum",
    "min",
    "max",
    "avg",
    "group_concat",
    "json_arrayagg",
    "json_objectagg",
    "bit_or",
    "bit_and",
    "bit_xor",
];

/// Moves the HAVING condition of a non-aggregate query without GROUP BY into WHERE.
pub(crate) fn having_to_where(s: &mut Select) {
    let no_groups = matches!(&s.group_by, GroupByExpr::Expressions(g, _) if g.is_empty());
    if !no_groups || s.having.is_none() || has_aggregate(s) {
        if let Some(h) = s.having.as_mut() {
            aggregate_aliases(h, &s.projection, &s.group_by);
        }
        return;
    }
    let Some(mut h) = s.having.take() else { return };
    if !replace_aliases(&mut h, &s.projection) {
        s.having = Some(h);
        return;
    }
    s.selection = Some(match s.selection.take() {
        Some(w) => binop(nested(w), BinaryOperator::And, nested(h)),
        None => h,
    });
}

/// Makes a query whose only aggregates are in ORDER BY or HAVING an aggregate one (see the
/// module doc). Only a query that is not inside another (`outermost`): in a subquery, an
/// aggregate may be the outer query's (`ORDER BY SUM(outer.b)`).
pub(crate) fn aggregate_elsewhere(q: &mut Query, outermost: bool) {
    if !outermost {
        return;
    }
    let SetExpr::Select(s) = q.body.as_mut() else {
        return;
    };
    let no_groups = matches!(&s.group_by, GroupByExpr::Expressions(g, _) if g.is_empty());
    let elsewhere = direct_aggregate(&q.order_by) || direct_aggregate(&s.having);
    if !no_groups || !elsewhere || visit_expressions(&s.projection, found_aggregate).is_break() {
        return;
    }
    let Some(first) = s.projection.first_mut() else {
        return;
    };
    let e = match first {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => e,
        _ => return, // `*`: left to SQLite, which refuses
    };
    let count = crate::ast_build::func("count", vec![crate::ast_build::number("1")]);
    let always = binop(count, BinaryOperator::GtEq, crate::ast_build::number("0"));
    *e = Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: vec![sqlparser::ast::CaseWhen {
            condition: always,
            result: std::mem::replace(e, crate::ast_build::null()),
        }],
        else_result: None,
    };
}

/// True if `node` calls an aggregate of its own query (not one inside a subquery).
pub(crate) fn direct_aggregate(node: &impl Visit) -> bool {
    struct Direct {
        depth: usize,
    }
    impl Visitor for Direct {
        type Break = ();
        fn pre_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
            self.depth += 1;
            ControlFlow::Continue(())
        }
        fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
            self.depth -= 1;
            ControlFlow::Continue(())
        }
        fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
            match self.depth {
                0 => found_aggregate(e),
                _ => ControlFlow::Continue(()),
            }
        }
    }
    node.visit(&mut Direct { depth: 0 }).is_break()
}

fn found_aggregate(e: &Expr) -> ControlFlow<()> {
    match e {
        Expr::Function(f) if is_aggregate(f) => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    }
}

/// Replaces the result aliases `h` names by their expressions; false if one of them is a
/// window function (not allowed in WHERE).
fn replace_aliases(h: &mut Expr, projection: &[SelectItem]) -> bool {
    let alias_of = |name: &str| {
        projection.iter().find_map(|item| match item {
            SelectItem::ExprWithAlias { expr, alias } if alias.value.eq_ignore_ascii_case(name) => {
                Some(expr)
            }
            _ => None,
        })
    };
    let window = |e: &Expr| match e {
        Expr::Function(f) if f.over.is_some() => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    };
    let replaced = visit_expressions_mut(h, |e| {
        if let Expr::Identifier(id) = e {
            if let Some(expr) = alias_of(&id.value) {
                if visit_expressions(expr, window).is_break() {
                    return ControlFlow::Break(());
                }
                *e = nested(expr.clone());
            }
        }
        ControlFlow::Continue(())
    });
    replaced.is_continue()
}

/// In an aggregate query's HAVING, an alias becomes the expression it names (`SELECT
/// AVG(d) AS a … HAVING a > 1.5`, `SELECT 0.1 * 0 + 1 AS r … HAVING r = 1`), so that it is
/// typed as that expression is: an exact AVG, SUM or DECIMAL expression is DECIMAL text,
/// which SQLite would otherwise compare with a number as text. Not an alias that is also a
/// GROUP BY name (MySQL means the column there), nor one of an expression with a subquery,
/// a window function or a value that changes per call.
fn aggregate_aliases(h: &mut Expr, projection: &[SelectItem], group_by: &GroupByExpr) {
    // Not where a subquery could take the aggregate in (`k >= ALL (SELECT ..)` becomes one).
    if crate::ast_build::has_subquery(h) {
        return;
    }
    let grouped = |name: &str| {
        let names = |e: &Expr| match e {
            Expr::Identifier(i) => i.value.eq_ignore_ascii_case(name),
            Expr::CompoundIdentifier(ids) => ids
                .last()
                .is_some_and(|i| i.value.eq_ignore_ascii_case(name)),
            _ => false,
        };
        matches!(group_by, GroupByExpr::Expressions(g, _) if g.iter().any(names))
    };
    let named = |id: &Ident| {
        projection.iter().find_map(|item| match item {
            SelectItem::ExprWithAlias { expr, alias }
                if alias.value.eq_ignore_ascii_case(&id.value)
                    && !grouped(&id.value)
                    && replaceable(expr) =>
            {
                Some(nested(expr.clone()))
            }
            _ => None,
        })
    };
    // Inside an aggregate's arguments a name is a column (aggregates do not nest).
    struct Outside<F> {
        named: F,
        in_aggregate: usize,
    }
    impl<F: Fn(&Ident) -> Option<Expr>> VisitorMut for Outside<F> {
        type Break = ();
        fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
            if matches!(e, Expr::Function(f) if is_aggregate(f)) {
                self.in_aggregate += 1;
            }
            ControlFlow::Continue(())
        }
        // After the children: an expression put in is not visited again (`SELECT a + 1
        // AS a … HAVING a > 1` must not expand forever).
        fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
            match e {
                Expr::Function(f) if is_aggregate(f) => self.in_aggregate -= 1,
                Expr::Identifier(id) if self.in_aggregate == 0 => {
                    if let Some(expr) = (self.named)(id) {
                        *e = expr;
                    }
                }
                _ => {}
            }
            ControlFlow::Continue(())
        }
    }
    let _ = h.visit(&mut Outside {
        named,
        in_aggregate: 0,
    });
}

/// An expression HAVING may repeat for its alias (see [`aggregate_aliases`]).
fn replaceable(expr: &Expr) -> bool {
    const VOLATILE: [&str; 6] = ["rand", "uuid", "uuid_short", "sysdate", "sleep", "get_lock"];
    let unfit = |e: &Expr| match e {
        Expr::Function(f)
            if f.over.is_some()
                || VOLATILE
                    .iter()
                    .any(|v| f.name.to_string().eq_ignore_ascii_case(v)) =>
        {
            ControlFlow::Break(())
        }
        e if crate::ast_build::is_subquery(e) => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    };
    visit_expressions(expr, unfit).is_continue()
}

/// Whether `f` is an aggregate call (not a window function).
pub(crate) fn is_aggregate(f: &Function) -> bool {
    f.over.is_none() && is_aggregate_name(&f.name.to_string())
}

/// Whether `name` is one of MariaDB's aggregate functions (SQLite's have the same names).
pub(crate) fn is_aggregate_name(name: &str) -> bool {
    AGGREGATES
        .iter()
        .chain(&DEVIATIONS)
        .any(|a| name.eq_ignore_ascii_case(a))
}

fn has_aggregate(s: &Select) -> bool {
    visit_expressions(&s.projection, found_aggregate).is_break()
        || visit_expressions(&s.having, found_aggregate).is_break()
}

#[cfg(test)]
mod tests {
    use crate::tests::s as sql;

    #[test]
    fn having_without_aggregates_filters_rows() {
        let s = sql("SELECT a + 1 AS x FROM t WHERE id = 1 HAVING x > 1");
        assert!(!s.contains("HAVING"), "{s}");
        assert!(
            s.contains("WHERE (\"id\" = 1) AND ((tutti_int_op('+', \"a\", 1)) > 1)"),
            "{s}"
        );
        // the alias wins over the column of the same name, as in MySQL
        let s = sql("SELECT id AS a FROM t HAVING a > 1");
        assert!(s.contains("WHERE \"id\" > 1"), "{s}");
        let s = sql("SELECT a FROM t HAVING a > 2");
        assert!(!s.contains("HAVING") && s.contains("WHERE"), "{s}");
    }

    #[test]
    fn aggregate_queries_keep_having() {
        let s = sql("SELECT MAX(a) AS m FROM t HAVING m > 1");
        assert!(s.contains("HAVING MAX(\"a\") > 1"), "{s}");
        let s = sql("SELECT a FROM t GROUP BY a HAVING a > 1");
        assert!(s.contains("HAVING"), "{s}");
        let s = sql("SELECT ROW_NUMBER() OVER () AS r FROM t HAVING r > 1");
        assert!(s.contains("HAVING"), "{s}");
    }

    #[test]
    fn an_aggregate_in_order_by_or_having_makes_an_aggregate_query() {
        let s = sql("SELECT 1 FROM t ORDER BY COUNT(*)");
        assert!(s.contains("CASE WHEN count(1) >= 0 THEN 1 END"), "{s}");
        let s = sql("SELECT a AS x, b FROM t HAVING MIN(a) > 0");
        assert!(
            s.contains("CASE WHEN count(1) >= 0 THEN \"a\" END AS \"x\""),
            "{s}"
        );
        let s = sql("SELECT a FROM t GROUP BY a ORDER BY COUNT(*)");
        assert!(!s.contains("CASE"), "{s}");
        // An aggregate of a subquery, or a subquery's own ORDER BY: not this query's.
        let s = sql("SELECT a FROM t ORDER BY (SELECT SUM(b) FROM t)");
        assert!(!s.contains("CASE"), "{s}");
        let s = sql("SELECT a FROM t WHERE a IN (SELECT b FROM t ORDER BY SUM(a))");
        assert!(!s.contains("CASE"), "{s}");
    }
}
