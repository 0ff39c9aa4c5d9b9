//! `CREATE TABLE t [(definitions)] [options] [AS] SELECT ...`.
//!
//! MySQL derives the new table's columns from the SELECT's result: one column per result
//! column, named like it, typed like the expression, after the columns the statement
//! defines itself (a result column with the name of a defined column takes that
//! definition, in the SELECT's place).
//! Types come from the result, so the statement is translated in two steps, by the
//! executor: it runs the translated SELECT ([`CreateSelect::select`]), derives a MySQL
//! type per column (the declared type of a column read as it is, otherwise from the
//! values; [`CreateSelect::decimal`] says which computed columns are exact DECIMALs), then
//! runs [`CreateSelect::create_sql`] (a plain CREATE TABLE, replicated as a schema change)
//! and [`CreateSelect::insert_sql`] (an INSERT ... SELECT, replicated as rows).

use sqlparser::ast::{
    CreateTable, Expr, Ident, ObjectName, Query as AstQuery, SelectItem, SetExpr, Statement,
    Value as SqlValue,
};
use sqlparser::parser::Parser;

use crate::dispatch::{Res, StmtInfo};
use crate::lexer::DIALECT;
use crate::names::resolve;
use crate::{dml, Query, SqlError, Stmt, TableName};

/// A `CREATE TABLE ... SELECT`, ready for the executor (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct CreateSelect {
    /// The new table.
    pub table: TableName,
    /// `IF NOT EXISTS`: an existing table is left as it is, nothing is inserted.
    pub if_not_exists: bool,
    /// `OR REPLACE`: an existing table is dropped first (by the CREATE TABLE).
    pub or_replace: bool,
    /// The SELECT, translated.
    pub select: Query,
    /// Per result column of the translated SELECT: Some(least scale) for an exact DECIMAL
    /// (values are canonical decimal text, or the REAL of a literal such as `1.50`, whose
    /// scale is 2). Empty when unknown (a `*` in the projection).
    pub decimal: Vec<Option<usize>>,
    /// The CREATE TABLE without its SELECT.
    create: Box<CreateTable>,
    /// The SELECT's MySQL text.
    select_text: String,
}

/// Translates a `CREATE TABLE` that has a SELECT.
pub(crate) fn create_select(info: &StmtInfo<'_>, mut ct: CreateTable) -> Res<Stmt> {
    let query = ct.query.take().expect("CREATE TABLE ... SELECT");
    let table = resolve(info.env, &ct.name)?;
    if !info.env.database_exists(&table.db) {
        return Err(SqlError::UnknownDatabase(table.db.clone()).into());
    }
    let select_text = mysql_text(&query);
    let Stmt::Query(select) = dml::select_with_types(info, Statement::Query(query))? else {
        return Err(SqlError::Unsupported("this CREATE TABLE ... SELECT".into()).into());
    };
    let decimal = decimal_columns(&select.sql);
    ct.name = ObjectName::from(vec![
        Ident::with_quote('`', table.db.clone()),
        Ident::with_quote('`', table.table.clone()),
    ]);
    let if_not_exists = std::mem::take(&mut ct.if_not_exists);
    Ok(Stmt::CreateSelect(CreateSelect {
        table,
        if_not_exists,
        or_replace: ct.or_replace,
        select,
        decimal,
        create: Box::new(ct),
        select_text,
    }))
}

impl CreateSelect {
    /// `CREATE TEMPORARY TABLE ... SELECT`.
    pub fn temporary(&self) -> bool {
        self.create.temporary
    }

    /// The CREATE TABLE (MySQL text) for the SELECT's columns, given as (name, MySQL type):
    /// as MariaDB orders them, the defined columns the SELECT does not give first, then
    /// the SELECT's, each with its definition when the statement defines it.
    pub fn create_sql(&self, columns: &[(String, String)]) -> Result<String, SqlError> {
        let mut ct = (*self.create).clone();
        let mut defined = std::mem::take(&mut ct.columns);
        let given = |name: &str| columns.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
        let (selected, mut out): (Vec<_>, Vec<_>) =
            defined.drain(..).partition(|c| given(&c.name.value));
        let generated: Vec<String> = columns
            .iter()
            .map(|(name, ty)| format!("{} {ty}", backquoted(name)))
            .collect();
        let sql = format!("CREATE TABLE t ({})", generated.join(", "));
        let parsed = Parser::parse_sql(&DIALECT, &sql)
            .map_err(|e| SqlError::Unsupported(format!("the column types {sql}: {e}")))?;
        let Some(Statement::CreateTable(t)) = parsed.into_iter().next() else {
            return Err(SqlError::Unsupported(format!("the column types {sql}")));
        };
        for generated in t.columns {
            let name = &generated.name.value;
            out.push(
                selected
                    .iter()
                    .find(|c| c.name.value.eq_ignore_ascii_case(name))
                    .cloned()
                    .unwrap_or(generated),
            );
        }
        ct.columns = out;
        Ok(Statement::CreateTable(ct).to_string())
    }

    /// The INSERT (MySQL text) that fills the table with the SELECT's rows: each result
    /// column (by name) goes to the table's column of that name.
    pub fn insert_sql(&self, columns: &[String]) -> String {
        let list: Vec<String> = columns.iter().map(|c| backquoted(c)).collect();
        format!(
            "INSERT INTO {}.{} ({}) {}",
            backquoted(&self.table.db),
            backquoted(&self.table.table),
            list.join(", "),
            self.select_text
        )
    }
}

/// A query's MySQL text, its placeholders (numbered `?1`, `?2` by the lexer) plain `?`
/// again, in the same order, and its hex numbers `0x41` again (sqlparser prints `X'41'`,
/// which MySQL reads as a binary string: `CHAR(X'41')` is no `CHAR(65)`).
fn mysql_text(query: &AstQuery) -> String {
    let mut q = query.clone();
    let _ = sqlparser::ast::visit_expressions_mut(&mut q, |e| {
        if let Expr::Value(v) = e {
            match &mut v.value {
                SqlValue::Placeholder(p) => *p = "?".into(),
                SqlValue::HexStringLiteral(h) => {
                    v.value = SqlValue::Number(format!("0x{h}"), false);
                }
                _ => {}
            }
        }
        std::ops::ControlFlow::<()>::Continue(())
    });
    q.to_string()
}

fn backquoted(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// Which result columns of a translated SELECT are exact DECIMALs, with their least scale:
/// tutti's DECIMAL expressions end in `COLLATE tutti_decimal` (see `typing`), and a
/// literal with a decimal point is a DECIMAL in MySQL. Empty when the projection has a `*`
/// or the text does not parse.
fn decimal_columns(sqlite_sql: &str) -> Vec<Option<usize>> {
    let Ok(mut parsed) = Parser::parse_sql(&sqlparser::dialect::SQLiteDialect {}, sqlite_sql)
    else {
        return Vec::new();
    };
    let Some(Statement::Query(q)) = parsed.pop() else {
        return Vec::new();
    };
    let Some(items) = projection(&q) else {
        return Vec::new();
    };
    items
        .iter()
        .map(|item| match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                decimal_scale(e)
            }
            _ => None,
        })
        .collect()
}

/// The projection of a query's first SELECT; None with a wildcard in it.
fn projection(q: &AstQuery) -> Option<&[SelectItem]> {
    let mut body = q.body.as_ref();
    loop {
        match body {
            SetExpr::Select(s) => {
                let wild = s.projection.iter().any(|i| {
                    matches!(
                        i,
                        SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..)
                    )
                });
                return (!wild).then_some(s.projection.as_slice());
            }
            SetExpr::SetOperation { left, .. } => body = left,
            SetExpr::Query(q) => body = q.body.as_ref(),
            _ => return None,
        }
    }
}

fn decimal_scale(e: &Expr) -> Option<usize> {
    match e {
        Expr::Collate { collation, expr } => {
            let decimal = (collation.to_string().trim_matches('"'))
                .eq_ignore_ascii_case(crate::decimal::COLLATION);
            // A literal's text (`'2.50' COLLATE tutti_decimal`) has its scale.
            let literal = match expr.as_ref() {
                Expr::Value(v) => match &v.value {
                    SqlValue::SingleQuotedString(n) => n.split_once('.').map(|(_, f)| f.len()),
                    _ => None,
                },
                _ => None,
            };
            decimal.then(|| literal.unwrap_or(0))
        }
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) if !n.contains(['e', 'E']) => {
                n.split_once('.').map(|(_, frac)| frac.len())
            }
            _ => None,
        },
        Expr::UnaryOp { expr, .. } | Expr::Nested(expr) => decimal_scale(expr),
        // a scalar subquery's item (`(SELECT 1.50)`, `(SELECT price ...)`)
        Expr::Subquery(q) => match projection(q)? {
            [SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }] => {
                decimal_scale(e)
            }
            _ => None,
        },
        _ => None,
    }
}
