//! MySQL's date arithmetic: `tutti_date_add(d, amount, 'UNIT'[, 'time'])` and
//! `tutti_date_sub(..)`, what `d + INTERVAL amount UNIT`, `d - INTERVAL ..`, `DATE_ADD`,
//! `DATE_SUB`, `ADDDATE`, `SUBDATE` and `TIMESTAMPADD` become (see the SQL front-end's `dates`).
//!
//! As in MariaDB (`get_interval_value`, `date_add_interval`):
//!
//! * The amount of a simple unit is an integer (a decimal rounds, a string's leading integer
//!   counts), except SECOND, which keeps a decimal's or a string's fraction. A compound unit
//!   (`DAY_SECOND`, ...) reads its amount as text: an optional `-`, then numbers separated by
//!   anything that is not a digit; fewer numbers than the unit has fill its rightmost parts,
//!   more make the result NULL; a trailing `_MICROSECOND` part is read as the digits of a
//!   fraction (`'1.5'` SECOND_MICROSECOND is 1.5 seconds).
//! * The value is read as a DATETIME (a zero date or a zero month or day gives NULL), or,
//!   when the SQL front-end knows it is a TIME (a TIME column, `CAST(.. AS TIME)`, ..., the
//!   fourth argument `'time'`), as a TIME.
//! * Months, quarters and years move the calendar month and clamp the day to the new
//!   month's length; the other units move by microseconds. A result outside 0001-01-01 ..
//!   9999-12-31 (years 0-9999 for month units), or a TIME beyond 838 hours, is NULL; a TIME
//!   moved by weeks, months or years is NULL.
//! * A DATE (a value without a time part) stays a DATE for units of a day or more; anything
//!   else is a DATETIME with the value's fraction digits, or the amount's when it has more
//!   (6 for a MICROSECOND part or a string amount of SECOND, a decimal's own digits).

use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};

use super::calendar::{at_micros, int_arg, micros_of, month_len, stamp, text_fsp, DAY_MICROS};
use super::clock::seconds;
use super::temporal::{self, Duration, Parts};
use super::{text_of, PURE};

/// An INTERVAL unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unit {
    Year,
    Quarter,
    Month,
    Week,
    Day,
    Hour,
    Minute,
    Second,
    Microsecond,
    YearMonth,
    DayHour,
    DayMinute,
    DaySecond,
    DayMicrosecond,
    HourMinute,
    HourSecond,
    HourMicrosecond,
    MinuteSecond,
    MinuteMicrosecond,
    SecondMicrosecond,
}

const HOUR: i128 = 3_600_000_000;
const MINUTE: i128 = 60_000_000;
const SECOND: i128 = 1_000_000;
const DAY: i128 = DAY_MICROS as i128;

impl Unit {
    /// A unit by its SQL name (any case).
    pub fn of(name: &str) -> Option<Unit> {
        use Unit::*;
        Some(match name.to_ascii_uppercase().as_str() {
            "YEAR" => Year,
            "QUARTER" => Quarter,
            "MONTH" => Month,
            "WEEK" => Week,
            "DAY" => Day,
            "HOUR" => Hour,
            "MINUTE" => Minute,
            "SECOND" => Second,
            "MICROSECOND" => Microsecond,
            "YEAR_MONTH" => YearMonth,
            "DAY_HOUR" => DayHour,
            "DAY_MINUTE" => DayMinute,
            "DAY_SECOND" => DaySecond,
            "DAY_MICROSECOND" => DayMicrosecond,
            "HOUR_MINUTE" => HourMinute,
            "HOUR_SECOND" => HourSecond,
            "HOUR_MICROSECOND" => HourMicrosecond,
            "MINUTE_SECOND" => MinuteSecond,
            "MINUTE_MICROSECOND" => MinuteMicrosecond,
            "SECOND_MICROSECOND" => SecondMicrosecond,
            _ => return None,
        })
    }

    /// The microseconds of each part of a compound unit's amount, largest first (a
    /// `_MICROSECOND` part is 1); empty for a simple unit and YEAR_MONTH.
    fn parts(self) -> &'static [i128] {
        use Unit::*;
        match self {
            DayHour => &[DAY, HOUR],
            DayMinute => &[DAY, HOUR, MINUTE],
            DaySecond => &[DAY, HOUR, MINUTE, SECOND],
            DayMicrosecond => &[DAY, HOUR, MINUTE, SECOND, 1],
            HourMinute => &[HOUR, MINUTE],
            HourSecond => &[HOUR, MINUTE, SECOND],
            HourMicrosecond => &[HOUR, MINUTE, SECOND, 1],
            MinuteSecond => &[MINUTE, SECOND],
            MinuteMicrosecond => &[MINUTE, SECOND, 1],
            SecondMicrosecond => &[SECOND, 1],
            _ => &[],
        }
    }

    /// Whether the unit is one word (not `DAY_HOUR`, ...).
    pub fn is_simple(self) -> bool {
        self.parts().is_empty() && self != Unit::YearMonth
    }

    /// Whether a DATE moved by this unit stays a DATE.
    pub fn keeps_date(self) -> bool {
        use Unit::*;
        matches!(self, Year | Quarter | Month | Week | Day | YearMonth)
    }

    /// Whether the unit moves the calendar month (else it moves by microseconds).
    fn by_months(self) -> bool {
        matches!(
            self,
            Unit::Year | Unit::Quarter | Unit::Month | Unit::YearMonth
        )
    }
}

/// An amount of a unit, signed: months, and microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Interval {
    months: i128,
    micros: i128,
    /// The fraction digits it brings to a DATETIME result.
    fsp: u32,
}

impl Interval {
    /// MariaDB's `get_interval_value`: the amount `raw` of `unit` (None for NULL or a
    /// compound amount it cannot read).
    fn read(raw: ValueRef<'_>, unit: Unit) -> Option<Interval> {
        let simple = |months: i128, micros: i128, n: i128| Interval {
            months: months * n,
            micros: micros * n,
            fsp: 0,
        };
        let int = || int_arg(raw).map(i128::from);
        Some(match unit {
            Unit::Year => simple(12, 0, int()?),
            Unit::Quarter => simple(3, 0, int()?),
            Unit::Month => simple(1, 0, int()?),
            Unit::Week => simple(0, 7 * DAY, int()?),
            Unit::Day => simple(0, DAY, int()?),
            Unit::Hour => simple(0, HOUR, int()?),
            Unit::Minute => simple(0, MINUTE, int()?),
            Unit::Microsecond => Interval {
                fsp: 6,
                ..simple(0, 1, int()?)
            },
            Unit::Second => {
                let (micros, fsp) = seconds(raw)?;
                Interval {
                    months: 0,
                    micros,
                    fsp,
                }
            }
            compound => Interval::compound(&text(raw)?, compound)?,
        })
    }

    /// A compound unit's amount, from its text.
    fn compound(text: &str, unit: Unit) -> Option<Interval> {
        let t = text.trim_start();
        let (negative, body) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let sign = if negative { -1 } else { 1 };
        if unit == Unit::YearMonth {
            let v = numbers(body.as_bytes(), 2, false)?;
            let months = v[0] as i128 * 12 + v[1] as i128;
            return Some(Interval {
                months: sign * months,
                ..Interval::default()
            });
        }
        let parts = unit.parts();
        let fraction = parts.last() == Some(&1);
        let v = numbers(body.as_bytes(), parts.len(), fraction)?;
        let micros: i128 = v.iter().zip(parts).map(|(&n, &m)| n as i128 * m).sum();
        Some(Interval {
            months: 0,
            micros: sign * micros,
            fsp: if fraction { 6 } else { 0 },
        })
    }

    fn negated(self) -> Interval {
        Interval {
            months: -self.months,
            micros: -self.micros,
            fsp: self.fsp,
        }
    }
}

/// A value as text (None for NULL).
fn text(raw: ValueRef<'_>) -> Option<String> {
    (!matches!(raw, ValueRef::Null)).then(|| text_of(raw))
}

/// MariaDB's `get_interval_info`: `count` numbers from `s`, separated by anything that is
/// not a digit. Fewer numbers fill the rightmost places (the others are 0); with `fraction`
/// the last number is a fraction's digits, as microseconds. None when numbers are left
/// over, or one has 20 digits or more.
fn numbers(s: &[u8], count: usize, fraction: bool) -> Option<Vec<u64>> {
    let skip = |i: &mut usize| {
        while *i < s.len() && !s[*i].is_ascii_digit() {
            *i += 1;
        }
    };
    let mut i = 0;
    skip(&mut i);
    let mut read = Vec::with_capacity(count);
    let mut digits = 0;
    while read.len() < count {
        let start = i;
        let mut n: u64 = 0;
        while i < s.len() && s[i].is_ascii_digit() && i - start < 20 {
            n = n.wrapping_mul(10).wrapping_add((s[i] - b'0') as u64);
            i += 1;
        }
        digits = i - start;
        if digits >= 20 {
            return None;
        }
        read.push(n);
        skip(&mut i);
        if i == s.len() {
            break;
        }
    }
    if i != s.len() {
        return None;
    }
    let mut out = vec![0; count - read.len()];
    out.extend(read);
    if fraction && digits > 0 {
        let last = &mut out[count - 1];
        *last = match digits {
            d if d < 6 => *last * 10u64.pow(6 - d as u32),
            d => *last / 10u64.pow(d as u32 - 6),
        };
    }
    Some(out)
}

/// A DATETIME `p` moved by `iv` of `unit` (None outside MariaDB's range).
fn move_datetime(p: &Parts, iv: &Interval, unit: Unit) -> Option<Parts> {
    if !unit.by_months() {
        return at_micros(micros_of(p) as i128 + iv.micros);
    }
    let period = (p.year as i128 * 12 + p.month as i128 - 1).checked_add(iv.months)?;
    if !(0..120_000).contains(&period) {
        return None;
    }
    let (year, month) = ((period / 12) as u32, (period % 12) as u32 + 1);
    Some(Parts {
        year,
        month,
        day: p.day.min(month_len(year, month)),
        ..*p
    })
}

/// A TIME of `us` microseconds moved by `iv` of `unit`: a TIME again, or None past 838
/// hours, or for units of weeks and more.
fn move_time(us: i128, iv: &Interval, unit: Unit) -> Option<Duration> {
    if unit.by_months() || unit == Unit::Week {
        return None;
    }
    let out = us + iv.micros;
    (out.unsigned_abs() / HOUR as u128 <= 838).then(|| Duration::of_micros(out))
}

/// `tutti_date_add(d, amount, unit[, kind])`, negated by `subtract`.
fn date_add(ctx: &Context<'_>, subtract: bool) -> Result<Option<String>> {
    if !(3..=4).contains(&ctx.len()) {
        return Err(Error::UserFunctionError(
            "tutti_date_add takes 3 or 4 arguments".into(),
        ));
    }
    let name: String = ctx.get(2)?;
    let unit = Unit::of(&name)
        .ok_or_else(|| Error::UserFunctionError(format!("no interval unit {name}").into()))?;
    let time = ctx.len() == 4 && ctx.get::<String>(3)?.eq_ignore_ascii_case("time");
    let Some(iv) = Interval::read(ctx.get_raw(1), unit) else {
        return Ok(None);
    };
    let iv = if subtract { iv.negated() } else { iv };
    Ok(if time {
        add_to_time(ctx.get_raw(0), &iv, unit)
    } else {
        add_to_datetime(ctx.get_raw(0), &iv, unit)
    })
}

/// A DATE or DATETIME value moved: its text.
fn add_to_datetime(raw: ValueRef<'_>, iv: &Interval, unit: Unit) -> Option<String> {
    let s = stamp(raw).filter(|s| s.p.month != 0 && s.p.day != 0)?;
    let out = move_datetime(&s.p, iv, unit)?;
    Some(if unit.keeps_date() && !s.timed {
        temporal::date_text(&out)
    } else {
        temporal::datetime_text(&out, s.fsp.max(iv.fsp))
    })
}

/// A TIME value moved: its text.
fn add_to_time(raw: ValueRef<'_>, iv: &Interval, unit: Unit) -> Option<String> {
    let t = text(raw)?;
    let d = temporal::parse_time(&t)?;
    let out = move_time(d.micros() as i128, iv, unit)?;
    Some(temporal::time_text(&out, text_fsp(&t).max(iv.fsp)))
}

/// `TIMESTAMPADD(unit, n, d)` as the calendar functions register it.
pub(super) fn timestamp_add(unit: Unit, n: ValueRef<'_>, d: ValueRef<'_>) -> Option<String> {
    add_to_datetime(d, &Interval::read(n, unit)?, unit)
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_date_add", -1, PURE, |ctx| date_add(ctx, false))?;
    c.create_scalar_function("tutti_date_sub", -1, PURE, |ctx| date_add(ctx, true))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::calendar::tests::check;
    use super::*;

    #[test]
    fn compound_amounts_are_read_as_get_interval_info_reads_them() {
        assert_eq!(numbers(b"1:1", 2, false), Some(vec![1, 1]));
        assert_eq!(numbers(b"5", 3, false), Some(vec![0, 0, 5]));
        assert_eq!(numbers(b" x1 %%1 y", 2, false), Some(vec![1, 1]));
        assert_eq!(numbers(b"1:2:3", 2, false), None);
        assert_eq!(numbers(b"", 2, false), Some(vec![0, 0]));
        assert_eq!(numbers(b"1.5", 2, true), Some(vec![1, 500_000]));
        assert_eq!(numbers(b"1.1234567", 2, true), Some(vec![1, 123_456]));
        assert_eq!(numbers(b"12345678901234567890", 1, false), None);
    }

    /// As MariaDB 10.11 answers them.
    #[test]
    fn date_add() {
        check(
            "
            tutti_date_add('1997-12-31 23:59:59', '1:1', 'MINUTE_SECOND') => 1998-01-01 00:01:00
            tutti_date_add('2000-01-01', '5', 'SECOND_MICROSECOND') => 2000-01-01 00:00:00.500000
            tutti_date_add('2000-01-01', '1.5', 'SECOND_MICROSECOND') => 2000-01-01 00:00:01.500000
            tutti_date_add('2000-01-01', '1.1234567', 'second_microsecond') => 2000-01-01 00:00:01.123456
            tutti_date_add('2000-01-01', '1:2:3', 'MINUTE_SECOND') => NULL
            tutti_date_add('2000-01-01', '1 1:1:1.5', 'DAY_MICROSECOND') => 2000-01-02 01:01:01.500000
            tutti_date_add('2000-01-01', '-1 1', 'DAY_HOUR') => 1999-12-30 23:00:00
            tutti_date_add('2000-01-01', ' x1 %%1 y', 'DAY_HOUR') => 2000-01-02 01:00:00
            tutti_date_add('2000-01-01', '1-13', 'YEAR_MONTH') => 2002-02-01
            tutti_date_add('2000-01-01', 5, 'YEAR_MONTH') => 2000-06-01
            tutti_date_add('2000-01-01', 'abc', 'DAY_HOUR') => 2000-01-01 00:00:00
            tutti_date_add('2000-01-01', '', 'DAY_HOUR') => 2000-01-01 00:00:00
            tutti_date_add('2000-01-01', 1.5, 'DAY') => 2000-01-03
            tutti_date_add('2000-01-01', '1.5', 'DAY') => 2000-01-02
            tutti_date_add('2000-01-01', 'abc', 'DAY') => 2000-01-01
            tutti_date_add('2000-01-01', 1.5, 'SECOND') => 2000-01-01 00:00:01.5
            tutti_date_add('2000-01-01', '1.5', 'SECOND') => 2000-01-01 00:00:01.500000
            tutti_date_add('2000-01-01', 1, 'MICROSECOND') => 2000-01-01 00:00:00.000001
            tutti_date_add('2000-01-01 00:00:00', 0, 'MICROSECOND') => 2000-01-01 00:00:00.000000
            tutti_date_add('2000-01-01 00:00:00.5', 1, 'DAY') => 2000-01-02 00:00:00.5
            tutti_date_add('2000-01-01 00:00:00.000', 1, 'DAY') => 2000-01-02 00:00:00.000
            tutti_date_add('2024-01-01 10:00:00.123', 1, 'DAY') => 2024-01-02 10:00:00.123
            tutti_date_add('2000-01-01', 1, 'SECOND') => 2000-01-01 00:00:01
            tutti_date_add('2000-01-31', 1, 'MONTH') => 2000-02-29
            tutti_date_add('2000-02-29', 1, 'YEAR') => 2001-02-28
            tutti_date_add('9999-12-31', 1, 'DAY') => NULL
            tutti_date_add('0000-01-01', 1, 'DAY') => NULL
            tutti_date_add('0001-01-01', -1, 'DAY') => NULL
            tutti_date_add('0001-01-01', -1, 'YEAR') => 0000-01-01
            tutti_date_add('0000-00-00', 1, 'DAY') => NULL
            tutti_date_add('2000-00-01', 1, 'DAY') => NULL
            tutti_date_add('10:00:00', 1, 'HOUR') => NULL
            tutti_date_add(20000101, 1, 'DAY') => 2000-01-02
            tutti_date_add(20000101, 1, 'HOUR') => 2000-01-01 01:00:00
            tutti_date_add(20000101101010.5, 1, 'DAY') => 2000-01-02 10:10:10.5
            tutti_date_add('2000-01-01', NULL, 'DAY') => NULL
            tutti_date_add(NULL, 1, 'DAY') => NULL
            tutti_date_add('abc', 1, 'DAY') => NULL
            tutti_date_add('2000-01-01 10:00:00', 1.5, 'DAY') => 2000-01-03 10:00:00
            tutti_date_sub('2000-01-01', 1, 'DAY') => 1999-12-31
            tutti_date_sub('2000-01-01', 1, 'MONTH') => 1999-12-01
            tutti_date_sub('2000-01-01', '-1 1', 'DAY_HOUR') => 2000-01-02 01:00:00",
        );
    }

    /// As MariaDB 10.11 answers them for a TIME value (`TIME'..' + INTERVAL ..`).
    #[test]
    fn time_add() {
        check(
            "
            tutti_date_add('10:00:00', 1, 'HOUR', 'time') => 11:00:00
            tutti_date_add('10:00:00', 1, 'DAY', 'time') => 34:00:00
            tutti_date_add('10:00:00', 1, 'MONTH', 'time') => NULL
            tutti_date_add('10:00:00', 1, 'WEEK', 'time') => NULL
            tutti_date_add('838:00:00', 1, 'HOUR', 'time') => NULL
            tutti_date_add('-10:00:00', 1, 'HOUR', 'time') => -09:00:00
            tutti_date_add('10:00:00.5', 1, 'SECOND', 'time') => 10:00:01.5
            tutti_date_add('10:00:00', 1, 'MICROSECOND', 'time') => 10:00:00.000001
            tutti_date_add('10:00:00', '1 1', 'DAY_HOUR', 'time') => 35:00:00
            tutti_date_sub('10:00:00', 11, 'HOUR', 'time') => -01:00:00
            tutti_date_add(NULL, 11, 'HOUR', 'time') => NULL",
        );
    }
}
