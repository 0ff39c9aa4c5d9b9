//! Documents built from values: `JSON_ARRAY(v, ...)` and `JSON_OBJECT(k, v, ...)`.
//!
//! As in MariaDB 10.11, each value is written as `args` says (documents from other JSON
//! functions spliced in as they are), separated by `, `, members as `"k": v` (a NULL key
//! is `""`); a result longer than max_allowed_packet is NULL.

use rusqlite::{Connection, Result};

use super::args::{self, json_out, FLAGS};
use super::parse::escape;
use crate::functions::MAX_ALLOWED_PACKET;

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("json_array", -1, FLAGS, |ctx| {
        let parts: Vec<String> = (0..ctx.len()).map(|i| args::value_text(ctx, i)).collect();
        Ok(json_out(limit(format!("[{}]", parts.join(", ")))))
    })?;
    c.create_scalar_function("json_object", -1, FLAGS, |ctx| {
        if ctx.len() % 2 != 0 {
            return Err(args::arity("json_object"));
        }
        let parts: Vec<String> = (0..ctx.len())
            .step_by(2)
            .map(|i| {
                let key = escape(&args::text(ctx, i).unwrap_or_default());
                format!("\"{key}\": {}", args::value_text(ctx, i + 1))
            })
            .collect();
        Ok(json_out(limit(format!("{{{}}}", parts.join(", ")))))
    })?;
    Ok(())
}

fn limit(s: String) -> Option<String> {
    (s.len() <= MAX_ALLOWED_PACKET).then_some(s)
}
