//! `GROUP BY g1, .., gn WITH ROLLUP` (SQLite has no ROLLUP).
//!
//! The SELECT becomes one SELECT per grouping level, joined by UNION ALL: level k groups by
//! g1..gk, and in its select list and HAVING every rolled-up group expression (outside an
//! aggregate's arguments) is NULL, as in MariaDB's super-aggregate rows (`a + 1` of a
//! rolled-up `a` is NULL too; `SUM(a)` still sums). The grand total groups by a constant,
//! so an empty input gives no row at all, as in MariaDB. The levels are sorted the way
//! MariaDB returns them: by g1, the rows where g1 is rolled up after the others, then by g2,
//! and so on, through helper columns the outer SELECT does not return:
//!
//! `SELECT `a`, `SUM(c)` FROM (SELECT a AS `a`, SUM(c) AS `SUM(c)`, 0 AS tutti_r0, a AS
//! tutti_s0 .. GROUP BY a UNION ALL SELECT NULL, SUM(c), 1, NULL .. GROUP BY NULL) AS
//! tutti_rollup ORDER BY tutti_r0, tutti_s0`
//!
//! DISTINCT and LIMIT apply to the result, as in MariaDB; ORDER BY with ROLLUP is refused
//! with MariaDB's 1221; CUBE and GROUPING SETS are not supported.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Distinct, Expr, GroupByExpr, GroupByWithModifier, Ident, OrderBy, OrderByExpr, OrderByKind,
    OrderByOptions, Query, Select, SelectItem, SetExpr, SetOperator, SetQuantifier, TableAlias,
    TableFactor, Value, VisitMut, VisitorMut,
};

use crate::ast_build::{derived, null, number, query, select};
use crate::having::is_aggregate;
use crate::SqlError;

/// The derived table of the levels.
pub(crate) const ROLLUP: &str = "tutti_rollup";

/// True for a SELECT with `GROUP BY ... WITH ROLLUP`.
pub(crate) fn has_rollup(s: &Select) -> bool {
    matches!(&s.group_by, GroupByExpr::Expressions(_, m) if !m.is_empty())
}

/// A GROUP BY item: an expression, or a select item (named by position or alias).
enum Group<'a> {
    Expr(&'a Expr),
    Item(usize),
}

/// Rewrites `q`, whose body is a SELECT with ROLLUP, into the levels' UNION ALL. `names`
/// are the result columns' names; `is_column` tells whether a name is a column of the
/// SELECT's tables (GROUP BY prefers those to select-list aliases, as in MySQL).
pub(crate) fn expand(
    q: &mut Query,
    names: &[String],
    is_column: &dyn Fn(&str) -> bool,
) -> Result<(), SqlError> {
    let SetExpr::Select(s) = q.body.as_ref() else {
        return Ok(());
    };
    let GroupByExpr::Expressions(exprs, modifiers) = &s.group_by else {
        return Ok(());
    };
    if modifiers.as_slice() != [GroupByWithModifier::Rollup] {
        return Err(SqlError::Unsupported(format!(
            "GROUP BY ... {}",
            modifiers
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )));
    }
    if q.order_by.is_some() {
        return Err(SqlError::WrongUsage("CUBE/ROLLUP", "ORDER BY"));
    }
    let unique = names
        .iter()
        .enumerate()
        .all(|(i, n)| !names[..i].iter().any(|m| m.eq_ignore_ascii_case(n)));
    if !unique {
        return Err(SqlError::Unsupported(
            "WITH ROLLUP of result columns with the same name".into(),
        ));
    }
    let groups: Vec<Group> = exprs.iter().map(|g| group(g, s, is_column)).collect();
    let levels = (0..=groups.len())
        .rev()
        .map(|k| level(s, exprs, &groups, names, k))
        .reduce(|left, right| SetExpr::SetOperation {
            op: SetOperator::Union,
            set_quantifier: SetQuantifier::All,
            left: Box::new(left),
            right: Box::new(right),
        })
        .expect("at least the grand total");
    let projection = names
        .iter()
        .map(|n| SelectItem::ExprWithAlias {
            expr: Expr::Identifier(Ident::with_quote('`', n)),
            alias: Ident::with_quote('`', n),
        })
        .collect();
    let mut levels = derived(query(levels));
    if let TableFactor::Derived { alias, .. } = &mut levels.relation {
        *alias = Some(TableAlias {
            explicit: true,
            name: Ident::new(ROLLUP),
            columns: vec![],
            at: None,
        });
    }
    let mut outer = select(projection, vec![levels], None);
    outer.distinct = s
        .distinct
        .clone()
        .filter(|d| matches!(d, Distinct::Distinct));
    let order = groups
        .iter()
        .enumerate()
        .flat_map(|(j, g)| {
            let key = match g {
                Group::Item(i) => Expr::Identifier(Ident::with_quote('`', &names[*i])),
                Group::Expr(_) => Expr::Identifier(Ident::new(format!("tutti_s{j}"))),
            };
            [Expr::Identifier(Ident::new(format!("tutti_r{j}"))), key]
        })
        .map(|expr| OrderByExpr {
            expr,
            options: OrderByOptions {
                sort: None,
                nulls_first: None,
            },
            with_fill: None,
        })
        .collect();
    *q.body = SetExpr::Select(Box::new(outer));
    q.order_by = Some(OrderBy {
        kind: OrderByKind::Expressions(order),
        interpolate: None,
    });
    Ok(())
}

/// The first (fully grouped) level of the levels' UNION ALL.
pub(crate) fn first_level(levels: &SetExpr) -> Option<&Select> {
    match levels {
        SetExpr::Select(s) => Some(s),
        SetExpr::SetOperation { left, .. } => first_level(left),
        _ => None,
    }
}

/// What GROUP BY item `g` names.
fn group<'a>(g: &'a Expr, s: &Select, is_column: &dyn Fn(&str) -> bool) -> Group<'a> {
    match g {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => match n.parse::<usize>() {
                Ok(i) if i >= 1 && i <= s.projection.len() => Group::Item(i - 1),
                _ => Group::Expr(g),
            },
            _ => Group::Expr(g),
        },
        Expr::Identifier(id) if !is_column(&id.value) => s
            .projection
            .iter()
            .position(|item| {
                matches!(item, SelectItem::ExprWithAlias { alias, .. }
                    if alias.value.eq_ignore_ascii_case(&id.value))
            })
            .map_or_else(|| Group::Expr(g), Group::Item),
        _ => Group::Expr(g),
    }
}

/// The SELECT of grouping level `k` (grouped by the first `k` GROUP BY items).
fn level(s: &Select, exprs: &[Expr], groups: &[Group], names: &[String], k: usize) -> SetExpr {
    let rolled: Vec<&Expr> = groups[k..]
        .iter()
        .filter_map(|g| match g {
            Group::Expr(e) => Some(*e),
            Group::Item(_) => None,
        })
        .collect();
    let rolled_items: Vec<usize> = groups[k..]
        .iter()
        .filter_map(|g| match g {
            Group::Item(i) => Some(*i),
            Group::Expr(_) => None,
        })
        .collect();
    let mut l = s.clone();
    l.distinct = None;
    l.projection = s
        .projection
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let expr = match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => e,
                _ => unreachable!("checked: no wildcards"),
            };
            let expr = if rolled_items.contains(&i) {
                null()
            } else {
                nulled(expr.clone(), &rolled)
            };
            SelectItem::ExprWithAlias {
                expr,
                alias: Ident::with_quote('`', &names[i]),
            }
        })
        .collect();
    for (j, g) in groups.iter().enumerate() {
        let up = j >= k;
        l.projection.push(SelectItem::ExprWithAlias {
            expr: number(if up { "1" } else { "0" }),
            alias: Ident::new(format!("tutti_r{j}")),
        });
        if let Group::Expr(e) = g {
            l.projection.push(SelectItem::ExprWithAlias {
                expr: if up { null() } else { (*e).clone() },
                alias: Ident::new(format!("tutti_s{j}")),
            });
        }
    }
    l.having = l.having.map(|h| nulled(h, &rolled));
    let kept = if k == 0 {
        vec![null()]
    } else {
        exprs[..k].to_vec()
    };
    l.group_by = GroupByExpr::Expressions(kept, vec![]);
    SetExpr::Select(Box::new(l))
}

/// `e` with every rolled-up group expression outside aggregate arguments made NULL.
fn nulled(mut e: Expr, rolled: &[&Expr]) -> Expr {
    struct Nulls<'a> {
        rolled: &'a [&'a Expr],
        in_aggregate: usize,
    }
    impl VisitorMut for Nulls<'_> {
        type Break = ();
        fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
            match e {
                Expr::Function(f) if is_aggregate(f) => self.in_aggregate += 1,
                _ if self.in_aggregate == 0 && self.rolled.iter().any(|g| same(g, e)) => {
                    *e = null()
                }
                _ => {}
            }
            ControlFlow::Continue(())
        }
        fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
            if matches!(e, Expr::Function(f) if is_aggregate(f)) {
                self.in_aggregate -= 1;
            }
            ControlFlow::Continue(())
        }
    }
    let _ = e.visit(&mut Nulls {
        rolled,
        in_aggregate: 0,
    });
    e
}

/// The same expression, a column named with or without its table alike.
fn same(g: &Expr, e: &Expr) -> bool {
    fn column(e: &Expr) -> Option<(Option<&str>, &str)> {
        match e {
            Expr::Identifier(i) => Some((None, &i.value)),
            Expr::CompoundIdentifier(ids) if ids.len() >= 2 => {
                Some((Some(&ids[ids.len() - 2].value), &ids[ids.len() - 1].value))
            }
            Expr::Nested(inner) => column(inner),
            _ => None,
        }
    }
    match (column(g), column(e)) {
        (Some((tg, cg)), Some((te, ce))) => {
            cg.eq_ignore_ascii_case(ce)
                && match (tg, te) {
                    (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                    _ => true,
                }
        }
        _ => g == e,
    }
}
