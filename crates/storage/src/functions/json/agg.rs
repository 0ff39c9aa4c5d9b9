//! The aggregates `JSON_ARRAYAGG(v)` and `JSON_OBJECTAGG(k, v)`.
//!
//! As in MariaDB 10.11: values are written as `JSON_ARRAY` writes them (NULL as `null`);
//! the array's elements are separated by `,`, the object's members by `, ` and written
//! `"k":v`, rows with a NULL key left out; no rows (or no keys) give NULL. Both return a
//! document (see `args`). `ORDER BY` and `DISTINCT` inside the call are SQLite's; `LIMIT n`
//! is a second argument to `json_arrayagg`.

use rusqlite::functions::{Aggregate, Context};
use rusqlite::{Connection, Result};

use super::args::{self, json_out, JsonOut, FLAGS};
use super::parse::escape;

struct ArrayAgg;

/// The rows seen (`LIMIT 0` over rows gives `[]`, over none NULL) and the values kept.
#[derive(Default)]
struct Elements {
    rows: usize,
    values: Vec<String>,
}

impl Aggregate<Elements, JsonOut> for ArrayAgg {
    fn init(&self, _: &mut Context<'_>) -> Result<Elements> {
        Ok(Elements::default())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Elements) -> Result<()> {
        // `JSON_ARRAYAGG(v LIMIT n)` arrives as a second argument: keep the first n.
        let limit = if ctx.len() > 1 {
            ctx.get::<i64>(1)?.max(0) as usize
        } else {
            usize::MAX
        };
        acc.rows += 1;
        if acc.values.len() < limit {
            acc.values.push(args::value_text(ctx, 0));
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
    c.create_aggregate_function("json_objectagg", 2, FLAGS, ObjectAgg)?;
    Ok(())
}
