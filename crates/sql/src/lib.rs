//! MySQL dialect → SQLite.
//!
//! Every statement a client sends is parsed with `sqlparser` (MySQL dialect) and translated
//! into something tutti can run: a SQLite statement (queries and DML), a replicated schema
//! change ([`tutti_wsrep::Ddl`], executed in total order), or a session command (BEGIN,
//! SET, USE, SHOW, ...). Translation is a pure function of the SQL text and an [`Env`] that
//! answers for the session (current database, variables) and the catalog (tables).
//!
//! Naming: tutti keeps every MySQL database in one SQLite file (one transaction can span
//! databases and the seqno update). A MySQL table `db.t` is the SQLite table `"db.t"`
//! (MySQL forbids `.` in database names, so the split is unambiguous), an index `i` on it is
//! `"db.t.i"`, and system tables have no dot, so users can never name them.
//!
//! Pipeline, per request: the text is tokenized once (`lexer`: placeholders numbered,
//! statements split), each statement is routed by its first words (`dispatch`) and parsed
//! once, its AST is rewritten in one walk (`rewrite`, `exprs`) or translated by the module
//! for its kind (`dml`, `create_table`, `alter`, `ddl`, `set`, `show`, `session`, `prepared`), and
//! printed. Nothing is re-parsed and no text is rewritten with patterns.

mod alias_refs;
mod alter;
mod ast_build;
mod autoinc;
mod big_unsigned;
mod cast_targets;
mod charset_names;
mod column_marks;
mod columns;
mod connection_collation;
mod create_select;
mod create_table;
mod cursor;
mod dates;
mod ddl;
mod decimal;
mod derivation;
mod derived;
mod dialect;
mod dispatch;
mod dml;
mod empty_aggregate;
mod enums;
mod error;
mod exprs;
mod having;
mod item_names;
mod json_types;
mod lexer;
mod limit_params;
mod literals;
mod locking;
mod merged_decimals;
mod modes;
mod multi_table;
mod names;
mod natural;
mod on_update;
mod outer_aggregates;
mod own_level;
mod prepared;
mod quantified;
mod real;
mod real_decimals;
mod rebuild;
mod result_types;
mod rewrite;
mod rollup;
mod row_values;
mod select_into;
mod sequences;
mod session;
mod set;
mod show;
mod spellings;
mod stored;
mod string_lengths;
mod subquery;
mod syntax;
mod temporal_numbers;
mod temporary;
mod timestamps;
mod types;
mod types_map;
mod typing;
mod union_collations;
mod union_decimals;
mod union_floats;
mod upsert_source;
mod user_vars;
mod using_joins;
mod view_columns;
mod view_text;
mod view_types;
mod views;

#[cfg(test)]
mod testenv;
#[cfg(test)]
mod tests;

pub use charset_names::{charset_named, collation_alone, collation_in, collation_named};
pub use column_marks::{
    charset_columns, is_table_mark, shown_defaults, table_collation, table_engine, zerofill_columns,
};
pub use columns::{
    autoinc_declared_type, current_timestamp_precision, is_ci_collation, mysql_collation,
    ENUM_CHECK_SUFFIX, GENERAL_CI,
};
pub use create_select::CreateSelect;
pub use decimal::DecimalType;
pub use derivation::{charset_of, default_collation};
pub use derived::view_decimal_columns;
pub use enums::check_members as enum_check_members;
pub use error::SqlError;
pub use exprs::LAST_INSERT_ID_VAR;
pub use modes::SqlMode;
pub use names::quote_str as quote_ident;
pub use on_update::columns as on_update_columns;
pub use quantified::QUANTIFIED_CTE;
pub use real::RealType;
pub use result_types::ResultType;
pub use subquery::{TOO_MANY_ROWS, TOO_MANY_ROWS_FN};
pub use temporary::temporary_statements;
pub use tutti_wsrep::charsets;
pub use tutti_wsrep::Value;
pub use types::*;
pub use types_map::{has_members, ENUM_DECL, SET_DECL};
pub use view_text::show_create_view;
pub use view_types::{typed_view, TypedView};

/// Translates one client request (possibly several `;`-separated statements).
///
/// A request holding no statement at all (only `;` or comments) is one [`Stmt::Noop`].
/// Every statement is translated against the same `env`; to run a request whose later
/// statements depend on earlier ones (`CREATE DATABASE d; USE d; ...`), use [`Request`].
pub fn translate(sql: &str, env: &dyn Env) -> Result<Vec<Stmt>, SqlError> {
    let mut req = Request::new(sql, env)?;
    let mut out = Vec::with_capacity(req.len());
    while let Some(st) = req.next(env) {
        out.push(st?);
    }
    Ok(out)
}

/// A client request split into statements, translated one at a time: each statement is
/// translated only after the previous one ran, so it sees its effects (a new database, a
/// `USE`, a new table's AUTO_INCREMENT column).
pub struct Request<'a> {
    src: syntax::Source<'a>,
    /// How the session's `sql_mode` reads the text.
    mode: lexer::LexMode,
    statements: std::vec::IntoIter<lexer::StmtTokens>,
    empty: bool,
    /// Statements handed out by [`Request::next`].
    taken: usize,
}

impl<'a> Request<'a> {
    /// Tokenizes the request as the session's `sql_mode` reads it (syntax errors in the
    /// tokens are reported here).
    pub fn new(sql: &'a str, env: &dyn Env) -> Result<Request<'a>, SqlError> {
        let src = syntax::Source::new(sql);
        let mode = lexer::LexMode::of(env);
        let statements = lexer::lex(&src, mode)?;
        let empty = statements.is_empty();
        Ok(Request {
            src,
            mode,
            statements: statements.into_iter(),
            empty,
            taken: 0,
        })
    }

    /// Statements not translated yet (an empty request counts as one no-op).
    pub fn len(&self) -> usize {
        if self.empty {
            1
        } else {
            self.statements.len()
        }
    }

    /// True when every statement was translated.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Translates the next statement.
    pub fn next(&mut self, env: &dyn Env) -> Option<Result<Stmt, SqlError>> {
        if self.empty {
            self.empty = false;
            return Some(Ok(Stmt::Noop(self.src.sql.trim().to_string())));
        }
        let st = self.statements.next()?;
        self.taken += 1;
        Some(dispatch::translate_one(env, &self.src, st))
    }

    /// Translates the statement [`Request::next`] last returned once more (after the
    /// schema it depends on has changed).
    pub fn again(&mut self, env: &dyn Env) -> Option<Result<Stmt, SqlError>> {
        let k = self.taken.checked_sub(1)?;
        let st = lexer::lex(&self.src, self.mode).ok()?.into_iter().nth(k)?;
        Some(dispatch::translate_one(env, &self.src, st))
    }
}
