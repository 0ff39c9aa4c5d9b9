//! Values written into typed columns, as MariaDB's strict mode (its default) stores them.
//! The SQL front-end wraps every value an INSERT, REPLACE, UPDATE or upsert writes into a
//! numeric, string or temporal column (see the front-end's `stored`):
//!
//! * `tutti_int_store(x, min, max, column, row)`: an integer column of range [min, max]
//!   (max −1: a BIGINT UNSIGNED, to 2^64 − 1, see `big_unsigned`).
//!   Exact values (integers, DECIMAL text, strings) round half away from zero, doubles half
//!   to even (`rint`), as MariaDB does; a value outside the range is error 1264.
//!   Strings convert by their numeric form: `' 12 '` is 12, `'1e3'` 1000, `'12abc'` is error
//!   1265 (data truncated), `'abc'` and `''` error 1366 (incorrect value).
//! * `tutti_dec_store(x, p, s, column, row)`: a DECIMAL(p, s) column (in `decimal`).
//! * `tutti_real_store(x, m, d, flags, column, row)`: a FLOAT or DOUBLE column: the number
//!   (strings by their numeric form, as for integers) as the type holds it (single
//!   precision, `(M,D)`'s rounding and range, UNSIGNED); beyond the range is 1264.
//! * `tutti_str_store(x, max, flags, column, row)`: a string column of at most `max`
//!   characters (bytes with flag [`BYTES`]): longer is error 1406, unless only spaces are cut
//!   (MariaDB then truncates); a `CHAR` ([`CHAR`]) drops trailing spaces, as MariaDB
//!   returns it; a `BINARY(n)` ([`PAD`]) is padded with zero bytes to n, as MariaDB keeps it;
//!   a column of a single-byte character set ([`SINGLE_BYTE`]) refuses a character the set
//!   lacks with 1366 (`?` outside strict mode), as MariaDB cannot convert it.
//! * `tutti_temporal_store(x, kind, fsp, column, row)`: a DATE, DATETIME, TIMESTAMP, TIME
//!   or YEAR column: the canonical text (see `temporal`), error 1292 for what is no such
//!   value, 1264 for a YEAR out of range.
//!
//! `column` is `` `db`.`t`.`c` ``: the 1366 and 1292 messages name the column so, the others
//! by `c`.
//!
//! Each takes an optional sixth argument, the mode: 0 when the statement is not strict
//! (`INSERT IGNORE`, `UPDATE IGNORE`, a `sql_mode` without `STRICT_*_TABLES`). The value is
//! then adjusted as MariaDB adjusts it instead of refused: clamped to the type's range,
//! a string's numeric prefix (or 0), a string cut to the column's length, an impossible date
//! the zero date, a TIME clamped to ±838:59:59. 1 (the default) refuses; 2 refuses with
//! the errors of an ALTER TABLE's copy (a string that is no number is 1292 "Truncated
//! incorrect INTEGER value: 'x'", a string too long 1265).

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error, Result};

use super::big_unsigned;
use super::decimal::held::Held;
use super::decimal::value::{Decimal, Parsed};
use super::diagnostics::{self, Level};
use super::gcvt;
use super::temporal::{self, Kind};
use super::PURE;
use tutti_wsrep::charsets::SingleByte;

/// MySQL's codes of the adjustments (warnings outside strict mode).
pub(crate) const CODE_OUT_OF_RANGE: u16 = 1264;
pub(crate) const CODE_TRUNCATED: u16 = 1265;
pub(crate) const CODE_INCORRECT: u16 = 1366;

/// Message prefix of a value out of a column's range (MySQL error 1264).
pub const OUT_OF_RANGE: &str = "Out of range value for column";
/// Message prefix of a string with a numeric prefix and more (MySQL error 1265).
pub const DATA_TRUNCATED: &str = "Data truncated for column";
/// Message prefix of a string that is no number (MySQL error 1366), e.g. "Incorrect
/// integer value: 'abc' for column ...".
pub const INCORRECT_VALUE: &str = "Incorrect ";

/// Message prefix of a string too long for its column (MySQL error 1406).
pub const DATA_TOO_LONG: &str = "Data too long for column";
/// Message prefixes of a value that is no date, datetime or time (MySQL error 1292).
pub const INCORRECT_TEMPORAL: [&str; 3] = [
    "Incorrect date value: '",
    "Incorrect datetime value: '",
    "Incorrect time value: '",
];

/// Message start of a DATE/TIME/TIMESTAMP literal that is no such value (MySQL error
/// 1525), e.g. "Incorrect DATE value: '2024-02-30'".
pub const INCORRECT_LITERAL: &str = "Incorrect literal ";

/// Message prefix of a string that is no number, copied by an ALTER TABLE (MySQL error
/// 1292), e.g. "Truncated incorrect INTEGER value: 'abc'".
pub const TRUNCATED_INCORRECT: &str = "Truncated incorrect ";

/// Store mode (the optional last argument): adjust what does not fit (outside strict mode).
const LENIENT: i64 = 0;
/// Store mode: refuse what does not fit (the default).
const STRICT: i64 = 1;
/// Store mode: refuse, with the errors of MariaDB's ALTER TABLE copy.
const ALTER_COPY: i64 = 2;

/// `tutti_str_store` flag: the limit counts bytes (binary strings, TEXT types).
pub(crate) const BYTES: i64 = 1;
/// `tutti_str_store` flag: a CHAR column (trailing spaces dropped).
pub(crate) const CHAR: i64 = 2;
/// `tutti_str_store` flag: a BINARY(n) column (padded with zero bytes to n).
pub(crate) const PAD: i64 = 4;
/// `tutti_str_store` flag: a text column: a binary string that is UTF-8 (`0x61`,
/// `_binary'a'`) is stored as its text, as MariaDB converts it to the column's character
/// set (kept as bytes it would compare and sort apart from text).
pub(crate) const TEXT: i64 = 8;
/// `tutti_str_store` flag: a column of a single-byte character set, whose code
/// (`SingleByte::code`) the flags carry from bit [`SET_SHIFT`] on: it holds only the set's
/// characters.
pub(crate) const SINGLE_BYTE: i64 = 16;
/// Where a [`SINGLE_BYTE`] column's set code starts in the flags.
pub(crate) const SET_SHIFT: u32 = 8;

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
    /// Errors are errors (false: the value is adjusted, as MariaDB does outside strict mode).
    pub strict: bool,
    /// The value is copied by an ALTER TABLE, whose errors MariaDB words differently.
    pub copy: bool,
}

impl Target {
    /// Reads `column` and `row` from arguments `i` and `i + 1`, and `strict` from `i + 2`
    /// when given (strict when not).
    pub fn of(ctx: &Context<'_>, i: usize, kind: &'static str) -> Result<Target> {
        let mode = if ctx.len() > i + 2 {
            ctx.get::<i64>(i + 2)?
        } else {
            STRICT
        };
        Ok(Target {
            qualified: ctx.get(i)?,
            row: ctx.get(i + 1)?,
            kind,
            strict: mode != LENIENT,
            copy: mode == ALTER_COPY,
        })
    }

    fn short(&self) -> &str {
        let q = &self.qualified;
        q.rsplit('.').next().unwrap_or(q).trim_matches('`')
    }

    /// `value` outside strict mode, with `e` as warning `code`, as MariaDB adjusts; `e` in
    /// strict mode.
    pub fn adjust<T>(&self, code: u16, e: Error, value: T) -> Result<T> {
        if self.strict {
            return Err(e);
        }
        diagnostics::warn_error(code, &e);
        Ok(value)
    }

    /// Note 1265 (data truncated): a value kept with less than it had (a DECIMAL's extra
    /// digits, a date's time, spaces cut), in any mode.
    pub fn note_truncated(&self) {
        let msg = format!("{DATA_TRUNCATED} '{}' at row {}", self.short(), self.row);
        diagnostics::raise(Level::Note, CODE_TRUNCATED, msg);
    }

    /// Error 1264.
    pub fn out_of_range(&self) -> Error {
        let msg = format!("{OUT_OF_RANGE} '{}' at row {}", self.short(), self.row);
        Error::UserFunctionError(msg.into())
    }

    pub fn truncated(&self) -> Error {
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

    pub fn too_long(&self) -> Error {
        if self.copy {
            return self.truncated();
        }
        let msg = format!("{DATA_TOO_LONG} '{}' at row {}", self.short(), self.row);
        Error::UserFunctionError(msg.into())
    }

    /// The number to store (None for NULL), or the strict-mode error for a string.
    pub fn number(&self, v: ValueRef<'_>) -> Result<Option<Stored>> {
        Ok(Some(match v {
            ValueRef::Null => return Ok(None),
            ValueRef::Integer(i) => Stored::Exact(Decimal::from_i64(i)),
            ValueRef::Real(x) => Stored::Double(x),
            // A quotient's held digits: a column stores them rounded (see `held`).
            ValueRef::Blob(b) if Held::decode(b).is_some() => Stored::Exact(
                Held::decode(b)
                    .map(|h| h.value)
                    .unwrap_or_else(Decimal::zero),
            ),
            ValueRef::Text(t) | ValueRef::Blob(t) => {
                let text = String::from_utf8_lossy(t);
                match Decimal::parse(&text) {
                    (Some(d), Parsed::Whole) => {
                        // MariaDB reads the number and notes the spaces after it.
                        if text.ends_with(|c: char| c.is_ascii_whitespace()) {
                            self.note_truncated();
                        }
                        Stored::Exact(d)
                    }
                    // Outside strict mode: the numeric prefix, or 0; a huge number clamps.
                    (Some(d), Parsed::Prefix) if !self.strict => {
                        self.adjust(CODE_TRUNCATED, self.truncated(), Stored::Exact(d))?
                    }
                    (Some(_), Parsed::Nothing) if !self.strict => {
                        let zero = Stored::Exact(Decimal::from_i64(0));
                        self.adjust(CODE_INCORRECT, self.incorrect(&text), zero)?
                    }
                    (None, _) if !self.strict => {
                        let negative = text.trim_start().starts_with('-');
                        let max = Stored::Double(if negative { f64::MIN } else { f64::MAX });
                        self.adjust(CODE_OUT_OF_RANGE, self.out_of_range(), max)?
                    }
                    (None, _) => return Err(self.out_of_range()),
                    (Some(_), Parsed::Prefix | Parsed::Nothing) if self.copy => {
                        let kind = self.kind.to_ascii_uppercase();
                        let msg = format!("{TRUNCATED_INCORRECT}{kind} value: '{text}'");
                        return Err(Error::UserFunctionError(msg.into()));
                    }
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
    // The common case, an integer that fits, needs no message target.
    if let ValueRef::Integer(n) = ctx.get_raw(0) {
        if (min..=max).contains(&n) || (max == BIGINT_UNSIGNED_MAX && n >= 0) {
            return Ok(Value::Integer(n));
        }
    }
    let target = Target::of(ctx, 3, "integer")?;
    if max == BIGINT_UNSIGNED_MAX {
        return big_unsigned_store(ctx, &target);
    }
    let (n, negative) = match target.number(ctx.get_raw(0))? {
        None => return Ok(Value::Null),
        Some(Stored::Exact(d)) => (d.round_to(0).to_i64(), d.is_negative()),
        Some(Stored::Double(x)) => {
            let r = x.round_ties_even();
            // 2^63 itself is out of range: the largest double below it converts exactly.
            let two_63 = -(i64::MIN as f64);
            ((-two_63..two_63).contains(&r).then_some(r as i64), x < 0.0)
        }
    };
    match n {
        // A negative value never fits an unsigned column, even if it rounds to 0.
        Some(n) if (min..=max).contains(&n) && !(min == 0 && negative) => Ok(Value::Integer(n)),
        _ => target.adjust(
            CODE_OUT_OF_RANGE,
            target.out_of_range(),
            Value::Integer(if negative { min } else { max }),
        ),
    }
}

/// The `max` of `tutti_int_store` that stands for 2^64 − 1: a BIGINT UNSIGNED column,
/// whose values above 2^63 − 1 are stored as `big_unsigned` keeps them.
pub(crate) const BIGINT_UNSIGNED_MAX: i64 = -1;

/// A value written to a BIGINT UNSIGNED column (see `big_unsigned`). A stored BLOB of
/// such a column (copied from one) is its value.
fn big_unsigned_store(ctx: &Context<'_>, target: &Target) -> Result<Value> {
    if let ValueRef::Blob(b) = ctx.get_raw(0) {
        if let Some(v) = big_unsigned::decode(b) {
            return Ok(big_unsigned::encode(v));
        }
    }
    let (n, negative) = match target.number(ctx.get_raw(0))? {
        None => return Ok(Value::Null),
        Some(Stored::Exact(d)) => {
            let r = d.round_to(0);
            (r.to_string().parse::<u64>().ok(), d.is_negative())
        }
        Some(Stored::Double(x)) => {
            let r = x.round_ties_even();
            // 2^64 itself is out of range.
            (
                (0.0..18_446_744_073_709_551_616.0)
                    .contains(&r)
                    .then_some(r as u64),
                x < 0.0,
            )
        }
    };
    match n {
        Some(n) if !negative => Ok(big_unsigned::encode(n)),
        _ => target.adjust(
            CODE_OUT_OF_RANGE,
            target.out_of_range(),
            big_unsigned::encode(if negative { 0 } else { u64::MAX }),
        ),
    }
}

/// `tutti_real_store(x, m, d, flags, column, row)`: a FLOAT ([`SINGLE`]) or DOUBLE, of at
/// most `m` digits with `d` decimals when `m` > 0, [`UNSIGNED`] or not. As MariaDB's
/// `Field_real::truncate_double`: a negative value in an UNSIGNED column is out of range
/// (0), the fraction is rounded to `d` digits (half to even), a value beyond the type's
/// largest is out of range (clamped to it); a FLOAT keeps the nearest single-precision value.
fn real_store(ctx: &Context<'_>) -> Result<Value> {
    let (m, d, flags): (i64, i64, i64) = (ctx.get(1)?, ctx.get(2)?, ctx.get(3)?);
    let target = Target::of(ctx, 4, "double")?;
    let x = match target.number(ctx.get_raw(0))? {
        None => return Ok(Value::Null),
        Some(Stored::Exact(d)) => d.to_f64(),
        Some(Stored::Double(x)) => x,
    };
    let single = flags & SINGLE != 0;
    if flags & UNSIGNED != 0 && x < 0.0 {
        return target.adjust(CODE_OUT_OF_RANGE, target.out_of_range(), Value::Real(0.0));
    }
    let mut max = if single {
        f64::from(f32::MAX)
    } else {
        f64::MAX
    };
    let mut x = x;
    if m > 0 {
        let scale = super::math::pow10(d.max(0) as u32);
        max = max.min(super::math::pow10((m - d).max(0) as u32) - 1.0 / scale);
        if x.is_finite() {
            let floor = x.floor();
            x = floor + ((x - floor) * scale).round_ties_even() / scale;
        }
    }
    // A FLOAT(M,D) keeps the nearest single to the rounded value, as MariaDB: it is shown
    // with D decimals, and compares equal to the value within half a unit of its last
    // decimal (see the SQL front-end's `real_decimals`), but reads as that single in double
    // arithmetic (`f + 0e0` of 1.1 is 1.100000023841858).
    let stored = |x: f64| if single { f64::from(x as f32) } else { x };
    if x.abs() > max {
        let clamped = Value::Real(stored(max.copysign(x)));
        return target.adjust(CODE_OUT_OF_RANGE, target.out_of_range(), clamped);
    }
    Ok(Value::Real(stored(x)))
}

/// `tutti_real_store` flag: a FLOAT (single precision).
const SINGLE: i64 = 1;
/// `tutti_real_store` flag: UNSIGNED.
const UNSIGNED: i64 = 2;

/// `tutti_str_store(x, max, flags, column, row)`.
fn str_store(ctx: &Context<'_>) -> Result<Value> {
    let (max, flags): (i64, i64) = (ctx.get(1)?, ctx.get(2)?);
    let lacking = single_byte_set(flags).and_then(|set| first_lacking(ctx.get_raw(0), set));
    if lacking.is_none() {
        if let Some(kept) = fitting_text(ctx.get_raw(0), max, flags) {
            return Ok(Value::Text(kept.to_owned()));
        }
    }
    let target = Target::of(ctx, 3, "string")?;
    let value = match lacking {
        Some((set, at)) => in_set(ctx.get(0)?, set, at, &target)?,
        None => ctx.get(0)?,
    };
    let value = fitted_str(value, max, flags, &target)?;
    Ok(if flags & PAD != 0 {
        padded(value, max as usize)
    } else {
        value
    })
}

/// The common case of [`str_store`], which needs no message target: text that fits the
/// column as it is (not a BINARY(n), no trailing spaces for a CHAR to drop).
fn fitting_text(raw: ValueRef<'_>, max: i64, flags: i64) -> Option<&str> {
    let ValueRef::Text(bytes) = raw else {
        return None;
    };
    let text = std::str::from_utf8(bytes).ok()?;
    let plain = flags & PAD == 0 && !(flags & CHAR != 0 && text.ends_with(' '));
    // Fewer bytes than the limit are fewer characters too.
    let fits =
        text.len() as i64 <= max || (flags & BYTES == 0 && text.chars().count() as i64 <= max);
    (plain && fits).then_some(text)
}

/// A BINARY(n) value: right-padded with zero bytes to n bytes, as MariaDB stores it.
fn padded(value: Value, n: usize) -> Value {
    match value {
        Value::Text(mut t) if t.len() < n => {
            t.extend(std::iter::repeat_n('\0', n - t.len()));
            Value::Text(t)
        }
        Value::Blob(mut b) if b.len() < n => {
            b.resize(n, 0);
            Value::Blob(b)
        }
        v => v,
    }
}

/// The single-byte character set of a column's `tutti_str_store` flags, if any.
fn single_byte_set(flags: i64) -> Option<SingleByte> {
    (flags & SINGLE_BYTE != 0).then(|| SingleByte::from_code((flags >> SET_SHIFT) as u8))?
}

/// The byte offset of the first character of text `raw` that `set` lacks.
fn first_lacking(raw: ValueRef<'_>, set: SingleByte) -> Option<(SingleByte, usize)> {
    let ValueRef::Text(bytes) = raw else {
        return None;
    };
    if bytes.is_ascii() {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let (at, _) = text.char_indices().find(|(_, c)| !set.contains(*c))?;
    Some((set, at))
}

/// Text for a column of single-byte set `set` whose character at byte `at` the set lacks:
/// MariaDB's 1366 in strict mode; outside it each such character becomes `?`, as MariaDB
/// converts it, with warning 1366.
fn in_set(value: Value, set: SingleByte, at: usize, target: &Target) -> Result<Value> {
    let Value::Text(text) = value else {
        return Ok(value);
    };
    let e = target.incorrect(&printable(&text.as_bytes()[at..]));
    target.adjust(CODE_INCORRECT, e, Value::Text(set.converted(&text)))
}

/// Bytes as MariaDB's messages show a string it could not convert: at most six, printable
/// ASCII as it is, the others as `\xHH`, and `...` when there were more.
fn printable(bytes: &[u8]) -> String {
    let mut out: String = bytes
        .iter()
        .take(6)
        .map(|&b| match b {
            0x20..=0x7E => char::from(b).to_string(),
            _ => format!("\\x{b:02X}"),
        })
        .collect();
    if bytes.len() > 6 {
        out.push_str("...");
    }
    out
}

/// The value a string column of at most `max` characters (bytes with [`BYTES`]) keeps.
fn fitted_str(value: Value, max: i64, flags: i64, target: &Target) -> Result<Value> {
    let value: Value = match value {
        Value::Blob(b) if flags & TEXT != 0 => {
            String::from_utf8(b).map_or_else(|e| Value::Blob(e.into_bytes()), Value::Text)
        }
        v => v,
    };
    let text = match &value {
        Value::Null => return Ok(Value::Null),
        Value::Text(t) => t.clone(),
        Value::Blob(b) => {
            // Binary data: its length in bytes, kept as it is; cut with warning 1265 where
            // the mode is not strict.
            return match usize::try_from(max) {
                Ok(max) if b.len() > max => {
                    if target.strict {
                        return Err(target.too_long());
                    }
                    let cut = Value::Blob(b[..max].to_vec());
                    target.adjust(CODE_TRUNCATED, target.truncated(), cut)
                }
                _ => Ok(value),
            };
        }
        Value::Integer(i) => i.to_string(),
        // A double becomes text as MariaDB writes it in the column's width (`1.25e78`,
        // `0.0001225`; `123.5` for 123.456 in a CHAR(5)).
        Value::Real(r) => {
            let spelled = gcvt::spell(*r, max.clamp(1, gcvt::WIDE as i64) as usize, false);
            if spelled.lossy {
                if target.strict {
                    return Err(target.too_long());
                }
                let text = Value::Text(spelled.text.clone());
                target.adjust(CODE_TRUNCATED, target.truncated(), text)?;
            }
            spelled.text
        }
    };
    let value = match value {
        Value::Integer(_) | Value::Real(_) => Value::Text(text.clone()),
        v => v,
    };
    let length = |s: &str| {
        if flags & BYTES != 0 {
            s.len()
        } else {
            s.chars().count()
        }
    };
    let kept = if flags & CHAR != 0 {
        text.trim_end_matches(' ')
    } else {
        &text
    };
    if length(kept) as i64 <= max {
        return Ok(if kept.len() == text.len() {
            value
        } else {
            Value::Text(kept.to_string())
        });
    }
    // Too long: only trailing spaces may be cut.
    let end = if flags & BYTES != 0 {
        (0..=max as usize)
            .rev()
            .find(|i| kept.is_char_boundary(*i))
            .unwrap_or(0)
    } else {
        kept.char_indices()
            .nth(max as usize)
            .map_or(kept.len(), |(i, _)| i)
    };
    let cut = Value::Text(kept[..end].to_string());
    if kept[end..].bytes().all(|b| b == b' ') {
        target.note_truncated();
        return Ok(cut);
    }
    if target.strict {
        return Err(target.too_long());
    }
    target.adjust(CODE_TRUNCATED, target.truncated(), cut)
}

/// The temporal kind and fraction digits of arguments 1 and 2.
fn kind_and_fsp(ctx: &Context<'_>) -> Result<(Kind, u32)> {
    let kind: String = ctx.get(1)?;
    let kind = Kind::of(&kind)
        .ok_or_else(|| Error::UserFunctionError(format!("no temporal type {kind}").into()))?;
    Ok((kind, ctx.get(2)?))
}

/// A value's text (None for NULL).
fn text_of(raw: ValueRef<'_>) -> Option<String> {
    (!matches!(raw, ValueRef::Null)).then(|| super::text_of(raw))
}

/// The canonical text of `raw` as a `kind` column with `fsp` fraction digits stores it
/// (None when it is no such value). Not for YEAR.
fn canonical(raw: ValueRef<'_>, text: &str, kind: Kind, fsp: u32) -> Option<String> {
    let datetime = || {
        match raw {
            ValueRef::Integer(i) => temporal::datetime_of_number(i),
            // 20010203101112.5: the fraction is microseconds, of the double's shortest
            // spelling (`10203101112.12` is .120000), as MariaDB reads it
            ValueRef::Real(r) if (0.0..1e15).contains(&r) => datetime_of_digits(&r.to_string()),
            ValueRef::Real(_) => None,
            _ => temporal::parse_datetime(text),
        }
        .filter(temporal::valid_datetime)
    };
    Some(match kind {
        Kind::Date => temporal::date_text(&datetime()?),
        Kind::DateTime => temporal::datetime_text(&datetime()?, fsp),
        // Read in the session's zone, stored (and range-checked) in UTC.
        Kind::Timestamp => {
            let utc = datetime().and_then(|p| super::timestamps::to_utc(&p));
            temporal::datetime_text(&utc.filter(temporal::fits_timestamp)?, fsp)
        }
        Kind::Time => temporal::time_text(&temporal::parse_time(text)?, fsp),
        Kind::Year => return None,
    })
}

/// A literal as a column of `kind` (`date`, `datetime`, `time`) with `fsp` fraction digits
/// stores it, for a DEFAULT (`DATETIME DEFAULT 0` is `'0000-00-00 00:00:00'`); None when it
/// is no such value, which MariaDB refuses as a DEFAULT (1067).
pub fn temporal_default(value: &tutti_wsrep::Value, kind: &str, fsp: u32) -> Option<String> {
    use tutti_wsrep::Value as V;
    let kind = Kind::of(kind).filter(|k| *k != Kind::Year && *k != Kind::Timestamp)?;
    let raw = match value {
        V::Null => return None,
        V::Int(i) => ValueRef::Integer(*i),
        V::Real(r) => ValueRef::Real(*r),
        V::Text(t) => ValueRef::Text(t.as_bytes()),
        V::Blob(b) => ValueRef::Blob(b),
    };
    canonical(raw, &text_of(raw)?, kind, fsp)
}

/// `tutti_temporal_store(x, kind, fsp, column, row)`.
fn temporal_store(ctx: &Context<'_>) -> Result<Value> {
    let (kind, fsp) = kind_and_fsp(ctx)?;
    // A YEAR's message names it an integer, as MariaDB's does.
    let word = if kind == Kind::Year {
        "integer"
    } else {
        kind.word()
    };
    let target = Target::of(ctx, 3, word)?;
    let raw = ctx.get_raw(0);
    let Some(text) = text_of(raw) else {
        return Ok(Value::Null);
    };
    if kind == Kind::Year {
        return year(raw, &text, &target);
    }
    match canonical(raw, &text, kind, fsp) {
        Some(t) => {
            if loses_precision(raw, &text, kind) {
                target.note_truncated();
            }
            Ok(Value::Text(t))
        }
        // "Incorrect date value: '…' for column … at row N" (the target's kind is the word);
        // outside strict mode a TIME beyond the range is 1264, anything else 1265.
        None if target.strict => Err(target.incorrect(&text)),
        None => {
            let beyond = kind == Kind::Time && temporal::clamped_time(&text).hours == 838;
            let (code, warning) = if beyond {
                (CODE_OUT_OF_RANGE, target.out_of_range())
            } else {
                (CODE_TRUNCATED, target.truncated())
            };
            target.adjust(code, warning, Value::Text(lenient(&text, kind, fsp)))
        }
    }
}

/// A value that keeps less as a `kind` than it says (MariaDB's note 1265): a DATE given
/// a time of day, a TIME given a datetime, a fraction of more than six digits.
fn loses_precision(raw: ValueRef<'_>, text: &str, kind: Kind) -> bool {
    if kind == Kind::Time && temporal::is_datetime_time(text) {
        return true;
    }
    if !matches!(raw, ValueRef::Text(_)) {
        return false;
    }
    if kind == Kind::Date {
        let time = |p: temporal::Parts| p.hour + p.minute + p.second + p.micros > 0;
        return temporal::parse_datetime(text).is_some_and(time);
    }
    let fraction = text.trim_end().rsplit_once('.').map(|(_, f)| f);
    fraction.is_some_and(|f| f.len() > 6 && f.bytes().all(|b| b.is_ascii_digit()))
}

/// What MariaDB stores outside strict mode for a value that is no `kind`: a TIME beyond
/// ±838:59:59 clamps, a date or datetime followed by something else is that date or
/// datetime, anything else is the zero value (YEAR: see [`year`]).
fn lenient(text: &str, kind: Kind, fsp: u32) -> String {
    match kind {
        Kind::Time => temporal::time_text(&temporal::clamped_time(text), fsp),
        Kind::Year => "0".into(),
        _ => value_at_start(text, kind, fsp)
            .or_else(|| parts_text(&temporal::Parts::default(), kind, fsp))
            .unwrap_or_default(),
    }
}

/// The DATE, DATETIME or TIMESTAMP a string that goes on after it starts with
/// (`'2003-01-01 00:00:00 xyz'`), in the column's text.
fn value_at_start(text: &str, kind: Kind, fsp: u32) -> Option<String> {
    let mut p = temporal::parse_datetime_truncated(text).filter(temporal::valid_datetime)?;
    if kind == Kind::Timestamp {
        p = super::timestamps::to_utc(&p).filter(temporal::fits_timestamp)?;
    }
    parts_text(&p, kind, fsp)
}

/// A date and time as a DATE, DATETIME or TIMESTAMP shows it (None for other kinds).
fn parts_text(p: &temporal::Parts, kind: Kind, fsp: u32) -> Option<String> {
    match kind {
        Kind::Date => Some(temporal::date_text(p)),
        Kind::DateTime | Kind::Timestamp => Some(temporal::datetime_text(p, fsp)),
        Kind::Time | Kind::Year => None,
    }
}

/// The longest start of `text` that is a datetime, as `YYYY-MM-DD HH:MM:SS.ffffff`; the
/// zero datetime when no start is one.
fn read_prefix(text: &str) -> String {
    let t = text.trim();
    // A start that ends inside a number is no reading of it (`'2007/10/2000:00'` is no
    // `2007-10-20`).
    let p = (6..t.len())
        .rev()
        .filter(|&n| t.is_char_boundary(n) && !t.as_bytes()[n].is_ascii_digit())
        .find_map(|n| temporal::parse_datetime(&t[..n]).filter(temporal::valid_datetime))
        .unwrap_or_default();
    temporal::datetime_text(&p, 6)
}

/// `tutti_temporal(x, kind, fsp)`: a constant compared with a temporal column, in the
/// column's canonical text (`20000102` → `2000-01-02`), so that text comparison is temporal
/// comparison; unchanged when it is no such value.
///
/// MariaDB compares a DATE or DATETIME column with a constant as datetimes at the finer
/// precision of the two, so the constant keeps the time and fraction digits the column
/// lacks when they are not zero: a DATE `'2006-11-06'` is less than `'2006-11-06 04:08'`,
/// and as text a shorter prefix is less too.
fn temporal_constant(ctx: &Context<'_>) -> Result<Value> {
    let (kind, fsp) = kind_and_fsp(ctx)?;
    let raw = ctx.get_raw(0);
    let value: Value = ctx.get(0)?;
    let Some(text) = text_of(raw) else {
        return Ok(value);
    };
    if kind == Kind::Time {
        // Compared with a temporal value (a fourth argument 1), not only among strings.
        let compared = ctx.len() > 3 && ctx.get::<i64>(3)? == 1;
        // Beyond the range, the largest TIME: at the constant's own digits among strings
        // (`GREATEST('839:59:59.0', t)` is 838:59:59.9), at six in a comparison, as MariaDB
        // clamps it.
        if let (ValueRef::Text(_), Some(d)) = (raw, temporal::beyond_time_range(&text)) {
            let digits = match compared {
                true => 6,
                false => super::calendar::text_fsp(&text).max(fsp),
            };
            return Ok(Value::Text(temporal::time_text(&d, digits)));
        }
        // The constant keeps its own fraction ('10:20:31.123' is no TIME(0) 10:20:31).
        let exact = canonical(raw, &text, kind, 6).or_else(|| match raw {
            ValueRef::Text(_) if compared => time_prefix(&text),
            _ => None,
        });
        let Some(exact) = exact else {
            return Ok(value);
        };
        let (whole, fraction) = exact.split_once('.').unwrap_or((&exact, ""));
        return Ok(Value::Text(own_fraction(whole, fraction, fsp)));
    }
    let exact = canonical(raw, &text, Kind::DateTime, 6).or_else(|| match raw {
        // A string that is no datetime is read as far as it is one ('2005-09-3a' is
        // 2005-09-03), or as the zero date, as MariaDB reads it (with a warning); an
        // impossible day ('2005-9-31') is compared by its parts, as MariaDB compares it.
        ValueRef::Text(_) => match temporal::parse_datetime(&text) {
            None => Some(read_prefix(&text)),
            Some(p) => temporal::impossible_day(&p).then(|| temporal::datetime_text(&p, 6)),
        },
        _ => None,
    });
    let Some(exact) = exact else {
        return Ok(canonical(raw, &text, kind, fsp).map_or(value, Value::Text));
    };
    let (whole, fraction) = exact.split_at(19);
    let fraction = fraction.trim_start_matches('.');
    let midnight = fraction.trim_end_matches('0').is_empty() && whole.ends_with("00:00:00");
    Ok(Value::Text(match kind {
        Kind::Date if midnight => whole[..10].to_string(),
        Kind::Date => own_fraction(whole, fraction, 0),
        _ => own_fraction(whole, fraction, fsp),
    }))
}

/// A string that is no TIME read as far as it is one ('10:20:30x' is 10:20:30), or as
/// 00:00:00 when it starts with none ('', 'abc'), as MariaDB reads it in a comparison
/// (with a warning). None for digits that are no TIME ('839:59:59', out of range).
fn time_prefix(text: &str) -> Option<String> {
    let starts_time = |c: char| c.is_ascii_digit() || c == '-' || c == '+';
    if !text.trim_start().starts_with(starts_time) {
        return Some("00:00:00".to_string());
    }
    let part_of_time = |c: char| c.is_ascii_digit() || c == ':' || c == '.';
    (1..text.len())
        .rev()
        .filter(|&n| text.is_char_boundary(n) && !text[n..].starts_with(part_of_time))
        .find_map(|n| {
            let p = &text[..n];
            canonical(ValueRef::Text(p.as_bytes()), p, Kind::Time, 6)
        })
}

/// `whole` with the fraction digits a constant needs, at least `fsp`: compared with a
/// column of fewer digits, a constant keeps its own fraction.
fn own_fraction(whole: &str, fraction: &str, fsp: u32) -> String {
    let shown = (fraction.trim_end_matches('0').len() as u32).max(fsp) as usize;
    match shown {
        0 => whole.to_string(),
        n => format!("{whole}.{:0<n$}", &fraction[..n.min(fraction.len())]),
    }
}

/// `tutti_temporal_literal(text, kind)`: `DATE '..'`, `TIME '..'`, `TIMESTAMP '..'`, the
/// canonical text with as many fraction digits as written, or error 1525.
fn temporal_literal(ctx: &Context<'_>) -> Result<Value> {
    let text: String = ctx.get(0)?;
    let kind: String = ctx.get(1)?;
    // Digits beyond microseconds are cut, as MariaDB cuts them.
    let (cut, fsp) = match text.trim_end().rsplit_once('.') {
        Some((whole, f)) if f.len() > 6 => (format!("{whole}.{}", &f[..6]), 6),
        Some((_, f)) => (text.clone(), f.len() as u32),
        None => (text.clone(), 0),
    };
    let parsed =
        Kind::of(&kind).and_then(|k| canonical(ValueRef::Text(cut.as_bytes()), &cut, k, fsp));
    parsed.map(Value::Text).ok_or_else(|| {
        let shown = if kind == "datetime" {
            "DATETIME".to_string()
        } else {
            kind.to_ascii_uppercase()
        };
        Error::UserFunctionError(format!("{INCORRECT_LITERAL}{shown} value: '{text}'").into())
    })
}

/// `tutti_cast_temporal(x, kind, fsp, zero_dates)`: `CAST(x AS DATE | DATETIME(fsp) |
/// TIME(fsp))`, the canonical text, or NULL when `x` is no such value (MariaDB warns 1292
/// there) or a zero date the `sql_mode` forbids (`zero_dates`: 1 no zero month or day, 2
/// no `0000-00-00`).
fn cast_temporal(ctx: &Context<'_>) -> Result<Value> {
    let (kind, fsp) = kind_and_fsp(ctx)?;
    let zero_dates: u32 = ctx.get(3)?;
    let raw = ctx.get_raw(0);
    let Some(given) = text_of(raw) else {
        return Ok(Value::Null);
    };
    let digits = zero_dates & DECIMAL_DIGITS != 0 && kind != Kind::Time;
    let Some(text) = Some(given.clone()).and_then(|text| match (digits, raw) {
        (true, ValueRef::Text(_)) => {
            let p = datetime_of_digits(&text).filter(temporal::valid_datetime)?;
            parts_text(&p, kind, fsp)
        }
        _ => canonical(raw, &text, kind, fsp)
            .or_else(|| cast_start(&text, kind, fsp))
            .or_else(|| {
                (kind == Kind::Time)
                    .then(|| time_beyond(&text, fsp))
                    .flatten()
            }),
    }) else {
        return Ok(not_temporal(&given, kind, fsp, zero_dates & COMPARED != 0));
    };
    if kind != Kind::Time {
        let date = &text.as_bytes()[..10];
        let zero_date = date == b"0000-00-00";
        let zero_part = &date[5..7] == b"00" || &date[8..10] == b"00";
        if zero_date && zero_dates & 2 != 0 || !zero_date && zero_part && zero_dates & 1 != 0 {
            return Ok(Value::Null);
        }
    }
    Ok(Value::Text(text))
}

/// The flag of `tutti_cast_temporal`'s last argument that says its value is compared.
const COMPARED: u32 = 8;

/// A CAST to a temporal type of something that is no such value: NULL with MariaDB's
/// warning 1292; compared, MariaDB reads it loosely instead: an impossible day is kept
/// (`2008-02-30`), anything else is the zero value, with warning 1292.
fn not_temporal(text: &str, kind: Kind, fsp: u32, compared: bool) -> Value {
    let word = if kind == Kind::Time {
        "time"
    } else {
        "datetime"
    };
    if !compared {
        diagnostics::warn(1292, format!("Incorrect {word} value: '{text}'"));
        return Value::Null;
    }
    let impossible = (kind != Kind::Time)
        .then(|| temporal::parse_datetime(text))
        .flatten()
        .filter(temporal::impossible_day);
    if let Some(p) = impossible {
        return Value::Text(parts_text(&p, kind, fsp).unwrap_or_default());
    }
    diagnostics::warn(1292, format!("Truncated incorrect {word} value: '{text}'"));
    Value::Text(match kind {
        Kind::Time => temporal::time_text(&temporal::Duration::default(), fsp),
        _ => parts_text(&temporal::Parts::default(), kind, fsp).unwrap_or_default(),
    })
}

/// A TIME beyond ±838:59:59 cast to TIME: clamped, with MariaDB's warning 1292
/// (`CAST(9000000 AS TIME)` is `838:59:59`).
fn time_beyond(text: &str, fsp: u32) -> Option<String> {
    let d = temporal::clamped_time(text);
    (d.hours == 838).then(|| {
        diagnostics::warn(1292, format!("Truncated incorrect time value: '{text}'"));
        temporal::time_text(&d, fsp)
    })
}

/// The flag of `tutti_cast_temporal`'s last argument that says `x` is a DECIMAL's digits.
const DECIMAL_DIGITS: u32 = 4;

/// A DECIMAL's digits (`20010203101112.121314`) as the datetime MariaDB reads that number
/// as: the integer part as `number_to_datetime` reads it, the first six fraction digits as
/// microseconds.
fn datetime_of_digits(digits: &str) -> Option<temporal::Parts> {
    let (whole, fraction) = digits.trim().split_once('.').unwrap_or((digits.trim(), ""));
    let whole: i64 = whole.parse().ok()?;
    let mut p = temporal::datetime_of_number(whole)?;
    // A number of a date alone (`YYYYMMDD` and shorter) has no fraction of a second.
    if whole >= 100_000_000 {
        let micros = format!("{:0<6}", &fraction[..fraction.len().min(6)]);
        p.micros = micros.parse().ok()?;
    }
    Some(p)
}

/// A string that goes on after a date or datetime (`'2003-01-01 00:00:00 xyz'`) cast to a
/// DATE or DATETIME: the value at its start, with MariaDB's warning 1292.
fn cast_start(text: &str, kind: Kind, fsp: u32) -> Option<String> {
    let shown = value_at_start(text, kind, fsp)?;
    let word = kind.word();
    diagnostics::warn(1292, format!("Truncated incorrect {word} value: '{text}'"));
    Some(shown)
}

/// A YEAR: numbers 0, 1-99 (two-digit years) and 1901-2155; strings of one or two digits
/// are two-digit years ('0' is 2000), longer ones numbers.
fn year(raw: ValueRef<'_>, text: &str, target: &Target) -> Result<Value> {
    let n = match target.number(raw)? {
        None => return Ok(Value::Null),
        Some(Stored::Exact(d)) => d.round_to(0).to_i64(),
        Some(Stored::Double(x)) => Some(x.round() as i64),
    };
    let digits = text.trim();
    let two_digit_string = matches!(raw, ValueRef::Text(_))
        && (1..=2).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit());
    let year = match n {
        Some(0) if two_digit_string => Some(2000),
        Some(n) => temporal::year_of_number(n),
        None => None,
    };
    match year {
        Some(y) => Ok(Value::Integer(y)),
        None => target.adjust(CODE_OUT_OF_RANGE, target.out_of_range(), Value::Integer(0)),
    }
}

/// `tutti_not_null(x, default, column, row)`: `x`, or `default` with warning 1048 when
/// `x` is NULL (a NULL written into a NOT NULL column outside strict mode).
fn not_null(ctx: &Context<'_>) -> Result<Value> {
    let value: Value = ctx.get(0)?;
    if value != Value::Null {
        return Ok(value);
    }
    let column: String = ctx.get(2)?;
    diagnostics::warn(1048, format!("Column '{column}' cannot be null"));
    ctx.get(1)
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    // Volatile: evaluated (and warning) once per row even for a constant NULL.
    c.create_scalar_function("tutti_not_null", 4, super::VOLATILE, not_null)?;
    // `tutti_implicit_default(x, column)`: x, the implicit default of a NOT NULL column the
    // INSERT omits outside strict mode, with MariaDB's warning 1364 once per statement.
    c.create_scalar_function("tutti_implicit_default", 2, super::VOLATILE, |ctx| {
        let column: String = ctx.get(1)?;
        super::diagnostics::warn_once(
            1364,
            format!("Field '{column}' doesn't have a default value"),
        );
        ctx.get::<Value>(0)
    })?;
    for n in [6, 7] {
        c.create_scalar_function("tutti_real_store", n, PURE, real_store)?;
    }
    for n in [5, 6] {
        c.create_scalar_function("tutti_int_store", n, PURE, int_store)?;
        c.create_scalar_function("tutti_str_store", n, PURE, str_store)?;
        c.create_scalar_function("tutti_temporal_store", n, PURE, temporal_store)?;
    }
    c.create_scalar_function("tutti_cast_temporal", 4, PURE, cast_temporal)?;
    c.create_scalar_function("tutti_temporal_literal", 2, PURE, temporal_literal)?;
    c.create_scalar_function("tutti_temporal", 3, PURE, temporal_constant)?;
    c.create_scalar_function("tutti_temporal", 4, PURE, temporal_constant)
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
        let c = db();
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

    /// A connection with tutti's functions.
    fn db() -> Connection {
        let c = Connection::open_in_memory().unwrap();
        crate::functions::register(&c).unwrap();
        c
    }

    fn text(c: &Connection, sql: &str) -> std::result::Result<String, String> {
        c.query_row(&format!("SELECT {sql}"), [], |r| {
            r.get::<_, rusqlite::types::Value>(0)
        })
        .map(|v| match v {
            rusqlite::types::Value::Text(t) => t,
            rusqlite::types::Value::Integer(i) => i.to_string(),
            v => format!("{v:?}"),
        })
        .map_err(|e| e.to_string())
    }

    #[test]
    fn an_alter_copy_refuses_with_mariadbs_alter_errors() {
        let c = db();
        let run = |sql: &str| {
            c.query_row(&format!("SELECT {sql}"), [], |r| {
                r.get::<_, rusqlite::types::Value>(0)
            })
            .map_err(|e| e.to_string())
        };
        let int = |v: &str| {
            run(&format!(
                "tutti_int_store({v}, 0, 255, '`db`.`t`.`i`', 1, 2)"
            ))
        };
        assert_eq!(int("'12'"), Ok(rusqlite::types::Value::Integer(12)));
        assert!(int("'12x'")
            .unwrap_err()
            .contains("Truncated incorrect INTEGER value: '12x'"));
        assert!(int("'abc'")
            .unwrap_err()
            .contains("Truncated incorrect INTEGER value: 'abc'"));
        assert!(int("300").unwrap_err().contains(super::OUT_OF_RANGE));
        let long = run("tutti_str_store('abcd', 3, 0, '`db`.`t`.`s`', 1, 2)").unwrap_err();
        assert!(
            long.contains("Data truncated for column 's' at row 1"),
            "{long}"
        );
    }

    #[test]
    fn doubles_are_numbers() {
        let c = db();
        let store = |v: &str, shape: &str, strict: i64| {
            c.query_row(
                &format!("SELECT tutti_real_store({v}, {shape}, '`db`.`t`.`f`', 1, {strict})"),
                [],
                |r| r.get::<_, f64>(0),
            )
            .map_err(|e| e.to_string())
        };
        let double = "0, 0, 0";
        assert_eq!(store("' 1.5'", double, 1), Ok(1.5));
        assert_eq!(store("12", double, 1), Ok(12.0));
        assert_eq!(store("'x'", double, 0), Ok(0.0));
        assert_eq!(store("'1.5e0x'", double, 0), Ok(1.5));
        assert!(store("'x'", double, 1)
            .unwrap_err()
            .contains("Incorrect double value: 'x'"));
        assert!(store("'1.5x'", double, 1)
            .unwrap_err()
            .contains("Data truncated"));
        // FLOAT: single precision, clamped to its largest outside strict mode.
        assert_eq!(store("1.1", "0, 0, 1", 1), Ok(f64::from(1.1f32)));
        assert_eq!(store("1e40", "0, 0, 1", 0), Ok(f64::from(f32::MAX)));
        assert!(store("1e40", "0, 0, 1", 1)
            .unwrap_err()
            .contains("Out of range"));
        // (M,D): rounded to D decimals (half to even on the double), at most M digits.
        assert_eq!(store("12345.678", "6, 2, 0", 0), Ok(9999.99));
        assert_eq!(store("-11", "4, 3, 0", 0), Ok(-9.999));
        assert_eq!(store("0.005e0", "6, 2, 0", 1), Ok(0.0));
        assert_eq!(store("1.2344", "6, 3, 0", 1), Ok(1.234));
        // UNSIGNED: a negative value is out of range (0).
        assert_eq!(store("-5", "0, 0, 2", 0), Ok(0.0));
        assert!(store("-5", "0, 0, 2", 1)
            .unwrap_err()
            .contains("Out of range"));
    }

    #[test]
    fn strings_longer_than_their_column_are_refused() {
        let c = db();
        let store = |v: &str, max: i64, flags: i64| {
            text(
                &c,
                &format!("tutti_str_store({v}, {max}, {flags}, '`db`.`t`.`s`', 2)"),
            )
        };
        assert_eq!(store("'abc'", 3, 0), Ok("abc".into()));
        assert_eq!(store("'héé'", 3, 0), Ok("héé".into()));
        assert_eq!(store("'ab   '", 3, 0), Ok("ab ".into()));
        assert_eq!(store("'ab   '", 3, super::CHAR), Ok("ab".into()));
        assert_eq!(store("12", 3, 0), Ok("12".into()));
        assert_eq!(store("1.225e-04", 10, 0), Ok("0.0001225".into()));
        assert_eq!(store("1.25e+78", 10, 0), Ok("1.25e78".into()));
        assert_eq!(store("1.25e-94", 10, 0), Ok("1.25e-94".into()));
        assert_eq!(store("9.999999e+0", 10, 0), Ok("9.999999".into()));
        // A binary string into a text column is its text when it is UTF-8, else bytes.
        let kind = |v: &str, flags: i64| -> String {
            c.query_row(
                &format!("SELECT typeof(tutti_str_store({v}, 10, {flags}, '`db`.`t`.`s`', 1))"),
                [],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(kind("X'0961'", super::TEXT), "text");
        assert_eq!(kind("X'FF'", super::TEXT), "blob");
        assert_eq!(kind("X'0961'", super::BYTES), "blob");
        for (v, flags) in [
            ("'abcd'", 0),
            ("'hééé'", 0),
            ("'héé'", super::BYTES),
            ("1234", 0),
        ] {
            assert_eq!(
                store(v, 3, flags),
                Err("Data too long for column 's' at row 2".into()),
                "{v}"
            );
        }
    }

    #[test]
    fn a_single_byte_sets_column_refuses_characters_the_set_lacks() {
        let c = db();
        let latin1 = tutti_wsrep::charsets::SingleByte::named("latin1").unwrap();
        let flags = super::TEXT | super::SINGLE_BYTE | i64::from(latin1.code()) << super::SET_SHIFT;
        let store = |v: &str, mode: i64| {
            text(
                &c,
                &format!("tutti_str_store({v}, 20, {flags}, '`db`.`t`.`s`', 1, {mode})"),
            )
        };
        assert_eq!(store("'aé€'", 1), Ok("aé€".into()));
        assert_eq!(
            store("'aćdefghij'", 1),
            Err(
                "Incorrect string value: '\\xC4\\x87defg...' for column `db`.`t`.`s` at row 1"
                    .into()
            )
        );
        assert_eq!(
            store("'é😀x'", 1),
            Err(
                "Incorrect string value: '\\xF0\\x9F\\x98\\x80x' for column `db`.`t`.`s` at row 1"
                    .into()
            )
        );
        assert_eq!(store("'aćd😀e'", 0), Ok("a?d?e".into()));
    }

    #[test]
    fn temporal_values_are_stored_canonical_or_refused() {
        let c = db();
        let store = |v: &str, kind: &str, fsp: u32| {
            text(
                &c,
                &format!("tutti_temporal_store({v}, '{kind}', {fsp}, '`db`.`t`.`d`', 1)"),
            )
        };
        assert_eq!(store("20000101", "date", 0), Ok("2000-01-01".into()));
        assert_eq!(
            store("'2000-01-02 3:4:5.6789'", "datetime", 3),
            Ok("2000-01-02 03:04:05.678".into())
        );
        assert_eq!(
            store("'2000-01-02'", "timestamp", 0),
            Ok("2000-01-02 00:00:00".into())
        );
        assert_eq!(store("'10:11:12.5'", "time", 0), Ok("10:11:12".into()));
        assert_eq!(store("1234", "time", 1), Ok("00:12:34.0".into()));
        assert_eq!(store("'24'", "year", 0), Ok("2024".into()));
        assert_eq!(store("'0'", "year", 0), Ok("2000".into()));
        assert_eq!(store("0", "year", 0), Ok("0".into()));
        assert_eq!(store("70", "year", 0), Ok("1970".into()));
        assert_eq!(
            store("'2024-02-30'", "date", 0),
            Err("Incorrect date value: '2024-02-30' for column `db`.`t`.`d` at row 1".into())
        );
        assert_eq!(
            store("'1960-01-01'", "timestamp", 0),
            Err("Incorrect datetime value: '1960-01-01' for column `db`.`t`.`d` at row 1".into())
        );
        assert_eq!(
            store("'900:00:00'", "time", 0),
            Err("Incorrect time value: '900:00:00' for column `db`.`t`.`d` at row 1".into())
        );
        assert_eq!(
            store("1900", "year", 0),
            Err("Out of range value for column 'd' at row 1".into())
        );
    }

    #[test]
    fn constants_compared_with_temporal_columns_keep_their_finer_parts() {
        let c = db();
        let k = |v: &str, kind: &str, fsp: u32| {
            text(&c, &format!("tutti_temporal({v}, '{kind}', {fsp})")).unwrap()
        };
        assert_eq!(k("20000102", "date", 0), "2000-01-02");
        assert_eq!(k("'2000-01-02 00:00:00.000'", "date", 0), "2000-01-02");
        assert_eq!(
            k("'2006-11-06 04:08:36.0'", "date", 0),
            "2006-11-06 04:08:36"
        );
        assert_eq!(
            k("'2006-11-06 4:8:36.50'", "datetime", 0),
            "2006-11-06 04:08:36.5"
        );
        assert_eq!(
            k("'2006-11-06 4:8:36.5'", "datetime", 3),
            "2006-11-06 04:08:36.500"
        );
        assert_eq!(k("'2006-11-06'", "timestamp", 2), "2006-11-06 00:00:00.00");
        assert_eq!(k("'10:11'", "time", 1), "10:11:00.0");
        assert_eq!(k("'2005-09-3a'", "date", 0), "2005-09-03");
        assert_eq!(
            k("'2007-10-01 x00:00:00 GMT-6'", "datetime", 0),
            "2007-10-01 00:00:00"
        );
        assert_eq!(k("'zz'", "date", 0), "0000-00-00");
        assert_eq!(k("'2005-09-31'", "date", 0), "2005-09-31");
        assert_eq!(k("'2007-2-30 12:34'", "datetime", 0), "2007-02-30 12:34:00");
        assert_eq!(k("5", "date", 0), "5");
    }

    #[test]
    fn casts_to_temporal_types_read_as_mariadb_does() {
        let c = db();
        let cast = |v: &str, kind: &str, fsp: u32| {
            text(&c, &format!("tutti_cast_temporal({v}, '{kind}', {fsp}, 0)"))
        };
        assert_eq!(cast("'2000-1-2'", "date", 0), Ok("2000-01-02".into()));
        assert_eq!(
            cast("20010203101112", "datetime", 0),
            Ok("2001-02-03 10:11:12".into())
        );
        assert_eq!(
            cast("20010203101112.5e0", "datetime", 1),
            Ok("2001-02-03 10:11:12.5".into())
        );
        assert_eq!(
            cast("'2011-02-03 10:11:12.123456'", "datetime", 5),
            Ok("2011-02-03 10:11:12.12345".into())
        );
        assert_eq!(cast("'10:11:12'", "time", 6), Ok("10:11:12.000000".into()));
        assert_eq!(cast("'0'", "time", 0), Ok("00:00:00".into()));
        assert_eq!(
            cast("'2011-02-03 10:11:12'", "time", 0),
            Ok("10:11:12".into())
        );
        assert_eq!(cast("'2024-02-30'", "date", 0), Ok("Null".into()));
        assert_eq!(cast("1", "date", 0), Ok("Null".into()));
        assert_eq!(cast("NULL", "datetime", 0), Ok("Null".into()));
        let strict = |v: &str, zero_dates: u32| {
            text(
                &c,
                &format!("tutti_cast_temporal({v}, 'date', 0, {zero_dates})"),
            )
        };
        assert_eq!(strict("'2101-00-01'", 0), Ok("2101-00-01".into()));
        assert_eq!(strict("'2101-00-01'", 1), Ok("Null".into()));
        assert_eq!(strict("'0000-00-00'", 1), Ok("0000-00-00".into()));
        assert_eq!(strict("'0000-00-00'", 2), Ok("Null".into()));
        assert_eq!(strict("'2101-00-01'", 2), Ok("2101-00-01".into()));
        // compared, a value that is none is read loosely
        let compared = |v: &str, kind: &str| {
            text(
                &c,
                &format!("tutti_cast_temporal({v}, '{kind}', 0, {})", super::COMPARED),
            )
        };
        assert_eq!(compared("'2024-02-30'", "date"), Ok("2024-02-30".into()));
        assert_eq!(compared("'NULL'", "date"), Ok("0000-00-00".into()));
        assert_eq!(
            compared("'x'", "datetime"),
            Ok("0000-00-00 00:00:00".into())
        );
        assert_eq!(compared("'x'", "time"), Ok("00:00:00".into()));
        assert_eq!(compared("NULL", "date"), Ok("Null".into()));
    }
}
