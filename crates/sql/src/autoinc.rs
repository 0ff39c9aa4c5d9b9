//! AUTO_INCREMENT for INSERT and REPLACE: every value of the AUTO_INCREMENT column goes
//! through `tutti_autoinc(x)`, which returns x unless it is NULL or 0, in which case it hands
//! out the node's next id (offset/increment style, so nodes never collide). This replaces
//! SQLite's own rowid allocation (max + 1), which would collide between nodes.
//!
//! * `VALUES` with the column listed (or no column list, which implies every column in table
//!   order): its expression in every row is wrapped, `tutti_autoinc(<expr>)` — literals,
//!   NULL, 0 and `?` placeholders alike.
//! * `VALUES` with the column omitted: the column is appended and every row gets
//!   `tutti_autoinc(NULL)`.
//! * `INSERT ... SELECT` with the column omitted from a column list:
//!   `INSERT INTO t (.., "id") SELECT *, tutti_autoinc(NULL) FROM (<select>)`.
//! * `INSERT ... SELECT` that provides the column (listed, or no column list): the SELECT's
//!   rows are named by position in a CTE and its value wrapped,
//!   `WITH tutti_ids(c1, c2) AS (<select>) SELECT tutti_autoinc(c1), c2 FROM tutti_ids`.
//! * A table without a PRIMARY KEY: its invisible key ([`crate::INVISIBLE_KEY`]) is never
//!   listed, so it is always appended; without a column list, the visible columns are
//!   listed first (the rows give exactly those).
//!
//! [`insert_ids`] tells the executor what the ids depend on: InnoDB reserves ids per
//! statement and gives back those of rows it skips (see `tutti_storage`'s `autoinc`).

use sqlparser::ast::{Expr, Ident, Insert, Query, SelectItem, SetExpr, SqliteOnConflict};

use crate::ast_build::{autoinc, derived, null, query, select, through_named, values};
use crate::names::quoted;
use crate::{InsertIds, TableInfo, TableName};

/// What the ids of a rewritten INSERT into `target` depend on; `reads` are the tables it
/// reads (None: not known). SQLite computes each row after inserting the previous one
/// unless it reads its target table (then it buffers the rows first), so only then does a
/// row learn whether the previous one was inserted.
pub(crate) fn insert_ids(
    ins: &Insert,
    reads: Option<Vec<TableName>>,
    target: &TableName,
    table: &TableInfo,
) -> InsertIds {
    let values = match ins.source.as_deref().map(|s| s.body.as_ref()) {
        None => Some(1), // DEFAULT VALUES
        Some(SetExpr::Values(v)) => Some(v.rows.len() as u64),
        Some(_) => None,
    };
    let skips = ins.or == Some(SqliteOnConflict::Ignore) || ins.on.is_some();
    let target = target.sqlite_name();
    let reads_target = reads.is_none_or(|r| {
        r.iter()
            .any(|t| t.sqlite_name().eq_ignore_ascii_case(&target))
    });
    let engine = crate::column_marks::table_engine(&table.create_sql);
    InsertIds {
        values,
        one_at_a_time: crate::create_table::ids_one_at_a_time(engine),
        restore: skips && !reads_target,
    }
}

/// Rewrites the AUTO_INCREMENT column's values; true when `tutti_autoinc` was emitted.
/// `columns` is the (quoted, unqualified) column list, which may grow by the column.
pub(crate) fn rewrite_insert(
    ins: &mut Insert,
    columns: &mut Vec<Ident>,
    table: &TableInfo,
) -> bool {
    let Some(col) = table.autoinc.as_deref() else {
        return false;
    };
    if table.has_invisible_key() && columns.is_empty() && !no_values(ins) {
        columns.extend(table.columns.iter().map(|c| quoted(&c.name)));
    }
    let listed = columns
        .iter()
        .position(|c| c.value.eq_ignore_ascii_case(col));
    let Some(src) = ins.source.as_mut() else {
        // INSERT ... DEFAULT VALUES
        columns.push(quoted(col));
        ins.source = Some(Box::new(values(vec![vec![autoinc(null())]])));
        return true;
    };
    let plain = src.with.is_none() && src.order_by.is_none() && src.limit_clause.is_none();
    match src.body.as_mut() {
        SetExpr::Values(v) if plain => {
            if columns.is_empty() && v.rows.iter().all(|r| r.content.is_empty()) {
                // VALUES (), () with no column list: only the id is given.
                columns.push(quoted(col));
                for r in &mut v.rows {
                    r.content.push(autoinc(null()));
                }
                return true;
            }
            let position = match listed {
                Some(p) => Some(p),
                None if columns.is_empty() => {
                    let p = table
                        .columns
                        .iter()
                        .position(|c| c.name.eq_ignore_ascii_case(col));
                    p.filter(|_| {
                        v.rows
                            .iter()
                            .all(|r| r.content.len() == table.columns.len())
                    })
                }
                None => None,
            };
            match position {
                Some(p) => {
                    let mut any = false;
                    for r in &mut v.rows {
                        if let Some(e) = r.content.get_mut(p) {
                            let x = std::mem::replace(e, null());
                            *e = autoinc(x);
                            any = true;
                        }
                    }
                    any
                }
                None if columns.is_empty() => false,
                None => {
                    columns.push(quoted(col));
                    for r in &mut v.rows {
                        r.content.push(autoinc(null()));
                    }
                    true
                }
            }
        }
        _ if listed.is_none() && !columns.is_empty() => {
            columns.push(quoted(col));
            let inner = std::mem::replace(src.as_mut(), values(vec![]));
            let projection = vec![
                SelectItem::Wildcard(Default::default()),
                SelectItem::UnnamedExpr(autoinc(null())),
            ];
            let s = select(projection, vec![derived(inner)], None);
            **src = query(SetExpr::Select(Box::new(s)));
            true
        }
        _ => {
            let (count, position) = match listed {
                Some(p) => (columns.len(), p),
                None => {
                    let names = table.columns.iter();
                    match names.clone().position(|c| c.name.eq_ignore_ascii_case(col)) {
                        Some(p) => (names.count(), p),
                        None => return false,
                    }
                }
            };
            let inner = std::mem::replace(src.as_mut(), values(vec![]));
            **src = through_ids(inner, count, position);
            true
        }
    }
}

/// An `INSERT … SELECT` whose SELECT gives the id in column `position` of `count`:
/// `WITH tutti_ids(c1, .., cn) AS (<select>) SELECT c1, .., tutti_autoinc(cp), .. FROM
/// tutti_ids`, so a NULL or 0 there gets an id as in `VALUES`. The ids are taken as the
/// SELECT's rows come out, after its ORDER BY, LIMIT and DISTINCT.
fn through_ids(inner: Query, count: usize, position: usize) -> Query {
    let cols: Vec<String> = (1..=count).map(|i| format!("c{i}")).collect();
    let projection = cols
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let value = Expr::Identifier(quoted(c.as_str()));
            SelectItem::UnnamedExpr(if i == position { autoinc(value) } else { value })
        })
        .collect();
    through_named("tutti_ids", &cols, inner, projection)
}

/// `DEFAULT VALUES` or `VALUES ()`: rows that give no value at all.
fn no_values(ins: &Insert) -> bool {
    match ins.source.as_ref().map(|s| s.body.as_ref()) {
        None => true,
        Some(SetExpr::Values(v)) => v.rows.iter().all(|r| r.content.is_empty()),
        Some(_) => false,
    }
}
