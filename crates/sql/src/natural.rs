//! `SELECT *` over `NATURAL` and `USING` joins, in MySQL's column order.
//!
//! MySQL shows a join's common columns once and first — in the order of the first table,
//! taken from the first table (from the second for a `RIGHT JOIN`, which MySQL runs as the
//! mirrored `LEFT JOIN`) — then the other columns of the first table, then those of the
//! second. SQLite keeps the first table's columns in place and drops the second's
//! duplicates, and for a `RIGHT JOIN` shows the first table's (NULL) copy. So the `*` becomes
//! the explicit list, each column qualified by its table. Plain tables, nested joins of
//! them and derived tables whose SELECT names its columns (or `*` over such a FROM) are
//! expanded; anything else in the join leaves the `*` as it is.

use sqlparser::ast::{
    Expr, Ident, JoinConstraint, JoinOperator, ObjectName, Query, SelectItem, SetExpr, TableFactor,
    TableWithJoins,
};

use crate::types::INVISIBLE_KEY;

/// A table's alias (or name) and its columns, by its name and alias in the query; None
/// when it is not a known table.
pub(crate) type TableColumns<'a> =
    dyn Fn(&ObjectName, Option<&str>) -> Option<(String, Vec<String>)> + 'a;

/// A column of a join's result: the table (alias) it is read from, and its name.
#[derive(Clone, Debug)]
struct Column {
    table: String,
    name: String,
}

impl Column {
    fn same_name(&self, other: &str) -> bool {
        self.name.eq_ignore_ascii_case(other)
    }
}

/// Replaces an unqualified `*` by the join's columns when a `NATURAL` or `USING` join
/// merges columns. `columns` gives a table's alias and columns (None when unknown).
pub(crate) fn expand_star(
    projection: &mut Vec<SelectItem>,
    from: &[TableWithJoins],
    columns: &TableColumns<'_>,
) {
    let star = |i: &SelectItem| matches!(i, SelectItem::Wildcard(_));
    if !projection.iter().any(star) || !from.iter().any(merges) {
        return;
    }
    let mut all = Vec::new();
    for twj in from {
        match joined(twj, columns) {
            Some(cols) => all.extend(cols),
            None => return,
        }
    }
    let items = all.into_iter().map(|c| SelectItem::ExprWithAlias {
        expr: Expr::CompoundIdentifier(vec![Ident::new(c.table), Ident::new(c.name.clone())]),
        alias: Ident::new(c.name),
    });
    let at = projection.iter().position(star).expect("a star");
    projection.splice(at..=at, items);
}

/// Whether a FROM item has a join that merges columns (at any depth).
fn merges(twj: &TableWithJoins) -> bool {
    any_join(twj, &|op| {
        matches!(
            constraint(op),
            Some(JoinConstraint::Natural | JoinConstraint::Using(_))
        )
    })
}

/// Whether a FROM item has a join (at any depth) whose operator passes `test`.
pub(crate) fn any_join(twj: &TableWithJoins, test: &dyn Fn(&JoinOperator) -> bool) -> bool {
    let nested = |tf: &TableFactor| matches!(tf, TableFactor::NestedJoin { table_with_joins, .. } if any_join(table_with_joins, test));
    nested(&twj.relation)
        || twj
            .joins
            .iter()
            .any(|j| nested(&j.relation) || test(&j.join_operator))
}

/// A join's constraint, and None for operators without one (APPLY, ASOF, ...).
pub(crate) fn constraint(op: &JoinOperator) -> Option<&JoinConstraint> {
    match op {
        JoinOperator::Join(c)
        | JoinOperator::Inner(c)
        | JoinOperator::Left(c)
        | JoinOperator::LeftOuter(c)
        | JoinOperator::Right(c)
        | JoinOperator::RightOuter(c)
        | JoinOperator::CrossJoin(c)
        | JoinOperator::StraightJoin(c) => Some(c),
        _ => None,
    }
}

/// A join's constraint, to change it (also FULL OUTER's, which the rewriter passes on).
pub(crate) fn constraint_mut(op: &mut JoinOperator) -> Option<&mut JoinConstraint> {
    match op {
        JoinOperator::Join(c)
        | JoinOperator::Inner(c)
        | JoinOperator::Left(c)
        | JoinOperator::LeftOuter(c)
        | JoinOperator::Right(c)
        | JoinOperator::RightOuter(c)
        | JoinOperator::FullOuter(c)
        | JoinOperator::CrossJoin(c)
        | JoinOperator::StraightJoin(c) => Some(c),
        _ => None,
    }
}

/// The columns of a FROM item, joins applied left to right.
fn joined(twj: &TableWithJoins, columns: &TableColumns) -> Option<Vec<Column>> {
    let mut left = factor(&twj.relation, columns)?;
    for j in &twj.joins {
        let right = factor(&j.relation, columns)?;
        let right_join = matches!(
            j.join_operator,
            JoinOperator::Right(_) | JoinOperator::RightOuter(_)
        );
        let constraint = constraint(&j.join_operator)?;
        let merging = matches!(
            constraint,
            JoinConstraint::Natural | JoinConstraint::Using(_)
        );
        // MySQL runs a RIGHT JOIN as the mirrored LEFT JOIN; only merged columns show it.
        let (first, second) = if right_join && merging {
            (right, left)
        } else {
            (left, right)
        };
        // The common columns, in the order of the (mirrored) first table.
        let common: Vec<String> = match constraint {
            JoinConstraint::Natural => first
                .iter()
                .filter(|l| second.iter().any(|r| r.same_name(&l.name)))
                .map(|l| l.name.clone())
                .collect(),
            JoinConstraint::Using(names) => {
                let named = |c: &Column| {
                    names.iter().any(|n| {
                        n.0.last()
                            .and_then(|p| p.as_ident())
                            .is_some_and(|i| c.same_name(&i.value))
                    })
                };
                first
                    .iter()
                    .filter(|c| named(c))
                    .map(|c| c.name.clone())
                    .collect()
            }
            _ => Vec::new(),
        };
        let (first, second) = if right_join && merging && common.is_empty() {
            (second, first)
        } else {
            (first, second)
        };
        let shared = |c: &Column| common.iter().any(|n| c.same_name(n));
        let mut out: Vec<Column> = Vec::with_capacity(first.len() + second.len());
        for name in &common {
            out.push(first.iter().find(|c| c.same_name(name))?.clone());
        }
        out.extend(first.iter().filter(|c| !shared(c)).cloned());
        out.extend(second.iter().filter(|c| !shared(c)).cloned());
        left = out;
    }
    Some(left)
}

/// The columns of one table factor: a table, or a nested join without alias.
fn factor(tf: &TableFactor, columns: &TableColumns) -> Option<Vec<Column>> {
    match tf {
        TableFactor::Table { name, alias, .. } => {
            let (table, names) = columns(name, alias.as_ref().map(|a| a.name.value.as_str()))?;
            Some(
                names
                    .into_iter()
                    .filter(|n| n != INVISIBLE_KEY)
                    .map(|name| Column {
                        table: table.clone(),
                        name,
                    })
                    .collect(),
            )
        }
        TableFactor::NestedJoin {
            table_with_joins,
            alias: None,
        } => joined(table_with_joins, columns),
        TableFactor::Derived {
            subquery,
            alias: Some(alias),
            ..
        } => {
            let names: Vec<String> = if alias.columns.is_empty() {
                derived_names(subquery, columns)?
            } else {
                alias.columns.iter().map(|c| c.name.value.clone()).collect()
            };
            Some(
                names
                    .into_iter()
                    .map(|name| Column {
                        table: alias.name.value.clone(),
                        name,
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The column names of a derived table's plain SELECT: its aliases and columns, a `*`
/// expanded over its own FROM (a merging join's columns in MySQL's order too). None for
/// anything else (a UNION, `t.*`, an unnamed expression).
fn derived_names(q: &Query, columns: &TableColumns) -> Option<Vec<String>> {
    let SetExpr::Select(s) = &*q.body else {
        return None;
    };
    let mut names = Vec::new();
    for item in &s.projection {
        match item {
            SelectItem::ExprWithAlias { alias, .. } => names.push(alias.value.clone()),
            SelectItem::UnnamedExpr(Expr::Identifier(i)) => names.push(i.value.clone()),
            SelectItem::UnnamedExpr(Expr::CompoundIdentifier(parts)) => {
                names.push(parts.last()?.value.clone())
            }
            SelectItem::Wildcard(_) => {
                for twj in &s.from {
                    names.extend(joined(twj, columns)?.into_iter().map(|c| c.name));
                }
            }
            _ => return None,
        }
    }
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::ast::{SetExpr, Statement};
    use sqlparser::dialect::MySqlDialect;
    use sqlparser::parser::Parser;

    fn expanded(sql: &str) -> String {
        let mut stmts = Parser::parse_sql(&MySqlDialect {}, sql).unwrap();
        let Statement::Query(q) = &mut stmts[0] else {
            panic!()
        };
        let SetExpr::Select(s) = q.body.as_mut() else {
            panic!()
        };
        let columns = |name: &ObjectName, alias: Option<&str>| {
            let t = name.to_string();
            let cols = match t.as_str() {
                "t1" => vec!["a", "b", "c"],
                "t2" => vec!["b", "c", "d"],
                "t3" => vec!["d", "e"],
                _ => return None,
            };
            let cols = cols.into_iter().map(String::from).collect();
            Some((alias.unwrap_or(&t).to_string(), cols))
        };
        expand_star(&mut s.projection, &s.from, &columns);
        s.projection
            .iter()
            .map(|i| match i {
                SelectItem::ExprWithAlias { expr, .. } => expr.to_string(),
                i => i.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn common_columns_first_from_the_first_table() {
        assert_eq!(
            expanded("SELECT * FROM t2 NATURAL JOIN t1"),
            "t2.b, t2.c, t2.d, t1.a"
        );
        assert_eq!(
            expanded("SELECT * FROM t1 JOIN t2 USING (c)"),
            "t1.c, t1.a, t1.b, t2.b, t2.d"
        );
        assert_eq!(
            expanded("SELECT * FROM t1 NATURAL RIGHT JOIN t2 AS x"),
            "x.b, x.c, x.d, t1.a"
        );
        assert_eq!(
            expanded("SELECT *, 1 FROM (t1 NATURAL JOIN t2) NATURAL LEFT JOIN t3"),
            "t2.d, t1.b, t1.c, t1.a, t3.e, 1"
        );
    }

    #[test]
    fn other_stars_are_left_alone() {
        assert_eq!(expanded("SELECT * FROM t1 JOIN t2 ON t1.a = t2.b"), "*");
        assert_eq!(
            expanded("SELECT * FROM t3 RIGHT JOIN (t1 JOIN t2 USING (c)) ON t3.d > 1"),
            "t3.d, t3.e, t1.c, t1.a, t1.b, t2.b, t2.d"
        );
        assert_eq!(expanded("SELECT t1.* FROM t1 NATURAL JOIN t2"), "t1.*");
        assert_eq!(
            expanded("SELECT * FROM t1 NATURAL JOIN (SELECT 1) AS d"),
            "*"
        );
    }
}
