//! `CONVERT(x USING utf8mb4)` (or `utf8mb3`) of bytes that are no such text, and
//! `CHAR(n, ... USING utf8mb4)`. tutti keeps text as UTF-8, so text passes as it is; binary
//! data becomes text as MariaDB converts it: each byte that starts no character of the
//! target set is `?` (a 4-byte character is no `utf8mb3`), with warning 1300 naming the
//! bytes from the first bad one; CHAR's bytes are all or nothing (NULL, warning 1300 with
//! the hex of up to three bytes from the first bad one). Text converted to utf8mb3 loses
//! its 4-byte characters, one `?` each, with warning 1977 naming the first.
//!
//! `tutti_convert_utf8(x, charset, whole)`: `whole` is 1 for CHAR.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};
use std::fmt::Write;

use super::diagnostics::warn;
use super::{text_of, PURE};

/// MariaDB's `ER_INVALID_CHARACTER_STRING`.
const INVALID_CHARACTER_STRING: u16 = 1300;

/// MariaDB's `ER_CANNOT_CONVERT_CHARACTER`.
const CANNOT_CONVERT_CHARACTER: u16 = 1977;

/// The length of the character of `charset` that `bytes` starts with (None: no character).
fn char_len(bytes: &[u8], charset: &str) -> Option<usize> {
    let n = match bytes.first()? {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 if charset != "utf8mb3" => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(bytes.get(..n)?).ok()?;
    (s.chars().count() == 1).then_some(n)
}

/// The bytes from the first bad one as MariaDB's message shows them (`\xFFB\xC3`).
fn shown(bytes: &[u8]) -> String {
    let mut out = String::new();
    for b in bytes {
        if (0x20..0x7F).contains(b) {
            out.push(*b as char);
        } else {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// `bytes` as text of `charset`, or None (with the warning) for CHAR when one is bad.
fn converted(bytes: &[u8], charset: &str, whole: bool) -> Option<String> {
    let mut out = String::with_capacity(bytes.len());
    let mut first_bad = None;
    let mut i = 0;
    while i < bytes.len() {
        match char_len(&bytes[i..], charset) {
            Some(n) => {
                out.push_str(std::str::from_utf8(&bytes[i..i + n]).unwrap_or("?"));
                i += n;
            }
            None => {
                first_bad.get_or_insert(i);
                out.push('?');
                i += 1;
            }
        }
    }
    let Some(bad) = first_bad else {
        return Some(out);
    };
    if whole {
        let hex: String = bytes[bad..]
            .iter()
            .take(3)
            .map(|b| format!("{b:02X}"))
            .collect();
        warn(
            INVALID_CHARACTER_STRING,
            format!("Invalid {charset} character string: '{hex}'"),
        );
        return None;
    }
    warn(
        INVALID_CHARACTER_STRING,
        format!(
            "Invalid {charset} character string: '{}'",
            shown(&bytes[bad..])
        ),
    );
    Some(out)
}

/// Text in utf8mb3: a 4-byte character, which it has no form for, is `?` (warning 1977).
fn without_4_byte_characters(s: &str) -> String {
    let Some(first) = s.chars().find(|c| c.len_utf8() == 4) else {
        return s.to_string();
    };
    let mut bytes = [0; 4];
    let hex: String = first
        .encode_utf8(&mut bytes)
        .bytes()
        .map(|b| format!("{b:02X}"))
        .collect();
    warn(
        CANNOT_CONVERT_CHARACTER,
        format!("Cannot convert 'utf8mb4' character 0x{hex} to 'utf8mb3'"),
    );
    s.chars()
        .map(|c| if c.len_utf8() == 4 { '?' } else { c })
        .collect()
}

fn convert_utf8(ctx: &Context<'_>) -> Result<Value> {
    let charset: String = ctx.get(1)?;
    let whole = ctx.get::<i64>(2)? != 0;
    Ok(match ctx.get_raw(0) {
        ValueRef::Null => Value::Null,
        ValueRef::Blob(b) => converted(b, &charset, whole).map_or(Value::Null, Value::Text),
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(s) if charset != "utf8mb3" => Value::Text(s.to_string()),
            Ok(s) => Value::Text(without_4_byte_characters(s)),
            Err(_) => converted(t, &charset, whole).map_or(Value::Null, Value::Text),
        },
        v => Value::Text(text_of(v)),
    })
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_convert_utf8", 3, PURE, convert_utf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_loses_its_4_byte_characters_in_utf8mb3() {
        assert_eq!(without_4_byte_characters("a\u{1F600}b\u{1F600}"), "a?b?");
        assert_eq!(without_4_byte_characters("añ€"), "añ€");
    }

    #[test]
    fn bad_bytes_become_question_marks_as_in_mariadb() {
        assert_eq!(converted(b"A\xffB\xc3", "utf8mb3", false).unwrap(), "A?B?");
        assert_eq!(
            converted("\u{1F600}".as_bytes(), "utf8mb3", false).unwrap(),
            "????"
        );
        assert_eq!(
            converted("\u{1F600}".as_bytes(), "utf8mb4", false).unwrap(),
            "\u{1F600}"
        );
        assert_eq!(converted("é".as_bytes(), "utf8mb3", true).unwrap(), "é");
        assert_eq!(converted(b"\xff\x8f", "utf8mb3", true), None);
        assert_eq!(shown(b"\xffB\xc3"), "\\xFFB\\xC3");
    }
}
