//! Values written into typed columns, as MariaDB's strict mode (its default) stores them.
//! The SQL front-end wraps every value an INSERT, REPLACE, UPDATE or upsert writes into a
//! numeric column (see the front-end's `stored`):
//!
//! * `tutti_int_store(x, min, max, column, row)`: an integer column of range [min, max].
//!   Exact values (integers, DECIMAL text, strings) round half away from zero, doubles half
//!   to even (`rint`), as MariaDB does; a value outside the range is error 1264.
//! * `tutti_dec_store(x, p, s, column, row)`: a DECIMAL(p, s) column (in `decimal`).
//!
//! Strings convert by their numeric form: `' 12 '` is 12, `'1e3'` 1000, `'12abc'` is error
//! 1265 (data truncated), `'abc'` and `''` error 1366 (incorrect value).
//! `column` is `` `db`.`t`.`c` ``: the 1366 message names the column so, the others by `c`.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error, Result};

use super::decimal::value::{Decimal, Parsed};
use super::PURE;

/// Message prefix of a value out of a column's range (MySQL error 1264).
pub const OUT_OF_RANGE: &str = "Out of range value for column";
/// Message prefix of a string with a numeric prefix and more (MySQL error 1265).
pub const DATA_TRUNCATED: &str = "Data truncated for column";
/// Message prefix of a string that is no number (MySQL error 1366), e.g. "Incorrect
/// integer value: 'abc' for column ...".
pub const INCORRECT_VALUE: &str = "Incorrect ";

/// A numeric value to store.
pub(crate) enum Stored {
    /// Exact: an integer, DECIMAL text or a numeric string.
    Exact(Decimal),
    /// A double.
    Double(f64),
}

/// The column a value is written to, for the messages.
pub(crate) struct Target {
    /// `` `db`.`t`.`c` ``.
    qualified: String,
    /// The row of the statement (1-based).
    row: i64,
    /// The type named in the 1366 message: "integer", "decimal".
    kind: &'static str,
}

impl Target {
    /// Reads `column` and `row` from arguments `i` and `i + 1`.
    pub fn of(ctx: &Context<'_>, i: usize, kind: &'static str) -> Result<Target> {
        Ok(Target {
            qualified: ctx.get(i)?,
            row: ctx.get(i + 1)?,
            kind,
        })
    }

    fn short(&self) -> &str {
        let q = &self.qualified;
        q.rsplit('.').next().unwrap_or(q).trim_matches('`')
    }

    /// Error 1264.
    pub fn out_of_range(&self) -> Error {
        let msg = format!("{OUT_OF_RANGE} '{}' at row {}", self.short(), self.row);
        Error::UserFunctionError(msg.into())
    }

    fn truncated(&self) -> Error {
        let msg = format!("{DATA_TRUNCATED} '{}' at row {}", self.short(), self.row);
        Error::UserFunctionError(msg.into())
    }

    fn incorrect(&self, text: &str) -> Error {
        let msg = format!(
            "{INCORRECT_VALUE}{} value: '{text}' for column {} at row {}",
            self.kind, self.qualified, self.row
        );
        Error::UserFunctionError(msg.into())
    }

    /// The number to store (None for NULL), or the strict-mode error for a string.
    pub fn number(&self, v: ValueRef<'_>) -> Result<Option<Stored>> {
        Ok(Some(match v {
            ValueRef::Null => return Ok(None),
            ValueRef::Integer(i) => Stored::Exact(Decimal::from_i64(i)),
            ValueRef::Real(x) => Stored::Double(x),
            ValueRef::Text(t) | ValueRef::Blob(t) => {
                let text = String::from_utf8_lossy(t);
                match Decimal::parse(&text) {
                    (Some(d), Parsed::Whole) => Stored::Exact(d),
                    (None, _) => return Err(self.out_of_range()),
                    (Some(_), Parsed::Prefix) => return Err(self.truncated()),
                    (Some(_), Parsed::Nothing) => return Err(self.incorrect(&text)),
                }
            }
        }))
    }
}

/// `tutti_int_store(x, min, max, column, row)`.
fn int_store(ctx: &Context<'_>) -> Result<Value> {
    let (min, max): (i64, i64) = (ctx.get(1)?, ctx.get(2)?);
    let target = Target::of(ctx, 3, "integer")?;
    let n = match target.number(ctx.get_raw(0))? {
        None => return Ok(Value::Null),
        Some(Stored::Exact(d)) => {
            // A negative value never fits an unsigned column, even if it rounds to 0.
            if min == 0 && d.is_negative() {
                return Err(target.out_of_range());
            }
            d.round_to(0).to_i64()
        }
        Some(Stored::Double(x)) => {
            if min == 0 && x < 0.0 {
                return Err(target.out_of_range());
            }
            let r = x.round_ties_even();
            // 2^63 itself is out of range: the largest double below it converts exactly.
            let two_63 = -(i64::MIN as f64);
            (-two_63..two_63).contains(&r).then_some(r as i64)
        }
    };
    match n {
        Some(n) if (min..=max).contains(&n) => Ok(Value::Integer(n)),
        _ => Err(target.out_of_range()),
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_int_store", 5, PURE, int_store)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    fn one(c: &Connection, sql: &str) -> std::result::Result<String, String> {
        c.query_row(&format!("SELECT {sql}"), [], |r| r.get::<_, Option<i64>>(0))
            .map(|v| v.map_or("NULL".into(), |v| v.to_string()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn integers_are_stored_as_mariadb_strict_mode_stores_them() {
        let c = Connection::open_in_memory().unwrap();
        crate::functions::register(&c).unwrap();
        let col = "'`db`.`t`.`i`', 1";
        let int = format!("-2147483648, 2147483647, {col}");
        for (v, want) in [
            ("'10.5'", "11"),
            ("'-10.5'", "-11"),
            ("2.5e0", "2"),
            ("1.5e0", "2"),
            ("' 12 '", "12"),
            ("'1e3'", "1000"),
            ("'-0'", "0"),
            ("NULL", "NULL"),
            ("2147483647", "2147483647"),
        ] {
            assert_eq!(
                one(&c, &format!("tutti_int_store({v}, {int})")),
                Ok(want.into()),
                "{v}"
            );
        }
        for (v, range, want) in [
            (
                "'12abc'",
                int.clone(),
                "Data truncated for column 'i' at row 1",
            ),
            (
                "'abc'",
                int.clone(),
                "Incorrect integer value: 'abc' for column `db`.`t`.`i` at row 1",
            ),
            ("''", int.clone(), "Incorrect integer value: '' for column"),
            (
                "'2147483647.5'",
                int.clone(),
                "Out of range value for column 'i' at row 1",
            ),
            ("128", format!("-128, 127, {col}"), "Out of range"),
            ("-1", format!("0, 65535, {col}"), "Out of range"),
            ("'-0.4'", format!("0, 65535, {col}"), "Out of range"),
            (
                "1.8446744073709552e19",
                format!("0, 9223372036854775807, {col}"),
                "Out of range",
            ),
        ] {
            let e = one(&c, &format!("tutti_int_store({v}, {range})")).unwrap_err();
            assert!(e.contains(want), "{v}: {e}");
        }
    }
}
