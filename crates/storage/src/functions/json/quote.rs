//! `JSON_QUOTE` and `JSON_UNQUOTE`.
//!
//! `JSON_QUOTE(s)` makes a JSON string of a string (escaped as `parse::escape` says), NULL
//! for NULL or a number. `JSON_UNQUOTE(j)` gives the characters of a JSON string (the
//! first value of the text, whatever follows it), and anything else (another kind of
//! value, an invalid string) back as it is; as in MariaDB 10.11.

use rusqlite::{Connection, Result};

use super::args::{self, check_arity, FLAGS};
use super::parse::{escape, parse, unescape, Val};

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_quote", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_quote", 1, 1)?;
        if !args::is_string(ctx, 0) {
            return Ok(None);
        }
        Ok(args::text(ctx, 0).map(|s| format!("\"{}\"", escape(&s))))
    })?;
    c.create_scalar_function("json_unquote", -1, FLAGS, |ctx| {
        check_arity(ctx, "json_unquote", 1, 1)?;
        Ok(args::text(ctx, 0).map(|t| match parse(&t).root.val {
            Val::Str(s) => unescape(&s),
            _ => t,
        }))
    })?;
    Ok(())
}
