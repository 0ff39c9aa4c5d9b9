//! `tutti_json_num(j)`: a JSON value (what `JSON_EXTRACT` returns) read as a number, as
//! MariaDB reads one in arithmetic, in a comparison with a number and in a CAST: a number
//! is its value, `true` 1, `false`, `null`, an array and an object 0, a string the number
//! its characters start with (`"12abc"` is 12). NULL stays NULL.
//!
//! (Compared with a string, MariaDB reads a JSON string as its characters: the SQL
//! front-end wraps the value in `JSON_UNQUOTE` there.)

use rusqlite::types::Value;
use rusqlite::{Connection, Result};

use super::args::{self, FLAGS};
use super::parse::{parse, unescape, Val};
use crate::functions::math::parse_prefix;

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_json_num", 1, FLAGS, |ctx| {
        Ok(args::text(ctx, 0).map(|t| number(&t)))
    })
}

/// The number a JSON text stands for.
fn number(text: &str) -> Value {
    match parse(text).root.val {
        Val::Num(n) => match n.parse::<i64>() {
            Ok(i) => Value::Integer(i),
            Err(_) => Value::Real(parse_prefix(&n)),
        },
        Val::Str(s) => Value::Real(parse_prefix(&unescape(&s))),
        Val::True => Value::Integer(1),
        _ => Value::Integer(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_values_read_as_numbers() {
        for (text, want) in [
            ("19", Value::Integer(19)),
            ("1.50", Value::Real(1.5)),
            ("1e2", Value::Real(100.0)),
            ("\"12abc\"", Value::Real(12.0)),
            ("\"x\"", Value::Real(0.0)),
            ("true", Value::Integer(1)),
            ("false", Value::Integer(0)),
            ("null", Value::Integer(0)),
            ("[1]", Value::Integer(0)),
            ("{\"a\": 1}", Value::Integer(0)),
        ] {
            assert_eq!(number(text), want, "{text}");
        }
    }
}
