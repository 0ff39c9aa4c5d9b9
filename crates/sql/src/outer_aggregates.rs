//! Aggregates of an enclosing query written inside a subquery's WHERE or ON.
//!
//! MySQL computes an aggregate whose columns all belong to an enclosing query in that
//! query, for each of its groups: in
//!
//! ```sql
//! SELECT a, (SELECT t.c FROM t1 AS t WHERE t.b = MAX(t1.b)) FROM t1 GROUP BY a
//! ```
//!
//! `MAX(t1.b)` is the largest `b` of the outer group. SQLite does the same for an aggregate
//! in a subquery's select list, but refuses one in its WHERE or ON ("misuse of aggregate",
//! which tutti reported as 1111). There the aggregate becomes a subquery of its own,
//! `(SELECT MAX(t1.b))`, whose select list SQLite accepts and aggregates in the outer
//! query. An aggregate without columns (`COUNT(*)`) is left alone: alone in a FROM-less
//! SELECT it would count that SELECT's one row.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Function, JoinConstraint, Query, Select, SelectItem, SetExpr, Visit, Visitor,
};

use crate::ast_build::{query, select};
use crate::own_level::visit_own_level_mut;
use crate::typing::{Scope, Scopes};

/// Rewrites the aggregates of enclosing queries in `s`'s WHERE and ON conditions (see the
/// module doc); `scopes` ends with `s`'s own tables.
pub(crate) fn hoist(s: &mut Select, scopes: &Scopes) {
    let Some((current, outer)) = scopes.split_last() else {
        return;
    };
    if outer.is_empty() {
        return;
    }
    let hoister = Hoister { current, outer };
    let mut hoist = |e: &mut Expr| {
        let Expr::Function(f) = e else { return };
        if crate::having::is_aggregate(f) && hoister.of_outer_query(f) {
            let agg = std::mem::replace(e, crate::ast_build::null());
            let body = select(vec![SelectItem::UnnamedExpr(agg)], vec![], None);
            *e = Expr::Subquery(Box::new(query(SetExpr::Select(Box::new(body)))));
        }
    };
    if let Some(w) = &mut s.selection {
        visit_own_level_mut(w, &mut hoist);
    }
    for twj in &mut s.from {
        for j in &mut twj.joins {
            if let Some(JoinConstraint::On(on)) =
                crate::natural::constraint_mut(&mut j.join_operator)
            {
                visit_own_level_mut(on, &mut hoist);
            }
        }
    }
}

struct Hoister<'a> {
    current: &'a [Scope],
    outer: &'a [Vec<Scope>],
}

impl Hoister<'_> {
    /// Whether all of `f`'s columns (one at least, and no subquery) belong to an enclosing
    /// query rather than to this one.
    fn of_outer_query(&self, f: &Function) -> bool {
        let mut columns = Vec::new();
        let nested = f.visit(&mut Columns(&mut columns)).is_break();
        !nested && !columns.is_empty() && columns.iter().all(|c| self.outer_column(c))
    }

    fn outer_column(&self, e: &Expr) -> bool {
        let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
        match e {
            Expr::Identifier(name) => {
                let has = |s: &Scope| s.table.columns.iter().any(|c| same(&c.name, &name.value));
                !self.current.iter().any(has) && self.outer.iter().flatten().any(has)
            }
            Expr::CompoundIdentifier(ids) if ids.len() >= 2 => {
                let table = &ids[ids.len() - 2].value;
                let has = |s: &Scope| same(&s.alias, table);
                !self.current.iter().any(has) && self.outer.iter().flatten().any(has)
            }
            _ => false,
        }
    }
}

/// Collects column references; breaks at a subquery.
struct Columns<'a>(&'a mut Vec<Expr>);

impl Visitor for Columns<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
        if matches!(e, Expr::Identifier(_) | Expr::CompoundIdentifier(_)) {
            self.0.push(e.clone());
        }
        ControlFlow::Continue(())
    }
}
