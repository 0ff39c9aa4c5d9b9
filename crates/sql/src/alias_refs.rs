//! Select-list aliases named inside the select list's subqueries.
//!
//! MySQL resolves a name inside a subquery of the select list that is no column of any
//! table in reach to an alias of the enclosing select list: in
//!
//! ```sql
//! SELECT b AS c, (SELECT x FROM t2 WHERE y = c) FROM t1
//! ```
//!
//! `c` is the outer row's `b`. SQLite knows no aliases there ("no such column"), so the
//! name becomes the aliased expression, in parentheses, unless a column that expression
//! reads would mean another table's inside the subquery (`SELECT b AS c, (SELECT a FROM t1
//! WHERE b = c) FROM t1`: the inner `b` is the inner t1's, and SQLite cannot name the outer
//! one there, so that stays refused). Items are done in order, so an alias of an item that
//! itself named one (`SELECT 1 AS a, (SELECT a + a) AS b, (SELECT b)`) carries the
//! expression already written out.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Query, Select, SelectItem, SetExpr, TableWithJoins, Visit, VisitMut, Visitor, VisitorMut,
};

use crate::ast_build::nested;
use crate::typing::{Scope, Scopes};

/// Writes out the aliases `s`'s select-list subqueries name (see the module doc); `scopes`
/// ends with `s`'s tables, `scope_of` gives a FROM clause's tables.
pub(crate) fn resolve(
    s: &mut Select,
    scopes: &Scopes,
    scope_of: &dyn Fn(&[TableWithJoins]) -> Vec<Scope>,
) {
    let mut aliases: Vec<(String, Expr)> = Vec::new();
    for item in &mut s.projection {
        let (e, alias) = match item {
            SelectItem::ExprWithAlias { expr, alias } => (expr, Some(alias.value.clone())),
            SelectItem::UnnamedExpr(expr) => (expr, None),
            _ => continue,
        };
        if !aliases.is_empty() {
            let mut names = AliasNames {
                aliases: &aliases,
                scopes,
                inner: Vec::new(),
                scope_of,
            };
            let _ = e.visit(&mut names);
        }
        if let Some(a) = alias {
            aliases.push((a, e.clone()));
        }
    }
}

struct AliasNames<'a> {
    aliases: &'a [(String, Expr)],
    scopes: &'a Scopes,
    /// The tables of the subqueries entered, innermost last, and whether all their
    /// columns are known (a table that is not known could have the name).
    inner: Vec<(Vec<Scope>, bool)>,
    scope_of: &'a dyn Fn(&[TableWithJoins]) -> Vec<Scope>,
}

impl AliasNames<'_> {
    /// Whether some table in reach has a column `name`.
    fn is_column(&self, name: &str) -> bool {
        let inner = self.inner.iter().map(|(tables, _)| tables);
        self.scopes
            .iter()
            .chain(inner)
            .flatten()
            .flat_map(|s| &s.table.columns)
            .any(|c| c.name.eq_ignore_ascii_case(name))
    }
}

impl AliasNames<'_> {
    /// Whether a column the aliased expression reads would be another table's inside the
    /// subqueries entered (see the module doc).
    fn shadowed(&self, x: &Expr) -> bool {
        let inner = || self.inner.iter().flat_map(|(tables, _)| tables);
        let mut shadowed = false;
        let _ = x.visit(&mut ColumnRefs(&mut |e: &Expr| {
            shadowed |= match e {
                Expr::Identifier(c) => inner()
                    .flat_map(|s| &s.table.columns)
                    .any(|col| col.name.eq_ignore_ascii_case(&c.value)),
                Expr::CompoundIdentifier(ids) if ids.len() >= 2 => {
                    let table = &ids[ids.len() - 2].value;
                    inner().any(|s| s.alias.eq_ignore_ascii_case(table))
                }
                _ => false,
            };
        }));
        shadowed
    }
}

/// The tables of a FROM clause, and whether all of them are known (a derived table without
/// an alias, say, is not: it could have any column).
pub(crate) fn query_tables(
    from: &[TableWithJoins],
    scope_of: &dyn Fn(&[TableWithJoins]) -> Vec<Scope>,
) -> (Vec<Scope>, bool) {
    let tables = scope_of(from);
    let factors: usize = from.iter().map(|t| 1 + t.joins.len()).sum();
    let complete = tables.len() >= factors;
    (tables, complete)
}

/// Calls its function on every column reference.
struct ColumnRefs<'a>(&'a mut dyn FnMut(&Expr));

impl Visitor for ColumnRefs<'_> {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
        if matches!(e, Expr::Identifier(_) | Expr::CompoundIdentifier(_)) {
            (self.0)(e);
        }
        ControlFlow::Continue(())
    }
}

impl VisitorMut for AliasNames<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        let tables = match q.body.as_ref() {
            SetExpr::Select(s) => query_tables(&s.from, self.scope_of),
            _ => (Vec::new(), true),
        };
        self.inner.push(tables);
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &mut Query) -> ControlFlow<()> {
        self.inner.pop();
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Identifier(name) = e else {
            return ControlFlow::Continue(());
        };
        let known = self.inner.iter().all(|(_, complete)| *complete);
        if self.inner.is_empty() || !known || self.is_column(&name.value) {
            return ControlFlow::Continue(());
        }
        let aliased = self
            .aliases
            .iter()
            .rev()
            .find(|(a, _)| a.eq_ignore_ascii_case(&name.value));
        if let Some((_, x)) = aliased.filter(|(_, x)| !self.shadowed(x)) {
            *e = nested(x.clone());
        }
        ControlFlow::Continue(())
    }
}
