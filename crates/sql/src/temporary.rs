//! Temporary tables (`CREATE TEMPORARY TABLE`): schema changes of the session's own tables.
//!
//! A temporary table is the session's alone and is never replicated (Galera does not
//! replicate them either): it lives in SQLite's `temp` schema of the session's own
//! connection. Its schema changes are translated as any table's are, then made temporary
//! by the two changes SQLite needs: `CREATE TABLE` becomes `CREATE TEMP TABLE`, and an
//! index's name gets the `temp` schema (`CREATE INDEX temp."db.t.i" ON "db.t"`). Every other
//! statement names tables unqualified, and SQLite looks in `temp` before `main`, so a
//! temporary table hides a table of the same name, as MySQL's does.
//!
//! The rewriting works on SQLite's tokens (of statements tutti generated), never on raw
//! text.

use sqlparser::dialect::SQLiteDialect;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer, Whitespace};

use crate::{DdlRecords, DdlStmt, Env, SqlError, Stmt, TableName, TempDdl};

/// The schema change `statements` of `tables`: the session's own when the table it changes
/// (the first) is temporary, else an ordinary replicated one.
pub(crate) fn ddl_for(
    env: &dyn Env,
    database: String,
    statements: Vec<String>,
    tables: Vec<TableName>,
    records: DdlRecords,
) -> Result<Stmt, SqlError> {
    if tables.first().is_some_and(|t| env.is_temporary(t)) {
        return Ok(Stmt::Temporary(TempDdl {
            statements: temporary_statements(&statements)?,
            tables,
            then: None,
            records,
        }));
    }
    Ok(Stmt::Ddl(DdlStmt {
        ddl: tutti_wsrep::Ddl::Schema {
            database,
            statements,
        },
        tables,
        records,
    }))
}

/// [`temporary_statement`] of each statement.
pub fn temporary_statements(statements: &[String]) -> Result<Vec<String>, SqlError> {
    statements.iter().map(|s| temporary_statement(s)).collect()
}

/// A SQLite schema statement for a table made for the session's temporary table.
pub fn temporary_statement(sql: &str) -> Result<String, SqlError> {
    let mut tokens = Tokenizer::new(&SQLiteDialect {}, sql)
        .tokenize()
        .map_err(|e| SqlError::Unsupported(format!("the statement {sql} ({e})")))?;
    let words: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| !matches!(t, Token::Whitespace(_)))
        .map(|(i, _)| i)
        .collect();
    let keyword = |n: usize| match words.get(n).map(|&i| &tokens[i]) {
        Some(Token::Word(w)) if w.quote_style.is_none() => w.keyword,
        _ => Keyword::NoKeyword,
    };
    if keyword(0) != Keyword::CREATE {
        return Ok(sql.to_string());
    }
    let space = Token::Whitespace(Whitespace::Space);
    match keyword(1) {
        Keyword::TABLE => {
            let at = words[1];
            tokens.splice(at..at, [Token::make_keyword("TEMP"), space]);
        }
        Keyword::INDEX | Keyword::UNIQUE => {
            let mut n = if keyword(1) == Keyword::UNIQUE { 3 } else { 2 };
            if keyword(n) == Keyword::IF {
                n += 3; // IF NOT EXISTS
            }
            let Some(&at) = words.get(n) else {
                return Err(SqlError::Unsupported(format!("the statement {sql}")));
            };
            tokens.splice(at..at, [Token::make_word("temp", None), Token::Period]);
        }
        _ => {
            return Err(SqlError::Unsupported(format!(
                "this statement on a temporary table ({sql})"
            )))
        }
    }
    Ok(tokens.iter().map(ToString::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_and_indexes_move_to_the_temp_schema() {
        assert_eq!(
            temporary_statement(r#"CREATE TABLE IF NOT EXISTS "d.t" ("a" INT)"#).unwrap(),
            r#"CREATE TEMP TABLE IF NOT EXISTS "d.t" ("a" INT)"#
        );
        assert_eq!(
            temporary_statement(r#"CREATE UNIQUE INDEX IF NOT EXISTS "d.t.u" ON "d.t" ("a")"#)
                .unwrap(),
            r#"CREATE UNIQUE INDEX IF NOT EXISTS temp."d.t.u" ON "d.t" ("a")"#
        );
        assert_eq!(
            temporary_statement(r#"CREATE INDEX "d.t.i" ON "d.t" ("a" DESC)"#).unwrap(),
            r#"CREATE INDEX temp."d.t.i" ON "d.t" ("a" DESC)"#
        );
        let other = r#"ALTER TABLE "d.t" RENAME TO "d.u""#;
        assert_eq!(temporary_statement(other).unwrap(), other);
        assert!(temporary_statement(r#"CREATE VIEW "d.v" AS SELECT 1"#).is_err());
    }
}
