//! Correlated subqueries in the select list of an aggregate over no rows.
//!
//! An aggregate query without GROUP BY gives one row even when no row qualifies: its
//! aggregates take their empty values (`COUNT` 0, `MAX` NULL). MariaDB gives a select-list
//! subquery that reads a column of that query NULL then (`Item_subselect::
//! no_rows_in_result`): in
//!
//! ```sql
//! SELECT MAX(b), (SELECT COUNT(*) FROM t2 WHERE t2.c <= t1.b) FROM t1 WHERE a = 230
//! ```
//!
//! the second column is NULL when no `a` is 230, where SQLite runs the subquery with
//! `t1.b` NULL and counts 0. Such a subquery becomes `CASE WHEN COUNT(1) = 0 THEN NULL ELSE
//! (subquery) END`. A subquery that reads none of the query's columns keeps its value
//! (`(SELECT 5)` stays 5), and so does one inside an aggregate's argument, which is
//! computed per row.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Expr, GroupByExpr, Query, Select, SelectItem, SetExpr, TableWithJoins, Visit,
    VisitMut, Visitor, VisitorMut,
};

use crate::ast_build::{binop, case_when, func, nested, null, number};
use crate::having::is_aggregate;
use crate::typing::{Scope, Scopes};

/// Makes `s`'s correlated select-list subqueries NULL over no rows (see the module doc);
/// `scopes` ends with `s`'s tables, `scope_of` gives a FROM clause's tables.
pub(crate) fn null_over_no_rows(
    s: &mut Select,
    scopes: &Scopes,
    scope_of: &dyn Fn(&[TableWithJoins]) -> Vec<Scope>,
) {
    let Some(current) = scopes.last().filter(|c| !c.is_empty()) else {
        return;
    };
    if !implicitly_grouped(s) {
        return;
    }
    for item in &mut s.projection {
        if let SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } = item {
            let _ = e.visit(&mut Guard {
                current,
                scope_of,
                aggregates: 0,
                queries: 0,
            });
        }
    }
}

/// No GROUP BY, and an aggregate of its own in the select list or HAVING.
fn implicitly_grouped(s: &Select) -> bool {
    if !matches!(&s.group_by, GroupByExpr::Expressions(g, _) if g.is_empty()) {
        return false;
    }
    crate::having::direct_aggregate(&s.projection) || crate::having::direct_aggregate(&s.having)
}

/// Wraps the correlated scalar subqueries of one select-list item.
struct Guard<'a> {
    current: &'a [Scope],
    scope_of: &'a dyn Fn(&[TableWithJoins]) -> Vec<Scope>,
    /// Aggregate calls entered.
    aggregates: usize,
    /// Subqueries entered.
    queries: usize,
}

impl VisitorMut for Guard<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, _: &mut Query) -> ControlFlow<()> {
        self.queries += 1;
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &mut Query) -> ControlFlow<()> {
        self.queries -= 1;
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if matches!(e, Expr::Function(f) if is_aggregate(f)) {
            self.aggregates += 1;
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Function(f) if is_aggregate(f) => self.aggregates -= 1,
            Expr::Subquery(q)
                if self.queries == 0
                    && self.aggregates == 0
                    && reads(q, self.current, self.scope_of) =>
            {
                let subquery = std::mem::replace(e, null());
                let count = func("COUNT", vec![number("1")]);
                let empty = binop(count, BinaryOperator::Eq, number("0"));
                *e = nested(case_when(empty, null(), subquery));
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

/// Whether `q` reads a column of the tables `current` (a name its own tables lack).
fn reads(q: &Query, current: &[Scope], scope_of: &dyn Fn(&[TableWithJoins]) -> Vec<Scope>) -> bool {
    let mut refs = OuterRefs {
        current,
        scope_of,
        inner: Vec::new(),
    };
    q.visit(&mut refs).is_break()
}

/// Breaks at a column of `current` that no table of the subqueries entered shadows.
struct OuterRefs<'a> {
    current: &'a [Scope],
    scope_of: &'a dyn Fn(&[TableWithJoins]) -> Vec<Scope>,
    /// The tables of the subqueries entered, and whether all of them are known.
    inner: Vec<(Vec<Scope>, bool)>,
}

impl OuterRefs<'_> {
    fn inner(&self) -> impl Iterator<Item = &Scope> {
        self.inner.iter().flat_map(|(tables, _)| tables)
    }

    fn outer_column(&self, e: &Expr) -> bool {
        let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
        match e {
            Expr::Identifier(name) => {
                let has = |s: &Scope| s.table.columns.iter().any(|c| same(&c.name, &name.value));
                let known = self.inner.iter().all(|(_, complete)| *complete);
                known && !self.inner().any(has) && self.current.iter().any(has)
            }
            Expr::CompoundIdentifier(ids) if ids.len() >= 2 => {
                let table = &ids[ids.len() - 2].value;
                let has = |s: &Scope| same(&s.alias, table);
                !self.inner().any(has) && self.current.iter().any(has)
            }
            _ => false,
        }
    }
}

impl Visitor for OuterRefs<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, q: &Query) -> ControlFlow<()> {
        let entry = match q.body.as_ref() {
            SetExpr::Select(s) => crate::alias_refs::query_tables(&s.from, self.scope_of),
            _ => (Vec::new(), false),
        };
        self.inner.push(entry);
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        self.inner.pop();
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
        if self.outer_column(e) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::s as sql;

    #[test]
    fn correlated_select_list_subqueries_are_null_over_no_rows() {
        let s = sql("SELECT MAX(a), (SELECT COUNT(*) FROM u WHERE u.a <= t.a) FROM t WHERE id = 5");
        assert!(s.contains("CASE WHEN COUNT(1) = 0 THEN NULL ELSE"), "{s}");
        // not correlated, inside an aggregate, or no aggregate query: unchanged
        for q in [
            "SELECT MAX(a), (SELECT COUNT(*) FROM u) FROM t",
            "SELECT MAX((SELECT u.a FROM u WHERE u.a = t.a LIMIT 1)) FROM t",
            "SELECT a, (SELECT COUNT(*) FROM u WHERE u.a <= t.a) FROM t",
            "SELECT MAX(a), (SELECT COUNT(*) FROM u WHERE u.a <= t.a) FROM t GROUP BY id",
            "SELECT MAX(a), (SELECT COUNT(*) FROM t AS t WHERE t.a > 1) FROM t",
        ] {
            let s = sql(q);
            assert!(!s.contains("CASE WHEN COUNT(1) = 0"), "{q}: {s}");
        }
    }
}
