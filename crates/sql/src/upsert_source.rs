//! `INSERT … SELECT … ON DUPLICATE KEY UPDATE` reading the SELECT's row (`b = s.b + 1`).
//!
//! MariaDB resolves a name in the UPDATE against the target table and the SELECT's tables;
//! SQLite's `DO UPDATE` sees only the target row and `excluded`, the row as it would have
//! been inserted. A SELECT column inserted as it is (a bare column, or one of a `*`) into a
//! column of the same declared type holds the same value as that column of `excluded`, so
//! a reference to it becomes `excluded."c"`. Every other reference to the SELECT's tables —
//! a column not selected, one the insert converts to another type or inserts into an
//! AUTO_INCREMENT column, one inside a subquery — stays as it is and is refused (1054)
//! rather than read as another value.

use sqlparser::ast::{
    visit_expressions_mut, Expr, Ident, Insert, SelectItem, SetExpr, TableFactor,
};

use crate::ast_build::{has_subquery, qualified};
use crate::names::resolve;
use crate::{Env, TableInfo};

/// The SELECT columns an upsert's UPDATE may read, each with the target column it fills.
#[derive(Default)]
pub(crate) struct SourceColumns {
    columns: Vec<SourceColumn>,
    /// The target table's name or alias as the statement writes it.
    target: String,
}

struct SourceColumn {
    /// The FROM table's alias, or its name.
    qualifier: String,
    column: String,
    /// The target column it is inserted into.
    target: String,
    /// No other table of the FROM has a column of this name.
    unique_name: bool,
}

/// One table of the SELECT's FROM.
struct FromTable {
    qualifier: String,
    info: TableInfo,
}

impl SourceColumns {
    /// For an INSERT whose source is a single SELECT (`columns`: the statement's column
    /// list, empty for all of the table's in order).
    pub(crate) fn of(env: &dyn Env, ins: &Insert, columns: &[Ident], table: &TableInfo) -> Self {
        let target = ins
            .table_alias
            .as_ref()
            .map(|a| a.alias.value.clone())
            .unwrap_or_else(|| table.name.table.clone());
        let mut out = SourceColumns {
            columns: vec![],
            target,
        };
        let Some(SetExpr::Select(select)) = ins.source.as_ref().map(|s| s.body.as_ref()) else {
            return out;
        };
        let from: Vec<FromTable> = select
            .from
            .iter()
            .flat_map(|t| std::iter::once(&t.relation).chain(t.joins.iter().map(|j| &j.relation)))
            .filter_map(|f| from_table(env, f))
            .collect();
        let targets: Vec<String> = if columns.is_empty() {
            table.columns.iter().map(|c| c.name.clone()).collect()
        } else {
            columns.iter().map(|c| c.value.clone()).collect()
        };
        let mut selected: Vec<Option<(usize, String)>> = vec![];
        for item in &select.projection {
            match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    selected.push(column_of(e, &from));
                }
                SelectItem::Wildcard(_) => {
                    for (i, t) in from.iter().enumerate() {
                        selected.extend(t.info.columns.iter().map(|c| Some((i, c.name.clone()))));
                    }
                }
                _ => return out,
            }
        }
        for (source, target) in selected.into_iter().zip(targets) {
            let Some((i, column)) = source else {
                continue;
            };
            // An AUTO_INCREMENT column's `excluded` value is the id a 0 or NULL would get.
            if table
                .autoinc
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(&target))
            {
                continue;
            }
            let same_type = match (declared(&from[i].info, &column), declared(table, &target)) {
                (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                _ => false,
            };
            if same_type {
                let unique_name = from.iter().filter(|t| has(&t.info, &column)).count() == 1;
                out.columns.push(SourceColumn {
                    qualifier: from[i].qualifier.clone(),
                    column,
                    target,
                    unique_name,
                });
            }
        }
        out
    }

    /// Rewrites the references to the SELECT's columns in an UPDATE value (`table`: the
    /// target, whose own columns a bare name means first); a value with a subquery is left
    /// as it is (its names may mean its own tables).
    pub(crate) fn rewrite(&self, e: &mut Expr, table: &TableInfo) {
        if self.columns.is_empty() || has_subquery(e) {
            return;
        }
        let _ = visit_expressions_mut(e, |e| {
            let found = match e {
                Expr::CompoundIdentifier(ids) if ids.len() == 2 => {
                    let (q, c) = (&ids[0].value, &ids[1].value);
                    self.columns.iter().find(|s| {
                        !q.eq_ignore_ascii_case(&self.target)
                            && s.qualifier.eq_ignore_ascii_case(q)
                            && s.column.eq_ignore_ascii_case(c)
                    })
                }
                Expr::Identifier(i) if !has(table, &i.value) => self
                    .columns
                    .iter()
                    .find(|s| s.unique_name && s.column.eq_ignore_ascii_case(&i.value)),
                _ => None,
            };
            if let Some(s) = found {
                *e = qualified("excluded", &s.target);
            }
            std::ops::ControlFlow::<()>::Continue(())
        });
    }
}

fn from_table(env: &dyn Env, f: &TableFactor) -> Option<FromTable> {
    let TableFactor::Table { name, alias, .. } = f else {
        return None;
    };
    let info = env.table(&resolve(env, name).ok()?)?;
    let qualifier = match alias {
        Some(a) => a.name.value.clone(),
        None => info.name.table.clone(),
    };
    Some(FromTable { qualifier, info })
}

/// The FROM table (its index) and column a select item reads as is.
fn column_of(e: &Expr, from: &[FromTable]) -> Option<(usize, String)> {
    let (qualifier, column) = match e {
        Expr::Identifier(c) => (None, &c.value),
        Expr::CompoundIdentifier(ids) if ids.len() == 2 => (Some(&ids[0].value), &ids[1].value),
        _ => return None,
    };
    let mut matching = from.iter().enumerate().filter(|(_, t)| {
        qualifier.is_none_or(|q| t.qualifier.eq_ignore_ascii_case(q)) && has(&t.info, column)
    });
    let (i, t) = matching.next()?;
    if matching.next().is_some() {
        return None;
    }
    let name = t
        .info
        .columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(column))?;
    Some((i, name.name.clone()))
}

fn has(t: &TableInfo, column: &str) -> bool {
    t.columns
        .iter()
        .any(|c| c.name.eq_ignore_ascii_case(column))
}

/// A table column's declared type (None for a view's computed column).
fn declared<'a>(t: &'a TableInfo, column: &str) -> Option<&'a str> {
    let c = t
        .columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(column))?;
    c.computed.is_none().then_some(c.decl_type.trim())
}
