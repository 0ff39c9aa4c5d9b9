//! Schema changes other than CREATE/ALTER TABLE → [`Stmt::Ddl`].
//!
//! * `CREATE DATABASE|SCHEMA [IF NOT EXISTS] d [CHARACTER SET ..] [COLLATE ..]` and
//!   `DROP DATABASE|SCHEMA [IF EXISTS] d` → `Ddl::CreateDatabase` / `Ddl::DropDatabase`.
//! * `DROP TABLE [IF EXISTS] a, b` → one `DROP TABLE` per table; `DROP VIEW` likewise.
//! * `TRUNCATE [TABLE] t` → `DELETE FROM "db.t"` (and its AUTO_INCREMENT back to 1),
//!   executed in total order like other DDL.
//! * `CREATE [UNIQUE] INDEX i ON t (..)` → `CREATE [UNIQUE] INDEX "db.t.i" ON "db.t" (..)`.
//! * `DROP INDEX i ON t` → `DROP INDEX "<its SQLite name>"`, looked up in the catalog.
//! * `RENAME TABLE a TO b` → `ALTER TABLE "db.a" RENAME TO "db.b"`. SQLite keeps index names
//!   on rename, so the table's indexes are re-created under the new name (`"db.b.i"`) to keep
//!   the naming scheme.
//! * `CREATE [OR REPLACE] VIEW v [(cols)] AS select` → `CREATE VIEW "db.v" AS <translated
//!   select>` (OR REPLACE drops the old view first); a view may not capture session values.
//!   `ALTER VIEW v AS select` defines an existing view anew the same way.

use sqlparser::ast::{
    CreateIndex, CreateView, GranteeName, Ident, ObjectName, ObjectType, Query, RenameTable,
    Truncate,
};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::columns::{index_sql, key_parts};
use crate::cursor::Cursor;
use crate::dispatch::{Res, StmtInfo};
use crate::names::{check_schema, quote_str, resolve};
use crate::rewrite::Rewriter;
use crate::temporary::ddl_for;
use crate::{DdlRecords, DdlStmt, DropTables, Env, SqlError, Stmt, TableName};
use tutti_wsrep::Ddl;

fn schema(database: String, statements: Vec<String>, tables: Vec<TableName>) -> Stmt {
    Stmt::Ddl(DdlStmt {
        ddl: Ddl::Schema {
            database,
            statements,
        },
        tables,
        records: DdlRecords::None,
    })
}

/// A database name as given; MySQL forbids `.` in it, which tutti's naming relies on.
fn database_name(p: &mut Parser<'_>) -> Res<String> {
    let name = p.parse_identifier()?.value;
    if name.contains('.') || name.is_empty() {
        return Err(SqlError::WrongArguments(format!("Incorrect database name '{name}'")).into());
    }
    check_schema(&name)?;
    Ok(name)
}

/// `CREATE DATABASE|SCHEMA [IF NOT EXISTS] d [options]`.
pub(crate) fn create_database(p: &mut Parser<'_>) -> Res<Stmt> {
    p.next_token(); // CREATE
    p.next_token(); // DATABASE | SCHEMA
    let if_not_exists = p.eat_words(&["IF", "NOT", "EXISTS"]);
    let name = database_name(p)?;
    let collation = database_options(p)?;
    Ok(Stmt::Ddl(DdlStmt {
        ddl: Ddl::CreateDatabase {
            name,
            if_not_exists,
            collation,
        },
        tables: vec![],
        records: DdlRecords::None,
    }))
}

/// `ALTER DATABASE|SCHEMA [d] options`: the database's default collation (the current
/// database's without a name).
pub(crate) fn alter_database(p: &mut Parser<'_>, env: &dyn Env) -> Res<Stmt> {
    p.next_token(); // ALTER
    p.next_token(); // DATABASE | SCHEMA
    let option =
        |w: &str| ["DEFAULT", "CHARACTER", "CHARSET", "COLLATE", "ENCRYPTION"].contains(&w);
    let name = match p.peek_word(0) {
        Some(w) if option(&w) => env
            .current_db()
            .map(str::to_string)
            .ok_or(SqlError::NoDatabaseSelected)?,
        _ => database_name(p)?,
    };
    let Some(collation) = database_options(p)? else {
        return Ok(Stmt::Noop(format!("ALTER DATABASE {name}")));
    };
    Ok(Stmt::Ddl(DdlStmt {
        ddl: Ddl::AlterDatabase { name, collation },
        tables: vec![],
        records: DdlRecords::None,
    }))
}

/// `[DEFAULT] {CHARACTER SET | CHARSET | COLLATE | ENCRYPTION} [=] value ...`: the default
/// collation they name (MariaDB's name, lower case; a character set's default collation
/// without COLLATE). ENCRYPTION is accepted and ignored.
fn database_options(p: &mut Parser<'_>) -> Res<Option<String>> {
    let (mut charset, mut collation) = (None, None);
    while !p.at_end() {
        p.eat_word("DEFAULT");
        let slot = if p.eat_words(&["CHARACTER", "SET"]) || p.eat_word("CHARSET") {
            &mut charset
        } else if p.eat_word("COLLATE") {
            &mut collation
        } else if p.eat_word("ENCRYPTION") {
            p.eat(&Token::Eq);
            p.next_token();
            continue;
        } else {
            return p
                .expected_ref("CHARACTER SET or COLLATE", p.peek_token_ref())
                .map_err(Into::into);
        };
        p.eat(&Token::Eq);
        let value = p.next_token();
        *slot = Some(match &value.token {
            Token::Word(w) => w.value.to_ascii_lowercase(),
            Token::SingleQuotedString(v) | Token::DoubleQuotedString(v) => v.to_ascii_lowercase(),
            _ => {
                return p
                    .expected("a character set or collation name", value)
                    .map_err(Into::into)
            }
        });
    }
    Ok(crate::charset_names::declared(
        charset.as_deref(),
        collation.as_deref(),
    )?)
}

/// `DROP DATABASE|SCHEMA [IF EXISTS] d`.
pub(crate) fn drop_database(p: &mut Parser<'_>) -> Res<Stmt> {
    p.next_token(); // DROP
    p.next_token(); // DATABASE | SCHEMA
    let if_exists = p.eat_words(&["IF", "EXISTS"]);
    let name = database_name(p)?;
    p.expect_end()?;
    Ok(Stmt::Ddl(DdlStmt {
        ddl: Ddl::DropDatabase { name, if_exists },
        tables: vec![],
        records: DdlRecords::None,
    }))
}

/// `CREATE [UNIQUE] INDEX i ON t (cols)`.
pub(crate) fn create_index(env: &dyn Env, ci: CreateIndex) -> Res<Stmt> {
    let table = resolve(env, &ci.table_name)?;
    let Some(name) = ci
        .name
        .as_ref()
        .and_then(|n| n.0.last())
        .and_then(|p| p.as_ident())
    else {
        return Err(SqlError::Unsupported("CREATE INDEX without a name".into()).into());
    };
    if ci.predicate.is_some() {
        return Err(SqlError::Unsupported("partial indexes".into()).into());
    }
    let sql = index_sql(
        &table,
        &name.value,
        ci.unique,
        &key_parts(&ci.columns)?,
        ci.if_not_exists,
    );
    Ok(ddl_for(
        env,
        table.db.clone(),
        vec![sql],
        vec![table],
        DdlRecords::InPlace,
    )?)
}

/// `DROP INDEX "<sqlite name>"` for MySQL index `name` on `table`.
pub(crate) fn drop_index_sql(
    env: &dyn Env,
    table: &TableName,
    name: &str,
) -> Result<String, SqlError> {
    if name.eq_ignore_ascii_case("PRIMARY") {
        return Err(SqlError::NoPrimaryKey(table.to_string()));
    }
    let info = env
        .table(table)
        .ok_or_else(|| SqlError::NoSuchTable(table.to_string()))?;
    let index = info
        .indexes
        .iter()
        .find(|i| i.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| SqlError::NoSuchIndex(name.to_string()))?;
    Ok(format!("DROP INDEX {}", quote_str(&index.sqlite_name)))
}

/// `DROP TABLE|VIEW|INDEX ...`.
pub(crate) fn drop(
    env: &dyn Env,
    object_type: ObjectType,
    if_exists: bool,
    names: Vec<ObjectName>,
    table: Option<ObjectName>,
    temporary: bool,
) -> Res<Stmt> {
    let kind = match object_type {
        ObjectType::Table => "TABLE",
        ObjectType::View => "VIEW",
        ObjectType::Index => {
            let Some(t) = table else {
                return Err(SqlError::Unsupported("DROP INDEX without ON table".into()).into());
            };
            let t = resolve(env, &t)?;
            let name = names.first().map(|n| n.to_string()).unwrap_or_default();
            let name = names
                .first()
                .and_then(|n| n.0.last())
                .and_then(|p| p.as_ident())
                .map(|i| i.value.clone())
                .unwrap_or(name);
            let sql = drop_index_sql(env, &t, &name)?;
            let records = DdlRecords::InPlace;
            return Ok(ddl_for(env, t.db.clone(), vec![sql], vec![t], records)?);
        }
        other => return Err(SqlError::Unsupported(format!("DROP {other}")).into()),
    };
    let named: Vec<TableName> = names
        .iter()
        .map(|n| resolve(env, n))
        .collect::<Result<_, _>>()?;
    let views = kind == "VIEW";
    // The session's temporary tables go first (they hide tables of the same names).
    let (temp, named): (Vec<TableName>, Vec<TableName>) = named
        .into_iter()
        .partition(|t| !views && env.is_temporary(t));
    // What is left: with DROP TEMPORARY, names of no temporary table (unknown).
    let rest = match (named.is_empty(), temporary) {
        (true, _) => None,
        (false, true) => Some(Stmt::DropTables(DropTables {
            ddl: ddl_stmt(schema(String::new(), vec![], vec![])),
            unknown: named,
            wrong_kind: vec![],
            views,
            if_exists,
            temporary,
        })),
        (false, false) => Some(drop_named(env, named, views, if_exists)),
    };
    if temp.is_empty() {
        return Ok(rest.expect("DROP names a table"));
    }
    let statements = temp
        .iter()
        .map(|t| format!("DROP TABLE temp.{}", quote_str(&t.sqlite_name())))
        .collect();
    Ok(Stmt::Temporary(crate::TempDdl {
        statements,
        tables: temp,
        then: rest.map(Box::new),
        records: DdlRecords::None,
    }))
}

fn ddl_stmt(stmt: Stmt) -> DdlStmt {
    let Stmt::Ddl(ddl) = stmt else {
        unreachable!("schema() is DDL")
    };
    ddl
}

/// `DROP TABLE|VIEW` of tables that are not temporary.
fn drop_named(env: &dyn Env, named: Vec<TableName>, views: bool, if_exists: bool) -> Stmt {
    let kind = if views { "VIEW" } else { "TABLE" };
    // A view named in DROP TABLE (a table in DROP VIEW) is left alone; MySQL drops the
    // others, then fails naming the missing ones (a note with IF EXISTS, which also keeps
    // them in the statement: another node may have created one meanwhile).
    let (mut tables, mut unknown, mut wrong_kind) = (Vec::new(), Vec::new(), Vec::new());
    for t in named {
        match env.table(&t).map(|info| info.is_view()) {
            Some(v) if v != views => wrong_kind.push(t),
            Some(_) => tables.push(t),
            None if if_exists => {
                unknown.push(t.clone());
                tables.push(t);
            }
            None => unknown.push(t),
        }
    }
    let statements = tables
        .iter()
        .map(|t| {
            let ie = if if_exists { "IF EXISTS " } else { "" };
            format!("DROP {kind} {ie}{}", quote_str(&t.sqlite_name()))
        })
        .collect();
    let database = tables.first().map(|t| t.db.clone()).unwrap_or_default();
    let ddl = schema(database, statements, tables);
    if unknown.is_empty() && wrong_kind.is_empty() {
        return ddl;
    }
    if views {
        // a table named in DROP VIEW is also unknown as a view
        unknown.extend(wrong_kind.iter().cloned());
    }
    Stmt::DropTables(DropTables {
        ddl: ddl_stmt(ddl),
        unknown,
        wrong_kind,
        views,
        if_exists,
        temporary: false,
    })
}

/// `TRUNCATE [TABLE] t` → `DELETE FROM "db.t"`.
pub(crate) fn truncate(env: &dyn Env, t: Truncate) -> Res<Stmt> {
    let tables: Vec<TableName> = t
        .table_names
        .iter()
        .map(|n| resolve(env, &n.name))
        .collect::<Result<_, _>>()?;
    let mut statements = Vec::new();
    for t in &tables {
        let name = t.sqlite_name();
        statements.push(format!("DELETE FROM {}", quote_str(&name)));
        // AUTO_INCREMENT starts again at 1 (SQLite keeps the largest id in sqlite_sequence,
        // which exists once an AUTOINCREMENT table does).
        let autoinc = env.table(t).and_then(|i| i.autoinc);
        if autoinc.is_some_and(|c| c != crate::INVISIBLE_KEY) {
            let name = crate::names::quote_literal(&name);
            statements.push(format!("DELETE FROM sqlite_sequence WHERE name = {name}"));
        }
    }
    let database = tables.first().map(|t| t.db.clone()).unwrap_or_default();
    Ok(ddl_for(
        env,
        database,
        statements,
        tables,
        DdlRecords::None,
    )?)
}

/// `RENAME TABLE a TO b [, c TO d]`.
pub(crate) fn rename_tables(env: &dyn Env, renames: Vec<RenameTable>) -> Res<Stmt> {
    let mut statements = Vec::new();
    let mut tables = Vec::new();
    for r in &renames {
        let old = resolve(env, &r.old_name)?;
        let new = resolve(env, &r.new_name)?;
        statements.extend(rename_table_sql(env, &old, &new));
        tables.push(old);
        tables.push(new);
    }
    let database = tables.first().map(|t| t.db.clone()).unwrap_or_default();
    Ok(ddl_for(
        env,
        database,
        statements,
        tables,
        DdlRecords::None,
    )?)
}

/// `ALTER TABLE "db.a" RENAME TO "db.b"`, then the indexes re-created under the new name.
pub(crate) fn rename_table_sql(env: &dyn Env, old: &TableName, new: &TableName) -> Vec<String> {
    let mut out = vec![format!(
        "ALTER TABLE {} RENAME TO {}",
        quote_str(&old.sqlite_name()),
        quote_str(&new.sqlite_name())
    )];
    if let Some(info) = env.table(old) {
        let prefix = format!("{}.", old.sqlite_name());
        for i in info
            .indexes
            .iter()
            .filter(|i| i.sqlite_name.starts_with(&prefix))
        {
            let parts: Vec<(String, bool)> = i.columns.iter().map(|c| (c.clone(), false)).collect();
            out.push(format!("DROP INDEX {}", quote_str(&i.sqlite_name)));
            out.push(index_sql(new, &i.name, i.unique, &parts, false));
        }
    }
    out
}

/// `CREATE [OR REPLACE] VIEW v [(cols)] AS select`.
pub(crate) fn create_view(info: &StmtInfo<'_>, cv: CreateView) -> Res<Stmt> {
    if cv.materialized {
        return Err(SqlError::Unsupported("materialized views".into()).into());
    }
    let columns = cv.columns.iter().map(|c| c.name.value.clone()).collect();
    let view = resolve(info.env, &cv.name)?;
    let params = cv.params.map(|p| (p.algorithm, p.definer, p.security));
    let (algorithm, definer, security) = params.unwrap_or((None, None, None));
    let kept = Kept {
        algorithm: algorithm.map(|a| a.to_string()),
        definer: definer
            .map(|d| match d {
                GranteeName::UserHost { user, host } => {
                    format!("`{}`@`{}`", user.value, host.value)
                }
                // DEFINER = CURRENT_USER is the default
                GranteeName::ObjectName(n)
                    if n.to_string().eq_ignore_ascii_case("CURRENT_USER") =>
                {
                    String::new()
                }
                GranteeName::ObjectName(n) => format!("`{n}`@`%`"),
            })
            .filter(|d| !d.is_empty()),
        security: security.map(|s| s.to_string()),
    };
    view_definition(
        info,
        view,
        columns,
        cv.query,
        (cv.or_replace, cv.if_not_exists),
        kept,
    )
}

/// What a view's definition states of itself (MariaDB's defaults when not).
#[derive(Default)]
struct Kept {
    algorithm: Option<String>,
    definer: Option<String>,
    security: Option<String>,
}

/// `ALTER VIEW v [(cols)] AS select`: the view, which must exist, defined anew.
pub(crate) fn alter_view(
    info: &StmtInfo<'_>,
    name: ObjectName,
    columns: Vec<Ident>,
    query: Box<Query>,
) -> Res<Stmt> {
    let view = resolve(info.env, &name)?;
    if !info.env.table(&view).is_some_and(|t| t.is_view()) {
        return Err(SqlError::NoSuchTable(view.to_string()).into());
    }
    let columns = columns.into_iter().map(|c| c.value).collect();
    view_definition(info, view, columns, query, (true, false), Kept::default())
}

/// `CREATE VIEW "db.v" [(cols)] AS <translated select>` (OR REPLACE drops the old one).
fn view_definition(
    info: &StmtInfo<'_>,
    view: TableName,
    columns: Vec<String>,
    mut query: Box<Query>,
    (or_replace, if_not_exists): (bool, bool),
    kept: Kept,
) -> Res<Stmt> {
    let env = info.env;
    let (src, end) = info.source();
    let mut named = query.clone();
    crate::view_text::name_items(&mut named, src, end, env);
    let definer = kept.definer.unwrap_or_else(|| {
        let user = match env.session_function("current_user") {
            Some(crate::Value::Text(u)) => u,
            _ => "root@localhost".to_string(),
        };
        let (user, host) = user.split_once('@').unwrap_or((&user, "%"));
        format!("`{user}`@`{host}`")
    });
    let session =
        |name: &str, default: &str| match env.system_variable(crate::VarScope::Session, name) {
            Some(crate::Value::Text(v)) => v,
            _ => default.to_string(),
        };
    let mut notes = Vec::new();
    let mut algorithm = kept.algorithm.unwrap_or_else(|| "UNDEFINED".into());
    if algorithm == "MERGE" && !mergeable(&query) {
        algorithm = "UNDEFINED".into();
        notes.push(crate::Note {
            code: 1354,
            message:
                "View merge algorithm can't be used here for now (assumed undefined algorithm)"
                    .into(),
            warning: true,
        });
    }
    let definition = crate::view_text::Definition {
        algorithm,
        definer,
        security: kept.security.unwrap_or_else(|| "DEFINER".into()),
        columns: columns.clone(),
        charset: (
            session("character_set_client", "utf8mb4"),
            session("collation_connection", "utf8mb4_general_ci"),
        ),
        query: named.to_string(),
    };
    let mut rw = Rewriter::new(env)
        .with_source(info.source())
        .stored_results()
        .collated_results()
        .zoned_timestamps();
    rw.query(&mut query)?;
    if let Some(t) = rw.tables.iter().find(|t| env.is_temporary(t)) {
        return Err(SqlError::ViewOfTemporary(t.table.clone()).into());
    }
    if let Some(t) = rw.unknown_object() {
        return Err(SqlError::NoSuchTable(t.to_string()).into());
    }
    if rw.ex.volatile {
        return Err(
            SqlError::Unsupported("session variables or functions in a view".into()).into(),
        );
    }
    let name = quote_str(&view.sqlite_name());
    let mut statements = Vec::new();
    if or_replace {
        statements.push(format!("DROP VIEW IF EXISTS {name}"));
    }
    let columns = if columns.is_empty() {
        String::new()
    } else {
        let cols: Vec<String> = columns.iter().map(|c| quote_str(c)).collect();
        format!(" ({})", cols.join(", "))
    };
    let ine = if if_not_exists { "IF NOT EXISTS " } else { "" };
    let comment = definition.comment();
    statements.push(format!(
        "CREATE VIEW {ine}{name} {comment}{columns} AS {query}"
    ));
    Ok(schema(view.db.clone(), statements, vec![view]).noted(notes))
}

/// True if MariaDB can merge the view into the queries that read it: one SELECT of tables
/// without DISTINCT, GROUP BY, HAVING, LIMIT or an aggregate.
fn mergeable(q: &Query) -> bool {
    let sqlparser::ast::SetExpr::Select(s) = q.body.as_ref() else {
        return false;
    };
    let grouped =
        !matches!(&s.group_by, sqlparser::ast::GroupByExpr::Expressions(e, _) if e.is_empty());
    let aggregate = s.projection.iter().any(|item| {
        let mut found = false;
        let _ = sqlparser::ast::visit_expressions(item, |e| {
            if let sqlparser::ast::Expr::Function(f) = e {
                found |= f.over.is_none() && crate::having::is_aggregate(f);
            }
            std::ops::ControlFlow::<()>::Continue(())
        });
        found
    });
    !(s.from.is_empty()
        || s.distinct.is_some()
        || grouped
        || s.having.is_some()
        || q.limit_clause.is_some()
        || aggregate)
}
