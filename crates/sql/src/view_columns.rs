//! The collations of a view's columns, for the rules that place an expression's collation
//! (`derivation`): SQLite keeps none for a view's columns in its catalog, so they are read
//! from the view's SELECT as tutti stored it — a computed string column carries its
//! `COLLATE` there (see `Rewriter::collated_results`), a column of a table (or of another
//! view) has that column's. Without them `LOWER(c)` of a view's column grouped and compared
//! as bytes.

use sqlparser::ast::{Expr, SelectItem, SetExpr, Statement, TableFactor};

use crate::{Env, TableInfo, TableName};

/// How many views over views are followed.
const MAX_DEPTH: usize = 8;

/// The SQLite collation view `view`'s column `column` compares in (None: bytes, or not
/// known).
pub(crate) fn collation(view: &TableInfo, column: &str, env: &dyn Env) -> Option<String> {
    of_view(view, column, env, 0)
}

fn of_view(view: &TableInfo, column: &str, env: &dyn Env, depth: usize) -> Option<String> {
    let dialect = sqlparser::dialect::SQLiteDialect {};
    let mut stmts = sqlparser::parser::Parser::parse_sql(&dialect, &view.create_sql).ok()?;
    let Some(Statement::CreateView(cv)) = stmts.pop() else {
        return None;
    };
    let SetExpr::Select(s) = cv.query.body.as_ref() else {
        return None;
    };
    let item = s.projection.iter().find_map(|item| match item {
        SelectItem::ExprWithAlias { expr, alias } if alias.value.eq_ignore_ascii_case(column) => {
            Some(expr)
        }
        SelectItem::UnnamedExpr(e @ Expr::Identifier(i))
            if i.value.eq_ignore_ascii_case(column) =>
        {
            Some(e)
        }
        _ => None,
    })?;
    let (qualifier, name) = match item {
        Expr::Collate { collation, .. } => return Some(collation.to_string().replace('"', "")),
        Expr::Identifier(i) => (None, &i.value),
        Expr::CompoundIdentifier(ids) if ids.len() == 2 => (Some(&ids[0].value), &ids[1].value),
        _ => return None,
    };
    let tables = s
        .from
        .iter()
        .flat_map(|t| std::iter::once(&t.relation).chain(t.joins.iter().map(|j| &j.relation)));
    for tf in tables {
        let TableFactor::Table {
            name: table, alias, ..
        } = tf
        else {
            continue;
        };
        let sqlite_name = table.to_string().replace('"', "");
        let alias = alias
            .as_ref()
            .map_or(sqlite_name.as_str(), |a| a.name.value.as_str());
        if qualifier.is_some_and(|q| !q.eq_ignore_ascii_case(alias)) {
            continue;
        }
        let Some((db, t)) = sqlite_name.split_once('.') else {
            continue;
        };
        let Some(base) = env.table(&TableName::new(db, t)) else {
            continue;
        };
        if !base
            .columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(name))
        {
            continue;
        }
        if base.is_view() {
            return (depth < MAX_DEPTH)
                .then(|| of_view(&base, name, env, depth + 1))
                .flatten();
        }
        return crate::derivation::declared_column_collation(&base.create_sql, name);
    }
    None
}
