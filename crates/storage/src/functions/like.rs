//! MySQL's `LIKE`: SQLite's `like()` replaced, and `tutti_like_bin()` for binary strings.
//!
//! SQLite's LIKE folds ASCII case only and has no default escape character; MySQL's compares
//! under the operands' collation and escapes with `\` unless `ESCAPE` says otherwise
//! (`'hakan\%'` matches the text `hakan%`). So `like(pattern, text [, escape])`, which
//! SQLite's `x LIKE p [ESCAPE e]` calls, is MariaDB's default collation (`utf8mb4_general_ci`:
//! case- and accent-insensitive, see `general_ci`; no PAD SPACE: LIKE counts trailing
//! spaces), and `tutti_like_bin(text, pattern, escape)`, which the SQL front-end calls when
//! an operand is binary (a BLOB/BINARY column, `BINARY x`, a `_bin` collation), compares
//! exactly. `%` matches any run of characters, `_` one character (one byte for binary
//! strings that are not UTF-8). `tutti_like_uca(text, pattern, escape, uca_520)` matches in
//! a Unicode collation, each character by its UCA weights as MariaDB's LIKE does (`'Ä'`
//! matches `a`, `'ß'` no single `s`, which general_ci lets it), and
//! `tutti_like_single_byte(text, pattern, escape, collation)` in a single-byte character
//! set's collation (`tutti_latin1_swedish_ci`: `'ü'` matches `y`).

use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};
use tutti_wsrep::charsets::Collation;

use super::{general_ci, text_of, PURE};

/// MySQL's default LIKE escape character.
const DEFAULT_ESCAPE: char = '\\';

pub(crate) fn register(c: &Connection) -> Result<()> {
    for args in [2, 3] {
        c.create_scalar_function("like", args, PURE, |ctx| {
            like(ctx, 1, 0, |a, b| {
                general_ci::weight(a) == general_ci::weight(b)
            })
        })?;
    }
    c.create_scalar_function("tutti_like_uca", 4, PURE, |ctx| {
        let uca_520 = ctx.get::<bool>(3)?;
        like(ctx, 0, 1, |a, b| super::uca::same_char(uca_520, a, b))
    })?;
    c.create_scalar_function("tutti_like_single_byte", 4, PURE, |ctx| {
        let name = text_of(ctx.get_raw(3));
        let Some(collation) = Collation::registered_as(&name) else {
            return like(ctx, 0, 1, |a, b| {
                general_ci::weight(a) == general_ci::weight(b)
            });
        };
        like(ctx, 0, 1, |a, b| collation.same_char(a, b))
    })?;
    c.create_scalar_function("tutti_like_bin", 3, PURE, |ctx| {
        let (Some(text), Some(pattern)) = (bytes(ctx, 0), bytes(ctx, 1)) else {
            return Ok(None);
        };
        let escape = escape(ctx, 2)?;
        Ok(Some(
            match (std::str::from_utf8(&text), std::str::from_utf8(&pattern)) {
                (Ok(t), Ok(p)) => {
                    let t: Vec<char> = t.chars().collect();
                    let p: Vec<char> = p.chars().collect();
                    matches(&t, &p, escape, &|a, b| a == b)
                }
                _ => {
                    let t: Vec<char> = text.iter().map(|&b| char::from(b)).collect();
                    let p: Vec<char> = pattern.iter().map(|&b| char::from(b)).collect();
                    matches(&t, &p, escape.filter(char::is_ascii), &|a, b| a == b)
                }
            },
        ))
    })?;
    Ok(())
}

/// `like(pattern, text [, escape])` with `same` deciding whether two characters match.
fn like(
    ctx: &Context<'_>,
    text_arg: usize,
    pattern_arg: usize,
    same: impl Fn(char, char) -> bool,
) -> Result<Option<bool>> {
    let (text, pattern) = match (ctx.get_raw(text_arg), ctx.get_raw(pattern_arg)) {
        (ValueRef::Null, _) | (_, ValueRef::Null) => return Ok(None),
        (t, p) => (text_of(t), text_of(p)),
    };
    let escape = if ctx.len() > 2 {
        escape(ctx, 2)?
    } else {
        Some(DEFAULT_ESCAPE)
    };
    let t: Vec<char> = text.chars().collect();
    let p: Vec<char> = pattern.chars().collect();
    Ok(Some(matches(&t, &p, escape, &same)))
}

fn bytes(ctx: &Context<'_>, i: usize) -> Option<Vec<u8>> {
    match ctx.get_raw(i) {
        ValueRef::Null => None,
        ValueRef::Text(b) | ValueRef::Blob(b) => Some(b.to_vec()),
        other => Some(text_of(other).into_bytes()),
    }
}

/// The ESCAPE argument: one character, or none for `''` (MySQL's 1210 otherwise, which
/// the executor maps from SQLite's own message).
fn escape(ctx: &Context<'_>, i: usize) -> Result<Option<char>> {
    if let ValueRef::Null = ctx.get_raw(i) {
        return Ok(Some(DEFAULT_ESCAPE));
    }
    let text = text_of(ctx.get_raw(i));
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(Some(c)),
        // An empty escape computed at run time: none (the SQL front-end makes a literal
        // `ESCAPE ''` MariaDB's default `\`)
        (None, _) => Ok(None),
        _ => Err(rusqlite::Error::UserFunctionError(
            "ESCAPE expression must be a single character".into(),
        )),
    }
}

/// Whether `text` matches `pattern`. Iterative, with backtracking to the last `%` only, so
/// the time is O(text × pattern) at worst, never exponential.
fn matches(
    text: &[char],
    pattern: &[char],
    escape: Option<char>,
    same: &dyn Fn(char, char) -> bool,
) -> bool {
    let (mut t, mut p) = (0, 0);
    // after the last `%`: where in the pattern, and where in the text it resumes
    let mut star: Option<(usize, usize)> = None;
    loop {
        if p < pattern.len() {
            let c = pattern[p];
            if c == '%' {
                // a run of `%` is one `%`
                while p < pattern.len() && pattern[p] == '%' {
                    p += 1;
                }
                star = Some((p, t));
                continue;
            }
            if t < text.len() {
                let (literal, width) = match (Some(c) == escape, pattern.get(p + 1)) {
                    (true, Some(&next)) => (Some(next), 2),
                    _ if c == '_' => (None, 1),
                    _ => (Some(c), 1),
                };
                if literal.is_none_or(|l| same(l, text[t])) {
                    p += width;
                    t += 1;
                    continue;
                }
            }
        } else if t == text.len() {
            return true;
        }
        // mismatch: let the last `%` swallow one more character
        match star {
            Some((sp, st)) if st < text.len() => {
                star = Some((sp, st + 1));
                p = sp;
                t = st + 1;
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ci(text: &str, pattern: &str) -> bool {
        let t: Vec<char> = text.chars().collect();
        let p: Vec<char> = pattern.chars().collect();
        matches(&t, &p, Some('\\'), &|a, b| {
            general_ci::weight(a) == general_ci::weight(b)
        })
    }

    fn bin(text: &str, pattern: &str, escape: Option<char>) -> bool {
        let t: Vec<char> = text.chars().collect();
        let p: Vec<char> = pattern.chars().collect();
        matches(&t, &p, escape, &|a, b| a == b)
    }

    #[test]
    fn wildcards_and_escapes_as_mysql() {
        assert!(ci("hello", "hello"));
        assert!(ci("HELLO", "hello"));
        assert!(ci("Élan", "elan"));
        assert!(!ci("hello ", "hello"), "trailing spaces count in LIKE");
        assert!(ci("hello", "h%"));
        assert!(ci("hello", "%l%o"));
        assert!(ci("hello", "h_llo"));
        assert!(!ci("hello", "h_lo"));
        assert!(ci("", "%"));
        assert!(!ci("", "_"));
        assert!(ci("abcabc", "%abc"));
        assert!(ci("a%b", "a\\%b"));
        assert!(!ci("axb", "a\\%b"));
        assert!(ci("a_b", "a\\_b"));
        assert!(ci("hakan%", "hakan\\%"));
        assert!(ci("a\\b", "a\\\\b"));
        assert!(bin("a\\b", "a\\b", Some('#')));
        assert!(bin("a%", "a#%", Some('#')));
        assert!(bin("hello", "hello", None));
        assert!(!bin("HELLO", "hello", None));
        assert!(bin("HELLO MY", "%HELLO%", None));
        // a pattern that backtracks a lot still ends quickly
        let long = "a".repeat(2000);
        assert!(!ci(&long, &format!("{}b", "%a".repeat(50))));
    }
}
