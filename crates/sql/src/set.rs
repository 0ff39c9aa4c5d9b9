//! `SET ...` → [`Stmt::Set`]: every assignment form MySQL clients send.
//!
//! * `SET [GLOBAL | SESSION | LOCAL | PERSIST] x = v`, `SET @@[global. | session. | local.]x = v`
//!   (a scope keyword also applies to the following assignments that name none, as in MySQL),
//!   `SET @x = v` / `SET @x := v`.
//! * `SET NAMES cs [COLLATE c]` → `names` = cs; `SET CHARACTER SET cs` / `SET CHARSET cs` →
//!   `character_set` = cs.
//! * `SET [GLOBAL | SESSION] TRANSACTION ISOLATION LEVEL READ COMMITTED` →
//!   `transaction_isolation` = `READ-COMMITTED`; `SET TRANSACTION READ ONLY | READ WRITE` →
//!   `transaction_read_only` = 1 | 0.
//! * Values: `DEFAULT`; a bare word (`ON`, `OFF`, `utf8mb4`, `TRADITIONAL`) → text; a
//!   constant → its value; any other expression → `SELECT <expr>` translated like a query
//!   (so `@@sql_mode` inside it is substituted and subqueries are resolved).

use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::cursor::Cursor;
use crate::dispatch::{Fail, Res, StmtInfo};
use crate::lexer::is_word;
use crate::literals::const_value;
use crate::rewrite::Rewriter;
use crate::{Env, SetScope, SetValue, SetVar, SqlError, Stmt, Value};

/// Translates `SET ...`.
pub(crate) fn set(p: &mut Parser<'_>, env: &dyn Env) -> Res<Stmt> {
    p.next_token(); // SET
    let mut scope = SetScope::Session;
    let mut vars = Vec::new();
    loop {
        if let Some(s) = scope_keyword(p) {
            scope = s;
        }
        assignment(p, env, scope, &mut vars)?;
        if !p.eat(&Token::Comma) {
            break;
        }
    }
    p.expect_end()?;
    Ok(Stmt::Set(vars))
}

/// `SET STATEMENT var = value [, ...] FOR statement`: the statement runs with the session
/// variables set, which then get their values back.
pub(crate) fn set_statement(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    p.next_token(); // SET
    p.next_token(); // STATEMENT
    let mut vars = Vec::new();
    loop {
        assignment(p, info.env, SetScope::Session, &mut vars)?;
        if !p.eat(&Token::Comma) {
            break;
        }
    }
    if let Some(v) = vars.iter().find(|v| v.scope != SetScope::Session) {
        let what = format!("SET STATEMENT of the variable {}", v.name);
        return Err(Fail::Sql(SqlError::Unsupported(what)));
    }
    if !p.eat_word("FOR") {
        return p
            .expected_ref("FOR", p.peek_token_ref())
            .map_err(Fail::from);
    }
    let sql = info.text_from(p.peek_token_ref().span.start).to_string();
    Ok(Stmt::SetStatement { vars, sql })
}

/// `GLOBAL`, `SESSION`, `LOCAL`, `PERSIST`, `PERSIST_ONLY` before an assignment.
fn scope_keyword(p: &mut Parser<'_>) -> Option<SetScope> {
    if p.eat_word("GLOBAL") || p.eat_word("PERSIST") || p.eat_word("PERSIST_ONLY") {
        Some(SetScope::Global)
    } else if p.eat_word("SESSION") || p.eat_word("LOCAL") {
        Some(SetScope::Session)
    } else {
        None
    }
}

fn var(scope: SetScope, name: &str, value: SetValue) -> SetVar {
    SetVar {
        scope,
        name: name.to_ascii_lowercase(),
        value,
    }
}

fn assignment(
    p: &mut Parser<'_>,
    env: &dyn Env,
    scope: SetScope,
    out: &mut Vec<SetVar>,
) -> Res<()> {
    if p.eat_word("NAMES") {
        let charset = charset_value(p)?;
        let set = match &charset {
            SetValue::Value(Value::Text(cs)) => Some(crate::charset_names::charset_named(cs)?),
            _ => None,
        };
        out.push(var(scope, "names", charset));
        if p.eat_word("COLLATE") {
            let name = match charset_value(p)? {
                SetValue::Value(Value::Text(c)) => c,
                _ => "default".into(),
            };
            let collation = match set {
                Some(set) => crate::charset_names::collation_in(&name, set)?,
                None => crate::charset_names::collation_named(&name)?.name,
            };
            let collation = SetValue::Value(Value::Text(collation));
            out.push(var(scope, "collation_connection", collation));
        }
        return Ok(());
    }
    if p.eat_words(&["CHARACTER", "SET"]) || p.eat_word("CHARSET") {
        let charset = charset_value(p)?;
        if let SetValue::Value(Value::Text(cs)) = &charset {
            crate::charset_names::charset_named(cs)?;
        }
        out.push(var(scope, "character_set", charset));
        return Ok(());
    }
    if p.eat_word("TRANSACTION") {
        return transaction(p, scope, out);
    }
    if p.peek_is(0, "PASSWORD") {
        return Err(Fail::Sql(SqlError::Unsupported("SET PASSWORD".into())));
    }
    let (scope, name) = variable_name(p, scope)?;
    if !(p.eat(&Token::Eq) || p.eat(&Token::Assignment) || p.eat_word("TO")) {
        return p.expected_ref("=", p.peek_token_ref()).map_err(Fail::from);
    }
    let value = value(p, env, scope == SetScope::User)?;
    out.push(var(scope, &name, value));
    Ok(())
}

/// `@x`, `@@[scope.]x`, `x`.
fn variable_name(p: &mut Parser<'_>, scope: SetScope) -> Res<(SetScope, String)> {
    let t = p.next_token();
    let Token::Word(w) = t.token else {
        return p.expected("a variable name", t).map_err(Fail::from);
    };
    if w.quote_style.is_none() {
        if let Some(rest) = w.value.strip_prefix("@@") {
            let explicit = match rest.to_ascii_lowercase().as_str() {
                "global" | "persist" | "persist_only" => Some(SetScope::Global),
                "session" | "local" => Some(SetScope::Session),
                _ => None,
            };
            if let (Some(s), true) = (explicit, p.peek_token_ref().token == Token::Period) {
                p.next_token();
                return Ok((s, p.parse_identifier()?.value));
            }
            return Ok((SetScope::Session, rest.to_string()));
        }
        if let Some(rest) = w.value.strip_prefix('@') {
            return Ok((SetScope::User, rest.to_string()));
        }
    }
    Ok((scope, w.value))
}

/// `DEFAULT`, a charset name or string.
fn charset_value(p: &mut Parser<'_>) -> Res<SetValue> {
    if p.eat_word("DEFAULT") {
        return Ok(SetValue::Default);
    }
    let t = p.next_token();
    match t.token {
        Token::Word(w) => Ok(SetValue::Value(Value::Text(w.value))),
        Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => {
            Ok(SetValue::Value(Value::Text(s)))
        }
        _ => p.expected("a character set name", t).map_err(Fail::from),
    }
}

/// A value: DEFAULT, a bare word, a constant, or an expression (for a user variable,
/// `user`, a DECIMAL one is kept as a DECIMAL: see `user_vars`).
fn value(p: &mut Parser<'_>, env: &dyn Env, user: bool) -> Res<SetValue> {
    let next = &p.peek_nth_token_ref(1).token;
    let ends = matches!(next, Token::Comma | Token::EOF) || is_word(next, "FOR");
    if ends {
        if let Token::Word(w) = &p.peek_token_ref().token {
            let literal_word = ["TRUE", "FALSE", "NULL"]
                .iter()
                .any(|k| w.quote_style.is_none() && w.value.eq_ignore_ascii_case(k));
            if !literal_word && !w.value.starts_with('@') {
                let v = if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("DEFAULT") {
                    SetValue::Default
                } else {
                    SetValue::Value(Value::Text(w.value.clone()))
                };
                p.next_token();
                return Ok(v);
            }
        }
    }
    if user {
        let mut e = p.parse_expr()?;
        Rewriter::new(env).expr(&mut e)?;
        return Ok(crate::user_vars::set_value(&e).unwrap_or_else(|| evaluated(e)));
    }
    expression(p, env)
}

/// An expression, evaluated now when it is constant, else by the executor.
pub(crate) fn expression(p: &mut Parser<'_>, env: &dyn Env) -> Res<SetValue> {
    expression_value(p.parse_expr()?, env)
}

/// The value of the parsed expression `e`, as [`expression`].
pub(crate) fn expression_value(mut e: sqlparser::ast::Expr, env: &dyn Env) -> Res<SetValue> {
    Rewriter::new(env).expr(&mut e)?;
    Ok(evaluated(e))
}

/// The value of the rewritten expression `e`: a constant's now, else a query's.
fn evaluated(e: sqlparser::ast::Expr) -> SetValue {
    match const_value(&e) {
        Some(v) => SetValue::Value(v),
        None => SetValue::Query(format!("SELECT {e}")),
    }
}

/// `TRANSACTION ISOLATION LEVEL ... | READ ONLY | READ WRITE`, comma-separated.
fn transaction(p: &mut Parser<'_>, scope: SetScope, out: &mut Vec<SetVar>) -> Res<()> {
    loop {
        if p.eat_words(&["ISOLATION", "LEVEL"]) {
            let level = if p.eat_words(&["READ", "UNCOMMITTED"]) {
                "READ-UNCOMMITTED"
            } else if p.eat_words(&["READ", "COMMITTED"]) {
                "READ-COMMITTED"
            } else if p.eat_words(&["REPEATABLE", "READ"]) {
                "REPEATABLE-READ"
            } else if p.eat_word("SERIALIZABLE") {
                "SERIALIZABLE"
            } else {
                return p
                    .expected_ref("an isolation level", p.peek_token_ref())
                    .map_err(Fail::from);
            };
            out.push(var(
                scope,
                "transaction_isolation",
                SetValue::Value(Value::Text(level.into())),
            ));
        } else if p.eat_words(&["READ", "ONLY"]) {
            out.push(var(
                scope,
                "transaction_read_only",
                SetValue::Value(Value::Int(1)),
            ));
        } else if p.eat_words(&["READ", "WRITE"]) {
            out.push(var(
                scope,
                "transaction_read_only",
                SetValue::Value(Value::Int(0)),
            ));
        } else {
            return p
                .expected_ref("a transaction characteristic", p.peek_token_ref())
                .map_err(Fail::from);
        }
        if !(p.peek_token_ref().token == Token::Comma
            && (p.peek_is(1, "ISOLATION") || p.peek_is(1, "READ")))
        {
            return Ok(());
        }
        p.next_token();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testenv::TestEnv;
    use crate::translate;

    fn vars(sql: &str) -> Vec<SetVar> {
        match translate(sql, &TestEnv::new().with_db("app"))
            .unwrap()
            .remove(0)
        {
            Stmt::Set(v) => v,
            other => panic!("{other:?}"),
        }
    }

    fn one(sql: &str) -> (SetScope, String, SetValue) {
        let mut v = vars(sql);
        assert_eq!(v.len(), 1, "{v:?}");
        let v = v.remove(0);
        (v.scope, v.name, v.value)
    }

    fn val(v: Value) -> SetValue {
        SetValue::Value(v)
    }

    fn text(s: &str) -> SetValue {
        val(Value::Text(s.into()))
    }

    #[test]
    fn names_are_checked() {
        let err = |sql: &str| translate(sql, &TestEnv::new().with_db("app")).unwrap_err();
        assert_eq!(err("SET NAMES foo"), SqlError::UnknownCharset("foo".into()));
        assert_eq!(
            err("SET NAMES latin1 COLLATE utf8mb4_bin"),
            SqlError::CollationCharsetMismatch {
                collation: "utf8mb4_bin".into(),
                charset: "latin1".into()
            }
        );
        assert_eq!(
            err("SET NAMES utf8mb4 COLLATE nonexist"),
            SqlError::UnknownCollation("nonexist".into())
        );
        assert_eq!(
            err("SET CHARSET foo"),
            SqlError::UnknownCharset("foo".into())
        );
    }

    #[test]
    fn connect_time_forms() {
        use SetScope::*;
        assert_eq!(
            one("SET autocommit=1"),
            (Session, "autocommit".into(), val(Value::Int(1)))
        );
        assert_eq!(
            one("SET autocommit=0"),
            (Session, "autocommit".into(), val(Value::Int(0)))
        );
        assert_eq!(
            one("SET NAMES utf8mb4"),
            (Session, "names".into(), text("utf8mb4"))
        );
        let names: Vec<_> = vars("SET NAMES utf8 COLLATE UTF8_BIN")
            .into_iter()
            .map(|v| (v.name, v.value))
            .collect();
        assert_eq!(
            names,
            [
                ("names".into(), text("utf8")),
                ("collation_connection".into(), text("utf8mb3_bin"))
            ]
        );
        assert_eq!(
            one("SET NAMES 'latin1'"),
            (Session, "names".into(), text("latin1"))
        );
        assert_eq!(
            one("SET NAMES DEFAULT"),
            (Session, "names".into(), SetValue::Default)
        );
        assert_eq!(
            one("SET CHARACTER SET utf8"),
            (Session, "character_set".into(), text("utf8"))
        );
        assert_eq!(
            one("SET SESSION sql_mode='STRICT_TRANS_TABLES'"),
            (Session, "sql_mode".into(), text("STRICT_TRANS_TABLES"))
        );
        assert_eq!(
            one("SET sql_mode = TRADITIONAL"),
            (Session, "sql_mode".into(), text("TRADITIONAL"))
        );
        assert_eq!(
            one("SET @@session.Wait_Timeout = 5"),
            (Session, "wait_timeout".into(), val(Value::Int(5)))
        );
        assert_eq!(one("SET @@x = ON"), (Session, "x".into(), text("ON")));
        assert_eq!(
            one("SET @@global.x = off"),
            (Global, "x".into(), text("off"))
        );
        assert_eq!(
            one("SET GLOBAL wsrep_provider_options='gcache.size=1G'"),
            (
                Global,
                "wsrep_provider_options".into(),
                text("gcache.size=1G")
            )
        );
        assert_eq!(
            one("SET x = DEFAULT"),
            (Session, "x".into(), SetValue::Default)
        );
        assert_eq!(
            one("SET character_set_results = NULL"),
            (Session, "character_set_results".into(), val(Value::Null))
        );
        assert_eq!(
            one("SET LOCAL x = -1.5"),
            (Session, "x".into(), val(Value::Real(-1.5)))
        );
        assert_eq!(
            one("SET autocommit = true"),
            (Session, "autocommit".into(), val(Value::Int(1)))
        );
    }

    #[test]
    fn user_variables_and_expressions() {
        let v = vars("SET @a = 1, @B := (SELECT MAX(k) FROM t), @c = 'x'");
        assert_eq!(
            v[0],
            SetVar {
                scope: SetScope::User,
                name: "a".into(),
                value: val(Value::Int(1))
            }
        );
        assert_eq!(
            v[1],
            SetVar {
                scope: SetScope::User,
                name: "b".into(),
                value: SetValue::Query(
                    "SELECT (SELECT MAX(\"k\") AS \"MAX(k)\" FROM \"app.t\" AS \"t\")".into()
                ),
            }
        );
        assert_eq!(v[2].value, text("x"));
        assert_eq!(
            one("SET sql_mode = CONCAT(@@sql_mode, ',ANSI')").2,
            SetValue::Query("SELECT CONCAT('STRICT_TRANS_TABLES', ',ANSI')".into())
        );
    }

    #[test]
    fn scope_carries_over() {
        let v = vars("SET GLOBAL a = 1, b = 2, SESSION c = 3, @@global.d = 4, e = 5");
        let scopes: Vec<_> = v.iter().map(|v| v.scope).collect();
        use SetScope::*;
        assert_eq!(scopes, [Global, Global, Session, Global, Session]);
    }

    #[test]
    fn transaction_characteristics() {
        assert_eq!(
            vars("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"),
            vec![var(
                SetScope::Session,
                "transaction_isolation",
                text("READ-COMMITTED")
            )]
        );
        assert_eq!(
            vars("SET TRANSACTION READ ONLY"),
            vec![var(
                SetScope::Session,
                "transaction_read_only",
                val(Value::Int(1))
            )]
        );
        assert_eq!(
            vars("SET GLOBAL TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ WRITE"),
            vec![
                var(
                    SetScope::Global,
                    "transaction_isolation",
                    text("SERIALIZABLE")
                ),
                var(
                    SetScope::Global,
                    "transaction_read_only",
                    val(Value::Int(0))
                ),
            ]
        );
        assert_eq!(
            translate("SET PASSWORD = 'x'", &TestEnv::new()),
            Err(SqlError::Unsupported("SET PASSWORD".into()))
        );
    }
}
