//! The aggregates `JSON_ARRAYAGG(v)` and `JSON_OBJECTAGG(k, v)`.
//!
//! As in MariaDB 10.11: values are written as `JSON_ARRAY` writes them (NULL as `null`);
//! the array's elements are separated by `,`, the object's members by `, ` and written
//! `"k":v`, rows with a NULL key left out; no rows (or no keys) give NULL. Both return a
//! document (see `args`). `ORDER BY` and `DISTINCT` inside the call are SQLite's; `LIMIT n`
//! is a second argument to `json_arrayagg` (NULL for none), and a session's
//! `group_concat_max_len` other than the default a third: the elements are cut to that many
//! bytes, as MariaDB cuts them (`cut_max_length`: a cut string keeps its closing quote).

use rusqlite::functions::{Aggregate, Context};
use rusqlite::{Connection, Result};

use super::args::{self, json_out, JsonOut, FLAGS};
use super::parse::escape;

struct ArrayAgg;

/// The rows seen (`LIMIT 0` over rows gives `[]`, over none NULL), the values kept, their
/// bytes with separators, and whether they were cut.
#[derive(Default)]
struct Elements {
    rows: usize,
    values: Vec<String>,
    len: usize,
    cut: bool,
}

impl Elements {
    /// Adds a value unless the elements were cut. When they grow beyond `max_len` bytes
    /// they are cut there, as MariaDB's `cut_max_length` cuts them: when the value just
    /// added ends with a quote, one byte earlier and the quote put back.
    fn push(&mut self, value: String, max_len: Option<usize>) {
        if self.cut {
            return;
        }
        self.len += value.len() + usize::from(!self.values.is_empty());
        self.values.push(value);
        let Some(max) = max_len.filter(|m| self.len > *m) else {
            return;
        };
        let mut all = self.values.join(",");
        let quoted = max > 0 && all.ends_with('"');
        let mut end = if quoted { max - 1 } else { max };
        while !all.is_char_boundary(end) {
            end -= 1;
        }
        all.truncate(end);
        if quoted {
            all.push('"');
        }
        self.values = vec![all];
        self.cut = true;
    }
}

impl Aggregate<Elements, JsonOut> for ArrayAgg {
    fn init(&self, _: &mut Context<'_>) -> Result<Elements> {
        Ok(Elements::default())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Elements) -> Result<()> {
        // `JSON_ARRAYAGG(v LIMIT n)` arrives as a second argument: keep the first n.
        let limit = match ctx.len() {
            1 => None,
            _ => ctx.get::<Option<i64>>(1)?,
        };
        let limit = limit.map_or(usize::MAX, |n| n.max(0) as usize);
        let max_len = match ctx.len() {
            3 => Some(ctx.get::<i64>(2)?.max(0) as usize),
            _ => None,
        };
        acc.rows += 1;
        if acc.values.len() < limit {
            acc.push(args::value_text(ctx, 0), max_len);
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, acc: Option<Elements>) -> Result<JsonOut> {
        Ok(json_out(
            acc.filter(|e| e.rows > 0)
                .map(|e| format!("[{}]", e.values.join(","))),
        ))
    }
}

struct ObjectAgg;

impl Aggregate<Vec<String>, JsonOut> for ObjectAgg {
    fn init(&self, _: &mut Context<'_>) -> Result<Vec<String>> {
        Ok(Vec::new())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Vec<String>) -> Result<()> {
        if let Some(key) = args::text(ctx, 0) {
            acc.push(format!("\"{}\":{}", escape(&key), args::value_text(ctx, 1)));
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, acc: Option<Vec<String>>) -> Result<JsonOut> {
        Ok(json_out(
            acc.filter(|v| !v.is_empty())
                .map(|v| format!("{{{}}}", v.join(", "))),
        ))
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_aggregate_function("json_arrayagg", 1, FLAGS, ArrayAgg)?;
    c.create_aggregate_function("json_arrayagg", 2, FLAGS, ArrayAgg)?;
    c.create_aggregate_function("json_arrayagg", 3, FLAGS, ArrayAgg)?;
    c.create_aggregate_function("json_objectagg", 2, FLAGS, ObjectAgg)?;
    Ok(())
}
