//! `REGEXP`/`RLIKE` (SQLite's `x REGEXP p` calls `regexp(p, x)`), `REGEXP_REPLACE`,
//! `REGEXP_INSTR` and `REGEXP_SUBSTR`.
//!
//! MariaDB uses PCRE and matches case-insensitively unless a binary string is involved, like
//! its default collation; here the `regex` crate does the matching with `(?i)` under the same
//! rule. PCRE features the `regex` crate lacks (back-references, look-around) fail with an
//! error instead of matching differently. Compiled patterns are cached per thread.
//!
//! MariaDB's PCRE runs in Unicode mode: `[[:alpha:]]` takes any letter (`в`, `ÿ`), where the
//! `regex` crate's POSIX classes are ASCII; they become Unicode classes (`\p{L}`). A
//! bracket of just `[:upper:]` or `[:lower:]` keeps its case also in a case-insensitive
//! match, as in PCRE (`'a' REGEXP '[[:upper:]]'` is 0).

use regex::Regex;
use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};
use std::cell::RefCell;
use std::collections::HashMap;

use super::{text_of, PURE};

thread_local! {
    static CACHE: RefCell<HashMap<(String, bool), Regex>> = RefCell::new(HashMap::new());
}

/// The compiled pattern, case-insensitive unless `binary`.
fn compile(pattern: &str, binary: bool) -> Result<Regex> {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let key = (pattern.to_string(), binary);
        if let Some(r) = cache.get(&key) {
            return Ok(r.clone());
        }
        let pattern = unicode_classes(pattern);
        let src = if binary {
            pattern
        } else {
            format!("(?i){pattern}")
        };
        let r = Regex::new(&src)
            .map_err(|e| Error::UserFunctionError(format!("Regex error '{e}'").into()))?;
        if cache.len() >= 64 {
            cache.clear();
        }
        cache.insert(key, r.clone());
        Ok(r)
    })
}

/// The Unicode class a POSIX class name stands for in PCRE's Unicode mode (None: the
/// `regex` crate's own, ASCII, is PCRE's too).
fn unicode_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => "\\p{L}",
        "alnum" => "\\p{L}\\p{N}",
        "digit" => "\\p{Nd}",
        "lower" => "\\p{Ll}",
        "upper" => "\\p{Lu}",
        "space" => "\\s",
        "word" => "\\w",
        _ => return None,
    })
}

/// `pattern` with its POSIX classes as Unicode ones (see the module doc).
fn unicode_classes(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                out.extend(&chars[i..(i + 2).min(chars.len())]);
                i += 2;
            }
            '[' => i = bracket(&chars, i, &mut out),
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Writes the bracket expression at `start` to `out`, its POSIX classes translated; the
/// index after it.
fn bracket(chars: &[char], start: usize, out: &mut String) -> usize {
    let mut j = start + 1;
    let negated = chars.get(j) == Some(&'^');
    if negated {
        j += 1;
    }
    let mut body = String::new();
    if chars.get(j) == Some(&']') {
        body.push(']');
        j += 1;
    }
    let mut classes = Vec::new();
    while j < chars.len() && chars[j] != ']' {
        if chars[j] == '\\' {
            body.extend(&chars[j..(j + 2).min(chars.len())]);
            j += 2;
            continue;
        }
        if chars[j] == '[' && chars.get(j + 1) == Some(&':') {
            let rest: String = chars[j + 2..].iter().collect();
            if let Some(end) = rest.find(":]") {
                let name = &rest[..end];
                classes.push(name.to_string());
                match unicode_class(name) {
                    Some(u) => body.push_str(u),
                    None => body.push_str(&format!("[:{name}:]")),
                }
                j += 2 + rest[..end].chars().count() + 2;
                continue;
            }
        }
        body.push(chars[j]);
        j += 1;
    }
    if j >= chars.len() {
        // No closing bracket: the regex crate reports the error.
        out.extend(&chars[start..]);
        return chars.len();
    }
    let only = classes.len() == 1 && body == unicode_class(&classes[0]).unwrap_or("");
    let cased = only && matches!(classes[0].as_str(), "upper" | "lower");
    if cased {
        let class = body.replace("\\p", if negated { "\\P" } else { "\\p" });
        out.push_str(&format!("(?-i:{class})"));
    } else {
        out.push('[');
        if negated {
            out.push('^');
        }
        out.push_str(&body);
        out.push(']');
    }
    j + 1
}

/// The subject and compiled pattern, or None when either is NULL.
fn args(ctx: &Context<'_>, subject: usize, pattern: usize) -> Result<Option<(String, Regex)>> {
    let (s, p) = (ctx.get_raw(subject), ctx.get_raw(pattern));
    if matches!(s, ValueRef::Null) || matches!(p, ValueRef::Null) {
        return Ok(None);
    }
    let binary = matches!(s, ValueRef::Blob(_)) || matches!(p, ValueRef::Blob(_));
    Ok(Some((text_of(s), compile(&text_of(p), binary)?)))
}

/// A MariaDB replacement string (`\1` is group 1) in the `regex` crate's syntax.
fn replacement(rep: &str) -> String {
    let mut out = String::new();
    let mut it = rep.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '$' => out.push_str("$$"),
            '\\' => match it.next() {
                Some(d) if d.is_ascii_digit() => out.push_str(&format!("${{{d}}}")),
                Some('$') => out.push_str("$$"),
                Some(o) => out.push(o),
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("regexp", 2, PURE, |ctx| {
        Ok(args(ctx, 1, 0)?.map(|(s, r)| r.is_match(&s)))
    })?;
    // `x REGEXP p` where a `_bin` collation makes the match case-sensitive.
    c.create_scalar_function("tutti_regexp_cs", 2, PURE, |ctx| {
        let (s, p) = (ctx.get_raw(1), ctx.get_raw(0));
        if matches!(s, ValueRef::Null) || matches!(p, ValueRef::Null) {
            return Ok(None);
        }
        Ok(Some(compile(&text_of(p), true)?.is_match(&text_of(s))))
    })?;
    c.create_scalar_function("regexp_replace", 3, PURE, |ctx| {
        let Some((s, r)) = args(ctx, 0, 1)? else {
            return Ok(None);
        };
        Ok(match ctx.get_raw(2) {
            ValueRef::Null => None,
            rep => Some(r.replace_all(&s, replacement(&text_of(rep))).into_owned()),
        })
    })?;
    c.create_scalar_function("regexp_instr", 2, PURE, |ctx| {
        Ok(args(ctx, 0, 1)?.map(|(s, r)| {
            r.find(&s)
                .map_or(0, |m| s[..m.start()].chars().count() as i64 + 1)
        }))
    })?;
    c.create_scalar_function("regexp_substr", 2, PURE, |ctx| {
        Ok(args(ctx, 0, 1)?.map(|(s, r)| r.find(&s).map_or("", |m| m.as_str()).to_string()))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::unicode_classes;

    #[test]
    fn posix_classes_become_unicode_ones() {
        assert_eq!(unicode_classes("^[[:alpha:]]+$"), "^[\\p{L}]+$");
        assert_eq!(unicode_classes("[[:upper:]]"), "(?-i:\\p{Lu})");
        assert_eq!(unicode_classes("[^[:lower:]]"), "(?-i:\\P{Ll})");
        assert_eq!(unicode_classes("[x[:digit:]-]"), "[x\\p{Nd}-]");
        assert_eq!(unicode_classes("[]a[:punct:]]"), "[]a[:punct:]]");
        assert_eq!(unicode_classes("\\[[:alpha:]"), "\\[[:alpha:]");
        assert_eq!(unicode_classes("a[b"), "a[b");
    }
}
