//! MySQL's names for unaliased result columns.
//!
//! MariaDB names a result column without an alias after what the client typed: a column
//! reference by the column name as written (`SELECT A FROM t` gives `A` even when the column
//! is `a`), a string literal by its value, `NULL`/`TRUE`/`FALSE` in capitals, and any other
//! expression by its exact source text — spacing, comments and letter case kept
//! (`count(*)`, `NULLIF(a,  1)`, `1 /* c */ + 2`), at most 255 bytes. Applications read these
//! names (a dict cursor's keys, `CREATE TABLE ... SELECT` and view column names), so printing
//! the parsed expression back (`COUNT(*)`, `NULLIF(a, 1)`) is not good enough.
//!
//! sqlparser's spans do not cover whole expressions (a function call's span ends inside its
//! arguments), so the select list is split here, on the original tokens: from the `SELECT`
//! keyword (whose location the parsed `Select` keeps), past its modifiers, at top-level
//! commas, up to the first top-level clause keyword. The texts are used only when the
//! split finds exactly as many items as the parser did.

use sqlparser::ast::{Expr, Value as SqlValue};
use sqlparser::tokenizer::{Location, Token, Tokenizer};

use crate::lexer::{is_word, DIALECT};
use crate::syntax::Source;

/// MariaDB's longest generated column name, in bytes.
const MAX_NAME_BYTES: usize = 255;

/// Words that may follow `SELECT` before the first item.
const MODIFIERS: &[&str] = &[
    "ALL",
    "DISTINCT",
    "DISTINCTROW",
    "HIGH_PRIORITY",
    "STRAIGHT_JOIN",
    "SQL_SMALL_RESULT",
    "SQL_BIG_RESULT",
    "SQL_BUFFER_RESULT",
    "SQL_CACHE",
    "SQL_NO_CACHE",
    "SQL_CALC_FOUND_ROWS",
];

/// Words that end a select list, or a FROM clause's joins (outside parentheses).
pub(crate) const CLAUSES: &[&str] = &[
    "FROM",
    "INTO",
    "WHERE",
    "GROUP",
    "HAVING",
    "ORDER",
    "LIMIT",
    "UNION",
    "EXCEPT",
    "INTERSECT",
    "WINDOW",
    "FOR",
    "LOCK",
    "PROCEDURE",
];

/// The source text of each item of the select list whose `SELECT` keyword is at `select`
/// (in a statement ending at `end`), when it has `count` items (None: not found in the text,
/// or split differently).
pub(crate) fn item_texts(
    src: &Source<'_>,
    select: Location,
    end: Location,
    count: usize,
) -> Option<Vec<String>> {
    let from = src.offset(select)?;
    let to = src
        .offset(end)
        .filter(|&e| e > from)
        .unwrap_or(src.sql.len());
    let rest = &src.sql[from..to];
    let tokens = Tokenizer::new(&DIALECT, rest)
        .tokenize_with_location()
        .ok()?;
    let mut tokens = tokens
        .into_iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)));
    let select = tokens.next().filter(|t| is_word(&t.token, "SELECT"))?;
    let local = Source::new(rest);
    let mut items = Vec::new();
    // the current item: from the end of the separator before it (so that a comment in
    // front is part of its text, as in MariaDB) to the end of its last token
    let mut start = select.span.end;
    let mut end = None;
    let mut depth = 0usize;
    for t in tokens {
        if end.is_none() && items.is_empty() && MODIFIERS.iter().any(|m| is_word(&t.token, m)) {
            start = t.span.end;
            continue;
        }
        let end_of_list = depth == 0
            && (matches!(t.token, Token::RParen | Token::SemiColon | Token::EOF)
                || CLAUSES.iter().any(|c| is_word(&t.token, c)));
        if end_of_list {
            break;
        }
        match t.token {
            Token::Comma if depth == 0 => {
                items.push((start, end.take()?));
                start = t.span.end;
                continue;
            }
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        end = Some(t.span.end);
    }
    items.push((start, end?));
    (items.len() == count).then(|| {
        items
            .into_iter()
            .map(|(s, e)| local.text(s, e).trim().to_string())
            .collect()
    })
}

/// MySQL's name for an unaliased result column `e`, typed as `text` (when known).
pub(crate) fn column_name(e: &Expr, text: Option<&str>) -> String {
    let typed = || match text {
        Some(t) if !t.is_empty() => truncate(t),
        _ => e.to_string(),
    };
    match e {
        Expr::Identifier(i) if i.quote_style.is_some() || !i.value.starts_with('@') => {
            i.value.clone()
        }
        Expr::CompoundIdentifier(ids) if !ids[0].value.starts_with('@') => {
            ids.last().map_or_else(typed, |i| i.value.clone())
        }
        Expr::Nested(inner)
            if matches!(
                inner.as_ref(),
                Expr::Identifier(_)
                    | Expr::CompoundIdentifier(_)
                    | Expr::Value(_)
                    | Expr::Nested(_)
            ) =>
        {
            column_name(inner, None)
        }
        Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Plus,
            expr,
        } => column_name(expr, None),
        Expr::Value(v) => match &v.value {
            SqlValue::SingleQuotedString(s)
            | SqlValue::DoubleQuotedString(s)
            | SqlValue::NationalStringLiteral(s) => s.clone(),
            SqlValue::Null => "NULL".into(),
            SqlValue::Boolean(b) => if *b { "TRUE" } else { "FALSE" }.into(),
            _ => typed(),
        },
        Expr::Prefixed { value, .. } => match value.as_ref() {
            Expr::Value(v) => match &v.value {
                SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => s.clone(),
                _ => typed(),
            },
            _ => typed(),
        },
        Expr::Function(f) => name_const(f).unwrap_or_else(typed),
        _ => typed(),
    }
}

/// `NAME_CONST('name', value)` is named `name`.
fn name_const(f: &sqlparser::ast::Function) -> Option<String> {
    use sqlparser::ast::{FunctionArg, FunctionArgExpr, FunctionArguments};
    if !f.name.to_string().eq_ignore_ascii_case("name_const") {
        return None;
    }
    let FunctionArguments::List(l) = &f.args else {
        return None;
    };
    match l.args.first() {
        Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Value(v)))) => match &v.value {
            SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// At most [`MAX_NAME_BYTES`], cut at a character boundary.
fn truncate(s: &str) -> String {
    let mut end = s.len().min(MAX_NAME_BYTES);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}
