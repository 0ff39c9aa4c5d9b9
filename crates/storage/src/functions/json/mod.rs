//! MariaDB's JSON functions, answering as MariaDB 10.11 does.
//!
//! SQLite's json1 has functions of the same names that answer differently (another
//! layout, other path rules, errors where MariaDB gives NULL); the ones registered here
//! take their place (an application-defined function hides a built-in of the same name).
//!
//! MariaDB works on the text of a document, and its answers show it: values keep their
//! spelling, duplicate keys stay, results come in its own layouts, a function reads only
//! as far as it needs. So documents are parsed into a tree that keeps the text (`parse`),
//! written back in MariaDB's layouts (`print`), and followed along MariaDB's paths
//! (`path`, `matching`). SQL values go in and out as `args` describes; `marks` has the
//! functions the SQL front-end can wrap around a value to give it the type MariaDB sees.
//!
//! As in MariaDB, invalid JSON or paths give NULL (MariaDB adds a warning, tutti has no
//! way to), a wrong number of arguments is an error (`Incorrect parameter count in the
//! call to native function '...'`), and so is an escape of more than one character in
//! `JSON_SEARCH`.

mod agg;
mod args;
mod build;
mod compare;
mod inspect;
mod layout;
mod lookup;
mod marks;
mod matching;
mod merge;
mod modify;
mod normalize;
mod parse;
mod path;
mod print;
mod quote;
mod scalar;
mod search;
#[cfg(test)]
mod tests;

use rusqlite::{Connection, Result};

pub(crate) fn register(c: &Connection) -> Result<()> {
    inspect::register(c)?;
    lookup::register(c)?;
    search::register(c)?;
    compare::register(c)?;
    normalize::register(c)?;
    build::register(c)?;
    merge::register(c)?;
    modify::register(c)?;
    layout::register(c)?;
    quote::register(c)?;
    agg::register(c)?;
    marks::register(c)?;
    scalar::register(c)?;
    Ok(())
}
