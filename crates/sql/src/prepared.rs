//! SQL-level prepared statements: `PREPARE name FROM text`, `EXECUTE name [USING v, ...]`,
//! `EXECUTE IMMEDIATE text [USING ...]`, `{DEALLOCATE | DROP} PREPARE name`.
//!
//! The statement text and the `USING` values are constant expressions (a string, a user
//! variable, `CONCAT(...)`); they are evaluated here when constant, else by the executor
//! (`SetValue::Query`). The executor keeps the named statements in the session, beside the
//! binary protocol's (`COM_STMT_PREPARE`), and runs them the same way: `?` placeholders
//! bound to the `USING` values.

use sqlparser::ast::{Expr, Value as SqlValue};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::cursor::Cursor;
use crate::dispatch::{Fail, Res};
use crate::set::{expression, expression_value};
use crate::{Env, SetValue, Stmt, Value};

/// `PREPARE`, `EXECUTE`, `DEALLOCATE PREPARE` and `DROP PREPARE`.
pub(crate) fn prepared(p: &mut Parser<'_>, env: &dyn Env) -> Res<Stmt> {
    let first = p.peek_word(0).unwrap_or_default();
    p.next_token();
    let stmt = match first.as_str() {
        "PREPARE" => {
            let name = statement_name(p)?;
            if !p.eat_word("FROM") {
                return p
                    .expected_ref("FROM", p.peek_token_ref())
                    .map_err(Fail::from);
            }
            Stmt::Prepare {
                name,
                text: expression(p, env)?,
            }
        }
        "EXECUTE" if p.eat_word("IMMEDIATE") => {
            let text = expression(p, env)?;
            Stmt::ExecuteImmediate {
                text,
                using: using(p, env)?,
            }
        }
        "EXECUTE" => {
            let name = statement_name(p)?;
            Stmt::Execute {
                name,
                using: using(p, env)?,
            }
        }
        _ => {
            // DEALLOCATE PREPARE name, DROP PREPARE name
            if !p.eat_word("PREPARE") {
                return p
                    .expected_ref("PREPARE", p.peek_token_ref())
                    .map_err(Fail::from);
            }
            Stmt::Deallocate(statement_name(p)?)
        }
    };
    p.expect_end()?;
    Ok(stmt)
}

/// A statement name: an identifier, compared case-insensitively (stored lower case).
fn statement_name(p: &mut Parser<'_>) -> Res<String> {
    Ok(p.parse_identifier()?.value.to_lowercase())
}

/// `USING v [, v ...]`, or nothing.
fn using(p: &mut Parser<'_>, env: &dyn Env) -> Res<Vec<SetValue>> {
    let mut out = Vec::new();
    if p.eat_word("USING") {
        loop {
            let e = p.parse_expr()?;
            // A DECIMAL literal is bound as its text, as a client binds a DECIMAL: a double
            // would lose its scale (`LENGTH(?)` of 10.0 is 4, `CONCAT(?)` of 1.50 '1.50').
            out.push(match crate::typing::decimal_literal_text(&e) {
                Some(Expr::Value(v)) => match v.value {
                    SqlValue::SingleQuotedString(t) => SetValue::Value(Value::Text(t)),
                    other => expression_value(Expr::value(other), env)?,
                },
                _ => expression_value(e, env)?,
            });
            if !p.eat(&Token::Comma) {
                break;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::testenv::TestEnv;
    use crate::{translate, SetValue, Stmt, Value};

    fn one(sql: &str) -> Stmt {
        let mut v = translate(sql, &TestEnv::new().with_db("app")).unwrap();
        assert_eq!(v.len(), 1);
        v.remove(0)
    }

    fn text(s: &str) -> SetValue {
        SetValue::Value(Value::Text(s.into()))
    }

    #[test]
    fn prepare_execute_deallocate() {
        assert_eq!(
            one("PREPARE St FROM 'SELECT ?'"),
            Stmt::Prepare {
                name: "st".into(),
                text: text("SELECT ?"),
            }
        );
        assert_eq!(
            one("execute st using 1, 'a'"),
            Stmt::Execute {
                name: "st".into(),
                using: vec![SetValue::Value(Value::Int(1)), text("a")],
            }
        );
        assert_eq!(
            one("EXECUTE st"),
            Stmt::Execute {
                name: "st".into(),
                using: vec![],
            }
        );
        assert_eq!(
            one("EXECUTE IMMEDIATE 'SELECT 1'"),
            Stmt::ExecuteImmediate {
                text: text("SELECT 1"),
                using: vec![],
            }
        );
        assert_eq!(one("DEALLOCATE PREPARE st"), Stmt::Deallocate("st".into()));
        assert_eq!(one("drop prepare ST"), Stmt::Deallocate("st".into()));
    }

    #[test]
    fn computed_text_is_left_to_the_executor() {
        let Stmt::Prepare { text, .. } = one("PREPARE s FROM CONCAT('SELECT ', 'x')") else {
            panic!("not a PREPARE");
        };
        assert!(matches!(text, SetValue::Query(q) if q.starts_with("SELECT ")));
    }
}
