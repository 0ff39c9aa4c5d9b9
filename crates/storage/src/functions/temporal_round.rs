//! `ROUND`, `TRUNCATE`, `FLOOR` and `CEILING` of a TIME or DATETIME: MariaDB keeps the
//! type and rounds the fraction of a second (`ROUND(TIME'10:00:59.56')` is `10:01:00`,
//! `FLOOR(TIME'-10:00:01.5')` is `-10:00:02`), where SQLite would read the text's leading
//! digits as a number (10). The SQL front-end calls `tutti_temporal_round(x, d, mode,
//! kind)` with `mode` one of `round`, `truncate`, `floor`, `ceiling` and `kind` `time` or
//! `datetime` (a DATE is rounded as its number).
//!
//! `d` is the fraction digits kept, 0 to 6 (MariaDB takes a negative one as 0, more than 6
//! as 6); a TIME stays within ±838:59:59, a DATETIME past 9999-12-31 is cut instead.

use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use super::calendar::{at_micros, micros_of};
use super::temporal::{self, Duration};
use super::{text_of, PURE};

/// How a fraction is dropped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Half away from zero.
    Round,
    /// Toward zero.
    Truncate,
    /// Toward minus infinity.
    Floor,
    /// Toward plus infinity.
    Ceiling,
}

impl Mode {
    fn of(name: &str) -> Option<Mode> {
        Some(match name {
            "round" => Mode::Round,
            "truncate" => Mode::Truncate,
            "floor" => Mode::Floor,
            "ceiling" => Mode::Ceiling,
            _ => return None,
        })
    }

    /// `us` to a multiple of `unit`.
    fn apply(self, us: i128, unit: i128) -> i128 {
        let down = us.div_euclid(unit) * unit;
        let up = if down == us { down } else { down + unit };
        let (toward_zero, away) = if us < 0 { (up, down) } else { (down, up) };
        match self {
            Mode::Floor => down,
            Mode::Ceiling => up,
            Mode::Truncate => toward_zero,
            Mode::Round if 2 * (us - toward_zero).abs() >= unit => away,
            Mode::Round => toward_zero,
        }
    }
}

/// The value rounded, as text with `digits` fraction digits.
fn rounded(text: &str, digits: u32, mode: Mode, time: bool) -> Option<String> {
    let unit = 10i128.pow(6 - digits);
    if time {
        let d = temporal::parse_duration(text)?;
        let us = mode.apply(d.micros() as i128, unit);
        let max = time_max_micros(unit);
        let d = Duration::of_micros(us.clamp(-max, max));
        Some(temporal::time_text(&d, digits))
    } else {
        let p = temporal::parse_datetime(text)?;
        let us = micros_of(&p) as i128;
        let p = at_micros(mode.apply(us, unit))
            .or_else(|| at_micros(Mode::Truncate.apply(us, unit)))?;
        Some(temporal::datetime_text(&p, digits))
    }
}

/// 838:59:59 and the most fraction a multiple of `unit` has.
fn time_max_micros(unit: i128) -> i128 {
    let max = (838 * 3600 + 59 * 60 + 59) * 1_000_000 + 999_999;
    max - max % unit
}

fn temporal_round(ctx: &Context<'_>) -> Result<Option<String>> {
    let (x, d) = (ctx.get_raw(0), ctx.get_raw(1));
    if matches!(x, ValueRef::Null) || matches!(d, ValueRef::Null) {
        return Ok(None);
    }
    let digits = match d {
        ValueRef::Integer(i) => i,
        ValueRef::Real(r) => r.round() as i64,
        v => text_of(v)
            .trim()
            .parse::<f64>()
            .map_or(0, |r| r.round() as i64),
    }
    .clamp(0, 6) as u32;
    let mode = Mode::of(&ctx.get::<String>(2)?).unwrap_or(Mode::Round);
    let time = ctx.get::<String>(3)? == "time";
    Ok(rounded(&text_of(x), digits, mode, time))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_temporal_round", 4, PURE, temporal_round)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(t: &str, digits: u32, mode: Mode) -> String {
        rounded(t, digits, mode, true).unwrap()
    }

    #[test]
    fn times_round_as_mariadb_rounds_them() {
        // each observed on MariaDB 10.11
        assert_eq!(time("10:00:59.56", 0, Mode::Round), "10:01:00");
        assert_eq!(time("10:00:01.56", 1, Mode::Round), "10:00:01.6");
        assert_eq!(time("10:00:01.5678", 2, Mode::Round), "10:00:01.57");
        assert_eq!(time("-10:00:01.5", 0, Mode::Round), "-10:00:02");
        assert_eq!(time("-10:00:01.4", 0, Mode::Round), "-10:00:01");
        assert_eq!(time("-10:00:01.5", 0, Mode::Floor), "-10:00:02");
        assert_eq!(time("-10:00:01.5", 0, Mode::Ceiling), "-10:00:01");
        assert_eq!(time("-10:00:01.56", 1, Mode::Truncate), "-10:00:01.5");
        assert_eq!(time("10:00:01.5", 0, Mode::Floor), "10:00:01");
        assert_eq!(time("10:00:01.5", 0, Mode::Ceiling), "10:00:02");
        assert_eq!(time("10:00:01.5", 6, Mode::Round), "10:00:01.500000");
        assert_eq!(time("838:59:59.6", 0, Mode::Round), "838:59:59");
    }

    #[test]
    fn datetimes_carry_into_the_next_day_and_stop_at_the_last() {
        let dt = |t: &str, mode| rounded(t, 0, mode, false).unwrap();
        assert_eq!(
            dt("2020-12-31 23:59:59.5", Mode::Round),
            "2021-01-01 00:00:00"
        );
        assert_eq!(
            dt("2020-01-01 10:00:00.9", Mode::Floor),
            "2020-01-01 10:00:00"
        );
        assert_eq!(
            dt("9999-12-31 23:59:59.6", Mode::Round),
            "9999-12-31 23:59:59"
        );
    }
}
