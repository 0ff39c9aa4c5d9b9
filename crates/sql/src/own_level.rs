//! Visiting the expressions of one query level: a rewrite that decides by the columns in
//! reach must leave subqueries, which have columns of their own, alone.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Query, VisitMut, VisitorMut};

/// Calls `f` on each expression of `node` outside its subqueries, children first.
pub(crate) fn visit_own_level_mut<N: VisitMut>(node: &mut N, f: impl FnMut(&mut Expr)) {
    let _ = node.visit(&mut OwnLevel { depth: 0, f });
}

struct OwnLevel<F> {
    /// Subqueries entered.
    depth: usize,
    f: F,
}

impl<F: FnMut(&mut Expr)> VisitorMut for OwnLevel<F> {
    type Break = ();

    fn pre_visit_query(&mut self, _: &mut Query) -> ControlFlow<()> {
        self.depth += 1;
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &mut Query) -> ControlFlow<()> {
        self.depth -= 1;
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if self.depth == 0 {
            (self.f)(e);
        }
        ControlFlow::Continue(())
    }
}
