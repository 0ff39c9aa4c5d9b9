//! Writing through a view: UPDATE, DELETE and INSERT of a view over one table.
//!
//! A view is updatable, as in MySQL, when its SELECT reads one table (no join, no derived
//! table) without DISTINCT, GROUP BY, HAVING, an aggregate, a window or LIMIT, and its
//! algorithm is not TEMPTABLE; others give MariaDB's 1288. Its columns that are plain
//! columns of the table can be set (a computed one gives 1348, 1471 in an INSERT, which
//! without a column list needs all to be plain).
//!
//! * UPDATE and DELETE run as writes of the table through a join (`multi_table`): the view
//!   is read as a derived table, its own SELECT (as tutti stored it) with the table's rowid
//!   added, so the statement's WHERE and SET values see exactly the view's columns, and the
//!   view's WHERE limits the rows.
//! * INSERT names the table and its columns instead of the view and the view's.
//!
//! `WITH CHECK OPTION` is not supported (CREATE VIEW refuses it), nor views of views.

use sqlparser::ast::{
    AssignmentTarget, Expr, FunctionArguments, Ident, Insert, ObjectName, ObjectNamePart, Query,
    SelectItem, SetExpr, Statement, TableFactor, TableObject, TableWithJoins,
};

use crate::names::quoted;
use crate::{Env, SqlError, TableInfo, TableName};

/// The column of the derived view that carries the table's rowid.
pub(crate) const ROWID: &str = "tutti_rowid";

/// A view that can be written, and how.
pub(crate) struct Updatable {
    /// The view.
    pub view: TableName,
    /// Its table.
    pub base: TableName,
    /// The table as the catalog knows it.
    pub base_info: TableInfo,
    /// Each view column's name and the table column it is, if a plain column.
    pub columns: Vec<(String, Option<String>)>,
    /// The view's SELECT with the table's rowid added as [`ROWID`] (SQLite SQL).
    pub with_rowid: Query,
}

impl Updatable {
    /// The table column a view column is (1348 when it is computed; 1054 when unknown).
    pub fn base_column(&self, column: &str) -> Result<String, SqlError> {
        match self
            .columns
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(column))
        {
            Some((_, Some(base))) => Ok(base.clone()),
            Some((c, None)) => Err(SqlError::NonUpdatableColumn(c.clone())),
            None => Err(SqlError::UnknownColumn {
                column: column.to_string(),
                table: "field list".into(),
            }),
        }
    }
}

/// The view `view` (a catalog entry that is a view) as a written table; `what` is the
/// statement (`UPDATE`, `DELETE`, `INSERT`) for the error.
pub(crate) fn updatable(
    env: &dyn Env,
    view: &TableInfo,
    what: &'static str,
) -> Result<Updatable, SqlError> {
    let not_updatable = || SqlError::NonUpdatableTable {
        table: view.name.table.clone(),
        what,
    };
    // `ALGORITHM = TEMPTABLE` reads a copy: nothing is written through it.
    let definition = crate::view_text::Definition::of(&view.create_sql);
    if definition.is_some_and(|d| d.algorithm.eq_ignore_ascii_case("TEMPTABLE")) {
        return Err(match what {
            "INSERT" => SqlError::NonInsertableTable(view.name.table.clone()),
            _ => not_updatable(),
        });
    }
    let dialect = sqlparser::dialect::SQLiteDialect {};
    let Ok(mut stmts) = sqlparser::parser::Parser::parse_sql(&dialect, &view.create_sql) else {
        return Err(SqlError::Unsupported(format!(
            "writing through the view {}",
            view.name
        )));
    };
    let Some(Statement::CreateView(cv)) = stmts.pop() else {
        return Err(not_updatable());
    };
    let mut q = *cv.query;
    if q.with.is_some() || q.limit_clause.is_some() || q.fetch.is_some() {
        return Err(not_updatable());
    }
    let SetExpr::Select(s) = q.body.as_mut() else {
        return Err(not_updatable());
    };
    let plain_group = matches!(&s.group_by, sqlparser::ast::GroupByExpr::Expressions(g, m)
        if g.is_empty() && m.is_empty());
    if s.distinct.is_some() || !plain_group || s.having.is_some() || has_aggregate(&s.projection) {
        return Err(not_updatable());
    }
    let (base, alias) = match s.from.as_slice() {
        [TableWithJoins {
            relation: TableFactor::Table { name, alias, .. },
            joins,
        }] if joins.is_empty() => {
            let sqlite_name = last(name).ok_or_else(not_updatable)?;
            let base = TableName::from_sqlite_name(&sqlite_name).ok_or_else(not_updatable)?;
            let alias = alias
                .as_ref()
                .map_or_else(|| sqlite_name.clone(), |a| a.name.value.clone());
            (base, alias)
        }
        [TableWithJoins { joins, .. }] if !joins.is_empty() => {
            return Err(SqlError::Unsupported(format!(
                "writing through the view {} of a join",
                view.name
            )))
        }
        _ => return Err(not_updatable()),
    };
    let base_info = env
        .table(&base)
        .ok_or_else(|| SqlError::InvalidView(view.name.to_string()))?;
    if base_info.is_view() {
        return Err(SqlError::Unsupported(format!(
            "writing through the view {} of a view",
            view.name
        )));
    }
    let mut plain = Vec::new();
    for item in &s.projection {
        match item {
            SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => {
                plain.extend(base_info.columns.iter().map(|c| Some(c.name.clone())))
            }
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                plain.push(column_of(e))
            }
            SelectItem::ExprWithAliases { .. } => return Err(not_updatable()),
        }
    }
    let names: Vec<String> = view.columns.iter().map(|c| c.name.clone()).collect();
    if names.len() != plain.len() {
        return Err(not_updatable());
    }
    // The derived table's columns are the view's names (`CREATE VIEW v (a, c) AS SELECT a,
    // b + 1 ...` has a column c).
    if !s.projection.iter().any(|i| {
        matches!(
            i,
            SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..)
        )
    }) {
        for (item, name) in s.projection.iter_mut().zip(&names) {
            if let SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } = item {
                *item = SelectItem::ExprWithAlias {
                    expr: e.clone(),
                    alias: quoted(name),
                };
            }
        }
    }
    s.projection.push(SelectItem::ExprWithAlias {
        expr: crate::ast_build::qualified(&alias, "rowid"),
        alias: quoted(ROWID),
    });
    Ok(Updatable {
        view: view.name.clone(),
        base,
        base_info,
        columns: names.into_iter().zip(plain).collect(),
        with_rowid: q,
    })
}

/// `INSERT INTO view [(cols)] ...` → `INSERT INTO table (its cols) ...`: the table and its
/// catalog entry.
pub(crate) fn insert_into_table(
    env: &dyn Env,
    view: &TableInfo,
    ins: &mut Insert,
) -> Result<(TableName, TableInfo), SqlError> {
    let u = updatable(env, view, "INSERT")?;
    // every column given a value must be a table's column
    let not_insertable = || SqlError::NonInsertableTable(view.name.table.clone());
    let base_column = |c: &str| match u.base_column(c) {
        Err(SqlError::NonUpdatableColumn(_)) => Err(not_insertable()),
        other => other,
    };
    if ins.on.is_some() {
        return Err(SqlError::Unsupported(
            "INSERT ... ON DUPLICATE KEY UPDATE through a view".into(),
        ));
    }
    let columns: Vec<String> = if ins.columns.is_empty() && ins.assignments.is_empty() {
        u.columns
            .iter()
            .map(|(_, b)| b.clone().ok_or_else(not_insertable))
            .collect::<Result<_, _>>()?
    } else {
        ins.columns
            .iter()
            .map(|c| base_column(&last(c).unwrap_or_default()))
            .collect::<Result<_, _>>()?
    };
    for a in &mut ins.assignments {
        if let AssignmentTarget::ColumnName(n) = &mut a.target {
            let base = base_column(&last(n).unwrap_or_default())?;
            *n = ObjectName::from(vec![quoted(base)]);
        }
    }
    ins.columns = columns
        .into_iter()
        .map(|c| ObjectName::from(vec![quoted(c)]))
        .collect();
    ins.table = TableObject::TableName(ObjectName::from(vec![
        Ident::new(u.base.db.clone()),
        Ident::new(u.base.table.clone()),
    ]));
    Ok((u.base, u.base_info))
}

/// The column a view item is, when it is one (`"a"`, `"t"."a"`, either under COLLATE).
fn column_of(e: &Expr) -> Option<String> {
    match e {
        Expr::Identifier(i) => Some(i.value.clone()),
        Expr::CompoundIdentifier(ids) => ids.last().map(|i| i.value.clone()),
        Expr::Nested(inner) => column_of(inner),
        _ => None,
    }
}

fn last(name: &ObjectName) -> Option<String> {
    match name.0.last() {
        Some(ObjectNamePart::Identifier(i)) => Some(i.value.clone()),
        _ => None,
    }
}

/// An aggregate or window call among the items of a view's (SQLite) SELECT: MariaDB's
/// aggregates keep their names there (MIN and MAX with two arguments are scalar in SQLite);
/// DECIMAL sums and averages are tutti's own, `total` SQLite's.
fn has_aggregate(items: &Vec<SelectItem>) -> bool {
    use std::ops::ControlFlow;
    sqlparser::ast::visit_expressions(items, |e| {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        let name = f.name.to_string().to_ascii_lowercase();
        let args = match &f.args {
            FunctionArguments::List(l) => l.args.len(),
            _ => 0,
        };
        let scalar = (name == "min" || name == "max") && args != 1;
        let aggregate = f.over.is_some()
            || (crate::having::is_aggregate_name(&name) && !scalar)
            || ["total", "tutti_dec_sum", "tutti_dec_avg"].contains(&name.as_str());
        if aggregate {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .is_break()
}

/// Replaces the FROM item that reads `view` as `alias` by the view's SELECT with the
/// rowid, under the same alias.
pub(crate) fn read_as_derived(from: &mut [TableWithJoins], u: &Updatable, alias: &str) {
    fn visit(tf: &mut TableFactor, u: &Updatable, alias: &str) {
        match tf {
            TableFactor::Table { name, alias: a, .. }
                if last(name).as_deref() == Some(u.view.sqlite_name().as_str())
                    && a.as_ref().is_some_and(|a| a.name.value == alias) =>
            {
                let a = a.clone();
                *tf = TableFactor::Derived {
                    lateral: false,
                    subquery: Box::new(u.with_rowid.clone()),
                    alias: a,
                    sample: None,
                };
            }
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => {
                visit(&mut table_with_joins.relation, u, alias);
                for j in &mut table_with_joins.joins {
                    visit(&mut j.relation, u, alias);
                }
            }
            _ => {}
        }
    }
    for twj in from {
        visit(&mut twj.relation, u, alias);
        for j in &mut twj.joins {
            visit(&mut j.relation, u, alias);
        }
    }
}
