//! Multi-table UPDATE and DELETE (`UPDATE t1 JOIN t2 ON .. SET t1.a = t2.b`,
//! `UPDATE t1, t2 SET ..`, `DELETE t1 FROM t1, t2 WHERE ..`, `DELETE FROM t1 USING t1, t2
//! WHERE ..`) that write one table.
//!
//! The join is translated as a SELECT (so every join form, alias and expression the SELECT
//! path knows works here too) of the written rows' rowids and, for an UPDATE, the new values;
//! the write then names the rows by rowid:
//!
//! * `UPDATE "db.t" AS "tutti_target" SET "a" = "tutti_m"."v0", .. FROM (SELECT t.rowid,
//!   <value> AS "v0", .. FROM <join> WHERE ..) AS "tutti_m" WHERE "tutti_target".rowid =
//!   "tutti_m"."tutti_rowid"`: SQLite computes the whole join before it changes a row, so
//!   a self-join reads the old values, as MySQL's multi-table UPDATE does; a row the join
//!   matches several times is updated once. `ORDER BY` / `LIMIT` count joined rows, as in
//!   MariaDB.
//! * `DELETE FROM "db.t" WHERE rowid IN (SELECT t.rowid FROM <join> WHERE ..)`.
//!
//! A view of one table is written as that table, read as a derived table that carries its
//! rowid (see `views`). Writing several tables in one statement is refused (1235).

use sqlparser::ast::{
    AssignmentTarget, Delete, Expr, FromTable, ObjectName, ObjectNamePart, OrderByKind, SelectItem,
    SetExpr, TableFactor, TableWithJoins, Update, UpdateTableFromKind,
};

use crate::ast_build::{number, qualified, query, select};
use crate::dispatch::StmtInfo;
use crate::names::{parts, quoted, resolve};
use crate::rewrite::Rewriter;
use crate::views::{self, Updatable};
use crate::{stored, QueryKind, SqlError, Stmt, TableInfo, TableName};

/// Alias of the written table in the UPDATE, and of the joined rows.
const TARGET: &str = "tutti_target";
const MATCHED: &str = "tutti_m";
/// The joined rows' column of the written rowids (the name a view's rowid has too).
const ROWID: &str = views::ROWID;

/// A table of the join: what its columns are qualified with, and the table.
struct Joined {
    alias: String,
    table: TableName,
    info: TableInfo,
}

/// The tables (not derived tables) of a FROM list, in order.
fn joined_tables(info: &StmtInfo<'_>, from: &[TableWithJoins]) -> Result<Vec<Joined>, SqlError> {
    fn factors<'a>(tf: &'a TableFactor, out: &mut Vec<&'a TableFactor>) {
        match tf {
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => {
                factors(&table_with_joins.relation, out);
                for j in &table_with_joins.joins {
                    factors(&j.relation, out);
                }
            }
            other => out.push(other),
        }
    }
    let mut all = Vec::new();
    for twj in from {
        factors(&twj.relation, &mut all);
        for j in &twj.joins {
            factors(&j.relation, &mut all);
        }
    }
    let mut out = Vec::new();
    for tf in all {
        if let TableFactor::Table { name, alias, .. } = tf {
            let table = resolve(info.env, name)?;
            let Some(t) = info.env.table(&table) else {
                return Err(SqlError::NoSuchTable(table.to_string()));
            };
            out.push(Joined {
                alias: alias
                    .as_ref()
                    .map_or_else(|| table.table.clone(), |a| a.name.value.clone()),
                table,
                info: t,
            });
        }
    }
    Ok(out)
}

/// The joined table a written name (`t`, `alias`, `db.t`) stands for.
fn named<'a>(tables: &'a [Joined], name: &ObjectName) -> Result<&'a Joined, SqlError> {
    let ids = parts(name)?;
    let found = match ids.as_slice() {
        [one] => tables
            .iter()
            .find(|t| t.alias.eq_ignore_ascii_case(&one.value)),
        [db, t] => tables.iter().find(|j| {
            j.table.db.eq_ignore_ascii_case(&db.value) && j.alias.eq_ignore_ascii_case(&t.value)
        }),
        _ => None,
    };
    found.ok_or_else(|| SqlError::NoSuchTable(name.to_string()))
}

/// The table a SET column belongs to: its qualifier's, or the one table that has it.
fn owner<'a>(tables: &'a [Joined], target: &ObjectName) -> Result<(&'a Joined, String), SqlError> {
    let ids = parts(target)?;
    let (column, qualifier) = ids.split_last().expect("a name has a part");
    let column = column.value.clone();
    let unknown = || SqlError::UnknownColumn {
        column: target.to_string(),
        table: "field list".into(),
    };
    let table = if qualifier.is_empty() {
        let mut having = tables.iter().filter(|t| {
            t.info
                .columns
                .iter()
                .any(|c| c.name.eq_ignore_ascii_case(&column))
        });
        let first = having.next().ok_or_else(unknown)?;
        if having.next().is_some() {
            return Err(SqlError::AmbiguousColumn(column));
        }
        first
    } else {
        let name = ObjectName(
            qualifier
                .iter()
                .map(|i| ObjectNamePart::Identifier((*i).clone()))
                .collect(),
        );
        named(tables, &name).map_err(|_| unknown())?
    };
    let Some(c) = table
        .info
        .columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(&column))
    else {
        return Err(unknown());
    };
    Ok((table, c.name.clone()))
}

/// The table a statement writes: a table of the join, or the table under a view of it.
struct Written<'a> {
    /// The join's table (or view).
    joined: &'a Joined,
    /// The view written through, if it is one.
    view: Option<Updatable>,
}

impl Written<'_> {
    /// The table whose rows change.
    fn table(&self) -> &TableName {
        self.view.as_ref().map_or(&self.joined.table, |v| &v.base)
    }

    /// That table in the catalog.
    fn info(&self) -> &TableInfo {
        self.view
            .as_ref()
            .map_or(&self.joined.info, |v| &v.base_info)
    }

    /// The table column behind a column of the joined table or view.
    fn column(&self, column: &str) -> Result<String, SqlError> {
        match &self.view {
            Some(v) => v.base_column(column),
            None => Ok(column.to_string()),
        }
    }

    /// The statement writing `sql` (SQLite) to the table.
    fn finish(&self, info: &StmtInfo<'_>, rw: &Rewriter<'_>, sql: String, kind: QueryKind) -> Stmt {
        crate::dml::finish(info, rw, sql, kind, Some(self.table().clone()), None)
    }

    /// The changed rows' rowids in the join.
    fn rowid(&self) -> Expr {
        let column = if self.view.is_some() {
            views::ROWID
        } else {
            "rowid"
        };
        qualified(&self.joined.alias, column)
    }
}

/// The one table written, or 1235 when the statement writes several.
fn single<'a>(
    info: &StmtInfo<'_>,
    written: Vec<&'a Joined>,
    what: &'static str,
) -> Result<Written<'a>, SqlError> {
    let first = written[0];
    if written.iter().any(|w| !std::ptr::eq(*w, first)) {
        return Err(SqlError::Unsupported(format!("{what} of several tables")));
    }
    let view = if first.info.is_view() {
        Some(views::updatable(info.env, &first.info, what)?)
    } else {
        None
    };
    Ok(Written {
        joined: first,
        view,
    })
}

/// Translates the SELECT of the join and puts the written table's rowid first.
fn join_select<'a>(
    info: &StmtInfo<'a>,
    items: Vec<SelectItem>,
    from: Vec<TableWithJoins>,
    selection: Option<Expr>,
    order_by: Vec<sqlparser::ast::OrderByExpr>,
    limit: Option<Expr>,
    written: &Written<'_>,
) -> Result<(String, Rewriter<'a>), SqlError> {
    let mut q = query(SetExpr::Select(Box::new(select(items, from, selection))));
    if !order_by.is_empty() {
        q.order_by = Some(sqlparser::ast::OrderBy {
            kind: OrderByKind::Expressions(order_by),
            interpolate: None,
        });
    }
    q.limit_clause = limit.map(|limit| sqlparser::ast::LimitClause::LimitOffset {
        limit: Some(limit),
        offset: None,
        limit_by: vec![],
    });
    let mut rw = Rewriter::new(info.env);
    rw.query(&mut q)?;
    let SetExpr::Select(s) = q.body.as_mut() else {
        unreachable!("built as a SELECT")
    };
    s.projection.insert(
        0,
        SelectItem::ExprWithAlias {
            expr: written.rowid(),
            alias: quoted(ROWID),
        },
    );
    if let Some(view) = &written.view {
        views::read_as_derived(&mut s.from, view, &written.joined.alias);
    }
    Ok((q.to_string(), rw))
}

fn quote_name(table: &TableName) -> String {
    format!("\"{}\"", table.sqlite_name().replace('"', "\"\""))
}

/// `UPDATE` of a join (sqlparser gives the tables after the first comma as `FROM`).
pub(crate) fn update(info: &StmtInfo<'_>, upd: Update) -> Result<Stmt, SqlError> {
    let mut from = vec![upd.table];
    match upd.from {
        Some(UpdateTableFromKind::BeforeSet(more)) => from.extend(more),
        Some(UpdateTableFromKind::AfterSet(_)) => {
            return Err(SqlError::Unsupported("UPDATE ... SET ... FROM".into()))
        }
        None => {}
    }
    let tables = joined_tables(info, &from)?;
    let mut targets = Vec::new();
    let mut columns = Vec::new();
    for a in &upd.assignments {
        let AssignmentTarget::ColumnName(name) = &a.target else {
            return Err(SqlError::Unsupported("UPDATE ... SET (a, b) = ...".into()));
        };
        let (table, column) = owner(&tables, name)?;
        targets.push(table);
        columns.push(column);
    }
    let written = single(info, targets, "UPDATE")?;
    if !crate::on_update::columns(&written.info().create_sql).is_empty() {
        return Err(SqlError::Unsupported(
            "a multi-table UPDATE or an UPDATE of a view of a table with ON UPDATE CURRENT_TIMESTAMP"
                .into(),
        ));
    }
    let columns = columns
        .iter()
        .map(|c| written.column(c))
        .collect::<Result<Vec<_>, _>>()?;
    let strict = stored::strict_mode(info.env) && !info.update_ignore;
    let items = upd
        .assignments
        .into_iter()
        .zip(&columns)
        .enumerate()
        .map(|(i, (a, column))| {
            let value = if crate::dml::is_default(&a.value) {
                crate::dml::default_value(Some(written.info()), column)
            } else {
                a.value
            };
            SelectItem::ExprWithAlias {
                expr: stored::assigned(written.info(), column, value, strict),
                alias: quoted(format!("v{i}")),
            }
        })
        .collect();
    let (joined, rw) = join_select(
        info,
        items,
        from,
        upd.selection,
        upd.order_by,
        upd.limit,
        &written,
    )?;
    let sets: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("\"{}\" = \"{MATCHED}\".\"v{i}\"", c.replace('"', "\"\"")))
        .collect();
    let sql = format!(
        "UPDATE {}{} AS \"{TARGET}\" SET {} FROM ({joined}) AS \"{MATCHED}\" \
         WHERE \"{TARGET}\".rowid = \"{MATCHED}\".\"{ROWID}\"",
        if info.update_ignore { "OR IGNORE " } else { "" },
        quote_name(written.table()),
        sets.join(", "),
    );
    Ok(written.finish(info, &rw, sql, QueryKind::Update))
}

/// `DELETE t FROM <join> ..` and `DELETE FROM t USING <join> ..`.
pub(crate) fn delete(info: &StmtInfo<'_>, del: Delete) -> Result<Stmt, SqlError> {
    let from = match del.from {
        FromTable::WithFromKeyword(f) | FromTable::WithoutKeyword(f) => f,
    };
    let (names, join) = match (del.tables.is_empty(), del.using) {
        (false, None) => (del.tables, from),
        (true, Some(using)) => {
            let names = from
                .iter()
                .map(|t| match &t.relation {
                    TableFactor::Table { name, .. } if t.joins.is_empty() => Ok(name.clone()),
                    _ => Err(SqlError::Unsupported("DELETE FROM <join> USING".into())),
                })
                .collect::<Result<Vec<_>, _>>()?;
            (names, using)
        }
        (true, None) => {
            // DELETE FROM view
            let name = match from.as_slice() {
                [TableWithJoins {
                    relation: TableFactor::Table { name, alias, .. },
                    ..
                }] => alias
                    .as_ref()
                    .map_or_else(|| name.clone(), |a| ObjectName::from(vec![a.name.clone()])),
                _ => return Err(SqlError::Unsupported("this form of DELETE".into())),
            };
            let rows = Rows {
                selection: del.selection,
                order_by: del.order_by,
                limit: del.limit,
            };
            return delete_rows(info, vec![name], from, rows);
        }
        _ => {
            return Err(SqlError::Unsupported(
                "this form of multi-table DELETE".into(),
            ))
        }
    };
    if del.limit.is_some() || !del.order_by.is_empty() {
        return Err(SqlError::Unsupported(
            "ORDER BY or LIMIT in multi-table DELETE".into(),
        ));
    }
    let rows = Rows {
        selection: del.selection,
        order_by: vec![],
        limit: None,
    };
    delete_rows(info, names, join, rows)
}

/// Which joined rows a statement changes.
struct Rows {
    selection: Option<Expr>,
    order_by: Vec<sqlparser::ast::OrderByExpr>,
    limit: Option<Expr>,
}

/// Deletes the rows of the table `names` name in the join's rows that `rows` selects.
fn delete_rows(
    info: &StmtInfo<'_>,
    names: Vec<ObjectName>,
    join: Vec<TableWithJoins>,
    rows: Rows,
) -> Result<Stmt, SqlError> {
    let tables = joined_tables(info, &join)?;
    let targets = names
        .iter()
        .map(|n| named(&tables, n))
        .collect::<Result<Vec<_>, _>>()?;
    let written = single(info, targets, "DELETE")?;
    let (joined, rw) = join_select(
        info,
        vec![SelectItem::UnnamedExpr(number("1"))],
        join,
        rows.selection,
        rows.order_by,
        rows.limit,
        &written,
    )?;
    let sql = format!(
        "DELETE FROM {} WHERE rowid IN (SELECT \"{ROWID}\" FROM ({joined}))",
        quote_name(written.table())
    );
    Ok(written.finish(info, &rw, sql, QueryKind::Delete))
}
