//! CAST and CONVERT targets MariaDB's grammar lacks, refused as its parser refuses them.
//!
//! MariaDB's CAST takes `FLOAT`, `DOUBLE` and `DOUBLE(M,D)`, not `REAL`, `DOUBLE PRECISION`,
//! `DOUBLE(M)` or `FLOAT(p)`; sqlparser reads them all as types, and tutti's own casts to
//! SQLite's REAL must stay possible. Checked on the statement's tokens, so the 1064 quotes
//! the client's text from where MariaDB's parser stops (`near 'precision) from t'`).

use sqlparser::tokenizer::{Location, Token, TokenWithSpan};

use crate::lexer::is_word;
use crate::syntax::Source;
use crate::SqlError;

/// The first refused target of a `CAST(x AS type)` or `CONVERT(x, type)` in the tokens of
/// a statement ending at `end`, as MariaDB's 1064.
pub(crate) fn check(
    tokens: &[TokenWithSpan],
    src: &Source<'_>,
    end: Location,
) -> Result<(), SqlError> {
    for (i, t) in tokens.iter().enumerate() {
        let cast = is_word(&t.token, "CAST");
        if !(cast || is_word(&t.token, "CONVERT"))
            || tokens.get(i + 1).map(|t| &t.token) != Some(&Token::LParen)
        {
            continue;
        }
        let refused = target_of(tokens, i + 2, cast).and_then(|at| refused_at(tokens, at));
        if let Some(at) = refused {
            return Err(src.syntax_error(Some(tokens[at].span.start), Some(end)));
        }
    }
    Ok(())
}

/// Where the target starts: after the `AS` of a CAST, the comma of a CONVERT, in the
/// parentheses opened just before `from` (None: a `CONVERT(x USING cs)`).
fn target_of(tokens: &[TokenWithSpan], from: usize, cast: bool) -> Option<usize> {
    let mut depth = 1;
    for (j, t) in tokens.iter().enumerate().skip(from) {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen if depth == 1 => return None,
            Token::RParen => depth -= 1,
            Token::Comma if depth == 1 && !cast => return Some(j + 1),
            t if depth == 1 && cast && is_word(t, "AS") => return Some(j + 1),
            _ => {}
        }
    }
    None
}

/// The token MariaDB's parser stops at in a target it lacks.
fn refused_at(tokens: &[TokenWithSpan], at: usize) -> Option<usize> {
    let token = |k: usize| tokens.get(k).map(|t| &t.token);
    let word = |k: usize, w: &str| token(k).is_some_and(|t| is_word(t, w));
    if word(at, "REAL") {
        return Some(at);
    }
    if word(at, "DOUBLE") && word(at + 1, "PRECISION") {
        return Some(at + 1);
    }
    // DOUBLE(M): only DOUBLE(M,D) is a CAST target.
    if word(at, "DOUBLE")
        && token(at + 1) == Some(&Token::LParen)
        && matches!(token(at + 2), Some(Token::Number(..)))
        && token(at + 3) == Some(&Token::RParen)
    {
        return Some(at + 3);
    }
    if word(at, "FLOAT") && token(at + 1) == Some(&Token::LParen) {
        return Some(at + 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::tests::err;
    use crate::SqlError;

    fn near(sql: &str) -> String {
        match err(sql) {
            SqlError::Syntax(m) => m.split(" near ").nth(1).unwrap_or_default().to_string(),
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn refused_targets_quote_the_statement_from_where_mariadb_stops() {
        assert_eq!(near("SELECT CAST(1 AS real)"), "'real)' at line 1");
        assert_eq!(
            near("SELECT CAST(1 AS double precision) FROM t"),
            "'precision) FROM t' at line 1"
        );
        assert_eq!(near("SELECT CAST(1 AS DOUBLE(5)) x"), "')) x' at line 1");
        assert_eq!(near("SELECT CAST(1 AS FLOAT(5,2))"), "'(5,2))' at line 1");
        assert_eq!(near("SELECT CONVERT(1, REAL)"), "'REAL)' at line 1");
        assert_eq!(
            near("SELECT CAST(CAST(a AS REAL) AS CHAR) FROM t"),
            "'REAL) AS CHAR) FROM t' at line 1"
        );
    }
}
