//! Column attributes SQLite has no clause for, kept as a comment in the column's SQLite
//! definition: `ON UPDATE CURRENT_TIMESTAMP(3)` as `/*tutti:on_update 3*/` (see
//! `on_update`), `ZEROFILL` as `/*tutti:zerofill */`, a single-byte character set a text
//! column is declared in as its collation (`/*tutti:charset latin2_general_ci*/`: tutti
//! stores the text as UTF-8, but MariaDB's `CHARSET()`, `HEX()`, `LENGTH()` answer in the
//! declared set, see `derivation`). SQLite stores the comment in
//! `sqlite_schema` with the table's text, renames of the table or column leave it alone,
//! and `CREATE TABLE … LIKE` copies it.
//!
//! A table's default collation, when it is not `utf8mb4_general_ci`, is kept as a
//! constraint that always holds, `CONSTRAINT "tutti:collate utf8mb4_unicode_ci" CHECK (1)`:
//! a table-level comment would not survive ALTER TABLE's rebuilds, which keep constraints.
//! So is the storage engine a table declares, when it is not InnoDB
//! (`"tutti:engine MyISAM"`): tutti stores every table alike, but SHOW CREATE TABLE shows
//! the engine and AUTO_INCREMENT ids follow it (see `autoinc`).

use sqlparser::tokenizer::{Token, Tokenizer, Whitespace};

/// The mark of `ZEROFILL`.
const ZEROFILL: &str = "tutti:zerofill ";

/// The comment recording `mark` with its argument.
pub(crate) fn mark(mark: &str, arg: &str) -> String {
    format!("/*{mark}{arg}*/")
}

/// The mark of a declared single-byte character set.
const CHARSET: &str = "tutti:charset ";

/// The comment recording a text column's declared single-byte `collation`.
pub(crate) fn charset(collation: &str) -> String {
    mark(CHARSET, collation)
}

/// The collation of a single-byte character set `column` is declared in, if any.
pub(crate) fn declared_collation(create_sql: &str, column: &str) -> Option<String> {
    marked(create_sql, CHARSET)
        .into_iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(column))
        .map(|(_, collation)| collation)
}

/// The name prefix of the constraint recording a table's default collation.
const TABLE_COLLATION: &str = "tutti:collate ";

/// The name prefix of the constraint recording a table's storage engine.
const TABLE_ENGINE: &str = "tutti:engine ";

/// The constraint recording a table attribute: `prefix` and its value `arg`.
fn table_constraint(prefix: &str, arg: &str) -> String {
    let name = crate::names::quote_str(&format!("{prefix}{arg}"));
    format!("CONSTRAINT {name} CHECK (1)")
}

/// The value of the table attribute `prefix` recorded in `create_sql` (or in one
/// constraint's text), if any.
fn table_attribute(create_sql: &str, prefix: &str) -> Option<String> {
    let at = create_sql.find(&format!("\"{prefix}"))? + prefix.len() + 1;
    let rest = &create_sql[at..];
    Some(rest[..rest.find('"')?].to_string())
}

/// The constraint recording a table's default collation `collation` (MariaDB's name), None
/// when there is nothing to record: general_ci, or a single-byte character set's.
pub(crate) fn default_collation_mark(collation: &str) -> Option<String> {
    if crate::columns::single_byte_collation(Some(collation), None).is_some() {
        return None;
    }
    let sqlite = crate::columns::text_collation(collation)?;
    (sqlite != crate::columns::GENERAL_CI)
        .then(|| table_constraint(TABLE_COLLATION, crate::columns::mysql_collation(sqlite)))
}

/// Whether a CHECK constraint's name is the mark of a table attribute (its default
/// collation, its engine), which SHOW CREATE TABLE does not list as a constraint.
pub fn is_table_mark(constraint: &str) -> bool {
    constraint.starts_with(TABLE_COLLATION) || constraint.starts_with(TABLE_ENGINE)
}

/// The table's default collation recorded in its SQLite definition, if not the default one.
pub fn table_collation(create_sql: &str) -> Option<String> {
    table_attribute(create_sql, TABLE_COLLATION)
}

/// The constraint recording a table's storage `engine` (MariaDB's name), None for InnoDB.
pub(crate) fn engine_mark(engine: &str) -> Option<String> {
    (engine != crate::create_table::DEFAULT_ENGINE).then(|| table_constraint(TABLE_ENGINE, engine))
}

/// The storage engine a table declares (MariaDB's name): InnoDB unless its SQLite
/// definition records another.
pub fn table_engine(create_sql: &str) -> &'static str {
    recorded_engine(create_sql)
        .and_then(|e| crate::create_table::engine_name(&e).ok())
        .unwrap_or(crate::create_table::DEFAULT_ENGINE)
}

/// The storage engine recorded in `create_sql` (or in one constraint's text), if any.
pub(crate) fn recorded_engine(create_sql: &str) -> Option<String> {
    table_attribute(create_sql, TABLE_ENGINE)
}

/// The text columns of a table declared in a single-byte character set, each with its
/// collation, from its SQLite definition.
pub fn charset_columns(create_sql: &str) -> Vec<(String, String)> {
    marked(create_sql, CHARSET)
}

/// The mark of an expression DEFAULT's MySQL text.
const SHOWN_DEFAULT: &str = "tutti:default ";

/// The comment recording an expression DEFAULT as MariaDB prints it (`(1 + 2)`,
/// `concat('a','b')`), which its SQLite text (`tutti_int_op('+', 1, 2)`) is not. The text is
/// kept in hex: it may hold anything, and other clauses are found in the column's
/// definition by their keywords.
pub(crate) fn shown_default(text: &str) -> String {
    let hex: String = text.bytes().map(|b| format!("{b:02x}")).collect();
    mark(SHOWN_DEFAULT, &hex)
}

/// The expression DEFAULTs of a table, by column, as MariaDB prints them.
pub fn shown_defaults(create_sql: &str) -> Vec<(String, String)> {
    let unhex = |h: &str| -> Option<String> {
        let bytes: Option<Vec<u8>> = (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(h.get(i..i + 2)?, 16).ok())
            .collect();
        String::from_utf8(bytes?).ok()
    };
    marked(create_sql, SHOWN_DEFAULT)
        .into_iter()
        .filter_map(|(column, hex)| Some((column, unhex(&hex)?)))
        .collect()
}

/// The comment recording `ZEROFILL`.
pub(crate) fn zerofill() -> String {
    mark(ZEROFILL, "")
}

/// The ZEROFILL columns of a table, from its SQLite definition.
pub fn zerofill_columns(create_sql: &str) -> Vec<String> {
    marked(create_sql, ZEROFILL)
        .into_iter()
        .map(|(column, _)| column)
        .collect()
}

/// The columns of a table's SQLite definition that carry `mark`, each with the text after
/// the mark: a comment in a column definition (at the top level of the parenthesis) belongs
/// to the column that definition starts with.
pub(crate) fn marked(create_sql: &str, mark: &str) -> Vec<(String, String)> {
    if !create_sql.contains(mark) {
        return vec![];
    }
    let Ok(tokens) = Tokenizer::new(&sqlparser::dialect::SQLiteDialect {}, create_sql).tokenize()
    else {
        return vec![];
    };
    let mut out = Vec::new();
    let (mut depth, mut item_start, mut column) = (0, false, None::<String>);
    for t in tokens {
        match &t {
            Token::LParen => {
                depth += 1;
                item_start = depth == 1;
            }
            Token::RParen => depth -= 1,
            Token::Comma if depth == 1 => item_start = true,
            Token::Whitespace(Whitespace::MultiLineComment(c)) if depth == 1 => {
                if let (Some(arg), Some(name)) = (c.strip_prefix(mark), &column) {
                    out.push((name.clone(), arg.to_string()));
                }
            }
            Token::Whitespace(_) => {}
            Token::Word(w) if item_start => {
                column = Some(w.value.clone());
                item_start = false;
            }
            _ => item_start = false,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_belong_to_their_column() {
        let sql = format!(
            r#"CREATE TABLE "d.t" ("id" INT NOT NULL, "a" INT UNSIGNED(5) {} DEFAULT 1, "b" DECIMAL(6,2) {}, PRIMARY KEY ("id"), CHECK ("id" > 0))"#,
            zerofill(),
            zerofill()
        );
        assert_eq!(zerofill_columns(&sql), ["a", "b"]);
        let sql = format!(
            r#"CREATE TABLE "d.t" ("a" INT DEFAULT (tutti_int_op('+', 1, 2)) {}, "b" INT)"#,
            shown_default("(1 + 2)")
        );
        assert_eq!(shown_defaults(&sql), [("a".into(), "(1 + 2)".into())]);
        assert!(zerofill_columns(r#"CREATE TABLE "d.t" ("id" INT)"#).is_empty());
        let sql = format!(
            r#"CREATE TABLE "d.t" ("id" INT, "s" VARCHAR(4) {} COLLATE tutti_general_ci)"#,
            charset("latin2_general_ci")
        );
        assert_eq!(
            declared_collation(&sql, "S").as_deref(),
            Some("latin2_general_ci")
        );
        assert_eq!(declared_collation(&sql, "id"), None);
    }
}
