//! Doubles as MariaDB spells them (its `my_gcvt`): the shortest digits that read back the
//! same value (at most 6 for a FLOAT), in plain notation when that needs no more than
//! `width` characters and the point is at most 15 places left or right of the digits
//! (`100000000000000`, `0.0000000000000015`, `1000000000000000.5`), else with an exponent
//! (`1e15`, `1.5e-16`, `1.2345678901234569e23`).
//!
//! A narrow `width` (a double stored into a `CHAR(5)`) keeps as many significant digits as
//! fit, in whichever notation keeps more: `123.456789` → `123.5`, `0.001234` → `1e-3`,
//! `99999.9` → `1e5`. Where only a one-digit mantissa fits (`1.2345e-10` in 5 characters
//! is `1e-10`) MariaDB reports the value as truncated; [`Spelled::lossy`] says so.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

/// How far the point may sit outside the digits in plain notation (MariaDB's
/// `MAX_DECPT_FOR_F_FORMAT`, `DBL_DIG`).
const MAX_DECPT_FOR_F_FORMAT: i32 = 15;
/// Significant digits of a FLOAT (`FLT_DIG`).
const FLT_DIG: usize = 6;
/// Significant digits that always read a double back.
const DBL_DIGITS: usize = 17;
/// The width MariaDB spells a double in when nothing narrows it.
pub const WIDE: usize = 330;

/// A double's spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spelled {
    /// The characters.
    pub text: String,
    /// Only a one-digit mantissa fitted the width (MariaDB's "data truncated").
    pub lossy: bool,
}

/// `x` as MariaDB spells a DOUBLE (or, with `single`, a FLOAT) in at most `width`
/// characters.
pub fn spell(x: f64, width: usize, single: bool) -> Spelled {
    let plain = |text: String| Spelled { text, lossy: false };
    if x == 0.0 || !x.is_finite() {
        // SQLite has no NaN; an infinity only comes from an overflowing expression.
        return plain(if x == 0.0 { "0".into() } else { x.to_string() });
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let width = width.saturating_sub(sign.len()).max(1);
    let max_digits = if single { FLT_DIG } else { DBL_DIGITS }.min(width);
    let (digits, decpt) = significant(x.abs(), max_digits);
    let len = digits.len() as i32;
    let needed = if decpt <= 0 {
        len - decpt + 2
    } else if decpt < len {
        len + 1
    } else {
        decpt
    };
    if needed as usize <= width {
        let fixed =
            decpt > -MAX_DECPT_FOR_F_FORMAT && (decpt <= MAX_DECPT_FOR_F_FORMAT || len > decpt);
        let text = if fixed {
            fixed_notation(&digits, decpt)
        } else {
            exponent_notation(&digits, decpt)
        };
        return plain(format!("{sign}{text}"));
    }
    // Too wide: keep what fits, in the notation that keeps more significant digits.
    let fixed = narrow_fixed(x.abs(), decpt, width);
    let (exp, lossy) = narrow_exponent(x.abs(), decpt, width);
    let text = match fixed {
        Some(f) if significant_count(&f) >= significant_count(&exp) => f,
        _ => exp,
    };
    Spelled {
        text: format!("{sign}{text}"),
        lossy: lossy && text.contains('e'),
    }
}

/// A DOUBLE's text as MariaDB's functions and results show it.
pub fn double_text(x: f64) -> String {
    spell(x, WIDE, false).text
}

/// A FLOAT/DOUBLE column's value as text, as MariaDB shows it: with its type's fixed
/// decimals (`DOUBLE(5,2)` shows `1.50`), else 6 significant digits for a FLOAT and the
/// shortest exact digits for a DOUBLE.
pub fn real_text(x: f64, single: bool, decimals: Option<u32>) -> String {
    match decimals {
        Some(d) => fixed_text(x, d as usize),
        None => spell(x, WIDE, single).text,
    }
}

/// `x` with exactly `d` decimals as MariaDB's `my_fcvt` spells it: the double's shortest
/// digits padded with zeros (`0.30000000000000004` at 25 decimals is
/// `0.3000000000000000400000000`, 1e29 at none is a 1 and 29 zeros), rounded when they
/// have more decimals.
fn fixed_text(x: f64, d: usize) -> String {
    let shortest = format!("{x}");
    let decimals = shortest.split_once('.').map_or(0, |(_, f)| f.len());
    if decimals > d || !x.is_finite() {
        return format!("{x:.d$}");
    }
    let point = if decimals == 0 && d > 0 { "." } else { "" };
    format!("{shortest}{point}{}", "0".repeat(d - decimals))
}

/// `tutti_real_text(x, single, decimals)` (decimals < 0: none): [`real_text`] of a FLOAT or
/// DOUBLE column read by a string function (`CONCAT(f)`, `CAST(f AS CHAR)`).
fn real_text_sql(ctx: &Context<'_>) -> Result<Value> {
    let (single, decimals): (bool, i64) = (ctx.get(1)?, ctx.get(2)?);
    Ok(match ctx.get_raw(0) {
        ValueRef::Real(x) => Value::Text(real_text(x, single, u32::try_from(decimals).ok())),
        ValueRef::Integer(i) => {
            Value::Text(real_text(i as f64, single, u32::try_from(decimals).ok()))
        }
        ValueRef::Null => Value::Null,
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            Value::Text(String::from_utf8_lossy(t).into_owned())
        }
    })
}

/// `tutti_float_cast(x)`: `CAST(x AS FLOAT)` of a double `x`, the double its FLOAT holds;
/// beyond FLOAT's range the largest FLOAT, with MariaDB's note 1264.
fn float_cast(ctx: &Context<'_>) -> Result<Value> {
    let x = match ctx.get_raw(0) {
        ValueRef::Real(x) => x,
        ValueRef::Integer(i) => i as f64,
        ValueRef::Null => return Ok(Value::Null),
        _ => ctx.get::<f64>(0).unwrap_or(0.0),
    };
    let max = f64::from(f32::MAX);
    if x.abs() > max {
        super::diagnostics::raise(
            super::diagnostics::Level::Note,
            1264,
            "Out of range value for column 'CAST' at row 1",
        );
        return Ok(Value::Real(max.copysign(x)));
    }
    Ok(Value::Real(f64::from(x as f32)))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_real_text", 3, super::PURE, real_text_sql)?;
    c.create_scalar_function("tutti_float_cast", 1, super::PURE, float_cast)?;
    // A FLOAT result that is no column (`MAX(f)`): the double its 6 digits spell.
    c.create_scalar_function("tutti_float_value", 1, super::PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Real(x) => Value::Real(real_text(x, true, None).parse().unwrap_or(x)),
            _ => ctx.get::<Value>(0)?,
        })
    })
}

/// The shortest digits of a positive `x` that read back as `x`, correctly rounded to at
/// most `max` digits, trailing zeros dropped; and the position of the point (`0.d * 10^decpt`).
fn significant(x: f64, max: usize) -> (String, i32) {
    let shortest = format!("{x:e}");
    let (mantissa, _) = shortest.split_once('e').unwrap_or((&shortest, "0"));
    let count = mantissa.chars().filter(char::is_ascii_digit).count();
    let s = if count > max {
        format!("{:.*e}", max.saturating_sub(1), x)
    } else {
        shortest
    };
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (digits.to_string(), exp + 1)
}

/// `0.000ddd`, `ddd.ddd` or `ddd000`.
fn fixed_notation(digits: &str, decpt: i32) -> String {
    let len = digits.len() as i32;
    if decpt <= 0 {
        format!("0.{}{digits}", "0".repeat((-decpt) as usize))
    } else if decpt < len {
        let (int, frac) = digits.split_at(decpt as usize);
        format!("{int}.{frac}")
    } else {
        format!("{digits}{}", "0".repeat((decpt - len) as usize))
    }
}

/// `d.ddde[-]x`.
fn exponent_notation(digits: &str, decpt: i32) -> String {
    let (first, rest) = digits.split_at(1);
    let point = if rest.is_empty() { "" } else { "." };
    format!("{first}{point}{rest}e{}", decpt - 1)
}

/// Plain notation rounded to what fits in `width`, if the integer part fits.
fn narrow_fixed(x: f64, decpt: i32, width: usize) -> Option<String> {
    let int_len = decpt.max(1) as usize;
    let decimals = width.saturating_sub(int_len + 1);
    let text = format!("{x:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    (text.len() <= width).then_some(text)
}

/// Exponent notation with as many mantissa digits as fit in `width`, and whether digits
/// were lost where only a one-digit mantissa fitted with nothing to spare.
fn narrow_exponent(x: f64, decpt: i32, width: usize) -> (String, bool) {
    let exp_chars = |decpt: i32| {
        let e = decpt - 1;
        1 + usize::from(e < 0) + e.unsigned_abs().to_string().len()
    };
    let room = width as i64 - exp_chars(decpt) as i64;
    let digits = if room >= 3 { room as usize - 1 } else { 1 };
    let (d, p) = significant(x, digits);
    let lost = significant(x, DBL_DIGITS).0.len() > d.len();
    // Rounding may carry into a new digit (9.9e9 → 1e10): recount the exponent's room.
    let room = width as i64 - exp_chars(p) as i64;
    (exponent_notation(&d, p), lost && room <= 1)
}

/// Significant digits of a spelling (leading zeros and the exponent not counted).
fn significant_count(text: &str) -> usize {
    let mantissa = text.split('e').next().unwrap_or(text);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_start_matches('0');
    if text.contains('e') {
        digits.len()
    } else {
        digits.trim_end_matches('0').len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_read_as_mariadb_shows_them() {
        for (x, text) in [
            (1e14, "100000000000000"),
            (1e15, "1e15"),
            (123456789012345.6, "123456789012345.6"),
            (1234567890123456.7, "1234567890123456.8"),
            (1e15 + 0.5, "1000000000000000.5"),
            (1e16 + 2.0, "1.0000000000000002e16"),
            (1.5e-15, "0.0000000000000015"),
            (1.5e-16, "1.5e-16"),
            (1.2345678901234567e-10, "0.00000000012345678901234568"),
            (-1.5e300, "-1.5e300"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e-5, "0.00001"),
            (123456789012345678901234.0, "1.2345678901234569e23"),
            (-2.5, "-2.5"),
            (0.0, "0"),
        ] {
            assert_eq!(double_text(x), text, "{x:e}");
        }
    }

    #[test]
    fn fixed_decimals_pad_the_shortest_digits() {
        for (x, d, text) in [
            (0.1, 30, "0.100000000000000000000000000000"),
            (0.1 + 0.2, 25, "0.3000000000000000400000000"),
            (1.2345678901234568e29, 0, "123456789012345680000000000000"),
            (3.3000000000000003, 2, "3.30"),
            (2.5, 0, "2"),
            (1e22, 2, "10000000000000000000000.00"),
            (-1e-18, 2, "-0.00"),
        ] {
            assert_eq!(fixed_text(x, d), text, "{x} {d}");
        }
    }

    #[test]
    fn floats_show_six_digits() {
        for (x, text) in [
            (123456789f32, "123457000"),
            (1.1, "1.1"),
            (f32::MAX, "3.40282e38"),
            (0.000012345678, "0.0000123457"),
            (1e14, "100000000000000"),
            (1e15, "1e15"),
            (-2.5e-10, "-0.00000000025"),
            (999999.5, "1000000"),
            (12345.67, "12345.7"),
        ] {
            assert_eq!(real_text(f64::from(x), true, None), text, "{x:e}");
        }
    }

    #[test]
    fn narrow_widths_keep_what_fits() {
        for (x, width, text, lossy) in [
            (0.123456789, 5, "0.123", false),
            (123.456789, 5, "123.5", false),
            (12345.6, 5, "12346", false),
            (1.2345e-10, 5, "1e-10", true),
            (-1.5, 5, "-1.5", false),
            (99999.9, 5, "1e5", false),
            (1e5, 5, "1e5", false),
            (-12345.6, 5, "-1e4", false),
            (0.000123, 5, "1e-4", false),
            (-0.001234, 5, "-1e-3", true),
            (123456.0, 5, "1.2e5", false),
            (1.5e-7, 5, "1e-7", false),
            (-2e10, 5, "-2e10", false),
            (1.25e300, 5, "1e300", true),
            (2e5, 6, "200000", false),
            (2e6, 6, "2e6", false),
            (2e-4, 6, "0.0002", false),
            (2e-5, 6, "2e-5", false),
        ] {
            let s = spell(x, width, false);
            assert_eq!(
                (s.text.as_str(), s.lossy),
                (text, lossy),
                "{x:e} in {width}"
            );
        }
    }
}
