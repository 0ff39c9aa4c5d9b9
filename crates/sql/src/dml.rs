//! SELECT, INSERT, REPLACE, UPDATE and DELETE → [`Stmt::Query`].
//!
//! * The written table is resolved (`target`) and printed `"db.t" AS "t"`, so qualified
//!   column references keep working; SET/INSERT column names lose their qualifiers (SQLite
//!   allows none there).
//! * `INSERT IGNORE` → `INSERT OR IGNORE`, `UPDATE IGNORE` → `UPDATE OR IGNORE`.
//! * `INSERT ... SET a = 1` → `INSERT ... (a) VALUES (1)`.
//! * `ON DUPLICATE KEY UPDATE a = VALUES(a)` (or `= new.a` with the MySQL 8 row alias
//!   `AS new`) → `ON CONFLICT DO UPDATE SET "a" = "excluded"."a"` (SQLite ≥ 3.35 allows the
//!   target-less last ON CONFLICT clause, which fires on any uniqueness conflict like MySQL).
//!   A table with several unique keys gets one clause per key, in MySQL's key order
//!   (`conflict_clauses`): SQLite checks the targeted keys in clause order, so the row
//!   updated is the one MySQL updates, the first key's (SQLite alone would check the
//!   last-created index first).
//!   With `INSERT ... SELECT`, SQLite needs a WHERE in the SELECT to parse the upsert, so
//!   `WHERE 1` is added when there is none; an UPDATE naming the SELECT's columns: see
//!   `upsert_source`.
//! * A plain INSERT into a table with unique keys gets, per key, an `ON CONFLICT(key) DO
//!   UPDATE` whose update fails with MySQL's duplicate-key text naming the key and the value
//!   (`duplicate_entry_clauses`; SQLite's own message names only columns).
//! * `DEFAULT` as a value → the column's default from the catalog (NULL when none); a column
//!   named in a value: see `row_values`.
//! * `UPDATE/DELETE ... [ORDER BY ..] LIMIT n` (SQLite is built without it) →
//!   `WHERE rowid IN (SELECT rowid FROM "db.t" AS "t" WHERE .. ORDER BY .. LIMIT n)`;
//!   ORDER BY without LIMIT is dropped.
//! * Multi-table UPDATE/DELETE, and UPDATE/DELETE of a view: see `multi_table`; INSERT into
//!   a view: see `views`.
//! * AUTO_INCREMENT: see `autoinc`; values written into DECIMAL columns: see `stored`.

use sqlparser::ast::{
    Assignment, AssignmentTarget, Delete, DoUpdate, Expr, FromTable, Ident, Insert, InsertAliases,
    LimitClause, ObjectName, ObjectNamePart, OnConflict, OnConflictAction, OnInsert, OrderBy,
    OrderByKind, SelectItem, SetExpr, SqliteOnConflict, Statement, TableAliasWithoutColumns,
    TableFactor, TableObject, Update,
};

use crate::ast_build::{
    bare, func, number, qualified, query, select, select_star_from, values, verbatim,
};
use crate::dispatch::StmtInfo;
use crate::names::{quoted, resolve, sqlite_object};
use crate::rewrite::Rewriter;
use crate::upsert_source::SourceColumns;
use crate::{autoinc, stored, Env, Query, QueryKind, SqlError, Stmt, TableInfo, TableName};

/// A SELECT (including UNION, CTEs).
pub(crate) fn select_stmt(info: &StmtInfo<'_>, mut stmt: Statement) -> Result<Stmt, SqlError> {
    let limited = select_limit(info.env, &mut stmt);
    let mut s = translate_select(info, stmt, Rewriter::new(info.env))?;
    if let Stmt::Query(q) = &mut s {
        q.volatile |= limited;
    }
    Ok(s)
}

/// `@@sql_select_limit`: a top-level SELECT without a LIMIT returns at most that many rows
/// (a UNION as a whole; subqueries and `CREATE TABLE ... SELECT` are not cut). True when
/// the statement got a LIMIT from it (the translation then depends on the session).
fn select_limit(env: &dyn Env, stmt: &mut Statement) -> bool {
    let Statement::Query(q) = stmt else {
        return false;
    };
    let Some(crate::Value::Int(n)) =
        env.system_variable(crate::VarScope::Session, "sql_select_limit")
    else {
        return false;
    };
    if q.limit_clause.is_some() || n < 0 {
        return false;
    }
    q.limit_clause = Some(sqlparser::ast::LimitClause::LimitOffset {
        limit: Some(crate::ast_build::number(n.to_string())),
        offset: None,
        limit_by: vec![],
    });
    true
}

/// A SELECT whose result columns' MariaDB types are derived (`Query::result_types`).
pub(crate) fn select_with_types(info: &StmtInfo<'_>, stmt: Statement) -> Result<Stmt, SqlError> {
    translate_select(info, stmt, Rewriter::new(info.env).with_result_types())
}

fn translate_select(
    info: &StmtInfo<'_>,
    mut stmt: Statement,
    rw: Rewriter<'_>,
) -> Result<Stmt, SqlError> {
    let calc_found_rows = matches!(&stmt, Statement::Query(q) if calc_found_rows(q));
    let mut rw = rw.with_source(info.source());
    if !rw.derives_types() {
        rw = rw.stored_results();
    }
    rw.statement(&mut stmt)?;
    let lock = match (&stmt, rw.lock, info.locking) {
        (Statement::Query(q), Some(spec), _) => Some(crate::locking::row_lock(info.env, q, spec)?),
        (Statement::Query(q), None, true) => Some(crate::locking::row_lock(
            info.env,
            q,
            crate::locking::LockSpec::share(),
        )?),
        _ => None,
    };
    let mut s = finish(info, &rw, stmt.to_string(), QueryKind::Select, None, None);
    if let (Stmt::Query(q), Statement::Query(query)) = (&mut s, &stmt) {
        q.row_lock = lock;
        q.found_rows_sql = calc_found_rows.then(|| count_without_limit(query));
        if !calc_found_rows {
            q.found_rows_offset = literal_offset(query);
            q.found_rows_sql = q.found_rows_offset.map(|n| count_first(query, n));
        }
    }
    Ok(s)
}

/// A query's literal OFFSET, when above 0.
fn literal_offset(q: &sqlparser::ast::Query) -> Option<u64> {
    use sqlparser::ast::LimitClause;
    let offset = match q.limit_clause.as_ref()? {
        LimitClause::LimitOffset {
            offset: Some(o), ..
        } => &o.value,
        LimitClause::OffsetCommaLimit { offset, .. } => offset,
        LimitClause::LimitOffset { offset: None, .. } => return None,
    };
    match offset {
        Expr::Value(v) => match &v.value {
            sqlparser::ast::Value::Number(n, _) => n.parse().ok().filter(|n| *n > 0),
            _ => None,
        },
        _ => None,
    }
}

/// `SELECT COUNT(*)` of the query's first `n` rows.
fn count_first(q: &sqlparser::ast::Query, n: u64) -> String {
    let mut first = q.clone();
    first.order_by = None;
    first.limit_clause = Some(sqlparser::ast::LimitClause::LimitOffset {
        limit: Some(crate::ast_build::number(n.to_string())),
        offset: None,
        limit_by: vec![],
    });
    format!("SELECT COUNT(*) FROM ({first})")
}

/// `SELECT SQL_CALC_FOUND_ROWS ...` with a LIMIT (the modifier is on the first SELECT).
fn calc_found_rows(q: &sqlparser::ast::Query) -> bool {
    fn first_select(body: &SetExpr) -> Option<&sqlparser::ast::Select> {
        match body {
            SetExpr::Select(s) => Some(s),
            SetExpr::SetOperation { left, .. } => first_select(left),
            SetExpr::Query(q) => first_select(&q.body),
            _ => None,
        }
    }
    q.limit_clause.is_some()
        && first_select(&q.body)
            .and_then(|s| s.select_modifiers.as_ref())
            .is_some_and(|m| m.sql_calc_found_rows)
}

/// `SELECT COUNT(*) FROM (query without ORDER BY and LIMIT)`.
fn count_without_limit(q: &sqlparser::ast::Query) -> String {
    let mut all = q.clone();
    all.limit_clause = None;
    all.order_by = None;
    format!("SELECT COUNT(*) FROM ({all})")
}

pub(crate) fn finish(
    info: &StmtInfo<'_>,
    rw: &Rewriter<'_>,
    sql: String,
    kind: QueryKind,
    target: Option<TableName>,
    autoinc: Option<crate::InsertIds>,
) -> Stmt {
    Stmt::Query(Query {
        sql,
        kind,
        params: info.params,
        target,
        autoinc,
        locking: info.locking || rw.lock.is_some(),
        row_lock: None,
        reads: rw.reads(),
        volatile: rw.ex.volatile,
        decimal_columns: rw.decimal_columns.clone().unwrap_or_default(),
        fixed_decimals: rw.fixed_decimals.clone(),
        result_types: rw.result_types.clone().unwrap_or_default(),
        computed_types: rw.computed_types.clone(),
        found_rows_sql: None,
        found_rows_offset: None,
        values_rows: None,
        ignore: false,
        marks_changes: false,
        counts_selected: false,
    })
}

/// The unqualified column an assignment or column list names, double-quoted.
fn column_name(name: &ObjectName) -> Result<Ident, SqlError> {
    match name.0.last() {
        Some(ObjectNamePart::Identifier(i)) => Ok(quoted(i.value.clone())),
        _ => Err(SqlError::Unsupported(format!("the column name {name}"))),
    }
}

/// `DEFAULT` (as a value) → the column's default expression, printed verbatim.
pub(crate) fn default_value(table: Option<&TableInfo>, column: &str) -> Expr {
    let default = table.and_then(|t| {
        let c = t
            .columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(column))?;
        c.default
            .as_deref()
            .map(|d| crate::columns::current_timestamp_value(d).unwrap_or_else(|| verbatim(d)))
    });
    default.unwrap_or_else(crate::ast_build::null)
}

pub(crate) fn is_default(e: &Expr) -> bool {
    matches!(e, Expr::Identifier(i) if i.quote_style.is_none() && i.value.eq_ignore_ascii_case("DEFAULT"))
}

/// INSERT and REPLACE.
pub(crate) fn insert(info: &StmtInfo<'_>, mut ins: Insert) -> Result<Stmt, SqlError> {
    let kind = if ins.replace_into {
        QueryKind::Replace
    } else if ins.on.is_some() {
        QueryKind::Upsert
    } else {
        QueryKind::Insert
    };
    let TableObject::TableName(name) = &ins.table else {
        return Err(SqlError::Unsupported("INSERT INTO TABLE FUNCTION".into()));
    };
    check_value_counts(&ins)?;
    let mut target = resolve(info.env, name)?;
    let mut table = info.env.table(&target);
    if let Some(view) = table.take_if(|t| t.is_view()) {
        let (base, base_info) = crate::views::insert_into_table(info.env, &view, &mut ins)?;
        target = base;
        table = Some(base_info);
    }
    ins.into = true; // MySQL's INTO is optional, SQLite's is not
    if !ins.assignments.is_empty() {
        set_to_values(&mut ins)?;
    }
    let mut columns: Vec<Ident> = ins
        .columns
        .iter()
        .map(column_name)
        .collect::<Result<_, _>>()?;
    let source = match (&table, &ins.on) {
        (Some(t), Some(OnInsert::DuplicateKeyUpdate(_))) => {
            SourceColumns::of(info.env, &ins, &columns, t)
        }
        _ => SourceColumns::default(),
    };
    replace_defaults_in_rows(&mut ins, &columns, table.as_ref());
    if let Some(t) = &table {
        crate::row_values::resolve(&mut ins, &columns, t, &target.table);
    }
    // INSERT IGNORE adjusts values that do not fit, as outside strict mode.
    let strict = stored::strict_mode(info.env) && !ins.ignore;
    if let Some(t) = &table {
        let omitted = omitted_without_default(&ins, &columns, t);
        // An ENUM's implicit default (its first member) needs no leniency.
        let enum_column = |name: &str| {
            t.columns
                .iter()
                .any(|c| c.name == name && c.decl_type.to_ascii_uppercase().starts_with("ENUM"))
        };
        if let Some(c) = omitted.iter().find(|c| !enum_column(c)).filter(|_| strict) {
            return Err(SqlError::NoDefault(c.clone()));
        }
        if !omitted.is_empty() {
            implicit_defaults(&mut ins, &mut columns, t, &omitted);
        }
        let ignore = ins.ignore;
        stored::insert(&mut ins, &columns, t, strict, ignore);
    }
    let alias = ins.insert_alias.take();
    if let Some(on) = ins.on.take() {
        let refs = InsertedRefs {
            alias: alias.as_ref(),
            columns: &columns,
            source: &source,
        };
        ins.on = Some(upsert(on, &refs, table.as_ref(), strict)?);
    }
    let mut rw = Rewriter::new(info.env);
    if let Some(t) = &table {
        rw.target_scope(t, &[&target.table, "excluded"]);
    }
    let mut stmt = Statement::Insert(ins);
    rw.statement(&mut stmt)?;
    let Statement::Insert(mut ins) = stmt else {
        unreachable!()
    };

    // (INSERT IGNORE: as UPDATE IGNORE, see `update`.)
    let mut marks_changes = false;
    if let Some(OnInsert::OnConflict(on)) =
        ins.on.as_mut().filter(|_| table.is_some() && !ins.ignore)
    {
        if let OnConflictAction::DoUpdate(update) = &mut on.action {
            mark_changes(&mut update.assignments, &target);
            marks_changes = true;
        }
    }
    ins.table = TableObject::TableName(sqlite_object(&target));
    ins.table_alias = Some(TableAliasWithoutColumns {
        explicit: true,
        alias: quoted(target.table.clone()),
    });
    if ins.ignore {
        ins.ignore = false;
        ins.or = Some(SqliteOnConflict::Ignore);
    }
    ins.priority = None;
    let empty_rows = ins.source.as_ref().is_some_and(|s| {
        matches!(s.body.as_ref(), SetExpr::Values(v) if v.rows.iter().all(|r| r.content.is_empty()))
    });
    if empty_rows && columns.is_empty() {
        let rows = match ins.source.as_ref().map(|s| s.body.as_ref()) {
            Some(SetExpr::Values(v)) => v.rows.len(),
            _ => 0,
        };
        let has_autoinc = table.as_ref().is_some_and(|t| t.autoinc.is_some());
        if rows > 1 && !has_autoinc {
            return Err(SqlError::Unsupported(
                "INSERT of several rows with VALUES ()".into(),
            ));
        }
        if !has_autoinc {
            ins.source = None; // prints DEFAULT VALUES
        }
    }
    let autoinc = match &table {
        Some(t) if autoinc::rewrite_insert(&mut ins, &mut columns, t) => {
            Some(autoinc::insert_ids(&ins, rw.reads(), &target, t))
        }
        _ => None,
    };
    ins.columns = columns
        .into_iter()
        .map(|c| ObjectName::from(vec![c]))
        .collect();
    let plain = kind == QueryKind::Insert && ins.or.is_none() && ins.source.is_some();
    let clauses = if ins.returning.is_some() {
        String::new()
    } else {
        match (ins.on.take(), &table) {
            (Some(OnInsert::OnConflict(on)), t) => conflict_clauses(on, t.as_ref()),
            (None, Some(t)) if plain => duplicate_entry_clauses(t),
            (other, _) => {
                ins.on = other;
                String::new()
            }
        }
    };
    if !clauses.is_empty() {
        upsert_select_needs_where(&mut ins);
    }
    let values_rows = match ins.source.as_ref().map(|s| s.body.as_ref()) {
        Some(SetExpr::Values(v)) => Some(v.rows.len() as u64),
        _ => None,
    };
    let ignore = ins.or == Some(SqliteOnConflict::Ignore);
    if ignore && clauses.is_empty() && values_rows.is_none() {
        count_offered(&mut ins);
    }
    let sql = format!("{ins}{clauses}");
    let mut stmt = finish(info, &rw, sql, kind, Some(target), autoinc);
    let selected = !matches!(
        ins.source.as_ref().map(|s| s.body.as_ref()),
        Some(SetExpr::Values(_)) | None
    );
    if let Stmt::Query(q) = &mut stmt {
        q.values_rows = values_rows;
        q.ignore = ignore;
        q.marks_changes = marks_changes;
        q.counts_selected = selected;
    }
    Ok(stmt)
}

/// MariaDB's count check of `VALUES` rows, before SQLite's (which reports an empty row
/// as a syntax error and a row of another length without its number): every row has as
/// many values as the first, and the first as many as the column list names. (Without a
/// column list SQLite compares the first row with the table's columns.)
fn check_value_counts(ins: &Insert) -> Result<(), SqlError> {
    let Some(SetExpr::Values(v)) = ins.source.as_ref().map(|s| s.body.as_ref()) else {
        return Ok(());
    };
    let Some(first) = v.rows.first().map(|r| r.content.len()) else {
        return Ok(());
    };
    if !ins.columns.is_empty() && first != ins.columns.len() {
        return Err(SqlError::ColumnCount(1));
    }
    match v.rows.iter().position(|r| r.content.len() != first) {
        Some(i) => Err(SqlError::ColumnCount(i + 1)),
        None => Ok(()),
    }
}

/// The NOT NULL columns without DEFAULT the INSERT leaves out (all of them with
/// `VALUES ()`): strict mode refuses the first (1364) before SQLite's NOT NULL would
/// (1048); otherwise they get their implicit defaults.
fn omitted_without_default(ins: &Insert, columns: &[Ident], t: &TableInfo) -> Vec<String> {
    let all_default = ins.source.as_ref().is_none_or(|s| {
        matches!(s.body.as_ref(), SetExpr::Values(v) if v.rows.iter().all(|r| r.content.is_empty()))
    });
    if columns.is_empty() && !all_default {
        return vec![];
    }
    t.columns
        .iter()
        .filter(|c| c.not_null && c.default.is_none())
        .filter(|c| t.autoinc.as_deref() != Some(c.name.as_str()))
        .filter(|c| {
            !columns
                .iter()
                .any(|n| n.value.eq_ignore_ascii_case(&c.name))
        })
        .map(|c| c.name.clone())
        .collect()
}

/// Lists the `omitted` columns with their implicit defaults (outside strict mode, as
/// MariaDB stores them): appended to every `VALUES` row, or to a SELECT's rows as
/// `SELECT *, <defaults> FROM (<select>)`.
fn implicit_defaults(
    ins: &mut Insert,
    columns: &mut Vec<Ident>,
    t: &TableInfo,
    omitted: &[String],
) {
    let defaults: Vec<Expr> = omitted
        .iter()
        .map(|c| stored::implicit_default(t, c))
        .collect();
    columns.extend(omitted.iter().map(|c| quoted(c.as_str())));
    let Some(src) = ins.source.as_mut() else {
        ins.source = Some(Box::new(values(vec![defaults])));
        return;
    };
    if let SetExpr::Values(v) = src.body.as_mut() {
        if src.order_by.is_none() && src.limit_clause.is_none() {
            for row in &mut v.rows {
                row.content.extend(defaults.iter().cloned());
            }
            return;
        }
    }
    let inner = std::mem::replace(src.as_mut(), values(vec![]));
    let mut projection = vec![SelectItem::Wildcard(Default::default())];
    projection.extend(defaults.into_iter().map(SelectItem::UnnamedExpr));
    **src = query(SetExpr::Select(Box::new(select(
        projection,
        vec![crate::ast_build::derived(inner)],
        None,
    ))));
}

/// `INSERT ... SET a = 1, b = 2` → `INSERT ... (a, b) VALUES (1, 2)`.
fn set_to_values(ins: &mut Insert) -> Result<(), SqlError> {
    let mut row = Vec::new();
    for a in std::mem::take(&mut ins.assignments) {
        let AssignmentTarget::ColumnName(name) = a.target else {
            return Err(SqlError::Unsupported("INSERT ... SET (a, b) = ...".into()));
        };
        ins.columns.push(name);
        row.push(a.value);
    }
    ins.source = Some(Box::new(values(vec![row])));
    Ok(())
}

/// `DEFAULT` values in VALUES rows → the catalog's defaults.
fn replace_defaults_in_rows(ins: &mut Insert, columns: &[Ident], table: Option<&TableInfo>) {
    let Some(src) = ins.source.as_mut() else {
        return;
    };
    let SetExpr::Values(v) = src.body.as_mut() else {
        return;
    };
    for row in &mut v.rows {
        for (i, e) in row.content.iter_mut().enumerate() {
            if !is_default(e) {
                continue;
            }
            let column = match columns.get(i) {
                Some(c) => Some(c.value.clone()),
                None if columns.is_empty() => {
                    table.and_then(|t| t.columns.get(i)).map(|c| c.name.clone())
                }
                None => None,
            };
            *e = match column {
                Some(c) if table.and_then(|t| t.autoinc.as_deref()) == Some(c.as_str()) => {
                    crate::ast_build::null()
                }
                Some(c) => default_value(table, &c),
                None => crate::ast_build::null(),
            };
        }
    }
}

/// What an ON DUPLICATE KEY UPDATE may name of the row offered for insertion.
struct InsertedRefs<'a> {
    /// MySQL 8's `AS new [(a, b)]`.
    alias: Option<&'a InsertAliases>,
    /// The inserted columns.
    columns: &'a [Ident],
    /// The columns of an INSERT … SELECT's SELECT.
    source: &'a SourceColumns,
}

/// ON DUPLICATE KEY UPDATE → ON CONFLICT DO UPDATE.
fn upsert(
    on: OnInsert,
    refs: &InsertedRefs<'_>,
    table: Option<&TableInfo>,
    strict: bool,
) -> Result<OnInsert, SqlError> {
    let OnInsert::DuplicateKeyUpdate(assignments) = on else {
        return Ok(on);
    };
    let (alias, columns) = (refs.alias, refs.columns);
    let row_alias = alias
        .and_then(|a| a.row_alias.0.last())
        .and_then(|p| p.as_ident())
        .map(|i| i.value.clone());
    let col_aliases: Vec<String> = alias
        .and_then(|a| a.col_aliases.as_ref())
        .map(|c| c.iter().map(|i| i.value.clone()).collect())
        .unwrap_or_default();
    let mut out = Vec::with_capacity(assignments.len());
    for Assignment { target, mut value } in assignments {
        let AssignmentTarget::ColumnName(name) = target else {
            return Err(SqlError::Unsupported(
                "ON DUPLICATE KEY UPDATE (a, b) = ...".into(),
            ));
        };
        let column = column_name(&name)?;
        if let Some(t) = table {
            refs.source.rewrite(&mut value, t);
        }
        excluded_refs(&mut value, row_alias.as_deref(), &col_aliases, columns);
        if let Some(t) = table {
            value = stored::assigned(t, &column.value, value, strict);
        }
        let target = AssignmentTarget::ColumnName(ObjectName::from(vec![column]));
        out.push(Assignment { target, value });
    }
    if let Some(t) = table {
        crate::on_update::add_assignments(t, &mut out, |c, v| stored::assigned(t, c, v, strict));
    }
    Ok(OnInsert::OnConflict(OnConflict {
        conflict_target: None,
        action: OnConflictAction::DoUpdate(DoUpdate {
            assignments: out,
            selection: None,
        }),
    }))
}

/// A table's unique keys in MySQL's order — the primary key, unique keys over NOT NULL
/// columns, the other unique keys, each group in definition order — as (name, quoted
/// columns); InnoDB reports the first key a new row duplicates. The flag: a unique key over
/// expressions (a prefix key), which no ON CONFLICT target can name.
fn unique_keys(t: &TableInfo) -> (Vec<(&str, Vec<Ident>)>, bool) {
    let not_null = |i: &crate::IndexInfo| {
        i.columns.iter().all(|c| {
            t.columns
                .iter()
                .any(|col| col.name.eq_ignore_ascii_case(c) && col.not_null)
        })
    };
    let rank = |i: &crate::IndexInfo| match (i.name.as_str(), not_null(i)) {
        ("PRIMARY", _) => 0,
        (_, true) => 1,
        _ => 2,
    };
    let mut named: Vec<&crate::IndexInfo> = t
        .indexes
        .iter()
        .filter(|i| i.unique && !i.columns.is_empty())
        .collect();
    named.sort_by_key(|i| rank(i)); // stable: definition order within a rank
    let mut keys: Vec<(&str, Vec<Ident>)> = Vec::new();
    for k in named {
        let cols: Vec<Ident> = k.columns.iter().map(quoted).collect();
        if !keys.iter().any(|(_, c)| *c == cols) {
            keys.push((&k.name, cols));
        }
    }
    let unnamed = t.indexes.iter().any(|i| i.unique && i.columns.is_empty());
    (keys, unnamed)
}

/// `on` once per unique key, targeted, as text: SQLite checks the keys in the order the
/// clauses name them, so the row MySQL would update is the one updated. A key no target
/// can name gets the target-less clause last. One unique key: the target-less clause alone.
fn conflict_clauses(on: OnConflict, table: Option<&TableInfo>) -> String {
    let (keys, unnamed) = table.map(unique_keys).unwrap_or_default();
    if keys.len() + usize::from(unnamed) < 2 {
        return OnInsert::OnConflict(on).to_string();
    }
    let mut out: String = keys
        .into_iter()
        .map(|(_, cols)| targeted(on.clone(), cols))
        .collect();
    if unnamed {
        out.push_str(&OnInsert::OnConflict(on).to_string());
    }
    out
}

fn targeted(mut on: OnConflict, columns: Vec<Ident>) -> String {
    on.conflict_target = Some(sqlparser::ast::ConflictTarget::Columns(columns));
    OnInsert::OnConflict(on).to_string()
}

/// For a plain INSERT: per unique key, a clause whose update fails with MySQL's
/// duplicate-key error, naming the key and the new row's values (`tutti_duplicate`).
fn duplicate_entry_clauses(table: &TableInfo) -> String {
    let (keys, _) = unique_keys(table);
    keys.into_iter()
        .map(|(name, cols)| {
            let mut args = vec![crate::ast_build::string(name)];
            args.extend(cols.iter().map(|c| {
                let decl = table.columns.iter().find(|t| t.name == c.value);
                let value = qualified_excluded(&c.value);
                match decl.map(|t| t.decl_type.as_str()) {
                    Some(d) if crate::big_unsigned::decl(d) => {
                        crate::ast_build::func(crate::big_unsigned::VALUE, vec![value])
                    }
                    _ => value,
                }
            }));
            let fail = Assignment {
                target: AssignmentTarget::ColumnName(ObjectName::from(vec![cols[0].clone()])),
                value: crate::ast_build::func("tutti_duplicate", args),
            };
            let on = OnConflict {
                conflict_target: None,
                action: OnConflictAction::DoUpdate(DoUpdate {
                    assignments: vec![fail],
                    selection: None,
                }),
            };
            targeted(on, cols)
        })
        .collect()
}

/// Rewrites references to the inserted row (`VALUES(c)` or `VALUE(c)`, `alias.c`, column alias `x`) to
/// `excluded."c"`, everywhere in an expression.
fn excluded_refs(e: &mut Expr, row_alias: Option<&str>, col_aliases: &[String], columns: &[Ident]) {
    use sqlparser::ast::visit_expressions_mut;
    let _ = visit_expressions_mut(e, |e| {
        let replacement = match e {
            Expr::Function(f)
                if ["VALUES", "VALUE"]
                    .iter()
                    .any(|n| f.name.to_string().eq_ignore_ascii_case(n)) =>
            {
                match &f.args {
                    sqlparser::ast::FunctionArguments::List(l) if l.args.len() == 1 => {
                        match &l.args[0] {
                            sqlparser::ast::FunctionArg::Unnamed(
                                sqlparser::ast::FunctionArgExpr::Expr(Expr::Identifier(c)),
                            ) => Some(qualified_excluded(&c.value)),
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            Expr::CompoundIdentifier(ids)
                if ids.len() == 2
                    && row_alias.is_some_and(|a| a.eq_ignore_ascii_case(&ids[0].value)) =>
            {
                Some(qualified_excluded(&ids[1].value))
            }
            Expr::Identifier(i) => col_aliases
                .iter()
                .position(|a| a.eq_ignore_ascii_case(&i.value))
                .and_then(|p| columns.get(p))
                .map(|c| qualified_excluded(&c.value)),
            _ => None,
        };
        if let Some(r) = replacement {
            *e = r;
        }
        std::ops::ControlFlow::<()>::Continue(())
    });
}

fn qualified_excluded(column: &str) -> Expr {
    qualified("excluded", column)
}

/// SQLite needs a WHERE in `INSERT ... SELECT ... ON CONFLICT`.
fn upsert_select_needs_where(ins: &mut Insert) {
    let Some(src) = ins.source.as_mut() else {
        return;
    };
    let plain = src.with.is_none() && src.order_by.is_none() && src.limit_clause.is_none();
    match src.body.as_mut() {
        SetExpr::Values(_) => {}
        SetExpr::Select(s) if plain => {
            if s.selection.is_none() {
                s.selection = Some(number("1"));
            }
        }
        _ => {
            let inner = std::mem::replace(src.as_mut(), values(vec![]));
            let mut s = select_star_from(inner);
            s.selection = Some(number("1"));
            **src = query(SetExpr::Select(Box::new(s)));
        }
    }
}

/// `INSERT IGNORE ... SELECT`: its SELECT counts the rows it offers, `SELECT * FROM
/// (<select> LIMIT -1) WHERE tutti_offered()` (see storage's `offered`).
fn count_offered(ins: &mut Insert) {
    let Some(src) = ins.source.as_mut() else {
        return;
    };
    let mut inner = std::mem::replace(src.as_mut(), values(vec![]));
    if inner.limit_clause.is_none() {
        inner.limit_clause = Some(LimitClause::LimitOffset {
            limit: Some(number("-1")),
            offset: None,
            limit_by: vec![],
        });
    }
    let mut s = select_star_from(inner);
    s.selection = Some(func("tutti_offered", vec![]));
    **src = query(SetExpr::Select(Box::new(s)));
}

/// UPDATE (single table).
pub(crate) fn update(info: &StmtInfo<'_>, mut upd: Update) -> Result<Stmt, SqlError> {
    if !upd.table.joins.is_empty() || upd.from.is_some() {
        return crate::multi_table::update(info, upd);
    }
    let target = table_factor_target(info.env, &upd.table.relation, "UPDATE")?;
    let table = info.env.table(&target);
    if table.as_ref().is_some_and(TableInfo::is_view) {
        return crate::multi_table::update(info, upd);
    }
    let strict = stored::strict_mode(info.env) && !info.update_ignore;
    for a in &mut upd.assignments {
        let AssignmentTarget::ColumnName(name) = &a.target else {
            return Err(SqlError::Unsupported("UPDATE ... SET (a, b) = ...".into()));
        };
        let col = column_name(name)?;
        if is_default(&a.value) {
            a.value = default_value(table.as_ref(), &col.value);
        }
        if let Some(t) = &table {
            let value = std::mem::replace(&mut a.value, crate::ast_build::null());
            a.value = stored::assigned(t, &col.value, value, strict);
        }
        a.target = AssignmentTarget::ColumnName(ObjectName::from(vec![col]));
    }
    if let Some(t) = &table {
        crate::on_update::add_assignments(t, &mut upd.assignments, |c, v| {
            stored::assigned(t, c, v, strict)
        });
    }
    let mut rw = Rewriter::new(info.env);
    if let Some(t) = &table {
        rw.target_scope(t, &[&alias_of(&upd.table.relation, &target)]);
    }
    let mut stmt = Statement::Update(upd);
    rw.statement(&mut stmt)?;
    let Statement::Update(mut upd) = stmt else {
        unreachable!()
    };
    if info.update_ignore {
        upd.or = Some(SqliteOnConflict::Ignore);
    }
    // (UPDATE IGNORE skips rows whose write fails after their assignments ran: their marks
    // would be taken by the next row, so it counts from its own changes instead.)
    let marks_changes = table.is_some() && !info.update_ignore;
    if marks_changes {
        mark_changes(&mut upd.assignments, &target);
    }
    let order = std::mem::take(&mut upd.order_by);
    if !order.is_empty() && rw.ex.assigning {
        // Rows are updated in SQLite's order, not the ORDER BY's.
        return Err(SqlError::Unsupported(
            "assigning a user variable in UPDATE ... ORDER BY".into(),
        ));
    }
    if let Some(limit) = upd.limit.take() {
        upd.selection = Some(limited(
            &upd.table.relation,
            upd.selection.take(),
            order,
            limit,
        ));
    }
    let mut stmt = finish(
        info,
        &rw,
        upd.to_string(),
        QueryKind::Update,
        Some(target),
        None,
    );
    if let Stmt::Query(q) = &mut stmt {
        q.marks_changes = marks_changes;
    }
    Ok(stmt)
}

/// `c = v` → `c = tutti_changed_to(c, v, 'db.t')`: the row counts as affected when a value
/// changes (see storage's `changed`).
fn mark_changes(assignments: &mut [Assignment], target: &TableName) {
    let table = crate::ast_build::string(target.sqlite_name());
    for a in assignments {
        let AssignmentTarget::ColumnName(name) = &a.target else {
            continue;
        };
        let Some(ObjectNamePart::Identifier(column)) = name.0.last() else {
            continue;
        };
        let old = Expr::Identifier(column.clone());
        let new = std::mem::replace(&mut a.value, crate::ast_build::null());
        a.value = crate::ast_build::func("tutti_changed_to", vec![old, new, table.clone()]);
    }
}

/// DELETE (single table).
pub(crate) fn delete(info: &StmtInfo<'_>, del: Delete) -> Result<Stmt, SqlError> {
    let from = match &del.from {
        FromTable::WithFromKeyword(f) | FromTable::WithoutKeyword(f) => f,
    };
    let single = matches!(from.as_slice(), [t] if t.joins.is_empty());
    if !del.tables.is_empty() || del.using.is_some() || !single {
        return crate::multi_table::delete(info, del);
    }
    let target = table_factor_target(info.env, &from[0].relation, "DELETE")?;
    if info.env.table(&target).is_some_and(|t| t.is_view()) {
        return crate::multi_table::delete(info, del);
    }
    let mut rw = Rewriter::new(info.env);
    if let Some(t) = info.env.table(&target) {
        rw.target_scope(&t, &[&alias_of(&from[0].relation, &target)]);
    }
    let mut stmt = Statement::Delete(del);
    rw.statement(&mut stmt)?;
    let Statement::Delete(mut del) = stmt else {
        unreachable!()
    };
    let order = std::mem::take(&mut del.order_by);
    if let Some(limit) = del.limit.take() {
        let relation = match &del.from {
            FromTable::WithFromKeyword(f) | FromTable::WithoutKeyword(f) => f[0].relation.clone(),
        };
        del.selection = Some(limited(&relation, del.selection.take(), order, limit));
    }
    Ok(finish(
        info,
        &rw,
        del.to_string(),
        QueryKind::Delete,
        Some(target),
        None,
    ))
}

/// The name a written table's columns are qualified with: its alias, else its name.
fn alias_of(tf: &TableFactor, target: &TableName) -> String {
    match tf {
        TableFactor::Table { alias: Some(a), .. } => a.name.value.clone(),
        _ => target.table.clone(),
    }
}

fn table_factor_target(env: &dyn Env, tf: &TableFactor, what: &str) -> Result<TableName, SqlError> {
    match tf {
        TableFactor::Table { name, .. } => resolve(env, name),
        _ => Err(SqlError::Unsupported(format!("{what} of a derived table"))),
    }
}

/// `rowid IN (SELECT rowid FROM <table> WHERE <cond> ORDER BY .. LIMIT n)`.
fn limited(
    relation: &TableFactor,
    cond: Option<Expr>,
    order: Vec<sqlparser::ast::OrderByExpr>,
    limit: Expr,
) -> Expr {
    let from = sqlparser::ast::TableWithJoins {
        relation: relation.clone(),
        joins: vec![],
    };
    let sel = select(
        vec![SelectItem::UnnamedExpr(bare("rowid"))],
        vec![from],
        cond,
    );
    let mut q = query(SetExpr::Select(Box::new(sel)));
    if !order.is_empty() {
        q.order_by = Some(OrderBy {
            kind: OrderByKind::Expressions(order),
            interpolate: None,
        });
    }
    q.limit_clause = Some(sqlparser::ast::LimitClause::LimitOffset {
        limit: Some(limit),
        offset: None,
        limit_by: vec![],
    });
    Expr::InSubquery {
        expr: Box::new(bare("rowid")),
        subquery: Box::new(q),
        negated: false,
    }
}
