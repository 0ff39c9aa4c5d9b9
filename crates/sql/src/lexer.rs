//! The token pass: the client's text is tokenized exactly once, here, and everything that is
//! easier to fix on tokens than on the AST happens in the same walk.
//!
//! * Whitespace and comments are dropped (the parser skips them anyway; this also drops
//!   MySQL optimizer hints `/*+ ... */`, which SQLite would not understand). MySQL executable
//!   comments `/*! ... */` were already expanded into ordinary tokens by sqlparser.
//! * Client placeholders `?` become `?1`, `?2`, ... in the order they appear in the original
//!   text, per statement. Printing the AST may move things around (`LIMIT ?, ?`), so numbering
//!   must happen before parsing; a `?` inside a string literal or a comment is a different
//!   token and is never numbered.
//! * `LOCK IN SHARE MODE` (which sqlparser cannot parse) is removed and remembered.
//! * Modifiers sqlparser rejects and SQLite has no use for are removed: `LOW_PRIORITY`,
//!   `QUICK` and `IGNORE` right after `UPDATE`/`DELETE` (UPDATE IGNORE is remembered, it
//!   becomes `UPDATE OR IGNORE`).
//! * `ZEROFILL` is put after the `UNSIGNED` it implies, where the dialect reads it as a
//!   column option.
//! * The MySQL prefix operator `BINARY x` becomes `CAST(x AS BINARY)`: sqlparser parses the
//!   rest of the expression as its operand (`BINARY a = 'x' AND b` would cast the whole
//!   conjunction), while in MySQL it binds tighter than any binary operator.
//! * The MySQL `MOD` operator becomes `%` (the `MOD(a, b)` function is left alone), and `||`
//!   becomes `OR` — its meaning in MySQL's default sql_mode. This has to happen before
//!   parsing: sqlparser gives `||` the precedence of string concatenation, so
//!   `a = 1 || b = 2` would otherwise parse as `a = (1 || b) = 2`.
//!
//! * The session's `sql_mode` ([`LexMode`]): with `PIPES_AS_CONCAT`, `||` stays string
//!   concatenation (the rewriter makes it `CONCAT`; sqlparser binds it like `*`, MySQL a
//!   little tighter, so only `a * b || c` groups differently); with `ANSI_QUOTES`, `"x"` is
//!   an identifier; with `REAL_AS_FLOAT`, the type `REAL` is `FLOAT`; with
//!   `NO_BACKSLASH_ESCAPES`, a backslash in a string is itself. For the
//!   last, the text is tokenized without unescaping and the strings' doubled quotes are
//!   undone here; the tokenizer still pairs a backslash with the next character, so a string
//!   in which a backslash precedes a quote (`'C:\'`) would be read past its end: it is
//!   refused instead.
//!
//! * MySQL's compound interval units (`DAY_HOUR`, `MINUTE_SECOND`, ...), which sqlparser
//!   cannot parse: `EXTRACT(DAY_HOUR FROM x)` becomes `tutti_extract('DAY_HOUR', x)`, and
//!   elsewhere the word becomes `DAYS TO HOUR`, an interval qualifier sqlparser parses and
//!   `dates` reads back (MySQL has no plural units, so the spelling is unambiguous).
//!
//! * A hex literal spelled `x'..'` gets a `_binary` introducer (see `standard_hex`).
//! * `REGEXP NULL` becomes `REGEXP (NULL)`, which sqlparser parses.
//!
//! * Other MySQL spellings sqlparser cannot parse are respelled by `spellings`.
//!
//! Statements are split at top-level `;` tokens; empty statements are dropped here.

use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};

use crate::syntax::Source;
use crate::SqlError;

/// The dialect every statement is tokenized and parsed with.
pub(crate) static DIALECT: crate::dialect::MySql = crate::dialect::MySql;

/// One statement's tokens, cleaned up and ready for the parser.
#[derive(Debug)]
pub(crate) struct StmtTokens {
    /// The tokens, without whitespace or comments, placeholders numbered.
    pub tokens: Vec<TokenWithSpan>,
    /// Number of client placeholders.
    pub params: usize,
    /// `LOCK IN SHARE MODE` was removed.
    pub locking: bool,
    /// `UPDATE IGNORE` (the `IGNORE` was removed).
    pub update_ignore: bool,
    /// `SELECT ... INTO @a, @b` (the clause was removed).
    pub into: Result<Option<crate::select_into::Into>, SqlError>,
    /// Where the statement starts in the original text.
    pub start: Location,
    /// Where it ends.
    pub end: Location,
}

/// True when `t` is the unquoted word `word` (ASCII case-insensitive).
pub(crate) fn is_word(t: &Token, word: &str) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word))
}

/// The compound interval unit `t` is (unquoted), if any.
fn compound_unit(t: &Token) -> Option<&'static str> {
    match t {
        Token::Word(w) if w.quote_style.is_none() => crate::dates::compound_unit(&w.value),
        _ => None,
    }
}

/// Respells compound interval units (see the module doc).
fn compound_units(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        let Some(unit) = compound_unit(&tokens[i].token) else {
            i += 1;
            continue;
        };
        let in_extract = i >= 2
            && is_word(&tokens[i - 2].token, "EXTRACT")
            && tokens[i - 1].token == Token::LParen
            && tokens.get(i + 1).is_some_and(|t| is_word(&t.token, "FROM"));
        if in_extract {
            tokens[i - 2].token = Token::make_word("tutti_extract", None);
            tokens[i].token = Token::SingleQuotedString(unit.into());
            tokens[i + 1].token = Token::Comma;
            i += 2;
            continue;
        }
        let Some((leading, last)) = crate::dates::compound_spelling(unit) else {
            i += 1;
            continue;
        };
        let span = tokens[i].span;
        let words = [leading, "TO", last].map(|w| TokenWithSpan {
            token: Token::make_keyword(w),
            span,
        });
        tokens.splice(i..=i, words);
        i += 3;
    }
}

/// A hex literal spelled `x'41'` (not `0x41`) and not already introduced (`_utf8mb4 x'..'`):
/// MariaDB reads it as a plain binary string, `0x41` as a hybrid that is a number in numeric
/// context, so the former gets a `_binary` introducer (see `literals`).
fn standard_hex(src: &Source<'_>, t: &TokenWithSpan, prev: Option<&TokenWithSpan>) -> bool {
    let introduced = prev.is_some_and(
        |p| matches!(&p.token, Token::Word(w) if w.quote_style.is_none() && w.value.starts_with('_')),
    );
    !introduced && src.text(t.span.start, t.span.end).starts_with(['x', 'X'])
}

/// What the session's `sql_mode` changes in how a text is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LexMode {
    /// `ANSI_QUOTES`: `"x"` is an identifier.
    pub ansi_quotes: bool,
    /// `PIPES_AS_CONCAT`: `||` concatenates.
    pub pipes_as_concat: bool,
    /// `NO_BACKSLASH_ESCAPES`: a backslash in a string is a backslash.
    pub no_backslash_escapes: bool,
    /// `REAL_AS_FLOAT`: the type `REAL` is `FLOAT`, not `DOUBLE`.
    pub real_as_float: bool,
}

impl LexMode {
    /// The session's.
    pub fn of(env: &dyn crate::Env) -> LexMode {
        let mode = crate::modes::SqlMode::of(env);
        LexMode {
            ansi_quotes: mode.has("ANSI_QUOTES"),
            pipes_as_concat: mode.has("PIPES_AS_CONCAT"),
            no_backslash_escapes: mode.has("NO_BACKSLASH_ESCAPES"),
            real_as_float: mode.has("REAL_AS_FLOAT"),
        }
    }

    /// A token as this mode reads it.
    fn read(&self, token: Token) -> Result<Token, SqlError> {
        let token = if self.no_backslash_escapes {
            unescaped(token)?
        } else {
            token
        };
        Ok(match token {
            Token::DoubleQuotedString(s) if self.ansi_quotes => Token::make_word(&s, Some('`')),
            t => t,
        })
    }
}

/// A token of a text tokenized without unescaping, as `NO_BACKSLASH_ESCAPES` reads it:
/// doubled quotes undone, backslashes kept.
fn unescaped(token: Token) -> Result<Token, SqlError> {
    let undouble = |s: &str, quote: char| {
        let q = quote.to_string();
        s.replace(&q.repeat(2), &q)
    };
    // The tokenizer paired each backslash of a string with the character after it.
    let string = |s: String, quote: char| -> Result<String, SqlError> {
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\\' && chars.next() == Some(quote) {
                return Err(SqlError::Unsupported(
                    "a backslash before a quote in a string under NO_BACKSLASH_ESCAPES".into(),
                ));
            }
        }
        Ok(undouble(&s, quote))
    };
    Ok(match token {
        Token::SingleQuotedString(s) => Token::SingleQuotedString(string(s, '\'')?),
        Token::NationalStringLiteral(s) => Token::NationalStringLiteral(string(s, '\'')?),
        Token::DoubleQuotedString(s) => Token::DoubleQuotedString(string(s, '"')?),
        Token::Word(w) => match w.quote_style {
            Some(q) => Token::make_word(&undouble(&w.value, q), Some(q)),
            None => Token::Word(w),
        },
        t => t,
    })
}

/// Tokenizes `src` and splits it into statements.
pub(crate) fn lex(src: &Source<'_>, mode: LexMode) -> Result<Vec<StmtTokens>, SqlError> {
    let tokens = Tokenizer::new(&DIALECT, src.sql)
        .with_unescape(!mode.no_backslash_escapes)
        .tokenize_with_location()
        .map_err(|e| src.syntax_error(Some(e.location), None))?;
    let mut out = Vec::new();
    let mut current: Vec<TokenWithSpan> = Vec::new();
    for mut t in tokens {
        t.token = mode.read(t.token)?;
        match t.token {
            Token::Whitespace(_) => {}
            Token::HexStringLiteral(_) if standard_hex(src, &t, current.last()) => {
                let span = t.span;
                current.push(TokenWithSpan {
                    token: Token::make_word("_binary", None),
                    span,
                });
                current.push(t);
            }
            Token::SemiColon => {
                if !current.is_empty() {
                    out.push(finish(std::mem::take(&mut current), mode));
                }
            }
            _ => current.push(t),
        }
    }
    if !current.is_empty() {
        out.push(finish(current, mode));
    }
    Ok(out)
}

/// Applies the per-statement token fixes.
fn finish(mut tokens: Vec<TokenWithSpan>, mode: LexMode) -> StmtTokens {
    let start = tokens
        .first()
        .map(|t| t.span.start)
        .unwrap_or(Location { line: 0, column: 0 });
    let end = tokens
        .last()
        .map(|t| t.span.end)
        .unwrap_or(Location { line: 0, column: 0 });
    let mut update_ignore = false;
    strip_leading_modifiers(&mut tokens, &mut update_ignore);
    let locking = strip_lock_in_share_mode(&mut tokens);
    let into = crate::select_into::take_into(&mut tokens);
    crate::spellings::respell(&mut tokens);
    if tokens.iter().any(|t| is_word(&t.token, "BINARY")) {
        binary_prefix_to_cast(&mut tokens);
    }
    compound_units(&mut tokens);
    parenthesize_regexp_null(&mut tokens);
    let mut params = 0;
    let mut i = 0;
    while i < tokens.len() {
        let next_is_paren = matches!(tokens.get(i + 1).map(|t| &t.token), Some(Token::LParen));
        let prev_is_unsigned = i > 0 && is_word(&tokens[i - 1].token, "UNSIGNED");
        let prev_is_double = i > 0 && is_word(&tokens[i - 1].token, "DOUBLE");
        let next_is_unsigned =
            matches!(tokens.get(i + 1), Some(n) if is_word(&n.token, "UNSIGNED"));
        let t = &mut tokens[i];
        match &t.token {
            Token::Placeholder(p) if p == "?" => {
                params += 1;
                t.token = Token::Placeholder(format!("?{params}"));
            }
            Token::StringConcat if !mode.pipes_as_concat => t.token = Token::make_keyword("OR"),
            tok if is_word(tok, "MOD") && !next_is_paren => t.token = Token::Mod,
            // `REAL(M,D)` and `DOUBLE PRECISION(M,D)` are `DOUBLE(M,D)` (sqlparser takes
            // the shape only after DOUBLE).
            tok if is_word(tok, "REAL") && mode.real_as_float => {
                t.token = Token::make_word("FLOAT", None)
            }
            tok if is_word(tok, "REAL") && next_is_paren => {
                t.token = Token::make_word("DOUBLE", None)
            }
            tok if is_word(tok, "PRECISION") && prev_is_double && next_is_paren => {
                tokens.remove(i);
                continue;
            }
            // ZEROFILL implies UNSIGNED, which sqlparser reads only right after the type:
            // `INT ZEROFILL [UNSIGNED]` becomes `INT UNSIGNED ZEROFILL`, and the dialect
            // reads ZEROFILL as a column option.
            tok if is_word(tok, "ZEROFILL") && !prev_is_unsigned => {
                if next_is_unsigned {
                    tokens.swap(i, i + 1);
                } else {
                    let mut unsigned = t.clone();
                    unsigned.token = Token::make_keyword("UNSIGNED");
                    tokens.insert(i, unsigned);
                }
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    StmtTokens {
        tokens,
        params,
        locking,
        update_ignore,
        into,
        start,
        end,
    }
}

/// `x REGEXP NULL` → `x REGEXP (NULL)`: sqlparser takes a NULL right after REGEXP/RLIKE for
/// the start of `NOT NULL` and then misses the pattern.
fn parenthesize_regexp_null(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 1;
    while i < tokens.len() {
        let after_regexp =
            is_word(&tokens[i - 1].token, "REGEXP") || is_word(&tokens[i - 1].token, "RLIKE");
        if after_regexp && is_word(&tokens[i].token, "NULL") {
            let span = tokens[i].span;
            tokens.insert(
                i,
                TokenWithSpan {
                    token: Token::LParen,
                    span,
                },
            );
            tokens.insert(
                i + 2,
                TokenWithSpan {
                    token: Token::RParen,
                    span,
                },
            );
            i += 2;
        }
        i += 1;
    }
}

/// Removes `LOW_PRIORITY`, `QUICK`, `IGNORE` right after a leading `UPDATE` or `DELETE`.
fn strip_leading_modifiers(tokens: &mut Vec<TokenWithSpan>, update_ignore: &mut bool) {
    let Some(first) = tokens.first() else { return };
    let is_update = is_word(&first.token, "UPDATE");
    if !is_update && !is_word(&first.token, "DELETE") {
        return;
    }
    while let Some(t) = tokens.get(1) {
        if is_word(&t.token, "LOW_PRIORITY") || is_word(&t.token, "QUICK") {
            tokens.remove(1);
        } else if is_word(&t.token, "IGNORE") {
            *update_ignore |= is_update;
            tokens.remove(1);
        } else {
            break;
        }
    }
}

/// Removes every `LOCK IN SHARE MODE`; true if there was one.
fn strip_lock_in_share_mode(tokens: &mut Vec<TokenWithSpan>) -> bool {
    const WORDS: [&str; 4] = ["LOCK", "IN", "SHARE", "MODE"];
    let mut found = false;
    let mut i = 0;
    while i + WORDS.len() <= tokens.len() {
        if WORDS
            .iter()
            .enumerate()
            .all(|(k, w)| is_word(&tokens[i + k].token, w))
        {
            tokens.drain(i..i + WORDS.len());
            found = true;
        } else {
            i += 1;
        }
    }
    found
}

/// True when a token before `BINARY` means an operand is expected (so BINARY is the prefix
/// operator, not a type name after `AS` or a column name).
pub(crate) fn expects_operand(prev: Option<&Token>) -> bool {
    const WORDS: [&str; 16] = [
        "SELECT", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "THEN", "ELSE", "HAVING", "BY", "IN",
        "LIKE", "REGEXP", "RLIKE", "XOR",
    ];
    match prev {
        None => false,
        Some(Token::Word(w)) => {
            w.quote_style.is_none() && WORDS.iter().any(|k| w.value.eq_ignore_ascii_case(k))
        }
        Some(t) => matches!(
            t,
            Token::Eq
                | Token::DoubleEq
                | Token::Neq
                | Token::Lt
                | Token::Gt
                | Token::LtEq
                | Token::GtEq
                | Token::Spaceship
                | Token::LParen
                | Token::Comma
                | Token::Plus
                | Token::Minus
                | Token::Mul
                | Token::Div
                | Token::Mod
        ),
    }
}

/// End (exclusive) of the simple operand starting at `i`: a parenthesized group, a function
/// call, a possibly qualified name, or a single token.
pub(crate) fn operand_end(tokens: &[TokenWithSpan], i: usize) -> usize {
    let group_end = |open: usize| (crate::spellings::closing(tokens, open) + 1).min(tokens.len());
    match tokens.get(i).map(|t| &t.token) {
        Some(Token::LParen) => group_end(i),
        Some(Token::Word(_)) => {
            let mut end = i + 1;
            while matches!(tokens.get(end).map(|t| &t.token), Some(Token::Period))
                && matches!(tokens.get(end + 1).map(|t| &t.token), Some(Token::Word(_)))
            {
                end += 2;
            }
            if matches!(tokens.get(end).map(|t| &t.token), Some(Token::LParen)) {
                end = group_end(end);
            }
            end
        }
        Some(_) => i + 1,
        None => i,
    }
}

/// `BINARY x` (prefix operator) → `CAST(x AS BINARY)`.
fn binary_prefix_to_cast(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        if is_word(&tokens[i].token, "BINARY")
            && expects_operand(i.checked_sub(1).map(|p| &tokens[p].token))
            && i + 1 < tokens.len()
        {
            let end = operand_end(tokens, i + 1);
            let span = tokens[i].span;
            let tok = |t: Token| TokenWithSpan::new(t, span);
            tokens.insert(end, tok(Token::RParen));
            tokens.insert(end, tok(Token::make_keyword("BINARY")));
            tokens.insert(end, tok(Token::make_keyword("AS")));
            tokens[i] = tok(Token::make_keyword("CAST"));
            tokens.insert(i + 1, tok(Token::LParen));
            i = end + 4;
        } else {
            i += 1;
        }
    }
}

/// A statement's tokens as text, one space apart (for tests).
#[cfg(test)]
pub(crate) fn spelled(s: &StmtTokens) -> String {
    s.tokens
        .iter()
        .map(|t| t.token.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::tokenizer::Word;

    fn lexed(sql: &str) -> Vec<StmtTokens> {
        lex(&Source::new(sql), LexMode::default()).unwrap()
    }

    use super::spelled as text;

    #[test]
    fn sql_mode_changes_how_the_text_reads() {
        let lexed_as = |sql: &str, mode: LexMode| text(&lex(&Source::new(sql), mode).unwrap()[0]);
        let default = LexMode::default();
        assert_eq!(
            lexed_as(r#"SELECT "a" || 'b'"#, default),
            "SELECT \"a\" OR 'b'"
        );
        let ansi = LexMode {
            ansi_quotes: true,
            pipes_as_concat: true,
            real_as_float: true,
            ..default
        };
        assert_eq!(lexed_as(r#"SELECT "a" || 'b'"#, ansi), "SELECT `a` || 'b'");
        assert_eq!(
            lexed_as("CREATE TABLE t (x REAL)", ansi),
            "CREATE TABLE t ( x FLOAT )"
        );
        let raw = LexMode {
            no_backslash_escapes: true,
            ..default
        };
        let strings = |sql: &str, mode| -> Vec<String> {
            lex(&Source::new(sql), mode).unwrap()[0]
                .tokens
                .iter()
                .filter_map(|t| match &t.token {
                    Token::SingleQuotedString(s) | Token::Word(Word { value: s, .. }) => {
                        Some(s.clone())
                    }
                    _ => None,
                })
                .collect()
        };
        let sql = r"SELECT 'a\nb', 'it''s', `x``y`";
        assert_eq!(strings(sql, default), ["SELECT", "a\nb", "it's", "x`y"]);
        assert_eq!(strings(sql, raw), ["SELECT", r"a\nb", "it's", "x`y"]);
        // The tokenizer reads on past such a string's end: an error, never another text.
        assert!(lex(&Source::new(r"SELECT 'C:\', 'x'"), raw).is_err());
        assert!(matches!(
            lex(&Source::new(r"SELECT 'C:\''"), raw),
            Err(SqlError::Unsupported(_))
        ));
    }

    #[test]
    fn numbers_placeholders_in_text_order() {
        let s = lexed("SELECT a FROM t WHERE b = ? AND c = '?' /* ? */ LIMIT ?, ?");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].params, 3);
        assert_eq!(
            text(&s[0]),
            "SELECT a FROM t WHERE b = ?1 AND c = '?' LIMIT ?2 , ?3"
        );
    }

    #[test]
    fn splits_statements_and_drops_empty_ones() {
        let s = lexed("SELECT ?; ;  -- nothing\n SELECT ?, ?;");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].params, 1);
        assert_eq!(s[1].params, 2);
        assert_eq!(text(&s[1]), "SELECT ?1 , ?2");
        assert!(lexed("  /* only a comment */ ").is_empty());
    }

    #[test]
    fn removes_lock_in_share_mode_and_modifiers() {
        let s = lexed("SELECT a FROM t lock in share mode");
        assert!(s[0].locking);
        assert_eq!(text(&s[0]), "SELECT a FROM t");
        let s = lexed("UPDATE LOW_PRIORITY IGNORE t SET a = 1");
        assert!(s[0].update_ignore);
        assert_eq!(text(&s[0]), "UPDATE t SET a = 1");
        let s = lexed("DELETE QUICK IGNORE FROM t");
        assert!(!s[0].update_ignore);
        assert_eq!(text(&s[0]), "DELETE FROM t");
    }

    #[test]
    fn binary_prefix_binds_tightly() {
        assert_eq!(
            text(&lexed("SELECT BINARY a = 'x' AND BINARY t.b = f(c)")[0]),
            "SELECT CAST ( a AS BINARY ) = 'x' AND CAST ( t . b AS BINARY ) = f ( c )"
        );
        assert_eq!(
            text(&lexed("SELECT CAST(a AS BINARY), BINARY f(x, y)")[0]),
            "SELECT CAST ( a AS BINARY ) , CAST ( f ( x , y ) AS BINARY )"
        );
        assert_eq!(
            text(&lexed("CREATE TABLE t (b BINARY(16))")[0]),
            "CREATE TABLE t ( b BINARY ( 16 ) )"
        );
    }

    #[test]
    fn mod_operator_and_zerofill() {
        assert_eq!(
            text(&lexed("SELECT a MOD b, MOD(a, b)")[0]),
            "SELECT a % b , MOD ( a , b )"
        );
        assert_eq!(text(&lexed("SELECT a || b")[0]), "SELECT a OR b");
        let unsigned_zerofill = "x INT ( 5 ) UNSIGNED ZEROFILL";
        assert_eq!(text(&lexed("x INT(5) ZEROFILL")[0]), unsigned_zerofill);
        assert_eq!(
            text(&lexed("x INT(5) ZEROFILL UNSIGNED")[0]),
            unsigned_zerofill
        );
        assert_eq!(
            text(&lexed("x INT(5) UNSIGNED ZEROFILL")[0]),
            unsigned_zerofill
        );
    }

    #[test]
    fn real_shapes_and_regexp_null() {
        assert_eq!(
            text(&lexed("a REAL(5,2), b DOUBLE PRECISION(10,10), c REAL")[0]),
            "a DOUBLE ( 5 , 2 ) , b DOUBLE ( 10 , 10 ) , c REAL"
        );
        assert_eq!(
            text(&lexed("SELECT 1 REGEXP NULL, a RLIKE null")[0]),
            "SELECT 1 REGEXP ( NULL ) , a RLIKE ( null )"
        );
    }
}
