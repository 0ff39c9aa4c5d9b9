//! Session commands: transactions, `USE`, `FLUSH`, `KILL`, and statements accepted without
//! effect.
//!
//! `BEGIN [WORK]`, `START TRANSACTION [READ ONLY | READ WRITE | WITH CONSISTENT SNAPSHOT, ..]`,
//! `COMMIT [WORK]`, `ROLLBACK [WORK]`. Savepoints, chained transactions and XA are refused.
//! `UNLOCK TABLES`, `ANALYZE TABLE`, `OPTIMIZE TABLE` and `DO ...` are accepted as no-ops
//! (tutti never holds table locks; SQLite maintains its own statistics). `LOCK TABLES` is
//! refused: tutti cannot lock a table across the cluster.

use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::cursor::Cursor;
use crate::dispatch::{Fail, Res, StmtInfo};
use crate::{SqlError, Stmt};

fn unsupported<T>(what: &str) -> Res<T> {
    Err(Fail::Sql(SqlError::Unsupported(what.into())))
}

/// Translates the statements routed here by their first word.
pub(crate) fn session(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    let first = p.peek_word(0).unwrap_or_default();
    p.next_token();
    let stmt = match first.as_str() {
        "BEGIN" => {
            p.eat_word("WORK");
            Stmt::Begin {
                read_only: false,
                consistent_snapshot: false,
            }
        }
        "START" => {
            if !p.eat_word("TRANSACTION") {
                let what = p.peek_word(0).unwrap_or_default();
                return unsupported(&format!("START {what}"));
            }
            start_transaction(p)?
        }
        "COMMIT" => {
            p.eat_word("WORK");
            chain_release(p, "COMMIT")?;
            Stmt::Commit
        }
        "ROLLBACK" => {
            p.eat_word("WORK");
            if p.peek_is(0, "TO") {
                return unsupported("ROLLBACK TO SAVEPOINT");
            }
            chain_release(p, "ROLLBACK")?;
            Stmt::Rollback
        }
        "SAVEPOINT" => return unsupported("SAVEPOINT"),
        "RELEASE" => return unsupported("RELEASE SAVEPOINT"),
        "XA" => return unsupported("XA transactions"),
        "USE" => Stmt::Use(p.parse_identifier()?.value),
        "FLUSH" => flush(p),
        "KILL" => {
            let query_only = p.eat_word("QUERY");
            if !query_only {
                p.eat_word("CONNECTION");
            }
            let id = p.parse_literal_uint()?;
            Stmt::Kill { id, query_only }
        }
        "UNLOCK" => {
            if !(p.eat_word("TABLES") || p.eat_word("TABLE") || p.eat_word("INSTANCE")) {
                return p
                    .expected_ref("TABLES", p.peek_token_ref())
                    .map_err(Fail::from);
            }
            Stmt::Noop(info.text().to_string())
        }
        "LOCK" => {
            let what = p.peek_word(0).unwrap_or_default();
            return unsupported(&format!("LOCK {what}"));
        }
        "DO" => {
            // Evaluated as a SELECT whose rows are dropped (`DO SLEEP(1)`, `DO GET_LOCK(..)`).
            let items = info.text_from(p.peek_token_ref().span.start).to_string();
            while !p.at_end() {
                p.next_token();
            }
            Stmt::Do(format!("SELECT {items}"))
        }
        "ANALYZE" | "OPTIMIZE" => {
            while !p.at_end() {
                p.next_token();
            }
            Stmt::Noop(info.text().to_string())
        }
        _ => return unsupported(&first),
    };
    p.expect_end()?;
    Ok(stmt)
}

/// `START TRANSACTION` modes.
fn start_transaction(p: &mut Parser<'_>) -> Res<Stmt> {
    let (mut read_only, mut consistent_snapshot) = (false, false);
    loop {
        if p.eat_words(&["READ", "ONLY"]) {
            read_only = true;
        } else if p.eat_words(&["READ", "WRITE"]) {
            read_only = false;
        } else if p.eat_words(&["WITH", "CONSISTENT", "SNAPSHOT"]) {
            consistent_snapshot = true;
        } else {
            break;
        }
        if !p.eat(&Token::Comma) {
            break;
        }
    }
    Ok(Stmt::Begin {
        read_only,
        consistent_snapshot,
    })
}

/// `[AND [NO] CHAIN] [[NO] RELEASE]`: only the NO forms are accepted.
fn chain_release(p: &mut Parser<'_>, what: &str) -> Res<()> {
    if p.eat_words(&["AND", "NO", "CHAIN"]) {
    } else if p.peek_is(0, "AND") {
        return unsupported(&format!("{what} AND CHAIN"));
    }
    if p.eat_words(&["NO", "RELEASE"]) {
    } else if p.peek_is(0, "RELEASE") {
        return unsupported(&format!("{what} RELEASE"));
    }
    Ok(())
}

/// `FLUSH [NO_WRITE_TO_BINLOG | LOCAL] what`: the words after FLUSH, upper case.
fn flush(p: &mut Parser<'_>) -> Stmt {
    if !p.eat_word("NO_WRITE_TO_BINLOG") {
        p.eat_word("LOCAL");
    }
    let mut words = Vec::new();
    while !p.at_end() {
        let t = p.next_token();
        match t.token {
            Token::Word(w) => words.push(w.value.to_ascii_uppercase()),
            Token::Comma => {}
            other => words.push(other.to_string()),
        }
    }
    Stmt::Flush(words.join(" "))
}

#[cfg(test)]
mod tests {
    use crate::testenv::TestEnv;
    use crate::{translate, SqlError, Stmt};

    fn one(sql: &str) -> Result<Stmt, SqlError> {
        let mut v = translate(sql, &TestEnv::new().with_db("app"))?;
        assert_eq!(v.len(), 1);
        Ok(v.remove(0))
    }

    #[test]
    fn transactions() {
        let begin = |read_only, consistent_snapshot| Stmt::Begin {
            read_only,
            consistent_snapshot,
        };
        assert_eq!(one("BEGIN").unwrap(), begin(false, false));
        assert_eq!(one("begin work").unwrap(), begin(false, false));
        assert_eq!(one("START TRANSACTION").unwrap(), begin(false, false));
        assert_eq!(
            one("START TRANSACTION READ ONLY").unwrap(),
            begin(true, false)
        );
        assert_eq!(
            one("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ WRITE").unwrap(),
            begin(false, true)
        );
        assert_eq!(one("COMMIT").unwrap(), Stmt::Commit);
        assert_eq!(one("COMMIT WORK").unwrap(), Stmt::Commit);
        assert_eq!(one("ROLLBACK WORK").unwrap(), Stmt::Rollback);
        for (sql, what) in [
            ("SAVEPOINT a", "SAVEPOINT"),
            ("ROLLBACK TO SAVEPOINT a", "ROLLBACK TO SAVEPOINT"),
            ("RELEASE SAVEPOINT a", "RELEASE SAVEPOINT"),
            ("XA START 'x'", "XA transactions"),
            ("COMMIT AND CHAIN", "COMMIT AND CHAIN"),
        ] {
            assert_eq!(one(sql), Err(SqlError::Unsupported(what.into())), "{sql}");
        }
    }

    #[test]
    fn use_flush_kill() {
        assert_eq!(one("USE `my db`").unwrap(), Stmt::Use("my db".into()));
        assert_eq!(one("use app").unwrap(), Stmt::Use("app".into()));
        assert_eq!(one("FLUSH STATUS").unwrap(), Stmt::Flush("STATUS".into()));
        assert_eq!(
            one("flush local privileges").unwrap(),
            Stmt::Flush("PRIVILEGES".into())
        );
        assert_eq!(
            one("FLUSH TABLES WITH READ LOCK").unwrap(),
            Stmt::Flush("TABLES WITH READ LOCK".into())
        );
        assert_eq!(
            one("KILL 5").unwrap(),
            Stmt::Kill {
                id: 5,
                query_only: false
            }
        );
        assert_eq!(
            one("KILL CONNECTION 6").unwrap(),
            Stmt::Kill {
                id: 6,
                query_only: false
            }
        );
        assert_eq!(
            one("KILL QUERY 7").unwrap(),
            Stmt::Kill {
                id: 7,
                query_only: true
            }
        );
    }

    #[test]
    fn noops_and_refusals() {
        assert_eq!(
            one("UNLOCK TABLES").unwrap(),
            Stmt::Noop("UNLOCK TABLES".into())
        );
        assert_eq!(
            one("ANALYZE TABLE t").unwrap(),
            Stmt::Noop("ANALYZE TABLE t".into())
        );
        assert_eq!(
            one("OPTIMIZE TABLE t").unwrap(),
            Stmt::Noop("OPTIMIZE TABLE t".into())
        );
        assert_eq!(
            one("DO SLEEP(1)").unwrap(),
            Stmt::Do("SELECT SLEEP(1)".into())
        );
        assert_eq!(
            one("LOCK TABLES t WRITE"),
            Err(SqlError::Unsupported("LOCK TABLES".into()))
        );
    }
}
