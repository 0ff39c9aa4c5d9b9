//! The columns of a derived table or CTE, typed, so that expressions over them are typed
//! as over a table's columns.
//!
//! A DECIMAL computed in a subquery (`SELECT AVG(i) AS a …`, `SUM(d)`, `d * 2`) is DECIMAL
//! text in SQLite; an outer `WHERE a > 1.6` must compare it as a number, which the rewrite
//! does only for what it knows to be DECIMAL. The derived table's scope gives each column
//! the declared type its SELECT item has: a table column's own, a DECIMAL's `DECIMAL
//! TEXT(p,s)`, an integer, double or string its MySQL type (`BIGINT(21)`, `VARCHAR(1)`); other
//! computed values are left untyped. A string column keeps its collation (a table column's
//! own, a computed string's derived one), written into the scope's `create_sql` as a table's
//! is, so that `LOWER(c)`, `CONCAT(c, …)` over it group, sort and compare in it (they
//! compared as bytes: `SELECT DISTINCT LOWER(c) FROM (…) d` kept `abc` and `abc `).

use sqlparser::ast::{Expr, Ident, Query, Select, SelectItem, SetExpr, SetOperator};

use crate::decimal::DecimalType;
use crate::derivation::{column_collation, declared_column_collation, sqlite_collation};
use crate::result_types::{self, ResultType};
use crate::typing::{NumType, Scope, Scopes};
use crate::{ColumnInfo, Env, TableInfo, TableName};

/// The SELECT whose items are a derived table's (or CTE's) columns: its plain SELECT, or
/// the first level of a ROLLUP (the others differ from it only by NULLs).
pub(crate) fn typed_select<'a>(alias: &str, q: &'a Query) -> Option<&'a Select> {
    match q.body.as_ref() {
        SetExpr::Select(s) => Some(s),
        body if alias == crate::rollup::ROLLUP => crate::rollup::first_level(body),
        _ => None,
    }
}

/// The SELECTs of a UNION (of any depth); None for other bodies.
pub(crate) fn union_members(body: &SetExpr) -> Option<Vec<&Select>> {
    match body {
        SetExpr::Select(s) => Some(vec![s]),
        SetExpr::Query(q) => union_members(&q.body),
        SetExpr::SetOperation {
            op: SetOperator::Union,
            left,
            right,
            ..
        } => {
            let mut all = union_members(left)?;
            all.extend(union_members(right)?);
            Some(all)
        }
        _ => None,
    }
}

/// The scope of a UNION from its members' scopes: the first member's names, and a column's
/// type where the members agree on it (one declared type, or all integers), a string's
/// where strings meet strings or numbers; untyped otherwise.
pub(crate) fn merged(members: Vec<Scope>) -> Option<Scope> {
    let is_number = |t: NumType| matches!(t, NumType::Int | NumType::Decimal | NumType::Double);
    let mut members = members.into_iter();
    let mut first = members.next()?;
    let others: Vec<Scope> = members.collect();
    for (i, column) in first.table.columns.iter_mut().enumerate() {
        let decls: Vec<&str> = others
            .iter()
            .map(|s| s.table.columns.get(i).map_or("", |c| c.decl_type.as_str()))
            .collect();
        if decls.iter().all(|d| *d == column.decl_type) {
            continue;
        }
        let class = |d: &str| crate::typing::decl_type(d);
        let plain_text = |d: &str| {
            let upper = d.to_ascii_uppercase();
            class(d) == NumType::Str
                && !crate::has_members(d)
                && !["JSON", "BINARY", "BLOB"].iter().any(|w| upper.contains(w))
        };
        let all = |f: &dyn Fn(&str) -> bool| f(&column.decl_type) && decls.iter().all(|d| f(d));
        column.decl_type = if all(&|d| class(d) == NumType::Int && !crate::big_unsigned::decl(d)) {
            "BIGINT".into()
        } else if all(&|d| plain_text(d) || is_number(class(d))) && !all(&|d| !plain_text(d)) {
            // Strings and numbers: a string, as MySQL types the UNION.
            "TEXT".into()
        } else {
            String::new()
        };
    }
    Some(first)
}

/// The scope of a derived table or CTE named `alias` (with its column list `names`, if
/// any) whose items are those of `s` (see [`typed_select`]), whose FROM tables are `inner`;
/// `zoned_timestamps`: the statement reads TIMESTAMPs in the session's zone.
pub(crate) fn scope(
    alias: &str,
    names: &[Ident],
    s: &Select,
    inner: Vec<Scope>,
    outer: &Scopes,
    env: &dyn Env,
    zoned_timestamps: bool,
) -> Option<Scope> {
    let mut scopes = outer.clone();
    scopes.push(inner);
    let types = result_types::of_projection(&s.projection, &s.from, &scopes);
    // Each result column's name, whether it reads a column as is, and the SQLite collation
    // its strings compare in, `*` expanded.
    let mut named: Vec<(String, bool, Option<String>)> = Vec::with_capacity(types.len());
    for item in &s.projection {
        match item {
            SelectItem::ExprWithAlias { alias, expr } => named.push((
                alias.value.clone(),
                plain_column(item),
                item_collation(expr, &scopes, env),
            )),
            SelectItem::UnnamedExpr(e) => named.push((
                item_name(e),
                plain_column(item),
                item_collation(e, &scopes, env),
            )),
            wildcard => {
                let columns = result_types::wildcard_columns(wildcard, &s.from, &scopes)?;
                named.extend(columns.into_iter().map(|(t, c)| {
                    let collation = declared_column_collation(&t.create_sql, &c.name);
                    (c.name.clone(), true, collation)
                }));
            }
        }
    }
    if types.len() != named.len() {
        return None; // a `*` that could not be expanded
    }
    let mut collated = Vec::new();
    let columns: Vec<ColumnInfo> = named
        .into_iter()
        .zip(types)
        .enumerate()
        .map(|(i, ((item_name, plain, collation), ty))| {
            let name = names.get(i).map_or(item_name, |n| n.value.clone());
            if let Some(c) = collation {
                collated.push((name.clone(), c));
            }
            let computed = match &ty {
                Some(ResultType::Computed { mysql_type, .. }) => Some(mysql_type.clone()),
                _ => None,
            };
            let mut decl_type = decl_of(ty);
            if crate::big_unsigned::decl(&decl_type) && !plain {
                // `MAX(c)` of such a column is its value, not its stored form (see
                // `big_unsigned`): a number, exact as a DECIMAL.
                decl_type = big_unsigned_value_decl();
            }
            if zoned_timestamps && crate::timestamps::decl(&decl_type) && !plain {
                // A value read in the session's zone (see `timestamps`) is no stored
                // TIMESTAMP: references must not convert it again.
                decl_type = format!("DATETIME{}", &decl_type["TIMESTAMP".len()..]);
            }
            ColumnInfo {
                name,
                decl_type,
                not_null: false,
                pk: 0,
                default: None,
                computed,
            }
        })
        .collect();
    Some(Scope {
        alias: alias.to_string(),
        table: TableInfo {
            name: TableName {
                db: String::new(),
                table: alias.to_string(),
            },
            columns,
            autoinc: None,
            indexes: Vec::new(),
            create_sql: collations_sql(alias, &collated),
            referenced: false,
        },
    })
}

/// The computed string items of a derived table's (rewritten) plain SELECT `body` take
/// the collations its `scope` records: SQLite gives a function's result none, so an outer
/// `x = 'abc'`, `GROUP BY x` or `DISTINCT x` over `CONCAT(c, '')` compared bytes.
pub(crate) fn collate_items(scope: &Scope, body: &mut SetExpr) {
    let SetExpr::Select(s) = body else { return };
    let sql = &scope.table.create_sql;
    for (item, column) in s.projection.iter_mut().zip(&scope.table.columns) {
        let SelectItem::ExprWithAlias { expr, .. } = item else {
            continue;
        };
        let computed = !matches!(
            crate::typing::unnested(expr),
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) | Expr::Collate { .. }
        );
        if let Some(c) = declared_column_collation(sql, &column.name).filter(|_| computed) {
            crate::typing::collate_in(expr, &c);
        }
    }
}

/// The SQLite collation of a derived table's item `e` (in MySQL form): a column's declared
/// one, or a computed string's derived one; None for bytes and numbers.
fn item_collation(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Option<String> {
    match crate::typing::unnested(e) {
        e @ (Expr::Identifier(_) | Expr::CompoundIdentifier(_)) => column_collation(e, scopes),
        e => sqlite_collation(e, scopes, env).map(str::to_string),
    }
}

/// A `CREATE TABLE` naming the collations of a derived table's string columns, in the form
/// `derivation` reads a table's (empty when none has one).
fn collations_sql(alias: &str, collated: &[(String, String)]) -> String {
    if collated.is_empty() {
        return String::new();
    }
    let columns: Vec<String> = collated
        .iter()
        .map(|(name, c)| format!("{} TEXT COLLATE {c}", crate::names::quote_str(name)))
        .collect();
    let table = crate::names::quote_str(alias);
    format!("CREATE TABLE {table} ({})", columns.join(", "))
}

/// The columns of a view (its SQLite definition, as tutti wrote it) that are computed
/// DECIMALs, with a declared type for them: SQLite gives a view's expression columns none.
pub fn view_decimal_columns(create_sql: &str) -> Vec<(String, String)> {
    let dialect = sqlparser::dialect::SQLiteDialect {};
    let Ok(mut stmts) = sqlparser::parser::Parser::parse_sql(&dialect, create_sql) else {
        return Vec::new();
    };
    let Some(sqlparser::ast::Statement::CreateView(view)) = stmts.pop() else {
        return Vec::new();
    };
    let SetExpr::Select(s) = view.query.body.as_ref() else {
        return Vec::new();
    };
    let any = DecimalType::new(crate::decimal::MAX_PRECISION, 30).map(|t| t.decl());
    s.projection
        .iter()
        .filter_map(|item| match item {
            SelectItem::ExprWithAlias {
                expr: sqlparser::ast::Expr::Collate { collation, .. },
                alias,
            } if collation.to_string() == crate::decimal::COLLATION => {
                Some((alias.value.clone(), any.clone().ok()?))
            }
            _ => None,
        })
        .collect()
}

/// An item that is a column reference.
fn plain_column(item: &SelectItem) -> bool {
    matches!(item, SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }
        if matches!(e, sqlparser::ast::Expr::Identifier(_) | sqlparser::ast::Expr::CompoundIdentifier(_)))
}

/// The name of an unaliased item: a column's (`t.a` is `a`), an expression's text as
/// printed (which is SQLite's name for it when the client spelled it the same way).
fn item_name(e: &sqlparser::ast::Expr) -> String {
    crate::item_names::column_name(e, None)
}

/// The declared type a result column gets: a column's own, a DECIMAL's, else none.
pub(crate) fn decl_of(ty: Option<ResultType>) -> String {
    match ty {
        Some(ResultType::Column { column, .. }) => column.decl_type,
        // A BIGINT UNSIGNED value may exceed SQLite's integers: exact as a DECIMAL.
        Some(ResultType::Computed { mysql_type, .. })
            if mysql_type.starts_with("bigint") && mysql_type.ends_with("unsigned") =>
        {
            big_unsigned_value_decl()
        }
        // A computed DATE, DATETIME, TIMESTAMP or TIME (`MAX(d)`) compares as one.
        Some(ResultType::Computed { mysql_type, .. })
            if crate::stored::temporal_of(&mysql_type).is_some() =>
        {
            mysql_type.to_ascii_uppercase()
        }
        // A computed integer, double or string compares as one (`x = '1.0'` by number, `s = 0`
        // as doubles), not as SQLite compares a value without affinity.
        Some(ResultType::Computed { mysql_type, .. }) if integer_or_text(&mysql_type) => {
            mysql_type.to_ascii_uppercase()
        }
        Some(ResultType::Computed { mysql_type, .. }) => decimal_decl(&mysql_type),
        None => String::new(),
    }
}

/// A MySQL integer (but BIGINT UNSIGNED), DOUBLE or character string type.
fn integer_or_text(mysql_type: &str) -> bool {
    let base = mysql_type.split('(').next().unwrap_or_default();
    matches!(
        base,
        "tinyint"
            | "smallint"
            | "mediumint"
            | "int"
            | "bigint"
            | "double"
            | "varchar"
            | "tinytext"
            | "text"
            | "mediumtext"
            | "longtext"
    ) && !mysql_type.ends_with("unsigned")
}

/// The declared type of a BIGINT UNSIGNED value (not a stored column): DECIMAL(20,0).
fn big_unsigned_value_decl() -> String {
    DecimalType::new(20, 0)
        .map(|t| t.decl())
        .unwrap_or_default()
}

/// `decimal(14,4)` → `DECIMAL TEXT(14,4)`; "" for other types.
fn decimal_decl(mysql_type: &str) -> String {
    let parsed = mysql_type
        .strip_prefix("decimal(")
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|r| r.split_once(','))
        .and_then(|(p, s)| DecimalType::new(p.parse().ok()?, s.parse().ok()?).ok());
    parsed.map(|t| t.decl()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::tests::s as sql;

    #[test]
    fn a_unions_columns_are_typed_where_its_members_agree() {
        assert_eq!(
            sql("SELECT a FROM (SELECT 1 AS a UNION SELECT 2) u WHERE a = '2.0'"),
            r#"SELECT "a" FROM (SELECT 1 AS "a" UNION SELECT 2 AS "2") AS "u" WHERE "a" = CAST('2.0' AS NUMERIC)"#
        );
    }

    #[test]
    fn a_views_computed_decimals_are_found() {
        let view = r#"CREATE VIEW "db.v" AS SELECT tutti_dec_mul("d", 2) COLLATE tutti_decimal AS "e", "d", "i" + 1 AS "j" FROM "db.t" AS "t""#;
        let found = super::view_decimal_columns(view);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "e");
        assert!(found[0].1.starts_with(crate::decimal::DECL), "{found:?}");
        assert!(super::view_decimal_columns("CREATE TABLE x (a INT)").is_empty());
    }

    #[test]
    fn decimals_of_derived_tables_and_ctes_compare_as_numbers() {
        for q in [
            "SELECT * FROM (SELECT AVG(a) AS s FROM t) AS q WHERE s > 1.6",
            "SELECT * FROM (SELECT a / 2 FROM t) AS q (s) WHERE s > 1.6",
            "WITH c AS (SELECT AVG(a) AS s FROM t) SELECT s FROM c WHERE s > 1.6",
        ] {
            let s = sql(q);
            assert!(s.contains(r#"tutti_dec_cmp("s", '1.6') > 0"#), "{q}: {s}");
        }
    }
}
