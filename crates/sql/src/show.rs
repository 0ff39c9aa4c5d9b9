//! `SHOW ...`, `DESCRIBE t`, `DESC t`, `EXPLAIN t` → [`Stmt::Show`].
//!
//! Parsed by hand: sqlparser knows only part of MySQL's SHOW family. Table and database names
//! are resolved like everywhere else (`SHOW TABLES` needs a database). A `LIKE` filter keeps
//! its MySQL pattern; a `WHERE` filter is translated to a SQLite expression over the result's
//! column names (double-quoted), which the executor evaluates over the rows it produces.
//! SHOW variants tutti has nothing to report for (MASTER STATUS, PLUGINS, TRIGGERS, ...)
//! become [`Show::Empty`]. `EXPLAIN <statement>` is refused.

use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::cursor::Cursor;
use crate::dispatch::{Fail, Res};
use crate::names::{check_schema, current_db, parts, resolve, resolve_parts};
use crate::rewrite::Rewriter;
use crate::{Env, Filter, Show, SqlError, Stmt, TableName};

/// Words that end the "kind" of an unknown SHOW variant.
const CLAUSE_WORDS: [&str; 6] = ["FROM", "IN", "LIKE", "WHERE", "LIMIT", "FOR"];

/// Translates `SHOW ...`.
pub(crate) fn show(p: &mut Parser<'_>, env: &dyn Env) -> Res<Stmt> {
    p.next_token(); // SHOW
    let full = p.eat_word("FULL");
    let extended = !full && p.eat_word("EXTENDED");
    let full = full || (extended && p.eat_word("FULL"));
    let global = p.eat_word("GLOBAL");
    let _session = !global && (p.eat_word("SESSION") || p.eat_word("LOCAL"));
    let show = if p.eat_word("DATABASES") || p.eat_word("SCHEMAS") {
        Show::Databases {
            filter: filter(p, env)?,
        }
    } else if p.eat_word("TABLES") {
        let db = from_database(p)?
            .map(Ok)
            .unwrap_or_else(|| current_db(env))?;
        Show::Tables {
            db,
            full,
            filter: filter(p, env)?,
        }
    } else if p.eat_word("COLUMNS") || p.eat_word("FIELDS") {
        let table = from_table(p, env)?;
        Show::Columns {
            table,
            full,
            filter: filter(p, env)?,
        }
    } else if p.eat_word("INDEX") || p.eat_word("INDEXES") || p.eat_word("KEYS") {
        let table = from_table(p, env)?;
        filter(p, env)?;
        Show::Index { table }
    } else if p.eat_words(&["CREATE", "TABLE"]) {
        Show::CreateTable(resolve(env, &p.parse_object_name(false)?)?)
    } else if p.eat_words(&["CREATE", "VIEW"]) {
        Show::CreateView(resolve(env, &p.parse_object_name(false)?)?)
    } else if p.eat_words(&["CREATE", "DATABASE"]) || p.eat_words(&["CREATE", "SCHEMA"]) {
        p.eat_words(&["IF", "NOT", "EXISTS"]);
        Show::CreateDatabase(p.parse_identifier()?.value)
    } else if p.peek_is(0, "CREATE") {
        let what = p.peek_word(1).unwrap_or_default();
        return Err(Fail::Sql(SqlError::Unsupported(format!(
            "SHOW CREATE {what}"
        ))));
    } else if p.eat_word("VARIABLES") {
        Show::Variables {
            global,
            filter: filter(p, env)?,
        }
    } else if p.eat_words(&["TABLE", "STATUS"]) {
        let db = from_database(p)?
            .map(Ok)
            .unwrap_or_else(|| current_db(env))?;
        Show::TableStatus {
            db,
            filter: filter(p, env)?,
        }
    } else if p.eat_word("STATUS") {
        Show::Status {
            global,
            filter: filter(p, env)?,
        }
    } else if p.eat_word("PROCESSLIST") {
        Show::Processlist { full }
    } else if p.peek_is(0, "COUNT") && p.peek_nth_token_ref(1).token == Token::LParen {
        p.next_token();
        p.expect_token(&Token::LParen)?;
        p.expect_token(&Token::Mul)?;
        p.expect_token(&Token::RParen)?;
        let what = p.peek_word(0).filter(|w| w == "WARNINGS" || w == "ERRORS");
        let Some(what) = what else {
            return p
                .expected_ref("WARNINGS or ERRORS", p.peek_token_ref())
                .map_err(Fail::from);
        };
        p.next_token();
        Show::Count {
            errors: what == "ERRORS",
        }
    } else if p.eat_word("WARNINGS") {
        skip_rest(p);
        Show::Warnings
    } else if p.eat_word("ERRORS") {
        skip_rest(p);
        Show::Errors
    } else if p.eat_word("ENGINES") || p.eat_words(&["STORAGE", "ENGINES"]) {
        Show::Engines
    } else if p.eat_word("COLLATION") {
        Show::Collation {
            filter: filter(p, env)?,
        }
    } else if p.eat_words(&["CHARACTER", "SET"]) || p.eat_word("CHARSET") {
        Show::CharacterSet {
            filter: filter(p, env)?,
        }
    } else if p.eat_word("GRANTS") {
        skip_rest(p);
        Show::Grants
    } else {
        let mut kind = Vec::new();
        while let Some(w) = p
            .peek_word(0)
            .filter(|w| !CLAUSE_WORDS.contains(&w.as_str()))
        {
            kind.push(w);
            p.next_token();
        }
        if kind.is_empty() {
            return p
                .expected_ref("a SHOW statement", p.peek_token_ref())
                .map_err(Fail::from);
        }
        skip_rest(p);
        Show::Empty(kind.join(" "))
    };
    p.expect_end()?;
    Ok(Stmt::Show(show))
}

/// `DESCRIBE t [column | 'pattern']`, `DESC t`, `EXPLAIN t`.
pub(crate) fn describe(p: &mut Parser<'_>, env: &dyn Env) -> Res<Stmt> {
    let word = p.peek_word(0).unwrap_or_default();
    p.next_token();
    let statement_follows = matches!(p.peek_token_ref().token, Token::LParen)
        || [
            "SELECT",
            "WITH",
            "INSERT",
            "UPDATE",
            "DELETE",
            "REPLACE",
            "TABLE",
            "FORMAT",
            "ANALYZE",
            "EXTENDED",
            "PARTITIONS",
            "FOR",
        ]
        .iter()
        .any(|w| p.peek_is(0, w));
    if statement_follows {
        return Err(Fail::Sql(SqlError::Unsupported(format!(
            "{word} of a statement"
        ))));
    }
    let table = resolve(env, &p.parse_object_name(false)?)?;
    let filter = match p.next_token().token {
        Token::EOF => None,
        Token::Word(w) => Some(Filter::Like(w.value)),
        Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => Some(Filter::Like(s)),
        other => {
            let t = sqlparser::tokenizer::TokenWithSpan::wrap(other);
            return p.expected("a column name", t).map_err(Fail::from);
        }
    };
    p.expect_end()?;
    Ok(Stmt::Show(Show::Columns {
        table,
        full: false,
        filter,
    }))
}

/// `[FROM | IN] db`.
fn from_database(p: &mut Parser<'_>) -> Res<Option<String>> {
    if p.eat_word("FROM") || p.eat_word("IN") {
        let db = p.parse_identifier()?.value;
        check_schema(&db)?;
        Ok(Some(db))
    } else {
        Ok(None)
    }
}

/// `{FROM | IN} t [{FROM | IN} db]`.
fn from_table(p: &mut Parser<'_>, env: &dyn Env) -> Res<TableName> {
    if !(p.eat_word("FROM") || p.eat_word("IN")) {
        return p
            .expected_ref("FROM", p.peek_token_ref())
            .map_err(Fail::from);
    }
    let name = p.parse_object_name(false)?;
    let ids = parts(&name)?;
    Ok(match from_database(p)? {
        Some(db) if ids.len() == 1 => TableName::new(db, ids[0].value.clone()),
        _ => resolve_parts(env, &ids)?,
    })
}

/// `LIKE 'pattern'` or `WHERE expr`.
fn filter(p: &mut Parser<'_>, env: &dyn Env) -> Res<Option<Filter>> {
    if p.eat_word("LIKE") {
        return Ok(Some(Filter::Like(p.parse_literal_string()?)));
    }
    if p.eat_word("WHERE") {
        let mut e = p.parse_expr()?;
        Rewriter::new(env).expr(&mut e)?;
        return Ok(Some(Filter::Where(e.to_string())));
    }
    Ok(None)
}

fn skip_rest(p: &mut Parser<'_>) {
    while !p.at_end() {
        p.next_token();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testenv::TestEnv;
    use crate::translate;

    fn show_in(sql: &str, env: &TestEnv) -> Result<Show, SqlError> {
        match translate(sql, env)?.remove(0) {
            Stmt::Show(s) => Ok(s),
            other => panic!("{other:?}"),
        }
    }

    fn show(sql: &str) -> Show {
        show_in(sql, &TestEnv::new().with_db("app")).unwrap()
    }

    fn like(s: &str) -> Option<Filter> {
        Some(Filter::Like(s.into()))
    }

    #[test]
    fn client_chatter() {
        assert_eq!(show("SHOW DATABASES"), Show::Databases { filter: None });
        assert_eq!(
            show("SHOW SCHEMAS LIKE 'a%'"),
            Show::Databases { filter: like("a%") }
        );
        assert_eq!(
            show("SHOW TABLES"),
            Show::Tables {
                db: "app".into(),
                full: false,
                filter: None
            }
        );
        assert_eq!(
            show("SHOW FULL TABLES FROM other LIKE 'x%'"),
            Show::Tables {
                db: "other".into(),
                full: true,
                filter: like("x%")
            }
        );
        assert_eq!(
            show("SHOW VARIABLES LIKE 'max_allowed_packet'"),
            Show::Variables {
                global: false,
                filter: like("max_allowed_packet")
            }
        );
        assert_eq!(
            show("SHOW STATUS LIKE 'wsrep%'"),
            Show::Status {
                global: false,
                filter: like("wsrep%")
            }
        );
        assert_eq!(
            show("SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_state_comment','wsrep_cluster_size')"),
            Show::Status {
                global: true,
                filter: Some(Filter::Where(
                    "\"Variable_name\" IN ('wsrep_local_state_comment', 'wsrep_cluster_size')".into()
                )),
            }
        );
        assert_eq!(
            show("SHOW SESSION VARIABLES"),
            Show::Variables {
                global: false,
                filter: None
            }
        );
    }

    #[test]
    fn show_tables_needs_a_database() {
        assert_eq!(
            show_in("SHOW TABLES", &TestEnv::new()),
            Err(SqlError::NoDatabaseSelected)
        );
        assert_eq!(
            show_in("SHOW TABLES FROM information_schema", &TestEnv::new()),
            Err(SqlError::Unsupported("information_schema".into()))
        );
    }

    #[test]
    fn table_shows() {
        let t = TableName::new("app", "t");
        assert_eq!(
            show("SHOW COLUMNS FROM t"),
            Show::Columns {
                table: t.clone(),
                full: false,
                filter: None
            }
        );
        assert_eq!(
            show("SHOW FULL FIELDS IN t FROM other LIKE 'a%'"),
            Show::Columns {
                table: TableName::new("other", "t"),
                full: true,
                filter: like("a%")
            }
        );
        assert_eq!(
            show("SHOW INDEX FROM other.t"),
            Show::Index {
                table: TableName::new("other", "t")
            }
        );
        assert_eq!(show("SHOW KEYS IN t"), Show::Index { table: t.clone() });
        assert_eq!(show("SHOW CREATE TABLE `t`"), Show::CreateTable(t.clone()));
        assert_eq!(
            show("SHOW CREATE DATABASE app"),
            Show::CreateDatabase("app".into())
        );
        assert_eq!(
            show("SHOW TABLE STATUS LIKE 't'"),
            Show::TableStatus {
                db: "app".into(),
                filter: like("t")
            }
        );
        assert_eq!(
            show("DESCRIBE t"),
            Show::Columns {
                table: t.clone(),
                full: false,
                filter: None
            }
        );
        assert_eq!(
            show("DESC other.t 'c%'"),
            Show::Columns {
                table: TableName::new("other", "t"),
                full: false,
                filter: like("c%"),
            }
        );
        assert_eq!(
            show("EXPLAIN t"),
            Show::Columns {
                table: t,
                full: false,
                filter: None
            }
        );
        assert_eq!(
            show_in("EXPLAIN SELECT 1", &TestEnv::new()),
            Err(SqlError::Unsupported("EXPLAIN of a statement".into()))
        );
    }

    #[test]
    fn server_shows() {
        assert_eq!(
            show("SHOW FULL PROCESSLIST"),
            Show::Processlist { full: true }
        );
        assert_eq!(show("SHOW PROCESSLIST"), Show::Processlist { full: false });
        assert_eq!(show("SHOW WARNINGS LIMIT 10"), Show::Warnings);
        assert_eq!(
            show("SHOW COUNT(*) WARNINGS"),
            Show::Count { errors: false }
        );
        assert_eq!(show("SHOW ERRORS"), Show::Errors);
        assert_eq!(show("SHOW STORAGE ENGINES"), Show::Engines);
        assert_eq!(
            show("SHOW COLLATION LIKE 'utf8%'"),
            Show::Collation {
                filter: like("utf8%")
            }
        );
        assert_eq!(
            show("SHOW CHARACTER SET"),
            Show::CharacterSet { filter: None }
        );
        assert_eq!(show("SHOW CHARSET"), Show::CharacterSet { filter: None });
        assert_eq!(show("SHOW GRANTS FOR CURRENT_USER"), Show::Grants);
        assert_eq!(
            show("SHOW MASTER STATUS"),
            Show::Empty("MASTER STATUS".into())
        );
        assert_eq!(
            show("show slave status"),
            Show::Empty("SLAVE STATUS".into())
        );
        assert_eq!(
            show("SHOW TRIGGERS FROM app"),
            Show::Empty("TRIGGERS".into())
        );
        assert_eq!(
            show("SHOW ENGINE INNODB STATUS"),
            Show::Empty("ENGINE INNODB STATUS".into())
        );
    }
}
