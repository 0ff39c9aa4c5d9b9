//! `CREATE TABLE t LIKE s`: `t` gets `s`'s columns, keys and CHECK constraints, not its
//! rows nor its foreign keys (as in MySQL).
//!
//! tutti already translated `s`'s definition to SQLite once; that translation, as SQLite
//! keeps it in `sqlite_schema`, is copied with the names changed: the table statement and
//! one statement per index (`"db.s.key"` → `"db.t.key"`), the FOREIGN KEY constraints
//! removed. They run as one schema change in total order, so every node copies the same
//! definition (`CREATE TEMPORARY TABLE t LIKE s`: the session's own; either may be
//! temporary). Renaming works on SQLite's tokens, never on raw text, so a column or a
//! string that merely contains the name is left alone.

use sqlparser::dialect::SQLiteDialect;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer};
use tutti_sql::{DdlStmt, TableName, TempDdl};
use tutti_wsrep::Ddl;

use crate::result::Response;
use crate::session::Session;
use crate::ExecError;

impl Session {
    /// Runs a `CREATE [TEMPORARY] TABLE table LIKE source`.
    pub(crate) fn create_like(
        &mut self,
        table: TableName,
        source: TableName,
        if_not_exists: bool,
        temporary: bool,
    ) -> Result<Response, ExecError> {
        let exists = self.table_exists(&table, temporary)?;
        if exists {
            if if_not_exists {
                crate::diagnostics::note_table_exists(&table);
                return Ok(Response::ok());
            }
            return Err(ExecError::TableExists(table.to_string()));
        }
        let definition = self.definition(&source)?;
        if definition.is_empty() {
            return Err(ExecError::NoSuchTable(source.to_string()));
        }
        let (old, new) = (source.sqlite_name(), table.sqlite_name());
        let statements = definition
            .iter()
            .map(|(kind, sql)| renamed(sql, &old, &new, kind == "table"))
            .collect::<Result<Vec<_>, _>>()?;
        if temporary {
            return self.temporary_ddl(TempDdl {
                statements: tutti_sql::temporary_statements(&statements)?,
                tables: vec![table],
                then: None,
                records: tutti_sql::DdlRecords::None,
            });
        }
        self.ddl(DdlStmt {
            ddl: Ddl::Schema {
                database: table.db.clone(),
                statements,
            },
            tables: vec![table],
            records: tutti_sql::DdlRecords::None,
        })
    }

    /// The SQLite statements that define a table and its indexes, as SQLite keeps them (a
    /// temporary table's in the `temp` schema of the session's own connection).
    fn definition(&self, source: &TableName) -> Result<Vec<(String, String)>, ExecError> {
        let read = |c: &rusqlite::Connection, schema: &str| -> Result<_, ExecError> {
            let mut stmt = c.prepare(&format!(
                "SELECT type, sql FROM {schema}.sqlite_schema WHERE tbl_name = ?1 \
                 AND sql IS NOT NULL ORDER BY type <> 'table', rowid"
            ))?;
            let rows = stmt.query_map([source.sqlite_name()], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<Result<Vec<(String, String)>, _>>()?)
        };
        let schema = if self.temporary(source).is_some() {
            "temp"
        } else {
            "main"
        };
        read(&*self.conn_for(source)?, schema)
    }
}

/// `sql` (a SQLite CREATE TABLE / CREATE INDEX) for table `new` instead of `old`; with
/// `drop_foreign_keys`, without its FOREIGN KEY constraints.
fn renamed(sql: &str, old: &str, new: &str, drop_foreign_keys: bool) -> Result<String, ExecError> {
    let mut tokens = Tokenizer::new(&SQLiteDialect {}, sql)
        .tokenize()
        .map_err(|e| ExecError::Sqlite(format!("copying the definition of {old}: {e}")))?;
    let index_prefix = format!("{old}.");
    for t in &mut tokens {
        if let Token::Word(w) = t {
            if w.quote_style == Some('"') {
                if w.value == old {
                    w.value = new.to_string();
                } else if let Some(key) = w.value.strip_prefix(&index_prefix) {
                    w.value = format!("{new}.{key}");
                }
            }
        }
    }
    if drop_foreign_keys {
        tokens = without_foreign_keys(tokens);
    }
    // sqlparser prints a string token without doubling its quotes
    let text = |t: &Token| match t {
        Token::SingleQuotedString(s) => format!("'{}'", s.replace('\'', "''")),
        t => t.to_string(),
    };
    Ok(tokens.iter().map(text).collect())
}

/// The tokens of a CREATE TABLE without its `[CONSTRAINT name] FOREIGN KEY ...` table
/// constraints (each with the comma before it).
fn without_foreign_keys(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut depth = 0usize;
    let mut skipping = false;
    for t in tokens {
        match &t {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        let top = depth == 1 && !matches!(t, Token::LParen);
        if skipping {
            // A constraint ends at the next top-level comma or the closing parenthesis.
            if (top && t == Token::Comma) || depth == 0 {
                skipping = false;
            } else {
                continue;
            }
        }
        if top && is_keyword(&t, Keyword::FOREIGN) {
            // Back to the comma that starts this constraint (dropping CONSTRAINT name).
            while let Some(prev) = out.pop() {
                if prev == Token::Comma {
                    break;
                }
            }
            skipping = true;
            continue;
        }
        out.push(t);
    }
    out
}

fn is_keyword(t: &Token, k: Keyword) -> bool {
    matches!(t, Token::Word(w) if w.keyword == k && w.quote_style.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_are_renamed_and_lose_their_foreign_keys() {
        let quoted = r#"CREATE TABLE "d.c" ("n" TEXT DEFAULT 'it''s')"#;
        assert_eq!(
            renamed(quoted, "d.c", "d.c2", false).unwrap(),
            r#"CREATE TABLE "d.c2" ("n" TEXT DEFAULT 'it''s')"#
        );
        let table = r#"CREATE TABLE "d.c" ("id" INT NOT NULL, "pid" INT, "note" TEXT DEFAULT 'd.c', PRIMARY KEY ("id"), CONSTRAINT "fk" FOREIGN KEY ("pid") REFERENCES "d.p" ("id") DEFERRABLE INITIALLY DEFERRED, CHECK ("id" > 0))"#;
        assert_eq!(
            renamed(table, "d.c", "d.c2", true).unwrap(),
            r#"CREATE TABLE "d.c2" ("id" INT NOT NULL, "pid" INT, "note" TEXT DEFAULT 'd.c', PRIMARY KEY ("id"), CHECK ("id" > 0))"#
        );
        let last = r#"CREATE TABLE "d.c" ("id" INT, FOREIGN KEY ("id") REFERENCES "d.p" ("id"))"#;
        assert_eq!(
            renamed(last, "d.c", "d.c2", true).unwrap(),
            r#"CREATE TABLE "d.c2" ("id" INT)"#
        );
        assert_eq!(
            renamed(
                r#"CREATE UNIQUE INDEX "d.c.uk" ON "d.c" ("pid")"#,
                "d.c",
                "d.x",
                false
            )
            .unwrap(),
            r#"CREATE UNIQUE INDEX "d.x.uk" ON "d.x" ("pid")"#
        );
    }
}
