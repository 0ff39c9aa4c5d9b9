//! Values as their columns store them: every value an INSERT, REPLACE, UPDATE or upsert
//! writes into a DECIMAL column goes through `tutti_dec_store(v, p, s, 'column', row)`
//! (see `decimal`), which rounds it to the column's scale and refuses what does not fit.
//!
//! * `VALUES` rows: each value is wrapped in place (with its row number for the message).
//! * `INSERT ... SELECT` (any query): the query becomes a CTE whose columns are wrapped,
//!   `WITH "tutti_src"("c1", ..) AS (query) SELECT f("c1"), .. FROM "tutti_src"`.
//! * `SET col = v` (UPDATE, ON DUPLICATE KEY UPDATE): the value is wrapped.

use sqlparser::ast::{
    helpers::attached_token::AttachedToken, Cte, Expr, Ident, Insert, Query, SelectItem, SetExpr,
    TableAlias, TableAliasColumnDef, TableFactor, TableWithJoins, With,
};

use crate::ast_build::{query, select};
use crate::decimal::DecimalType;
use crate::names::quoted;
use crate::TableInfo;

/// The DECIMAL type of a table's column, if it is one.
fn decimal_of(table: &TableInfo, column: &str) -> Option<DecimalType> {
    let c = table
        .columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(column))?;
    DecimalType::of_decl(&c.decl_type)
}

/// A column as MariaDB's messages name it: `` `db`.`t`.`c` ``.
fn qualified(table: &TableInfo, column: &str) -> String {
    format!("`{}`.`{}`.`{column}`", table.name.db, table.name.table)
}

/// The value assigned to `column`, as the column stores it.
pub(crate) fn assigned(table: &TableInfo, column: &str, value: Expr) -> Expr {
    match decimal_of(table, column) {
        Some(ty) => ty.store(value, &qualified(table, column), 1),
        None => value,
    }
}

/// Wraps the values an INSERT writes into DECIMAL columns. `columns`: the column list
/// (empty: all columns, in order).
pub(crate) fn insert(ins: &mut Insert, columns: &[Ident], table: &TableInfo) {
    let names: Vec<String> = if columns.is_empty() {
        table.columns.iter().map(|c| c.name.clone()).collect()
    } else {
        columns.iter().map(|c| c.value.clone()).collect()
    };
    let types: Vec<Option<DecimalType>> = names.iter().map(|n| decimal_of(table, n)).collect();
    if types.iter().all(Option::is_none) {
        return;
    }
    let Some(src) = ins.source.as_mut() else {
        return;
    };
    if let SetExpr::Values(v) = src.body.as_mut() {
        for (row, values) in v.rows.iter_mut().enumerate() {
            for (i, e) in values.content.iter_mut().enumerate() {
                if let Some(Some(ty)) = types.get(i) {
                    let value = std::mem::replace(e, crate::ast_build::null());
                    *e = ty.store(value, &qualified(table, &names[i]), row + 1);
                }
            }
        }
        return;
    }
    let inner = std::mem::replace(src.as_mut(), crate::ast_build::values(vec![]));
    let names: Vec<String> = names.iter().map(|n| qualified(table, n)).collect();
    **src = through_cte(inner, &names, &types);
}

const SOURCE: &str = "tutti_src";

fn through_cte(inner: Query, names: &[String], types: &[Option<DecimalType>]) -> Query {
    let cols: Vec<String> = (1..=names.len()).map(|i| format!("c{i}")).collect();
    let projection = cols
        .iter()
        .zip(types.iter().zip(names))
        .map(|(c, (ty, name))| {
            let e = Expr::Identifier(quoted(c.clone()));
            SelectItem::UnnamedExpr(match ty {
                Some(ty) => ty.store(e, name, 1),
                None => e,
            })
        })
        .collect();
    let from = TableWithJoins {
        relation: TableFactor::Table {
            name: sqlparser::ast::ObjectName::from(vec![quoted(SOURCE.to_string())]),
            alias: None,
            args: None,
            with_hints: vec![],
            version: None,
            with_ordinality: false,
            partitions: vec![],
            json_path: None,
            sample: None,
            index_hints: vec![],
        },
        joins: vec![],
    };
    let mut q = query(SetExpr::Select(Box::new(select(
        projection,
        vec![from],
        None,
    ))));
    q.with = Some(With {
        with_token: AttachedToken::empty(),
        recursive: false,
        cte_tables: vec![Cte {
            alias: TableAlias {
                explicit: false,
                name: quoted(SOURCE.to_string()),
                columns: cols
                    .into_iter()
                    .map(|c| TableAliasColumnDef {
                        name: quoted(c),
                        data_type: None,
                    })
                    .collect(),
                at: None,
            },
            query: Box::new(inner),
            from: None,
            materialized: None,
            closing_paren_token: AttachedToken::empty(),
        }],
    });
    q
}
