//! Columns named inside an INSERT's VALUES.
//!
//! MySQL lets a value name a column of the row being inserted: `INSERT INTO t SET dt =
//! '2007-03-23', da = dt` gives `da` the value just given to `dt`, and `INSERT INTO t (a)
//! VALUES (a + 2)` reads `a` before it has one, its default. MariaDB fills the row left to
//! right, so a column given earlier in the list reads that value and any other column its
//! default. SQLite knows no columns there ("no such column"), so each such reference becomes
//! that value or that default, written out. Subqueries keep their own columns.

use sqlparser::ast::{Expr, Ident, Insert, SetExpr};

use crate::ast_build::nested;
use crate::own_level::visit_own_level_mut;
use crate::TableInfo;

/// Replaces the row's columns named in `ins`'s VALUES (see the module doc); `columns` is the
/// INSERT's column list (empty: all of the table's, in order), `table` the written table.
pub(crate) fn resolve(ins: &mut Insert, columns: &[Ident], table: &TableInfo, name: &str) {
    let Some(SetExpr::Values(v)) = ins.source.as_deref_mut().map(|q| q.body.as_mut()) else {
        return;
    };
    let order: Vec<String> = if columns.is_empty() {
        table.columns.iter().map(|c| c.name.clone()).collect()
    } else {
        columns.iter().map(|c| c.value.clone()).collect()
    };
    for row in &mut v.rows {
        for i in 0..row.content.len() {
            let (given, rest) = row.content.split_at_mut(i);
            let refs = RowColumns {
                table,
                name,
                order: &order,
                given,
            };
            visit_own_level_mut(&mut rest[0], |e| {
                if let Some(v) = refs.value_of(e) {
                    *e = v;
                }
            });
        }
    }
}

struct RowColumns<'a> {
    table: &'a TableInfo,
    /// The table's name, which may qualify a column (`t.a`).
    name: &'a str,
    /// The column each value of a row goes to.
    order: &'a [String],
    /// The row's values before the one being read.
    given: &'a [Expr],
}

impl RowColumns<'_> {
    /// The value a column of the row has when `e` names one.
    fn value_of(&self, e: &Expr) -> Option<Expr> {
        let column = match e {
            Expr::Identifier(c) => c,
            Expr::CompoundIdentifier(ids) if ids.len() == 2 => {
                if !ids[0].value.eq_ignore_ascii_case(self.name) {
                    return None;
                }
                &ids[1]
            }
            _ => return None,
        };
        let same = |n: &String| n.eq_ignore_ascii_case(&column.value);
        let info = self.table.columns.iter().find(|c| same(&c.name))?;
        let earlier = self
            .order
            .iter()
            .position(same)
            .filter(|&j| j < self.given.len());
        Some(match earlier {
            Some(j) => nested(self.given[j].clone()),
            None if self.table.autoinc.as_deref() == Some(info.name.as_str()) => {
                crate::ast_build::null()
            }
            // The catalog's DEFAULT text as an expression the rewrites can work on.
            None => match info.default.as_deref() {
                Some(text) => match crate::columns::current_timestamp_value(text) {
                    Some(now) => now,
                    None => parse_default(text)?,
                },
                None => crate::ast_build::null(),
            },
        })
    }
}

/// A column's DEFAULT (SQLite text) parsed; None when it does not parse.
fn parse_default(text: &str) -> Option<Expr> {
    let dialect = sqlparser::dialect::SQLiteDialect {};
    let mut parser = sqlparser::parser::Parser::new(&dialect)
        .try_with_sql(text)
        .ok()?;
    parser.parse_expr().ok().map(nested)
}
