//! `SELECT ... INTO @a, @b`: the statement's one row goes into user variables.
//!
//! sqlparser takes one name after INTO and none after LIMIT, so the clause is cut out of
//! the tokens (wherever it stands at the top level of a SELECT) and the rest translates as
//! a SELECT; the executor runs it and assigns (see [`crate::Stmt::SelectInto`]).

use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::lexer::is_word;
use crate::SqlError;

/// The INTO clause of a SELECT.
#[derive(Debug, PartialEq)]
pub(crate) struct Into {
    /// The user variables' names.
    pub vars: Vec<String>,
    /// It stood after FROM or a UNION, where MariaDB deprecates it (warning 1287).
    pub deprecated_place: bool,
}

/// Removes a top-level `INTO @a [, @b ...]` from a SELECT's tokens.
pub(crate) fn take_into(tokens: &mut Vec<TokenWithSpan>) -> Result<Option<Into>, SqlError> {
    let query = tokens.first().is_some_and(|t| {
        is_word(&t.token, "SELECT") || is_word(&t.token, "WITH") || t.token == Token::LParen
    });
    if !query {
        return Ok(None);
    }
    let set_operator = |t: &Token| {
        ["UNION", "EXCEPT", "INTERSECT"]
            .iter()
            .any(|w| is_word(t, w))
    };
    let mut depth = 0i32;
    let mut at = None;
    let mut deprecated_place = false;
    let mut after_set_operator = false;
    for (i, t) in tokens.iter().enumerate() {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            tok if depth == 0 && is_word(tok, "INTO") => {
                at = Some(i);
                break;
            }
            tok if depth == 0 && (is_word(tok, "FROM") || set_operator(tok)) => {
                deprecated_place = true;
                after_set_operator |= set_operator(tok);
            }
            _ => {}
        }
    }
    let Some(start) = at else { return Ok(None) };
    let mut vars = Vec::new();
    let mut i = start + 1;
    loop {
        let (name, used) = match (
            tokens.get(i).map(|t| &t.token),
            tokens.get(i + 1).map(|t| &t.token),
        ) {
            (Some(Token::Word(w)), _) if w.quote_style.is_none() && w.value.starts_with('@') => {
                if w.value.starts_with("@@") {
                    return Err(SqlError::Unsupported("SELECT ... INTO @@variable".into()));
                }
                (w.value[1..].to_string(), 1)
            }
            (Some(Token::AtSign), Some(Token::Word(w))) => (w.value.clone(), 2),
            (
                Some(Token::AtSign),
                Some(Token::SingleQuotedString(s) | Token::DoubleQuotedString(s)),
            ) => (s.clone(), 2),
            (Some(t), _)
                if vars.is_empty() && (is_word(t, "OUTFILE") || is_word(t, "DUMPFILE")) =>
            {
                return Err(SqlError::Unsupported(
                    "SELECT ... INTO OUTFILE / DUMPFILE".into(),
                ))
            }
            _ if vars.is_empty() => {
                return Err(SqlError::Unsupported(
                    "SELECT ... INTO anything but user variables".into(),
                ))
            }
            _ => break,
        };
        vars.push(name);
        i += used;
        if tokens.get(i).map(|t| &t.token) != Some(&Token::Comma) {
            break;
        }
        i += 1;
    }
    let near = |j: usize| {
        let near: Vec<String> = tokens[j..].iter().map(|t| t.token.to_string()).collect();
        SqlError::syntax_near(&near.join(" "), 1)
    };
    // After a UNION the clause ends the statement (only a locking clause may follow).
    let ends = |t: &Token| {
        matches!(t, Token::SemiColon | Token::EOF) || is_word(t, "FOR") || is_word(t, "LOCK")
    };
    if after_set_operator && tokens.get(i).is_some_and(|t| !ends(&t.token)) {
        return Err(near(i));
    }
    let mut depth = 0i32;
    for (j, t) in tokens.iter().enumerate().skip(i) {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            tok if depth == 0 && set_operator(tok) => return Err(near(j)),
            _ => {}
        }
    }
    tokens.drain(start..i);
    Ok(Some(Into {
        vars,
        deprecated_place,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Source;

    fn cut(sql: &str) -> (String, Result<Option<Vec<String>>, SqlError>) {
        let st = crate::lexer::lex(&Source::new(sql), Default::default())
            .unwrap()
            .remove(0);
        let vars = st.into.map(|i| i.map(|i| i.vars));
        let rest: Vec<String> = st.tokens.iter().map(|t| t.token.to_string()).collect();
        (rest.join(" "), vars)
    }

    #[test]
    fn the_clause_is_cut_wherever_it_stands() {
        let v = |names: &[&str]| Ok(Some(names.iter().map(|s| s.to_string()).collect()));
        assert_eq!(
            cut("SELECT a, b INTO @x, @`y z` FROM t WHERE a = 1"),
            ("SELECT a , b FROM t WHERE a = 1".into(), v(&["x", "y z"]))
        );
        assert_eq!(
            cut("SELECT a FROM t LIMIT 1 INTO @x FOR UPDATE"),
            ("SELECT a FROM t LIMIT 1 FOR UPDATE".into(), v(&["x"]))
        );
        assert_eq!(
            cut("SELECT (SELECT 1) INTO @'q'"),
            ("SELECT ( SELECT 1 )".into(), v(&["q"]))
        );
        assert_eq!(cut("INSERT INTO t VALUES (1)").1, Ok(None));
        assert_eq!(cut("SELECT * FROM (SELECT 1 INTO @a) x").1, Ok(None));
        assert!(matches!(
            cut("SELECT 1 INTO OUTFILE '/tmp/x'").1,
            Err(SqlError::Unsupported(_))
        ));
        assert!(matches!(
            cut("SELECT 1 INTO x").1,
            Err(SqlError::Unsupported(_))
        ));
        assert!(matches!(
            cut("SELECT 1 INTO @a UNION SELECT 2").1,
            Err(SqlError::Syntax(_))
        ));
        let place = |sql: &str| {
            let st = crate::lexer::lex(&Source::new(sql), Default::default())
                .unwrap()
                .remove(0);
            st.into.unwrap().unwrap().deprecated_place
        };
        assert!(!place("SELECT a INTO @x FROM t"));
        assert!(place("SELECT a FROM t INTO @x"));
        assert!(place("SELECT 1 UNION SELECT 1 INTO @x"));
    }
}
