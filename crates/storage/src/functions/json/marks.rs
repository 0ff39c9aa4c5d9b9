//! `tutti_json_bool(x)`, `tutti_json_doc(x)`, `tutti_json_number(x)`: `x` itself, marked
//! with the SQL type MariaDB would know it has (see `args`).
//!
//! SQLite values carry no such types, so these are for the SQL front-end to wrap around an
//! argument of a JSON function where MariaDB's answer depends on the type: a boolean
//! expression (`TRUE`, a comparison) is written `true`/`false`, the value of a JSON column
//! is spliced in as a document, a DECIMAL (which tutti holds as text) is written as a
//! number. NULL stays NULL.

use rusqlite::{Connection, Result};

use super::args::{BOOL, FLAGS, JSON, NUMBER};

pub(crate) fn register(c: &Connection) -> Result<()> {
    for (name, subtype) in [
        ("tutti_json_bool", BOOL),
        ("tutti_json_doc", JSON),
        ("tutti_json_number", NUMBER),
    ] {
        c.create_scalar_function(name, 1, FLAGS, move |ctx| {
            Ok((ctx.get_arg(0), Some(subtype)))
        })?;
    }
    Ok(())
}
