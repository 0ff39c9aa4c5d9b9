//! `SHOW ...` and `DESCRIBE`: answered from the catalog, variables and the provider.

use std::sync::atomic::Ordering::Relaxed;
use tutti_sql::{Filter, Show, SqlError};
use tutti_wsrep::charsets::{CharsetName, CollationName};
use tutti_wsrep::Value;

use crate::result::{Column, Response, ResultSet};
use crate::session::Session;
use crate::{show_table, vars, ExecError};

fn text(s: impl Into<String>) -> Value {
    Value::Text(s.into())
}

fn rows(cols: &[&str], rows: Vec<Vec<Value>>) -> ResultSet {
    ResultSet {
        columns: cols.iter().map(|c| Column::text(*c)).collect(),
        rows,
    }
}

/// MySQL LIKE: `%` any run, `_` one character, `\` escapes; case-insensitive.
pub(crate) fn like(pattern: &str, s: &str) -> bool {
    fn go(p: &[char], s: &[char]) -> bool {
        match p.split_first() {
            None => s.is_empty(),
            Some(('%', rest)) => (0..=s.len()).any(|i| go(rest, &s[i..])),
            Some(('_', rest)) => !s.is_empty() && go(rest, &s[1..]),
            Some(('\\', rest)) if !rest.is_empty() => {
                !s.is_empty()
                    && s[0].to_lowercase().eq(rest[0].to_lowercase())
                    && go(&rest[1..], &s[1..])
            }
            Some((c, rest)) => {
                !s.is_empty() && s[0].to_lowercase().eq(c.to_lowercase()) && go(rest, &s[1..])
            }
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = s.chars().collect();
    go(&p, &s)
}

fn filter(s: &Session, mut rs: ResultSet, f: Option<Filter>) -> Result<ResultSet, ExecError> {
    match f {
        None => Ok(rs),
        Some(Filter::Like(p)) => {
            rs.rows.retain(|r| like(&p, &r[0].to_string()));
            Ok(rs)
        }
        Some(Filter::Where(expr)) => {
            if rs.rows.is_empty() {
                return Ok(rs);
            }
            let names: Vec<String> = rs
                .columns
                .iter()
                .map(|c| format!("\"{}\"", c.name.replace('"', "\"\"")))
                .collect();
            let values: Vec<String> = rs
                .rows
                .iter()
                .map(|r| {
                    format!(
                        "({})",
                        r.iter()
                            .map(Value::to_sql_literal)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            let sql = format!(
                "WITH t({}) AS (VALUES {}) SELECT * FROM t WHERE {expr}",
                names.join(", "),
                values.join(", ")
            );
            let r = s
                .exec
                .storage
                .reader()
                .map_err(|e| ExecError::Sqlite(e.to_string()))?;
            let mut out = crate::sqlite::query(&r, &sql, &[])?;
            out.columns = rs.columns;
            Ok(out)
        }
    }
}

pub(crate) fn run(s: &mut Session, show: Show) -> Result<Response, ExecError> {
    let exec = s.exec.clone();
    let storage = &exec.storage;
    let rs = match show {
        Show::Databases { filter: f } => {
            let dbs = storage
                .databases()
                .map_err(|e| ExecError::Sqlite(e.to_string()))?;
            filter(
                s,
                rows(
                    &["Database"],
                    dbs.into_iter().map(|d| vec![text(d)]).collect(),
                ),
                f,
            )?
        }
        Show::Tables {
            db,
            full,
            filter: f,
        } => {
            if !s.database_exists_pub(&db) {
                return Err(ExecError::UnknownDatabase(db));
            }
            let col = format!("Tables_in_{db}");
            let tables = exec.catalog.tables_of(storage, &db)?;
            let rs = if full {
                rows(
                    &[&col, "Table_type"],
                    tables
                        .into_iter()
                        .map(|(t, v)| vec![text(t), text(if v { "VIEW" } else { "BASE TABLE" })])
                        .collect(),
                )
            } else {
                rows(
                    &[&col],
                    tables.into_iter().map(|(t, _)| vec![text(t)]).collect(),
                )
            };
            filter(s, rs, f)?
        }
        Show::Columns {
            table,
            full,
            filter: f,
        } => filter(s, show_table::columns(s, &table, full)?, f)?,
        Show::Index { table } => show_table::index(s, &table)?,
        Show::CreateTable(t) => match show_table::view(s, &t)? {
            Some(view) => show_table::create_view(s, &view)?,
            None => show_table::create_table(s, &t)?,
        },
        Show::CreateView(t) => match show_table::view(s, &t)? {
            Some(view) => show_table::create_view(s, &view)?,
            None => {
                return Err(SqlError::WrongObject {
                    object: t.to_string(),
                    kind: "VIEW",
                }
                .into())
            }
        },
        Show::CreateDatabase(db) => {
            if !s.database_exists_pub(&db) {
                return Err(ExecError::UnknownDatabase(db));
            }
            let collation = s.database_default_collation(&db);
            let charset = tutti_sql::charset_of(&collation);
            let ddl = format!(
                "CREATE DATABASE `{db}` /*!40100 DEFAULT CHARACTER SET {charset} COLLATE {collation} */"
            );
            rows(
                &["Database", "Create Database"],
                vec![vec![text(db), text(ddl)]],
            )
        }
        Show::Variables { global, filter: f } => {
            let list = vars::VARS
                .iter()
                .filter(|d| !global || d.scope != vars::Scope::Session)
                .filter_map(|d| {
                    let v = if global {
                        tutti_sql::Env::system_variable(s, tutti_sql::VarScope::Global, d.name)
                    } else {
                        s.var(d.name)
                    }?;
                    Some(vec![text(d.name), text(vars::display(d, &v))])
                })
                .collect();
            filter(s, rows(&["Variable_name", "Value"], list), f)?
        }
        Show::Status { filter: f, .. } => {
            filter(s, rows(&["Variable_name", "Value"], status(s)), f)?
        }
        Show::TableStatus { db, filter: f } => {
            let tables = exec.catalog.definitions_of(storage, &db)?;
            let list = tables
                .into_iter()
                .map(|(t, view, sql)| {
                    // A view has no engine or collation of its own.
                    let (engine, collation) = if view {
                        (Value::Null, Value::Null)
                    } else {
                        let collation = tutti_sql::table_collation(&sql)
                            .unwrap_or_else(|| "utf8mb4_general_ci".into());
                        (text(tutti_sql::table_engine(&sql)), text(collation))
                    };
                    vec![
                        text(t),
                        engine,
                        Value::Int(10),
                        text("Dynamic"),
                        Value::Null,
                        collation,
                        text(if view { "VIEW" } else { "" }),
                    ]
                })
                .collect();
            let cols = [
                "Name",
                "Engine",
                "Version",
                "Row_format",
                "Rows",
                "Collation",
                "Comment",
            ];
            filter(s, rows(&cols, list), f)?
        }
        Show::Processlist { full } => processlist(s, full),
        Show::Warnings => s.diag.show(false),
        Show::Errors => s.diag.show(true),
        Show::Count { errors } => {
            let (name, n) = if errors {
                ("@@session.error_count", s.diag.error_count())
            } else {
                ("@@session.warning_count", s.diag.warning_count())
            };
            ResultSet {
                columns: vec![Column::int(name)],
                rows: vec![vec![Value::Int(n as i64)]],
            }
        }
        Show::Engines => rows(
            &[
                "Engine",
                "Support",
                "Comment",
                "Transactions",
                "XA",
                "Savepoints",
            ],
            vec![vec![
                text("InnoDB"),
                text("DEFAULT"),
                text("tutti stores data in SQLite, replicated synchronously"),
                text("YES"),
                text("NO"),
                text("NO"),
            ]],
        ),
        Show::Collation { filter: f } => {
            let list = CollationName::all()
                .iter()
                .map(|c| {
                    vec![
                        text(c.name),
                        c.charset.map_or(Value::Null, text),
                        c.id.map_or(Value::Null, |id| Value::Int(id.into())),
                        match (c.charset, c.default) {
                            (None, _) => Value::Null,
                            (Some(_), default) => text(if default { "Yes" } else { "" }),
                        },
                        text("Yes"),
                        Value::Int(c.sortlen.into()),
                    ]
                })
                .collect();
            filter(
                s,
                rows(
                    &[
                        "Collation",
                        "Charset",
                        "Id",
                        "Default",
                        "Compiled",
                        "Sortlen",
                    ],
                    list,
                ),
                f,
            )?
        }
        Show::CharacterSet { filter: f } => {
            let list = CharsetName::all()
                .iter()
                .map(|c| {
                    vec![
                        text(c.name),
                        text(c.description),
                        text(c.default_collation),
                        Value::Int(c.max_len.into()),
                    ]
                })
                .collect();
            filter(
                s,
                rows(
                    &["Charset", "Description", "Default collation", "Maxlen"],
                    list,
                ),
                f,
            )?
        }
        Show::Grants => {
            let who = format!("{}@{}", s.info.user, s.info.host);
            rows(
                &[&format!("Grants for {who}")],
                vec![vec![text(format!(
                    "GRANT ALL PRIVILEGES ON *.* TO `{}`@`{}`",
                    s.info.user, s.info.host
                ))]],
            )
        }
        Show::Empty(_) => rows(&["Value"], vec![]),
    };
    Ok(Response::Rows(rs))
}

impl Session {
    pub(crate) fn database_exists_pub(&self, db: &str) -> bool {
        tutti_sql::Env::database_exists(self, db)
    }
}

/// A declared type in lower case, without the word that only gives a `BINARY TEXT(n)` or
/// `VARBINARY TEXT(n)` column SQLite's TEXT affinity.
pub(crate) fn lowercase_decl(decl: &str) -> String {
    decl.to_ascii_lowercase()
        .replacen("binary text", "binary", 1)
        .replacen(&tutti_sql::SET_DECL.to_ascii_lowercase(), "set", 1)
}

/// The MySQL spelling of a declared type.
pub(crate) fn mysql_type(decl: &str) -> String {
    let d = lowercase_decl(decl);
    // an integer's display width is kept after UNSIGNED, where SQLite wants it
    if let Some((name, width)) = d.split_once(" unsigned(") {
        return format!("{name}({width} unsigned");
    }
    match d.as_str() {
        "integer" => "int".into(),
        "json text" => "json".into(),
        _ => match d.strip_prefix("decimal text") {
            Some(precision_scale) => format!("decimal{precision_scale}"),
            None => d,
        },
    }
}

fn processlist(s: &Session, full: bool) -> ResultSet {
    let list = s
        .exec
        .all_sessions()
        .into_iter()
        .map(|i| {
            let running = i.running.lock().clone();
            let (command, time, info) = match running {
                Some((sql, since)) => {
                    let sql = if full {
                        sql
                    } else {
                        sql.chars().take(100).collect()
                    };
                    ("Query", since.elapsed().as_secs(), text(sql))
                }
                None => ("Sleep", i.since.elapsed().as_secs(), Value::Null),
            };
            vec![
                Value::Int(i.id as i64),
                text(&i.user),
                text(&i.host),
                i.db.lock().clone().map(text).unwrap_or(Value::Null),
                text(command),
                Value::Int(time as i64),
                text(""),
                info,
            ]
        })
        .collect();
    rows(
        &[
            "Id", "User", "Host", "db", "Command", "Time", "State", "Info",
        ],
        list,
    )
}

fn status(s: &Session) -> Vec<Vec<Value>> {
    let e = &s.exec;
    let st = &e.stats;
    let n = |v: u64| text(v.to_string());
    let mut out = vec![
        vec![text("Com_commit"), n(st.com_commit.load(Relaxed))],
        vec![text("Com_delete"), n(st.com_delete.load(Relaxed))],
        vec![text("Com_insert"), n(st.com_insert.load(Relaxed))],
        vec![text("Com_rollback"), n(st.com_rollback.load(Relaxed))],
        vec![text("Com_select"), n(st.com_select.load(Relaxed))],
        vec![text("Com_update"), n(st.com_update.load(Relaxed))],
        vec![text("Connections"), n(st.connections.load(Relaxed))],
        vec![text("Innodb_row_lock_current_waits"), n(0)],
        vec![text("Queries"), n(st.questions.load(Relaxed))],
        vec![text("Questions"), n(st.questions.load(Relaxed))],
        vec![text("Threads_connected"), n(e.connected() as u64)],
        vec![text("Threads_running"), n(st.running.load(Relaxed))],
        vec![text("Uptime"), n(e.uptime())],
    ];
    out.extend(
        e.provider
            .status()
            .into_iter()
            .map(|(k, v)| vec![text(k), text(v)]),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::like;

    #[test]
    fn mysql_like() {
        assert!(like("wsrep%", "wsrep_ready"));
        assert!(like("WSREP_%", "wsrep_ready"));
        assert!(!like("wsrep\\_x", "wsrepax"));
        assert!(like("wsrep\\_x", "wsrep_x"));
        assert!(like("max_allowed_packet", "max_allowed_packet"));
        assert!(!like("a_", "a"));
    }
}
