//! Routing: each statement goes to the module that translates it, by its first words.
//!
//! Statements sqlparser handles well (queries, DML, CREATE TABLE/INDEX/VIEW, DROP, RENAME,
//! TRUNCATE) are parsed by `Parser::parse_statement`; MySQL statements it does not know or
//! shapes differently (SHOW, SET, ALTER TABLE, CREATE/DROP DATABASE, transactions, FLUSH,
//! KILL, ...) are parsed by hand with the parser's token API. Routing on the first words
//! also gives a clear "unsupported" error for statements tutti refuses (GRANT, CALL, LOAD
//! DATA, ...) even when sqlparser could not parse them.

use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Token, TokenWithSpan};

use crate::cursor::Cursor;
use crate::lexer::{is_word, StmtTokens, DIALECT};
use crate::syntax::Source;
use crate::{
    alter, create_select, create_table, ddl, dml, prepared, session, set, show, Env, SqlError, Stmt,
};

/// Why a statement failed: a syntax error (positioned by the parser) or a translation error.
pub(crate) enum Fail {
    /// sqlparser rejected it.
    Parse(ParserError),
    /// It parsed, but cannot be translated.
    Sql(SqlError),
}

impl From<ParserError> for Fail {
    fn from(e: ParserError) -> Self {
        Fail::Parse(e)
    }
}

impl From<SqlError> for Fail {
    fn from(e: SqlError) -> Self {
        Fail::Sql(e)
    }
}

/// Result of a translation step.
pub(crate) type Res<T> = Result<T, Fail>;

/// What every translation step may need to know about the statement.
pub(crate) struct StmtInfo<'a> {
    /// The session and catalog.
    pub env: &'a dyn Env,
    /// Number of client placeholders.
    pub params: usize,
    /// `LOCK IN SHARE MODE` was removed.
    pub locking: bool,
    /// `UPDATE IGNORE`.
    pub update_ignore: bool,
    src: &'a Source<'a>,
    start: Location,
    end: Location,
}

impl<'a> StmtInfo<'a> {
    /// The client's whole text, and where this statement ends in it.
    pub fn source(&self) -> (&'a Source<'a>, Location) {
        (self.src, self.end)
    }

    /// The statement's original text.
    pub fn text(&self) -> &'a str {
        self.src.text(self.start, self.end)
    }

    /// The statement's text from `at` on.
    pub fn text_from(&self, at: Location) -> &'a str {
        self.src.text(at, self.end)
    }
}

/// Translates one statement.
pub(crate) fn translate_one(
    env: &dyn Env,
    src: &Source<'_>,
    st: StmtTokens,
) -> Result<Stmt, SqlError> {
    let StmtTokens {
        mut tokens,
        params,
        locking,
        update_ignore,
        into,
        start,
        end,
    } = st;
    let into = into?;
    let info = StmtInfo {
        env,
        params,
        locking,
        update_ignore,
        src,
        start,
        end,
    };
    if is_word(&tokens[0].token, "DROP")
        && tokens.get(1).is_some_and(|t| is_word(&t.token, "TABLES"))
    {
        // DROP TABLES is MySQL's synonym of DROP TABLE
        tokens[1].token = Token::make_keyword("TABLE");
    }
    if is_word(&tokens[0].token, "UPDATE") {
        comma_join_as_from(&mut tokens);
    }
    crate::cast_targets::check(&tokens, src, end)?;
    if crate::spellings::mixed_modifiers(&tokens) {
        return Err(SqlError::WrongUsage("ALL", "DISTINCT"));
    }
    if is_word(&tokens[0].token, "ALTER") {
        alter_view_as_replace(env, &mut tokens)?;
    }
    if has_check_option(&tokens) {
        return Err(SqlError::Unsupported("views WITH CHECK OPTION".into()));
    }
    if is_word(&tokens[0].token, "CREATE") && is_partitioned(&tokens) {
        return Err(SqlError::Unsupported("partitioned tables".into()));
    }
    let mut p = Parser::new(&DIALECT).with_tokens_with_locations(tokens);
    let stmt = match route(&mut p, &info) {
        Ok(s) => s,
        Err(Fail::Sql(e)) => return Err(e),
        Err(Fail::Parse(e)) => return Err(src.parser_error(&e, end)),
    };
    match (into, stmt) {
        (None, stmt) => Ok(stmt),
        (Some(into), Stmt::Query(query)) if query.kind == crate::QueryKind::Select => {
            Ok(Stmt::SelectInto {
                query,
                vars: into.vars,
                deprecated_place: into.deprecated_place,
            })
        }
        (Some(_), _) => Err(SqlError::Unsupported("this SELECT ... INTO".into())),
    }
}

/// `ALTER ALGORITHM=... | DEFINER=... | SQL SECURITY ... VIEW v AS ...` (sqlparser parses
/// these options only after CREATE) → `CREATE OR REPLACE ... VIEW v AS ...` once the view
/// is known to exist (1146 otherwise, as ALTER VIEW of a missing view).
fn alter_view_as_replace(env: &dyn Env, tokens: &mut Vec<TokenWithSpan>) -> Result<(), SqlError> {
    let options = ["ALGORITHM", "DEFINER", "SQL"];
    if !tokens
        .get(1)
        .is_some_and(|t| options.iter().any(|o| is_word(&t.token, o)))
    {
        return Ok(());
    }
    let Some(view) = tokens.iter().position(|t| is_word(&t.token, "VIEW")) else {
        return Ok(());
    };
    let word = |k: usize| match tokens.get(k).map(|t| &t.token) {
        Some(Token::Word(w)) => Some(sqlparser::ast::Ident {
            value: w.value.clone(),
            quote_style: w.quote_style,
            span: sqlparser::tokenizer::Span::empty(),
        }),
        _ => None,
    };
    let parts: Vec<sqlparser::ast::Ident> = match tokens.get(view + 2).map(|t| &t.token) {
        Some(Token::Period) => [word(view + 1), word(view + 3)]
            .into_iter()
            .flatten()
            .collect(),
        _ => word(view + 1).into_iter().collect(),
    };
    let parts: Vec<&sqlparser::ast::Ident> = parts.iter().collect();
    let name = crate::names::resolve_parts(env, &parts)?;
    if !env.table(&name).is_some_and(|t| t.is_view()) {
        return Err(SqlError::NoSuchTable(name.to_string()));
    }
    let at = tokens[0].clone();
    let replace = [
        TokenWithSpan::new(Token::make_keyword("CREATE"), at.span),
        TokenWithSpan::new(Token::make_keyword("OR"), at.span),
        TokenWithSpan::new(Token::make_keyword("REPLACE"), at.span),
    ];
    tokens.splice(0..1, replace);
    Ok(())
}

/// `UPDATE a, b, c SET ...` (sqlparser cannot parse it) → `UPDATE a FROM b, c SET ...`,
/// which it parses as the tables before SET (see `multi_table::update`).
fn comma_join_as_from(tokens: &mut [TokenWithSpan]) {
    let mut depth = 0i32;
    for t in tokens.iter_mut() {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            Token::Comma if depth == 0 => {
                t.token = Token::make_keyword("FROM");
                return;
            }
            tok if depth == 0 && is_word(tok, "SET") => return,
            _ => {}
        }
    }
}

/// `CREATE | ALTER ... VIEW ... WITH [CASCADED | LOCAL] CHECK OPTION` (at the end).
fn has_check_option(tokens: &[TokenWithSpan]) -> bool {
    let n = tokens.len();
    let view = tokens.iter().take(8).any(|t| is_word(&t.token, "VIEW"));
    view && n > 3
        && (is_word(&tokens[0].token, "CREATE") || is_word(&tokens[0].token, "ALTER"))
        && is_word(&tokens[n - 2].token, "CHECK")
        && is_word(&tokens[n - 1].token, "OPTION")
}

/// `CREATE TABLE ... PARTITION BY` (sqlparser cannot parse it): top-level PARTITION BY.
fn is_partitioned(tokens: &[TokenWithSpan]) -> bool {
    let mut depth = 0i32;
    tokens.windows(2).any(|w| {
        match &w[0].token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        depth == 0 && is_word(&w[0].token, "PARTITION") && is_word(&w[1].token, "BY")
    })
}

fn unsupported<T>(what: impl Into<String>) -> Res<T> {
    Err(Fail::Sql(SqlError::Unsupported(what.into())))
}

fn route(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    let first = p.peek_word(0).unwrap_or_default();
    match first.as_str() {
        "SHOW" => show::show(p, info.env),
        "DESCRIBE" | "DESC" | "EXPLAIN" => show::describe(p, info.env),
        "SET" if p.peek_is(1, "STATEMENT") => set::set_statement(p, info),
        "SET" => set::set(p, info.env),
        "USE" | "BEGIN" | "START" | "COMMIT" | "ROLLBACK" | "SAVEPOINT" | "RELEASE" | "XA"
        | "FLUSH" | "KILL" | "UNLOCK" | "LOCK" | "DO" | "ANALYZE" | "OPTIMIZE" => {
            session::session(p, info)
        }
        "ALTER" if p.peek_is(1, "TABLE") => alter::alter_table(p, info),
        "ALTER" if p.peek_is(1, "VIEW") => generic(p, info),
        "ALTER" if p.peek_is(1, "DATABASE") || p.peek_is(1, "SCHEMA") => {
            ddl::alter_database(p, info.env)
        }
        "ALTER" => unsupported(format!("ALTER {}", p.peek_word(1).unwrap_or_default())),
        "CREATE" => create(p, info),
        "DROP" => drop(p, info),
        "RENAME" if !p.peek_is(1, "TABLE") => {
            unsupported(format!("RENAME {}", p.peek_word(1).unwrap_or_default()))
        }
        "CHECK" | "REPAIR" | "CHECKSUM" | "CACHE" => unsupported(format!("{first} TABLE")),
        "PREPARE" | "EXECUTE" | "DEALLOCATE" => prepared::prepared(p, info.env),
        "GRANT" | "REVOKE" | "CALL" | "HANDLER" | "INSTALL" | "UNINSTALL" | "PURGE" | "RESET"
        | "CHANGE" | "HELP" | "SHUTDOWN" | "RESTART" | "CLONE" | "IMPORT" | "GET" | "SIGNAL"
        | "RESIGNAL" | "STOP" | "BINLOG" | "DECLARE" => unsupported(first),
        "LOAD" => unsupported(format!("LOAD {}", p.peek_word(1).unwrap_or_default())),
        _ => generic(p, info),
    }
}

/// Statements sqlparser parses.
fn generic(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    use sqlparser::ast::Statement as S;
    let stmt = p.parse_statement()?;
    p.expect_end()?;
    Ok(match stmt {
        S::Query(_) => dml::select_stmt(info, stmt)?,
        S::Insert(ins) => dml::insert(info, ins)?,
        S::Update(upd) => dml::update(info, upd)?,
        S::Delete(del) => dml::delete(info, del)?,
        S::CreateTable(ct) if ct.query.is_some() && plain_create(&ct) => {
            create_select::create_select(info, ct)?
        }
        S::CreateTable(ct) => create_table::create_table(info.env, ct)?,
        S::CreateIndex(ci) => ddl::create_index(info.env, ci)?,
        S::CreateView(cv) => ddl::create_view(info, cv)?,
        S::AlterView {
            name,
            columns,
            query,
            with_options,
        } if with_options.is_empty() => ddl::alter_view(info, name, columns, query)?,
        S::Drop {
            object_type,
            if_exists,
            names,
            table,
            temporary,
            ..
        } => ddl::drop(info.env, object_type, if_exists, names, table, temporary)?,
        S::RenameTable(renames) => ddl::rename_tables(info.env, renames)?,
        S::Truncate(t) => ddl::truncate(info.env, t)?,
        other => return unsupported(statement_kind(&other)),
    })
}

/// A CREATE TABLE that is not LIKE or a clone (handled by `create_table`).
fn plain_create(ct: &sqlparser::ast::CreateTable) -> bool {
    ct.like.is_none() && ct.clone.is_none()
}

/// The first words of a statement, to name it in an error.
fn statement_kind(s: &sqlparser::ast::Statement) -> String {
    let text = s.to_string();
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase()
}

/// `CREATE ...`: finds the kind of object after optional clauses (OR REPLACE, DEFINER=...).
fn create(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    const KINDS: [&str; 20] = [
        "TABLE",
        "INDEX",
        "VIEW",
        "DATABASE",
        "SCHEMA",
        "UNIQUE",
        "FULLTEXT",
        "SPATIAL",
        "TEMPORARY",
        "USER",
        "ROLE",
        "PROCEDURE",
        "FUNCTION",
        "TRIGGER",
        "EVENT",
        "SERVER",
        "TABLESPACE",
        "LOGFILE",
        "AGGREGATE",
        "RESOURCE",
    ];
    let mut kind = String::new();
    let mut kind_at = 0;
    for n in 1..64 {
        if matches!(p.peek_nth_token_ref(n).token, Token::EOF) {
            break;
        }
        if let Some(w) = p.peek_word(n).filter(|w| KINDS.contains(&w.as_str())) {
            kind = w;
            kind_at = n;
            break;
        }
    }
    match kind.as_str() {
        "DATABASE" | "SCHEMA" => ddl::create_database(p),
        "TABLE" | "INDEX" | "UNIQUE" | "VIEW" => generic(p, info),
        "FULLTEXT" | "SPATIAL" => unsupported(format!("{kind} indexes")),
        "TEMPORARY" if p.peek_is(kind_at + 1, "TABLE") => generic(p, info),
        "TEMPORARY" => unsupported("this CREATE TEMPORARY statement"),
        "" => unsupported("this CREATE statement"),
        k => unsupported(format!("CREATE {k}")),
    }
}

/// `DROP ...`.
fn drop(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    match p.peek_word(1).unwrap_or_default().as_str() {
        "DATABASE" | "SCHEMA" => ddl::drop_database(p),
        "TABLE" | "INDEX" | "VIEW" => generic(p, info),
        "TEMPORARY" if p.peek_is(2, "TABLE") => generic(p, info),
        "TEMPORARY" => unsupported(format!(
            "DROP TEMPORARY {}",
            p.peek_word(2).unwrap_or_default()
        )),
        "PREPARE" => prepared::prepared(p, info.env),
        k => unsupported(format!("DROP {k}")),
    }
}
