//! MySQL spellings sqlparser cannot parse, respelled on tokens into ones it can (part of the
//! token pass, see `lexer`). Each fix is local and keyed on words that mean nothing else where
//! they are matched:
//!
//! * `ALTER TABLE t RENAME t2` → `RENAME TO t2`.
//! * The column attribute `BINARY` (`VARCHAR(10) BINARY`: the charset's binary collation) →
//!   `COLLATE utf8mb4_bin`; `CHARSET x` after a column type → `CHARACTER SET x`.
//! * `GROUP BY a DESC`: MariaDB sorts a grouped result by its GROUP BY list, in the direction
//!   written; the directions move to an `ORDER BY` of the same list when there is none.
//! * `CAST(x AS SIGNED INT)` → `CAST(x AS SIGNED)`; `CAST(x AS CHAR CHARACTER SET cs BINARY)`
//!   → `CONVERT(x, CHAR CHARACTER SET cs) COLLATE cs_bin` (and `COLLATE c` for `COLLATE c`).
//! * `{ OJ t1 LEFT JOIN t2 ON c }` (the ODBC escape) → `t1 LEFT JOIN t2 ON c`.
//! * `SELECT DISTINCT DISTINCT`, `SELECT ALL ALL`: one modifier.
//! * `TRIM(LEADING FROM s)` → `TRIM(LEADING ' ' FROM s)`.
//! * `x IS [NOT] UNKNOWN` → `x IS [NOT] NULL`.
//! * `!x` → `(NOT x)`, binding as tightly as MySQL's `!` (NOT binds loosely).
//! * `CHAR(n, ... USING cs)` → `CONVERT(CHAR(n, ...) USING cs)`.
//! * `a SOUNDS LIKE b` → `SOUNDEX(a) = SOUNDEX(b)`.
//! * `INTERVAL(n, a, b, ...)`, the function → `tutti_interval(n, a, b, ...)`.
//! * `DEFAULT(col)` in an expression → `tutti_default(col)` (the rewriter puts in the column's
//!   default).
//! * Table lists in parentheses in a FROM clause: `JOIN (t2, t3) ON` → `JOIN (t2 CROSS JOIN
//!   t3) ON`, and a lone table `(t1 a)` loses its parentheses.
//! * `DELETE t1.*, t2.* FROM ...` → `DELETE t1, t2 FROM ...`.
//! * `t1 JOIN t2 JOIN t3 ON c` → `t1 JOIN t2 ON 1 JOIN t3 ON c` (MySQL joins left to right).
//! * `GROUP_CONCAT(... LIMIT off, n)` / `LIMIT n OFFSET off` → `LIMIT (off, n)`.
//! * `INSERT ... SELECT ... ON DUPLICATE KEY UPDATE`: a SELECT without FROM goes in
//!   parentheses (sqlparser would read `SELECT 1 ON` as an alias `ON`), and `VALUES(t.col)` in the
//!   assignments loses its qualifier (it names the inserted table's column either way).

use sqlparser::tokenizer::{Span, Token, TokenWithSpan};

use crate::lexer::{expects_operand, is_word, operand_end};

type Tokens = Vec<TokenWithSpan>;

/// Applies every respelling to one statement's tokens.
pub(crate) fn respell(tokens: &mut Tokens) {
    let ddl = tokens
        .first()
        .is_some_and(|t| is_word(&t.token, "CREATE") || is_word(&t.token, "ALTER"));
    if ddl {
        rename_to(tokens);
        column_attributes(tokens);
    }
    if word_at(tokens, 0, "INSERT") || word_at(tokens, 0, "REPLACE") {
        upsert_from_select(tokens);
    }
    if word_at(tokens, 0, "DELETE") {
        delete_targets(tokens);
    }
    odbc_outer_join(tokens);
    select_modifiers(tokens);
    let mut i = 0;
    while i < tokens.len() {
        i = respell_at(tokens, i);
    }
    parenthesized_tables(tokens);
    group_by_directions(tokens);
    joins_left_to_right(tokens);
}

/// The binary collation `BINARY` gives where the tokens do not say the set; it carries no
/// position, which tells `charset_names::check_collate` it is no collation the user named.
const UNPLACED_BIN: &str = "utf8mb4_bin";

/// [`UNPLACED_BIN`] as a token.
fn unplaced_bin() -> TokenWithSpan {
    TokenWithSpan::new(Token::make_word(UNPLACED_BIN, None), Span::empty())
}

fn word(w: &str, like: &TokenWithSpan) -> TokenWithSpan {
    TokenWithSpan::new(Token::make_word(w, None), like.span)
}

fn token(t: Token, like: &TokenWithSpan) -> TokenWithSpan {
    TokenWithSpan::new(t, like.span)
}

fn word_at(tokens: &[TokenWithSpan], i: usize, w: &str) -> bool {
    tokens.get(i).is_some_and(|t| is_word(&t.token, w))
}

fn tok_at(tokens: &[TokenWithSpan], i: usize) -> Option<&Token> {
    tokens.get(i).map(|t| &t.token)
}

/// Index of the `)` closing the `(` at `open` (or the end).
pub(crate) fn closing(tokens: &[TokenWithSpan], open: usize) -> usize {
    let mut depth = 0;
    for (k, t) in tokens.iter().enumerate().skip(open) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The token-local fixes at `i`; returns where to go on.
fn respell_at(tokens: &mut Tokens, i: usize) -> usize {
    let prev = i.checked_sub(1).and_then(|p| tok_at(tokens, p)).cloned();
    let next = tok_at(tokens, i + 1).cloned();
    let t = &tokens[i];
    let paren_next = next == Some(Token::LParen);
    match &t.token {
        // CAST(x AS SIGNED INT)
        tok if (is_word(tok, "SIGNED") || is_word(tok, "UNSIGNED"))
            && prev.as_ref().is_some_and(|p| is_word(p, "AS"))
            && (word_at(tokens, i + 1, "INT") || word_at(tokens, i + 1, "INTEGER")) =>
        {
            tokens.remove(i + 1);
        }
        // TRIM(LEADING FROM s)
        tok if (is_word(tok, "LEADING") || is_word(tok, "TRAILING") || is_word(tok, "BOTH"))
            && word_at(tokens, i + 1, "FROM") =>
        {
            let space = token(Token::SingleQuotedString(" ".into()), t);
            tokens.insert(i + 1, space);
        }
        tok if is_word(tok, "IS") => {
            let k = if word_at(tokens, i + 1, "NOT") {
                i + 2
            } else {
                i + 1
            };
            if word_at(tokens, k, "UNKNOWN") {
                tokens[k] = word("NULL", &tokens[k]);
            }
        }
        Token::ExclamationMark if expects_operand(prev.as_ref()) => {
            let end = operand_end(tokens, i + 1);
            let close = token(Token::RParen, t);
            let not = word("NOT", t);
            tokens[i] = token(Token::LParen, t);
            tokens.insert(end, close);
            tokens.insert(i + 1, not);
            return i + 2;
        }
        tok if is_word(tok, "CHAR") && paren_next && expects_operand(prev.as_ref()) => {
            char_using(tokens, i)
        }
        tok if is_word(tok, "SOUNDS") && word_at(tokens, i + 1, "LIKE") => {
            return sounds_like(tokens, i);
        }
        tok if is_word(tok, "INTERVAL") && paren_next && expects_operand(prev.as_ref()) => {
            let close = closing(tokens, i + 1);
            let has_comma = tokens[i + 2..close]
                .iter()
                .scan(0i32, |depth, t| {
                    match t.token {
                        Token::LParen => *depth += 1,
                        Token::RParen => *depth -= 1,
                        _ => {}
                    }
                    Some(*depth == 0 && t.token == Token::Comma)
                })
                .any(|c| c);
            if has_comma {
                tokens[i] = word("tutti_interval", t);
            }
        }
        tok if is_word(tok, "DEFAULT") && paren_next && expects_operand(prev.as_ref()) => {
            tokens[i] = word("tutti_default", t);
        }
        tok if is_word(tok, "GROUP_CONCAT") && paren_next => group_concat_offset(tokens, i + 1),
        tok if is_word(tok, "CAST") && paren_next => cast_char_attributes(tokens, i),
        _ => {}
    }
    i + 1
}

/// Words that start a join after a table factor.
const JOIN_STARTS: [&str; 7] = [
    "JOIN",
    "INNER",
    "CROSS",
    "LEFT",
    "RIGHT",
    "NATURAL",
    "STRAIGHT_JOIN",
];

/// `t1 JOIN t2 JOIN t3 ON c`: MySQL joins left to right, the ON belonging to the last join (so
/// it may name t1, and `t1 JOIN t2 RIGHT JOIN t3 ON c` keeps every t3 row); sqlparser would
/// nest `t2 JOIN t3 ON c` under the first join. A JOIN without a condition that another join
/// follows gets `ON 1`, unless the ONs that follow are more than the joins (`t1 JOIN t2 JOIN
/// t3 ON c1 ON c2`, the nested form written out).
fn joins_left_to_right(tokens: &mut Tokens) {
    let mut i = 0;
    while i < tokens.len() {
        let plain_join = word_at(tokens, i, "JOIN")
            && !i.checked_sub(1).is_some_and(|p| {
                ["LEFT", "RIGHT", "OUTER", "NATURAL", "CROSS", "FULL"]
                    .iter()
                    .any(|w| word_at(tokens, p, w))
            });
        if plain_join {
            if let Some(end) = table_factor_end(tokens, i + 1) {
                let next_join = JOIN_STARTS.iter().any(|w| word_at(tokens, end, w));
                if next_join && conditions_fit(tokens, end) {
                    let like = tokens[i].clone();
                    let one = token(Token::Number("1".into(), false), &like);
                    tokens.splice(end..end, [word("ON", &like), one]);
                }
            }
        }
        i += 1;
    }
}

/// Where the table factor starting at `start` ends: a name (or parenthesized factor), an
/// alias, index hints. None when it is not recognized.
fn table_factor_end(tokens: &[TokenWithSpan], start: usize) -> Option<usize> {
    let mut k = start;
    match tok_at(tokens, k)? {
        Token::LParen => k = closing(tokens, k) + 1,
        Token::Word(_) => {
            k += 1;
            while tok_at(tokens, k) == Some(&Token::Period) {
                k += 2;
            }
        }
        _ => return None,
    }
    if word_at(tokens, k, "AS") {
        k += 2;
    } else if let Some(Token::Word(w)) = tok_at(tokens, k) {
        if w.quote_style.is_some() || w.keyword == sqlparser::keywords::Keyword::NoKeyword {
            k += 1;
        }
    }
    while ["USE", "FORCE", "IGNORE"]
        .iter()
        .any(|w| word_at(tokens, k, w))
    {
        let open = (k..tokens.len()).find(|&j| tokens[j].token == Token::LParen)?;
        k = closing(tokens, open) + 1;
    }
    Some(k)
}

/// Whether the joins after `from` (up to the clause's end) have at least as many joins as
/// ON/USING conditions.
fn conditions_fit(tokens: &[TokenWithSpan], from: usize) -> bool {
    let (mut depth, mut joins, mut conditions) = (0i32, 0, 0);
    for (k, t) in tokens.iter().enumerate().skip(from) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen | Token::Comma if depth == 0 => break,
            Token::RParen => depth -= 1,
            _ if depth > 0 => {}
            _ if is_word(&t.token, "JOIN") || is_word(&t.token, "STRAIGHT_JOIN") => joins += 1,
            _ if is_word(&t.token, "ON") && word_at(tokens, k + 1, "DUPLICATE") => break,
            _ if is_word(&t.token, "ON") || is_word(&t.token, "USING") => conditions += 1,
            _ if crate::item_names::CLAUSES
                .iter()
                .any(|w| is_word(&t.token, w)) =>
            {
                break
            }
            _ => {}
        }
    }
    conditions <= joins
}

/// `DELETE t1.*, t2.* FROM ...` / `DELETE FROM t1.* USING ...`: the tables of a
/// multi-table DELETE, written with `.*` → the table names.
fn delete_targets(tokens: &mut Tokens) {
    let mut depth = 0;
    let mut i = 0;
    while i + 2 < tokens.len() {
        match tokens[i].token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        if depth == 0 && word_at(tokens, i, "WHERE") {
            return;
        }
        let target_end = matches!(tok_at(tokens, i + 2), Some(Token::Comma))
            || word_at(tokens, i + 2, "FROM")
            || word_at(tokens, i + 2, "USING");
        if depth == 0
            && tokens[i].token == Token::Period
            && tok_at(tokens, i + 1) == Some(&Token::Mul)
            && i > 0
            && matches!(tokens[i - 1].token, Token::Word(_))
            && target_end
        {
            tokens.drain(i..i + 2);
            continue;
        }
        i += 1;
    }
}

/// `GROUP_CONCAT(... LIMIT off, n)` and `LIMIT n OFFSET off` → `LIMIT (off, n)`, a row
/// the rewriter reads (sqlparser takes only `LIMIT n` there).
fn group_concat_offset(tokens: &mut Tokens, open: usize) {
    let close = closing(tokens, open);
    let mut depth = 0;
    let Some(limit) = (open..close).find(|&k| {
        match tokens[k].token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        depth == 1 && word_at(tokens, k, "LIMIT")
    }) else {
        return;
    };
    let (first, second) = (limit + 1, limit + 3);
    if second + 1 != close {
        return;
    }
    let (offset, count) = match tok_at(tokens, limit + 2) {
        Some(Token::Comma) => (first, second),
        Some(t) if is_word(t, "OFFSET") => (second, first),
        _ => return,
    };
    let (offset, count) = (tokens[offset].clone(), tokens[count].clone());
    let t = tokens[limit].clone();
    tokens.splice(
        first..close,
        [
            token(Token::LParen, &t),
            offset,
            token(Token::Comma, &t),
            count,
            token(Token::RParen, &t),
        ],
    );
}

/// `CHAR(n, ... USING cs)` → `CONVERT(CHAR(n, ...) USING cs)`.
fn char_using(tokens: &mut Tokens, i: usize) {
    let close = closing(tokens, i + 1);
    let using = (i + 2..close).find(|&k| word_at(tokens, k, "USING"));
    let Some(using) = using.filter(|&k| k + 2 == close) else {
        return;
    };
    let t = tokens[i].clone();
    // CHAR ( args USING cs )  →  CONVERT ( CHAR ( args ) USING cs )
    tokens.insert(using, token(Token::RParen, &t));
    tokens.splice(
        i..i + 1,
        [word("CONVERT", &t), token(Token::LParen, &t), t.clone()],
    );
}

/// `CAST(x AS CHAR[(n)] attributes)`, the attributes being `CHARACTER SET cs` (or `CHARSET
/// cs`, `ASCII`), `BINARY` (the charset's binary collation) and `COLLATE c|DEFAULT`:
/// → `CONVERT(x, CHAR[(n)] CHARACTER SET cs) COLLATE cs_bin|c`, or `CAST(x AS CHAR[(n)])
/// COLLATE ..` without a charset.
fn cast_char_attributes(tokens: &mut Tokens, i: usize) {
    let close = closing(tokens, i + 1);
    let mut depth = 0;
    let Some(as_at) = (i + 1..close).find(|&k| {
        match tokens[k].token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        depth == 1 && word_at(tokens, k, "AS")
    }) else {
        return;
    };
    if !word_at(tokens, as_at + 1, "CHAR") {
        return;
    }
    let mut k = as_at + 2;
    if tok_at(tokens, k) == Some(&Token::LParen) {
        k = closing(tokens, k) + 1;
    }
    let type_end = k;
    let name = |k: usize| match tok_at(tokens, k) {
        Some(Token::Word(w)) => Some(w.value.clone()),
        _ => None,
    };
    let (mut charset, mut binary, mut collation) = (None, false, None);
    while k < close {
        if word_at(tokens, k, "CHARACTER") && word_at(tokens, k + 1, "SET") {
            charset = name(k + 2);
            k += 3;
        } else if word_at(tokens, k, "CHARSET") {
            charset = name(k + 1);
            k += 2;
        } else if word_at(tokens, k, "ASCII") {
            charset = Some("latin1".into());
            k += 1;
        } else if word_at(tokens, k, "BINARY") {
            binary = true;
            k += 1;
        } else if word_at(tokens, k, "COLLATE") {
            collation = name(k + 1).filter(|c| !c.eq_ignore_ascii_case("DEFAULT"));
            k += 2;
        } else {
            return;
        }
    }
    if k != close || type_end == close {
        return;
    }
    let t = tokens[i].clone();
    let mut suffix = vec![token(Token::RParen, &t)];
    let collation = match (binary, &charset) {
        (true, Some(cs)) => Some(word(&format!("{cs}_bin"), &t)),
        // the connection's set, which the tokens do not know
        (true, None) => Some(unplaced_bin()),
        _ => collation.map(|c| word(&c, &t)),
    };
    if let Some(c) = collation {
        suffix.extend([word("COLLATE", &t), c]);
    }
    tokens.splice(type_end..=close, suffix);
    if let Some(cs) = charset {
        tokens.splice(
            type_end..type_end,
            [word("CHARACTER", &t), word("SET", &t), word(&cs, &t)],
        );
        tokens[as_at] = token(Token::Comma, &t);
        tokens[i] = word("CONVERT", &t);
    }
}

/// Start of the simple operand that ends right before `end`.
fn operand_start(tokens: &[TokenWithSpan], end: usize) -> Option<usize> {
    let last = end.checked_sub(1)?;
    let mut start = if tokens[last].token == Token::RParen {
        let mut depth = 0;
        let mut k = last;
        loop {
            match tokens[k].token {
                Token::RParen => depth += 1,
                Token::LParen => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k = k.checked_sub(1)?;
        }
        // A function call: its name belongs to the operand.
        match k.checked_sub(1).map(|p| &tokens[p].token) {
            Some(name @ Token::Word(_)) if !expects_operand(Some(name)) => k - 1,
            _ => k,
        }
    } else {
        last
    };
    while start >= 2
        && tokens[start - 1].token == Token::Period
        && matches!(tokens[start - 2].token, Token::Word(_))
    {
        start -= 2;
    }
    Some(start)
}

/// `a SOUNDS LIKE b` → `SOUNDEX(a) = SOUNDEX(b)`; returns where to go on.
fn sounds_like(tokens: &mut Tokens, i: usize) -> usize {
    let Some(start) = operand_start(tokens, i) else {
        return i + 1;
    };
    let t = tokens[i].clone();
    let end = operand_end(tokens, i + 2);
    let right: Vec<TokenWithSpan> = tokens[i + 2..end].to_vec();
    let left: Vec<TokenWithSpan> = tokens[start..i].to_vec();
    let soundex = |operand: Vec<TokenWithSpan>| {
        let mut v = vec![word("SOUNDEX", &t), token(Token::LParen, &t)];
        v.extend(operand);
        v.push(token(Token::RParen, &t));
        v
    };
    let mut out = soundex(left);
    out.push(token(Token::Eq, &t));
    out.extend(soundex(right));
    let len = out.len();
    tokens.splice(start..end, out);
    start + len
}

/// `INSERT ... SELECT ... ON DUPLICATE KEY UPDATE ... VALUES(t.a)` (see the module doc).
fn upsert_from_select(tokens: &mut Tokens) {
    let mut depth = 0;
    let (mut source, mut on, mut from) = (None, None, false);
    for (i, t) in tokens.iter().enumerate() {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ if depth != 0 => {}
            _ if source.is_none() && (is_word(&t.token, "SELECT") || is_word(&t.token, "WITH")) => {
                source = Some(i)
            }
            _ if is_word(&t.token, "FROM") => from = true,
            _ if is_word(&t.token, "ON") && word_at(tokens, i + 1, "DUPLICATE") => {
                on = Some(i);
                break;
            }
            _ => {}
        }
    }
    let Some(on) = on else { return };
    let mut i = on;
    while i + 5 < tokens.len() {
        // VALUES ( t . a )  →  VALUES ( a )
        let qualified = word_at(tokens, i, "VALUES")
            && tokens[i + 1].token == Token::LParen
            && matches!(tokens[i + 2].token, Token::Word(_))
            && tokens[i + 3].token == Token::Period;
        if qualified {
            let close = closing(tokens, i + 1);
            let last = close - 1;
            if matches!(tokens[last].token, Token::Word(_)) && last > i + 2 {
                tokens.drain(i + 2..last);
            }
        }
        i += 1;
    }
    // only a SELECT without FROM reads its last item as aliased `ON`
    if let Some(source) = source.filter(|_| !from) {
        let (open, close) = (
            token(Token::LParen, &tokens[source]),
            token(Token::RParen, &tokens[on]),
        );
        tokens.insert(on, close);
        tokens.insert(source, open);
    }
}

/// `ALTER TABLE t RENAME t2` → `ALTER TABLE t RENAME TO t2`.
fn rename_to(tokens: &mut Tokens) {
    if !word_at(tokens, 1, "TABLE") {
        return;
    }
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        let target = matches!(tok_at(tokens, i + 1), Some(Token::Word(w))
            if w.quote_style.is_some()
                || !["TO", "AS", "COLUMN", "INDEX", "KEY"]
                    .iter()
                    .any(|k| w.value.eq_ignore_ascii_case(k)));
        if depth == 0 && word_at(tokens, i, "RENAME") && target {
            let to = word("TO", &tokens[i]);
            tokens.insert(i + 1, to);
        }
        i += 1;
    }
}

/// True for a word that can end a character column's type.
fn ends_char_type(t: &Token) -> bool {
    t == &Token::RParen
        || [
            "CHAR",
            "VARCHAR",
            "TEXT",
            "TINYTEXT",
            "MEDIUMTEXT",
            "LONGTEXT",
            "NCHAR",
        ]
        .iter()
        .any(|w| is_word(t, w))
}

/// True when the `)` at `close` ends an ENUM or SET member list (whose members a binary
/// collation would have to tell apart: not done, so it stays refused).
fn ends_member_list(tokens: &[TokenWithSpan], close: usize) -> bool {
    if tokens[close].token != Token::RParen {
        return false;
    }
    let mut depth = 0;
    for k in (0..=close).rev() {
        match tokens[k].token {
            Token::RParen => depth += 1,
            Token::LParen => {
                depth -= 1;
                if depth == 0 {
                    return k > 0
                        && (is_word(&tokens[k - 1].token, "ENUM")
                            || is_word(&tokens[k - 1].token, "SET"));
                }
            }
            _ => {}
        }
    }
    false
}

/// The character set `CHARACTER SET x` or `CHARSET x` names from token `from` to the end
/// of the column definition or type it is in (`utf8` is `utf8mb3`).
fn named_charset(tokens: &Tokens, from: usize) -> Option<String> {
    let mut depth = 0usize;
    for k in from..tokens.len() {
        match &tokens[k].token {
            Token::LParen => depth += 1,
            Token::RParen if depth == 0 => return None,
            Token::RParen => depth -= 1,
            Token::Comma if depth == 0 => return None,
            t if depth == 0
                && (is_word(t, "CHARSET")
                    || word_at(tokens, k, "CHARACTER") && word_at(tokens, k + 1, "SET")) =>
            {
                let at = if is_word(t, "CHARSET") { k + 1 } else { k + 2 };
                let Some(Token::Word(w)) = tok_at(tokens, at) else {
                    return None;
                };
                let set = tutti_wsrep::charsets::CharsetName::find(&w.value);
                return Some(set.map_or_else(|| w.value.to_ascii_lowercase(), |c| c.name.into()));
            }
            _ => {}
        }
    }
    None
}

/// The column attributes `BINARY` and `CHARSET x` (see the module doc).
fn column_attributes(tokens: &mut Tokens) {
    let mut i = 1;
    while i < tokens.len() {
        let after_type = ends_char_type(&tokens[i - 1].token) && !ends_member_list(tokens, i - 1);
        let t = tokens[i].clone();
        if after_type
            && is_word(&t.token, "BINARY")
            && tok_at(tokens, i + 1) != Some(&Token::LParen)
        {
            // the binary collation of the set named after it, else (a CAST's, or the
            // table's set, which the tokens do not know) utf8mb4_bin, marked as tutti's
            // own spelling (no position: see `charset_names::check_collate`)
            let collation = match named_charset(tokens, i + 1) {
                Some(set) => word(&format!("{set}_bin"), &t),
                None => unplaced_bin(),
            };
            tokens.splice(i..=i, [word("COLLATE", &t), collation]);
            i += 1;
        } else if after_type
            && is_word(&t.token, "CHARSET")
            && matches!(tok_at(tokens, i + 1), Some(Token::Word(_)))
        {
            tokens.splice(i..=i, [word("CHARACTER", &t), word("SET", &t)]);
            i += 1;
        }
        i += 1;
    }
}

/// `{ OJ ... }` → `...`.
fn odbc_outer_join(tokens: &mut Tokens) {
    let mut i = 0;
    while i + 1 < tokens.len() {
        if tokens[i].token == Token::LBrace && word_at(tokens, i + 1, "OJ") {
            let close = (i + 2..tokens.len()).find(|&k| tokens[k].token == Token::RBrace);
            if let Some(close) = close {
                tokens.remove(close);
                tokens.drain(i..i + 2);
                continue;
            }
        }
        i += 1;
    }
}

/// `SELECT DISTINCT DISTINCT`, `SELECT ALL ALL` → one modifier (mixed ones stay an error).
fn select_modifiers(tokens: &mut Tokens) {
    let mut i = 0;
    while i + 2 < tokens.len() {
        let repeated = ["DISTINCT", "ALL"]
            .iter()
            .any(|m| is_word(&tokens[i + 1].token, m) && is_word(&tokens[i + 2].token, m));
        if is_word(&tokens[i].token, "SELECT") && repeated {
            tokens.remove(i + 1);
            continue;
        }
        i += 1;
    }
}

/// `SELECT ALL DISTINCT` or `SELECT DISTINCT ALL` (MariaDB's 1221).
pub(crate) fn mixed_modifiers(tokens: &[TokenWithSpan]) -> bool {
    tokens.windows(3).any(|w| {
        is_word(&w[0].token, "SELECT")
            && ((is_word(&w[1].token, "ALL") && is_word(&w[2].token, "DISTINCT"))
                || (is_word(&w[1].token, "DISTINCT") && is_word(&w[2].token, "ALL")))
    })
}

/// The words that end a FROM clause's table list at its depth.
const AFTER_FROM: [&str; 11] = [
    "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "UNION", "ON", "USING", "SET", "EXCEPT",
];

/// Table lists in parentheses in FROM clauses (see the module doc).
fn parenthesized_tables(tokens: &mut Tokens) {
    // Whether the tokens at each paren depth are in a FROM clause's table list.
    let mut in_from = vec![false];
    let mut i = 0;
    while i < tokens.len() {
        let depth = in_from.len() - 1;
        match &tokens[i].token {
            Token::LParen => {
                let prev = i.checked_sub(1).map(|p| &tokens[p].token);
                let factor = prev.is_some_and(|p| {
                    is_word(p, "FROM")
                        || is_word(p, "JOIN")
                        || (in_from[depth] && (*p == Token::Comma || *p == Token::LParen))
                });
                if factor && table_list_at(tokens, i) {
                    if join_list(tokens, i) {
                        // The parentheses went: look at the same place again.
                        continue;
                    }
                    in_from.push(true);
                } else {
                    in_from.push(false);
                }
            }
            Token::RParen if in_from.len() > 1 => {
                in_from.pop();
            }
            t if is_word(t, "FROM") => in_from[depth] = true,
            t if AFTER_FROM.iter().any(|w| is_word(t, w)) => in_from[depth] = false,
            _ => {}
        }
        i += 1;
    }
}

/// True when the group opening at `open` holds tables, not a subquery.
fn table_list_at(tokens: &[TokenWithSpan], open: usize) -> bool {
    let mut k = open;
    while tok_at(tokens, k) == Some(&Token::LParen) {
        k += 1;
    }
    matches!(tok_at(tokens, k), Some(Token::Word(w))
        if w.quote_style.is_some()
            || !["SELECT", "WITH", "VALUES", "TABLE"]
                .iter()
                .any(|s| w.value.eq_ignore_ascii_case(s)))
}

/// Within the table group opening at `open`: top-level commas become `CROSS JOIN`; a group
/// holding a single table loses its parentheses (true then).
fn join_list(tokens: &mut Tokens, open: usize) -> bool {
    let close = closing(tokens, open);
    let mut depth = 0;
    let mut joined = false;
    let mut k = open + 1;
    let mut close_now = close;
    while k < close_now {
        match &tokens[k].token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            Token::Comma if depth == 0 => {
                let t = tokens[k].clone();
                tokens.splice(k..=k, [word("CROSS", &t), word("JOIN", &t)]);
                close_now += 1;
                joined = true;
            }
            t if depth == 0 && (is_word(t, "JOIN") || is_word(t, "STRAIGHT_JOIN")) => joined = true,
            _ => {}
        }
        k += 1;
    }
    let lone = !joined && close_now < tokens.len();
    if lone {
        tokens.remove(close_now);
        tokens.remove(open);
    }
    lone
}

/// `GROUP BY` lists with directions (see the module doc).
fn group_by_directions(tokens: &mut Tokens) {
    let mut i = 0;
    while i + 1 < tokens.len() {
        if word_at(tokens, i, "GROUP") && word_at(tokens, i + 1, "BY") {
            group_by_at(tokens, i + 2);
        }
        i += 1;
    }
}

/// The words that end a GROUP BY list or a HAVING condition at their depth.
const AFTER_GROUP: [&str; 8] = [
    "HAVING",
    "ORDER",
    "LIMIT",
    "WINDOW",
    "UNION",
    "EXCEPT",
    "INTERSECT",
    "WITH",
];

/// End of the clause starting at `start` (at the depth of `start`).
fn clause_end(tokens: &[TokenWithSpan], start: usize, enders: &[&str]) -> usize {
    let mut depth = 0;
    for (k, t) in tokens.iter().enumerate().skip(start) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen if depth == 0 => return k,
            Token::RParen => depth -= 1,
            _ if depth == 0 && enders.iter().any(|w| is_word(&t.token, w)) => return k,
            _ => {}
        }
    }
    tokens.len()
}

/// The GROUP BY list starting at `start`: directions removed, and an `ORDER BY` of the same
/// list added after HAVING when the query has none (and no ROLLUP).
fn group_by_at(tokens: &mut Tokens, start: usize) {
    let end = clause_end(tokens, start, &AFTER_GROUP);
    let mut depth = 0;
    let mut directions = Vec::new();
    for (k, t) in tokens.iter().enumerate().take(end).skip(start) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ if depth == 0 && (is_word(&t.token, "DESC") || is_word(&t.token, "ASC")) => {
                directions.push(k)
            }
            _ => {}
        }
    }
    if directions.is_empty() {
        return;
    }
    let order: Vec<TokenWithSpan> = tokens[start..end].to_vec();
    for &k in directions.iter().rev() {
        tokens.remove(k);
    }
    let end = end - directions.len();
    if word_at(tokens, end, "WITH") {
        return;
    }
    let at = if word_at(tokens, end, "HAVING") {
        clause_end(tokens, end + 1, &AFTER_GROUP[1..])
    } else {
        end
    };
    if word_at(tokens, at, "ORDER") {
        return;
    }
    let t = tokens[start - 1].clone();
    let mut clause = vec![word("ORDER", &t), word("BY", &t)];
    clause.extend(order);
    tokens.splice(at..at, clause);
}

#[cfg(test)]
mod tests {
    use crate::lexer::{lex, spelled, LexMode};
    use crate::syntax::Source;

    fn respelled(sql: &str) -> String {
        spelled(&lex(&Source::new(sql), LexMode::default()).unwrap()[0])
    }

    #[test]
    fn ddl_spellings() {
        assert_eq!(
            respelled("ALTER TABLE t RENAME t2"),
            "ALTER TABLE t RENAME TO t2"
        );
        assert_eq!(
            respelled("alter table t rename to t2"),
            "alter table t rename to t2"
        );
        assert_eq!(
            respelled("ALTER TABLE t RENAME COLUMN a TO b"),
            "ALTER TABLE t RENAME COLUMN a TO b"
        );
        assert_eq!(
            respelled("CREATE TABLE t (a varchar(5) binary, b char charset latin1, c binary(3))"),
            "CREATE TABLE t ( a varchar ( 5 ) COLLATE utf8mb4_bin , b char CHARACTER SET latin1 , c binary ( 3 ) )"
        );
    }

    #[test]
    fn expression_spellings() {
        assert_eq!(
            respelled("SELECT CAST(a AS SIGNED INT)"),
            "SELECT CAST ( a AS SIGNED )"
        );
        assert_eq!(
            respelled("SELECT CAST(a AS CHAR(2) BINARY), CAST(f(a, b) AS CHAR CHARSET latin1)"),
            "SELECT CAST ( a AS CHAR ( 2 ) ) COLLATE utf8mb4_bin , \
             CONVERT ( f ( a , b ) , CHAR CHARACTER SET latin1 )"
        );
        assert_eq!(
            respelled("SELECT CAST(a AS CHAR(10) CHARACTER SET utf8mb4 COLLATE DEFAULT)"),
            "SELECT CONVERT ( a , CHAR ( 10 ) CHARACTER SET utf8mb4 )"
        );
        // Any set: the translation checks its name and converts (`?` for what it lacks).
        assert_eq!(
            respelled("SELECT CAST(a AS CHAR CHARACTER SET cp1251)"),
            "SELECT CONVERT ( a , CHAR CHARACTER SET cp1251 )"
        );
        assert_eq!(
            respelled("SELECT TRIM(LEADING FROM a)"),
            "SELECT TRIM ( LEADING ' ' FROM a )"
        );
        assert_eq!(
            respelled("SELECT a IS NOT UNKNOWN, b IS UNKNOWN"),
            "SELECT a IS NOT NULL , b IS NULL"
        );
        assert_eq!(respelled("SELECT !0 * 5"), "SELECT ( NOT 0 ) * 5");
        assert_eq!(
            respelled("SELECT GROUP_CONCAT(a LIMIT 1, 2), GROUP_CONCAT(f(a) LIMIT 2 OFFSET 3), GROUP_CONCAT(a LIMIT 2)"),
            "SELECT GROUP_CONCAT ( a LIMIT ( 1 , 2 ) ) , GROUP_CONCAT ( f ( a ) LIMIT ( 3 , 2 ) ) , GROUP_CONCAT ( a LIMIT 2 )"
        );
        assert_eq!(
            respelled("SELECT * FROM t1 JOIN t2 a USE INDEX (i) RIGHT JOIN t3 ON t1.a = t3.c JOIN (t4) JOIN t5 USING (x)"),
            "SELECT * FROM t1 JOIN t2 a USE INDEX ( i ) ON 1 RIGHT JOIN t3 ON t1 . a = t3 . c JOIN t4 ON 1 JOIN t5 USING ( x )"
        );
        assert_eq!(
            respelled("SELECT * FROM t1 JOIN t2 JOIN t3 ON c1 ON c2, t4 JOIN t5"),
            "SELECT * FROM t1 JOIN t2 JOIN t3 ON c1 ON c2 , t4 JOIN t5"
        );
        assert_eq!(
            respelled("DELETE t1.*, d.t2.* FROM t1, d.t2 WHERE a IN (SELECT t1.* FROM t1)"),
            "DELETE t1 , d . t2 FROM t1 , d . t2 WHERE a IN ( SELECT t1 . * FROM t1 )"
        );
        assert_eq!(respelled("SELECT a != 0"), "SELECT a <> 0");
        assert_eq!(
            respelled("SELECT CHAR(65, 66 USING utf8mb4), CHAR(65)"),
            "SELECT CONVERT ( CHAR ( 65 , 66 ) USING utf8mb4 ) , CHAR ( 65 )"
        );
        assert_eq!(
            respelled("SELECT f(a) SOUNDS LIKE t.b"),
            "SELECT SOUNDEX ( f ( a ) ) = SOUNDEX ( t . b )"
        );
        assert_eq!(
            respelled("SELECT INTERVAL(a, 1, 2), NOW() + INTERVAL (1) DAY"),
            "SELECT tutti_interval ( a , 1 , 2 ) , NOW ( ) + INTERVAL ( 1 ) DAY"
        );
        assert_eq!(
            respelled("SELECT DEFAULT(a) FROM t"),
            "SELECT tutti_default ( a ) FROM t"
        );
        assert_eq!(
            respelled("SELECT DISTINCT DISTINCT a FROM { oj t LEFT JOIN u ON 1 }"),
            "SELECT DISTINCT a FROM t LEFT JOIN u ON 1"
        );
    }

    #[test]
    fn table_lists_in_parentheses() {
        assert_eq!(
            respelled("SELECT * FROM t1 LEFT JOIN (t2, t3) ON 1"),
            "SELECT * FROM t1 LEFT JOIN ( t2 CROSS JOIN t3 ) ON 1"
        );
        assert_eq!(respelled("SELECT * FROM ((t1 a))"), "SELECT * FROM t1 a");
        assert_eq!(
            respelled("SELECT * FROM (SELECT 1) d, (t1 JOIN t2) WHERE (a, b) = (1, 2)"),
            "SELECT * FROM ( SELECT 1 ) d , ( t1 JOIN t2 ) WHERE ( a , b ) = ( 1 , 2 )"
        );
    }

    #[test]
    fn upsert_from_select() {
        assert_eq!(
            respelled("INSERT INTO t (a) SELECT 1 ON DUPLICATE KEY UPDATE a = VALUES(t.a) + 1"),
            "INSERT INTO t ( a ) ( SELECT 1 ) ON DUPLICATE KEY UPDATE a = VALUES ( a ) + 1"
        );
        assert_eq!(
            respelled("INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(a)"),
            "INSERT INTO t VALUES ( 1 ) ON DUPLICATE KEY UPDATE a = VALUES ( a )"
        );
    }

    #[test]
    fn group_by_directions_become_an_order() {
        assert_eq!(
            respelled("SELECT a FROM t GROUP BY a DESC HAVING a > 1 LIMIT 2"),
            "SELECT a FROM t GROUP BY a HAVING a > 1 ORDER BY a DESC LIMIT 2"
        );
        assert_eq!(
            respelled("SELECT a FROM t GROUP BY a DESC ORDER BY b"),
            "SELECT a FROM t GROUP BY a ORDER BY b"
        );
        assert_eq!(
            respelled("SELECT (SELECT 1 GROUP BY 1 ASC) FROM t"),
            "SELECT ( SELECT 1 GROUP BY 1 ORDER BY 1 ASC ) FROM t"
        );
    }
}
