//! Exact DECIMAL: the value type (`value`), the digits arithmetic holds beyond those a
//! value shows (`held`), the collation that makes stored DECIMAL text compare by number
//! (`collation`), the comparisons of computed DECIMALs (`compare`), and the SQLite
//! functions the SQL front-end rewrites DECIMAL expressions into (`sql`).
//!
//! How a DECIMAL lives in SQLite: a `DECIMAL(p,s)` column is declared `DECIMAL TEXT(p,s)
//! COLLATE tutti_decimal` (TEXT affinity, so SQLite never turns it into a lossy REAL) and
//! holds canonical text with exactly s fraction digits (`'1.50'`), written through
//! `tutti_dec_store`. Reads return that text, which is also MySQL's wire form of a DECIMAL.

pub(crate) mod collation;
mod compare;
pub(crate) mod held;
mod sql;
pub(crate) mod value;

pub(crate) use sql::register;

#[cfg(test)]
mod tests;
