//! Literals: MySQL spellings → SQLite spellings, and session values ↔ SQL literals.
//!
//! * `"abc"` (a string in MySQL's default sql_mode) and `N'abc'` print as `'abc'`.
//! * Backslash escapes were already decoded by the tokenizer (MySQL dialect), and sqlparser
//!   prints single-quoted strings with `'` doubled and no backslash escapes, which is exactly
//!   SQLite's syntax — so `'a\\b'` reaches SQLite as `'a\b'`, the same 3-character value.
//!   A string holding a NUL character is sent as `CAST(X'..' AS TEXT)` because SQLite stops
//!   reading SQL text at a NUL, and so is one with `''` or `\'` in it, which sqlparser's
//!   printer would take for already escaped.
//! * `0xABCD` → `X'ABCD'` (odd digit counts are padded on the left, as MySQL does);
//!   `b'0101'` → the same bytes as a hex blob: both hybrids, numbers in numeric context
//!   (`typing::numeric`). `x'ABCD'` (marked `_binary` by the lexer), `_binary'abc'` and
//!   binary session values → `CAST(X'..' AS BLOB)`, a plain binary string; other charset
//!   introducers (`_utf8mb4'x'`) are dropped.
//! * `TRUE`/`FALSE` → `1`/`0`.

use sqlparser::ast::{DataType, Expr, Value as SqlValue};

use crate::ast_build::{cast, null, number, string};
use tutti_wsrep::charsets::{CharsetName, SingleByte};

use crate::{SqlError, Value};

/// Upper-case hex digits of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// A blob literal `X'..'`.
pub(crate) fn blob(bytes: &[u8]) -> Expr {
    Expr::value(SqlValue::HexStringLiteral(hex(bytes)))
}

/// A binary string that is no hex literal: `CAST(X'..' AS BLOB)`, so that numeric contexts
/// read its bytes as text (`_binary'1' + 0` is 1, `x'41' + 0` is 0), while a bare `X'..'` is
/// a MySQL hybrid literal (see `typing::numeric`).
fn binary_string(bytes: &[u8]) -> Expr {
    cast(blob(bytes), DataType::Blob(None))
}

/// A text literal SQLite can read back to the same value.
pub(crate) fn text(s: &str) -> Expr {
    if needs_hex(s) {
        cast(blob(s.as_bytes()), DataType::Text)
    } else {
        string(s)
    }
}

/// A string sqlparser cannot print as a SQLite literal: a NUL ends SQLite's reading, and
/// its printer leaves a quote alone when it follows a backslash or another quote (taking
/// it for escaped already), so `a''b` or `x\'` would come out as different SQL.
fn needs_hex(s: &str) -> bool {
    s.contains('\0') || s.contains("''") || s.contains("\\'")
}

/// The SQLite form of a MySQL literal, when it differs.
pub(crate) fn rewrite_value(v: &SqlValue) -> Option<Expr> {
    Some(match v {
        SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => {
            match in_connection_set(s) {
                Some(converted) => text(&converted),
                None if needs_hex(s) || matches!(v, SqlValue::DoubleQuotedString(_)) => text(s),
                None => return None,
            }
        }
        SqlValue::NationalStringLiteral(s) => text(s),
        SqlValue::HexStringLiteral(h) => blob(&hex_bytes(h)?),
        SqlValue::SingleQuotedByteStringLiteral(bits)
        | SqlValue::DoubleQuotedByteStringLiteral(bits) => blob(&bits_to_bytes(bits)?),
        SqlValue::Boolean(b) => number(if *b { "1" } else { "0" }),
        _ => return None,
    })
}

/// `s` as the connection's single-byte set holds it (`SET NAMES utf8, collation_connection =
/// latin1_swedish_ci`): MariaDB converts a literal from the client's set to the
/// connection's, and a character that set lacks becomes `?`. None when unchanged.
fn in_connection_set(s: &str) -> Option<String> {
    if s.is_ascii() {
        return None;
    }
    let set = crate::connection_collation::single_byte()?;
    let converted = set.decode(&set.encode(s));
    (converted != s).then_some(converted)
}

/// `b'0101'` → bytes (big-endian, left-padded to whole bytes); None if not binary digits.
fn bits_to_bytes(bits: &str) -> Option<Vec<u8>> {
    if !bits.chars().all(|c| c == '0' || c == '1') {
        return None;
    }
    let padded = format!("{}{bits}", "0".repeat((8 - bits.len() % 8) % 8));
    padded
        .as_bytes()
        .chunks(8)
        .map(|chunk| u8::from_str_radix(std::str::from_utf8(chunk).ok()?, 2).ok())
        .collect()
}

/// A charset introducer `_cs'literal'` labels the literal's bytes, as the client sent them
/// (UTF-8, or in `client`'s single-byte set), and so does one before a hex literal
/// (`_utf8mb4 0xD0B1`): `_binary` makes a blob of them, UTF-8 ones are read (MySQL's 1300
/// when they are no UTF-8), those of a single-byte set decoded (`_latin1'é'` from a UTF-8
/// client is `Ã©`, as in MariaDB). In other sets ASCII passes and anything else is refused.
/// A prefix that names no set is a column to MariaDB (`_foo'a'`: 1054).
pub(crate) fn introduced(
    prefix: &str,
    value: &Expr,
    client: Option<SingleByte>,
) -> Result<Option<Expr>, SqlError> {
    let charset = prefix.trim_start_matches('_').to_ascii_lowercase();
    if CharsetName::find(&charset).is_none() {
        return Err(SqlError::UnknownColumn {
            column: prefix.to_string(),
            table: "field list".into(),
        });
    }
    let Expr::Value(v) = value else {
        return Ok(None);
    };
    let bytes = match &v.value {
        SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => match client {
            Some(set) => set.encode(s),
            None => s.as_bytes().to_vec(),
        },
        SqlValue::HexStringLiteral(h) => match hex_bytes(h) {
            Some(bytes) => bytes,
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    Ok(Some(match charset.as_str() {
        "binary" => binary_string(&bytes),
        "utf8" | "utf8mb3" | "utf8mb4" => text(&utf8_text(bytes, &charset)?),
        _ if bytes.is_ascii() => text(&String::from_utf8_lossy(&bytes)),
        _ => match SingleByte::named(&charset) {
            Some(set) => text(&set.decode(&bytes)),
            None => {
                return Err(SqlError::Unsupported(format!(
                    "a non-ASCII literal in character set {charset}"
                )))
            }
        },
    }))
}

/// The text of UTF-8 bytes; MySQL's 1300 names the (at most 3) bytes from the first bad one.
fn utf8_text(bytes: Vec<u8>, charset: &str) -> Result<String, SqlError> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let bad = &bytes[at..bytes.len().min(at + 3)];
        let name = if charset == "utf8" {
            "utf8mb3"
        } else {
            charset
        };
        SqlError::InvalidCharacterString(name.to_string(), hex(bad))
    })
}

/// The bytes of a hex literal's digits (an odd count gets a leading 0, as in MySQL).
fn hex_bytes(h: &str) -> Option<Vec<u8>> {
    let padded = if h.len() % 2 == 1 {
        format!("0{h}")
    } else {
        h.to_string()
    };
    (0..padded.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(padded.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A session value as a SQL literal.
pub(crate) fn value_expr(v: &Value) -> Expr {
    match v {
        Value::Null => null(),
        Value::Int(i) => number(i.to_string()),
        Value::Real(r) if r.is_finite() => number(format!("{r:?}")),
        Value::Real(_) => null(),
        Value::Text(s) => text(s),
        Value::Blob(b) => binary_string(b),
    }
}

/// A constant expression as a value (for SET); None when it is not a plain constant.
pub(crate) fn const_value(e: &Expr) -> Option<Value> {
    match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Null => Some(Value::Null),
            SqlValue::Number(n, _) => Some(number_value(n, false)),
            SqlValue::SingleQuotedString(s)
            | SqlValue::DoubleQuotedString(s)
            | SqlValue::NationalStringLiteral(s) => Some(Value::Text(s.clone())),
            SqlValue::Boolean(b) => Some(Value::Int(*b as i64)),
            SqlValue::HexStringLiteral(h) => {
                let digits = if h.len() % 2 == 1 {
                    format!("0{h}")
                } else {
                    h.clone()
                };
                (0..digits.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).ok())
                    .collect::<Option<Vec<u8>>>()
                    .map(Value::Blob)
            }
            _ => None,
        },
        Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Minus,
            expr,
        } => match expr.as_ref() {
            Expr::Value(v) => match &v.value {
                SqlValue::Number(n, _) => Some(number_value(n, true)),
                _ => None,
            },
            _ => None,
        },
        Expr::Cast {
            expr,
            data_type: DataType::Text,
            ..
        } => match const_value(expr)? {
            Value::Blob(b) => String::from_utf8(b).ok().map(Value::Text),
            other => Some(other),
        },
        Expr::Cast {
            expr,
            data_type: DataType::Blob(None),
            ..
        } => const_value(expr),
        Expr::Nested(inner) => const_value(inner),
        _ => None,
    }
}

/// A numeric literal's value: an integer when it is one, else a double.
fn number_value(n: &str, negative: bool) -> Value {
    let text = if negative {
        format!("-{n}")
    } else {
        n.to_string()
    };
    match text.parse::<i64>() {
        Ok(i) => Value::Int(i),
        Err(_) => text
            .parse::<f64>()
            .map(Value::Real)
            .unwrap_or(Value::Text(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(v: SqlValue) -> String {
        rewrite_value(&v)
            .map(|e| e.to_string())
            .unwrap_or_else(|| v.to_string())
    }

    #[test]
    fn mysql_literals_become_sqlite_literals() {
        assert_eq!(
            printed(SqlValue::DoubleQuotedString("it's".into())),
            "'it''s'"
        );
        assert_eq!(printed(SqlValue::NationalStringLiteral("x".into())), "'x'");
        assert_eq!(printed(SqlValue::HexStringLiteral("abc".into())), "X'0ABC'");
        assert_eq!(
            printed(SqlValue::SingleQuotedByteStringLiteral("101".into())),
            "X'05'"
        );
        assert_eq!(
            printed(SqlValue::SingleQuotedByteStringLiteral("100000001".into())),
            "X'0101'"
        );
        assert_eq!(printed(SqlValue::Boolean(true)), "1");
        assert_eq!(
            printed(SqlValue::SingleQuotedString("a\\b".into())),
            "'a\\b'"
        );
        assert_eq!(
            printed(SqlValue::SingleQuotedString("a\0b".into())),
            "CAST(X'610062' AS TEXT)"
        );
        // Quotes sqlparser would take for escaped already.
        assert_eq!(
            printed(SqlValue::SingleQuotedString("a''b".into())),
            "CAST(X'61272762' AS TEXT)"
        );
        assert_eq!(
            printed(SqlValue::SingleQuotedString("x\\'".into())),
            "CAST(X'785C27' AS TEXT)"
        );
        assert_eq!(
            printed(SqlValue::SingleQuotedString("it's".into())),
            "'it''s'"
        );
    }

    #[test]
    fn session_values_round_trip() {
        for v in [
            Value::Null,
            Value::Int(-3),
            Value::Real(1.5),
            Value::Text("o'k".into()),
            Value::Text("nul\0".into()),
            Value::Blob(vec![1, 255]),
        ] {
            assert_eq!(const_value(&value_expr(&v)), Some(v.clone()), "{v:?}");
        }
        assert_eq!(value_expr(&Value::Real(f64::NAN)).to_string(), "NULL");
    }
}
