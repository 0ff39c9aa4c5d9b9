//! A time and its parts: `TIME()`, `HOUR()`, `MINUTE()`, `SECOND()`, `MICROSECOND()`,
//! `TIME_FORMAT()` and `EXTRACT(unit FROM x)` (which the SQL front-end calls `tutti_extract('UNIT', x)`).
//!
//! As in MariaDB:
//!
//! * `TIME()`, `HOUR()` .. `MICROSECOND()` and `TIME_FORMAT()` read their argument as a TIME (a
//!   datetime gives its time of day; beyond ±838:59:59 is clamped): `HOUR('838:59:59')` is
//!   838, `HOUR('-10:00:00')` 10. A date string alone (`'2004-01-15'`) is read as a DATE
//!   column's value, midnight; MariaDB reads such a *literal* as the time 00:20:04 (tutti
//!   cannot tell the two apart, and the column is the common case).
//! * `TIME_FORMAT` knows the time specifiers of `DATE_FORMAT` (`%H` and `%k` show all the
//!   hours, `%h %I %l %p %r` the hour of the day); any date specifier makes it NULL; a
//!   negative time is shown with a leading `-`.
//! * `EXTRACT` of YEAR, YEAR_MONTH, QUARTER, MONTH and WEEK reads a date (`'10:11:12'` is
//!   2010-11-12); of the other units a datetime, or a time whose hours past 24 count as
//!   days: `EXTRACT(DAY_HOUR FROM '100:00:00')` is 404. Results of a negative time are
//!   negative.

use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};

use super::calendar::{calc_week, stamp, week_mode};
use super::clock::{moment, Moment};
use super::interval::Unit;
use super::temporal::{self, Duration};
use super::{text_of, PURE};

/// A value read as a TIME.
fn time_of(raw: ValueRef<'_>) -> Option<Duration> {
    let text = matches!(raw, ValueRef::Text(_) | ValueRef::Blob(_));
    match moment(raw) {
        Some((Moment::Span(us), _)) => Some(Duration::of_micros(us as i128)),
        Some((Moment::At(p), _)) => Some(clock_of(&p)),
        Some((Moment::Day(_), _)) => Some(Duration::default()),
        None if text => {
            // Beyond ±838:59:59: clamped (anything else unreadable is NULL).
            let d = temporal::clamped_time(&text_of(raw));
            (d.hours == 838).then_some(d)
        }
        None => None,
    }
}

/// The time of day of a datetime.
fn clock_of(p: &temporal::Parts) -> Duration {
    Duration {
        negative: false,
        hours: p.hour,
        minutes: p.minute,
        seconds: p.second,
        micros: p.micros,
    }
}

/// One part of argument 0 read as a TIME.
fn part(ctx: &Context<'_>, f: fn(&Duration) -> u32) -> Option<i64> {
    time_of(ctx.get_raw(0)).map(|d| f(&d) as i64)
}

/// How a format's date specifiers read a TIME: `TIME_FORMAT` has none (NULL), `DATE_FORMAT`
/// of a TIME value prints the zero date's (`%Y` is 0000; names, weeks and weekdays: NULL).
#[derive(Clone, Copy, PartialEq)]
enum DateParts {
    Refused,
    ZeroDate,
}

/// `TIME_FORMAT(t, format)`, and `DATE_FORMAT` of a TIME value.
fn time_format(t: ValueRef<'_>, format: ValueRef<'_>, dates: DateParts) -> Option<String> {
    let format = text_of(format);
    if format.is_empty() {
        return None; // and NULL
    }
    let d = time_of(t)?;
    let mut out = String::new();
    if d.negative {
        out.push('-');
    }
    let day_hour = d.hours % 24;
    let h12 = match day_hour % 12 {
        0 => 12,
        h => h,
    };
    let ampm = if day_hour < 12 { "AM" } else { "PM" };
    let mut specs = format.chars();
    while let Some(c) = specs.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(spec) = specs.next() else {
            out.push('%');
            break;
        };
        let (m, s) = (d.minutes, d.seconds);
        match spec {
            'H' => out += &format!("{:02}", d.hours),
            'k' => out += &d.hours.to_string(),
            'h' | 'I' => out += &format!("{h12:02}"),
            'l' => out += &h12.to_string(),
            'i' => out += &format!("{m:02}"),
            's' | 'S' => out += &format!("{s:02}"),
            'f' => out += &format!("{:06}", d.micros),
            'p' => out += ampm,
            'r' => out += &format!("{h12:02}:{m:02}:{s:02} {ampm}"),
            'T' => out += &format!("{:02}:{m:02}:{s:02}", d.hours),
            'Y' if dates == DateParts::ZeroDate => out += "0000",
            'y' | 'm' | 'd' if dates == DateParts::ZeroDate => out += "00",
            'c' | 'e' if dates == DateParts::ZeroDate => out += "0",
            'D' if dates == DateParts::ZeroDate => out += "0th",
            'a' | 'b' | 'c' | 'D' | 'd' | 'e' | 'j' | 'M' | 'm' | 'U' | 'u' | 'V' | 'v' | 'W'
            | 'w' | 'X' | 'x' | 'Y' | 'y' => return None,
            other => out.push(other),
        }
    }
    Some(out)
}

/// `EXTRACT(unit FROM x)`.
fn extract(unit: Unit, raw: ValueRef<'_>) -> Option<i64> {
    use Unit::*;
    if matches!(unit, Year | YearMonth | Quarter | Month | Week) {
        let p = stamp(raw)?.p;
        return Some(match unit {
            Year => p.year as i64,
            YearMonth => p.year as i64 * 100 + p.month as i64,
            Quarter => (p.month as i64 + 2) / 3,
            Month => p.month as i64,
            _ => calc_week(&p, week_mode(0)).0 as i64,
        });
    }
    // (day, hour, minute, second, microsecond), and the sign.
    let (day, t, sign) = match super::clock::interval_moment(raw)? {
        Moment::At(p) | Moment::Day(p) => (p.day as i64, clock_of(&p), 1),
        Moment::Span(us) => {
            let d = Duration::of_micros(us as i128);
            let sign = if d.negative { -1 } else { 1 };
            let t = Duration {
                hours: d.hours % 24,
                ..d
            };
            ((d.hours / 24) as i64, t, sign)
        }
    };
    let (h, m, s, us) = (
        t.hours as i64,
        t.minutes as i64,
        t.seconds as i64,
        t.micros as i64,
    );
    let hms = h * 10_000 + m * 100 + s;
    let v = match unit {
        Day => day,
        DayHour => day * 100 + h,
        DayMinute => day * 10_000 + h * 100 + m,
        DaySecond => day * 1_000_000 + hms,
        DayMicrosecond => (day * 1_000_000 + hms) * 1_000_000 + us,
        Hour => h,
        HourMinute => h * 100 + m,
        HourSecond => hms,
        HourMicrosecond => hms * 1_000_000 + us,
        Minute => m,
        MinuteSecond => m * 100 + s,
        MinuteMicrosecond => (m * 100 + s) * 1_000_000 + us,
        Second => s,
        SecondMicrosecond => s * 1_000_000 + us,
        _ => us,
    };
    Some(sign * v)
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("hour", 1, PURE, |ctx| Ok(part(ctx, |d| d.hours)))?;
    c.create_scalar_function("minute", 1, PURE, |ctx| Ok(part(ctx, |d| d.minutes)))?;
    c.create_scalar_function("second", 1, PURE, |ctx| Ok(part(ctx, |d| d.seconds)))?;
    c.create_scalar_function("microsecond", 1, PURE, |ctx| Ok(part(ctx, |d| d.micros)))?;
    // MySQL's TIME(x), in place of SQLite's time().
    c.create_scalar_function("time", 1, PURE, |ctx| {
        let raw = ctx.get_raw(0);
        let fsp = moment(raw).map_or(0, |(_, fsp)| fsp);
        Ok(time_of(raw).map(|d| temporal::time_text(&d, fsp)))
    })?;
    c.create_scalar_function("time_format", 2, PURE, |ctx| {
        Ok(time_format(
            ctx.get_raw(0),
            ctx.get_raw(1),
            DateParts::Refused,
        ))
    })?;
    c.create_scalar_function("tutti_time_date_format", 2, PURE, |ctx| {
        Ok(time_format(
            ctx.get_raw(0),
            ctx.get_raw(1),
            DateParts::ZeroDate,
        ))
    })?;
    c.create_scalar_function("tutti_extract", 2, PURE, |ctx| {
        let name: String = ctx.get(0)?;
        let unit = Unit::of(&name)
            .ok_or_else(|| Error::UserFunctionError(format!("no unit {name}").into()))?;
        Ok(extract(unit, ctx.get_raw(1)))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::calendar::tests::check;

    /// As MariaDB 10.11 answers them.
    #[test]
    fn hour_minute_second_microsecond() {
        check(
            "
            time(230322) => 23:03:22
            time(230322.33) => 23:03:22.33
            time('230322.33') => 23:03:22.33
            time('1 10:00') => 34:00:00
            time(-101112) => -10:11:12
            time('900:00:00') => 838:59:59
            time('2001-02-03 10:11:12.123') => 10:11:12.123
            time(20010203) => 00:00:00
            time('abc') => NULL
            hour('10:11:12') => 10
            hour('838:59:59') => 838
            hour('-838:59:59') => 838
            hour('900:00:00') => 838
            hour('2004-01-15 10:11:12') => 10
            hour('2004-01-15') => 0
            hour(101112) => 10
            hour(20040115101112) => 10
            hour('1 10:00:00') => 34
            hour('1:2') => 1
            hour('-0:0:1') => 0
            hour(10.5) => 0
            hour('abc') => NULL
            hour('') => NULL
            hour(NULL) => NULL
            minute('10:11:12') => 11
            minute('-838:59:59') => 59
            minute('10:60:00') => NULL
            minute(1234) => 12
            second('10:11:12.5') => 12
            second('2004-01-15 10:11:12') => 12
            second(12) => 12
            second(10.5) => 10
            microsecond('10:11:12.123') => 123000
            microsecond('2004-01-15 10:11:12.000001') => 1
            microsecond('2004-01-15') => 0
            microsecond(101112.5) => 500000
            microsecond('-10:11:12.5') => 500000
            microsecond('abc') => NULL
            -- a date alone: read as a DATE column's value (MariaDB: 20 for a literal)
            minute('2004-01-15') => 0",
        );
    }

    #[test]
    fn time_format() {
        check(
            "
            time_format('100:00:00', '%H %k %h %I %l') => 100 100 04 04 4
            time_format('10:11:12.5', '%T %r %f %p %S %s %i') => 10:11:12 10:11:12 AM 500000 AM 12 12 11
            time_format('-10:11:12', '%H:%i:%s') => -10:11:12
            time_format('-1:00:00', '%r %p %h %H') => -01:00:00 AM AM 01 01
            time_format('00:00:00', '%h %l %p %r') => 12 12 AM 12:00:00 AM
            time_format('12:00:00', '%h %l %p %r') => 12 12 PM 12:00:00 PM
            time_format('13:00:00', '%h %I %l %p %r %%') => 01 01 1 PM 01:00:00 PM %
            time_format('34:00:00', '%r %T %p %h') => 10:00:00 AM 34:00:00 AM 10
            time_format('09:00:00', '%Y') => NULL
            -- DATE_FORMAT of a TIME value: the zero date's parts
            tutti_time_date_format('09:00:00', '%l.%i %p') => 9.00 AM
            tutti_time_date_format('-33:00:00', '%H %k %h %l %p %r %T') => -33 33 09 9 AM 09:00:00 AM 33:00:00
            tutti_time_date_format('09:00:00', '%Y-%m-%d %c %e %y %D %H') => 0000-00-00 0 0 00 0th 09
            tutti_time_date_format('09:00:00', '%M') => NULL
            time_format('10:11:12', 'abc %z %') => abc z %
            time_format(101112, '%T') => 10:11:12
            time_format(10.5, '%T %f') => 00:00:10 500000
            time_format('838:59:59', '%k:%i') => 838:59
            time_format('900:00:00', '%T') => 838:59:59
            time_format('10:11', '%T') => 10:11:00
            time_format('2004-01-15 10:11:12', '%H:%i') => 10:11
            time_format(20040115101112, '%T') => 10:11:12
            time_format('2004-01-15 10:11:12', '%H %Y') => NULL
            time_format('10:11:12', '%d') => NULL
            time_format('10:11:12', '%b') => NULL
            time_format('10:11:12', '') => NULL
            time_format('10:11:12', NULL) => NULL
            time_format('abc', '%H') => NULL
            time_format(NULL, '%H') => NULL",
        );
    }

    #[test]
    fn extract() {
        check(
            "
            tutti_extract('QUARTER', '2004-01-15') => 1
            tutti_extract('YEAR_MONTH', '2004-01-15 10:11:12') => 200401
            tutti_extract('WEEK', '2004-01-15') => 2
            tutti_extract('DAY', '10:11:12') => 0
            tutti_extract('DAY', '2004-01-15 10:11:12') => 15
            tutti_extract('DAY_HOUR', '1 10:11:12') => 110
            tutti_extract('DAY', '-24:10:10.1') => -1
            tutti_extract('DAY_HOUR', '2004-01-15 10:11:12') => 1510
            tutti_extract('HOUR', '100:11:12') => 4
            tutti_extract('HOUR', '-100:11:12') => -4
            tutti_extract('DAY_MICROSECOND', '-1 10:11:12.5') => -1101112500000
            tutti_extract('HOUR', '2004-01-15') => 0
            tutti_extract('HOUR', '2004-01-15 10:11:12') => 10
            tutti_extract('MINUTE_SECOND', '10:11:12') => 1112
            tutti_extract('SECOND_MICROSECOND', '10:11:12.123') => 12123000
            tutti_extract('MICROSECOND', '10:11:12.123') => 123000
            tutti_extract('YEAR', '10:11:12') => 2010
            tutti_extract('MONTH', '2004-00-15') => 0
            tutti_extract('DAY', '2004-02-30') => NULL
            tutti_extract('HOUR', '2004-02-30 10:00:00') => NULL
            tutti_extract('HOUR', 'abc') => NULL
            tutti_extract('YEAR', 20040115) => 2004
            tutti_extract('HOUR', 101112) => 10
            tutti_extract('DAY_SECOND', '-100:11:12') => -4041112
            tutti_extract('HOUR_MICROSECOND', '10:11:12.000001') => 101112000001
            tutti_extract('MINUTE_MICROSECOND', '10:11:12.5') => 1112500000
            tutti_extract('YEAR', '0000-00-00') => 0
            tutti_extract('HOUR', NULL) => NULL
            tutti_extract('HOUR', '24:00:00') => 0
            tutti_extract('MINUTE', '-10:11:12') => -11
            tutti_extract('SECOND', '-10:11:12') => -12
            tutti_extract('MICROSECOND', '-10:11:12.5') => -500000
            tutti_extract('HOUR', 20040115101112) => 10
            tutti_extract('HOUR', 10.5) => 0
            tutti_extract('DAY_MICROSECOND', '2004-01-15 10:11:12.5') => 15101112500000",
        );
    }
}
