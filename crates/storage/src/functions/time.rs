//! MySQL's clock and date functions: `NOW()` and its synonyms, `CURDATE()`, `CURTIME()`,
//! the `UTC_` ones, `UNIX_TIMESTAMP()`, `FROM_UNIXTIME()`, `DATE_FORMAT()`, `DATEDIFF()`,
//! `TO_DAYS()`, `YEAR()`, `MONTH()`, `DAYOFMONTH()`, `DAYOFWEEK()`, `WEEKDAY()` and
//! `DAYOFYEAR()`.
//!
//! The clock is the session's (`SET timestamp`) and is shown in the session's `time_zone`
//! (see `settings`); values are read as MariaDB reads them into a DATETIME (`calendar`):
//! `19970323`, `'97-03-23'`, `'2001-02-00'`. As in MariaDB, the parts of a date with a
//! zero month or day are what they are (`MONTH('2001-00-00')` is 0), but what needs a real
//! calendar day (`DAYOFWEEK`, `TO_DAYS`, `DATEDIFF`) is NULL for it.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error, Result};

use super::calendar::{at_micros, calc_week, daynr, micros_of, stamp, weekday, DAY_MICROS};
use super::clock::seconds;
use super::settings::{clock_micros, settings, TimeZone};
use super::temporal::{self, Parts};
use super::{text_of, PURE, VOLATILE};

/// Month names, as MySQL spells them.
pub(crate) const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Day names, Sunday first (MySQL's DAYOFWEEK order).
pub(crate) const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Seconds since 1970-01-01 00:00:00 of a (valid) date and time.
pub(crate) fn unix_seconds(p: &Parts) -> i64 {
    let days = days_from_civil(p.year as i64, p.month, p.day);
    days * 86400 + (p.hour * 3600 + p.minute * 60 + p.second) as i64
}

/// The day number (`calendar::daynr`) of 1970-01-01.
const EPOCH_DAYNR: i64 = 719_528;
/// The last second a TIMESTAMP holds (2038-01-19 03:14:07 UTC).
const TIMESTAMP_MAX: i64 = i32::MAX as i64;

/// Microseconds since the epoch as a date and time in the session's time zone.
fn local(unix_micros: i64) -> Option<Parts> {
    let offset = settings().time_zone.offset() * 1_000_000;
    at_micros(unix_micros as i128 + (offset + EPOCH_DAYNR * DAY_MICROS) as i128)
}

/// A date and time in the session's time zone as seconds since the epoch (and micros).
fn unix_of_local(p: &Parts) -> i64 {
    let offset = settings().time_zone.offset();
    (micros_of(p) / 1_000_000) - EPOCH_DAYNR * 86_400 - offset
}

/// The session's clock in its time zone (`utc`: in UTC).
fn clock(utc: bool) -> Parts {
    let us = clock_micros();
    let p = if utc {
        at_micros(us as i128 + (EPOCH_DAYNR * DAY_MICROS) as i128)
    } else {
        local(us)
    };
    p.unwrap_or_default()
}

/// The optional fraction-digits argument of `NOW(fsp)`, `CURTIME(fsp)`.
fn fsp_arg(ctx: &Context<'_>) -> Result<u32> {
    if ctx.is_empty() {
        return Ok(0);
    }
    Ok(ctx.get::<i64>(0)?.clamp(0, 6) as u32)
}

/// A time of day's text.
fn time_of_day(p: &Parts, fsp: u32) -> String {
    let d = temporal::Duration {
        negative: false,
        hours: p.hour,
        minutes: p.minute,
        seconds: p.second,
        micros: p.micros,
    };
    temporal::time_text(&d, fsp)
}

/// The English ordinal suffix of a day (`%D`).
fn ordinal(day: u32) -> &'static str {
    match (day % 100, day % 10) {
        (10..=19, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    }
}

/// MySQL's `DATE_FORMAT` of a date and time; None where MariaDB gives NULL (a month's
/// name of month 0, a day's name or number of the zero date, the day of year of a zero
/// month or year).
pub(crate) fn format(p: &Parts, fmt: &str) -> Option<String> {
    use std::fmt::Write;
    const MONDAY_FIRST: u32 = 1;
    const WEEK_YEAR: u32 = 2;
    const SUNDAY_FIRST: u32 = 4;
    let mut out = String::with_capacity(fmt.len() + 8);
    let h12 = match p.hour % 12 {
        0 => 12,
        h => h,
    };
    let ampm = if p.hour < 12 { "AM" } else { "PM" };
    let day = daynr(p.year, p.month, p.day);
    let named_day = p.month != 0 || p.year != 0;
    let week = |flags| calc_week(p, flags);
    let mut it = fmt.chars();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(spec) = it.next() else { break };
        let _ = match spec {
            'Y' => write!(out, "{:04}", p.year),
            'y' => write!(out, "{:02}", p.year % 100),
            'm' => write!(out, "{:02}", p.month),
            'c' => write!(out, "{}", p.month),
            'd' => write!(out, "{:02}", p.day),
            'e' => write!(out, "{}", p.day),
            'D' => write!(out, "{}{}", p.day, ordinal(p.day)),
            'H' => write!(out, "{:02}", p.hour),
            'k' => write!(out, "{}", p.hour),
            'h' | 'I' => write!(out, "{h12:02}"),
            'l' => write!(out, "{h12}"),
            'i' => write!(out, "{:02}", p.minute),
            's' | 'S' => write!(out, "{:02}", p.second),
            'f' => write!(out, "{:06}", p.micros),
            'p' => write!(out, "{ampm}"),
            'T' => write!(out, "{:02}:{:02}:{:02}", p.hour, p.minute, p.second),
            'r' => write!(out, "{h12:02}:{:02}:{:02} {ampm}", p.minute, p.second),
            'j' if p.month == 0 || p.year == 0 => return None,
            'j' => write!(out, "{:03}", day - daynr(p.year, 1, 1) + 1),
            'M' | 'b' => {
                let name = MONTHS.get(p.month.checked_sub(1)? as usize)?;
                write!(out, "{}", if spec == 'b' { &name[..3] } else { name })
            }
            'W' | 'a' | 'w' if !named_day => return None,
            'W' => write!(out, "{}", DAYS[weekday(day, true) as usize]),
            'a' => write!(out, "{}", &DAYS[weekday(day, true) as usize][..3]),
            'w' => write!(out, "{}", weekday(day, true)),
            'U' => write!(out, "{:02}", week(SUNDAY_FIRST).0),
            'u' => write!(out, "{:02}", week(MONDAY_FIRST).0),
            'V' => write!(out, "{:02}", week(WEEK_YEAR | SUNDAY_FIRST).0),
            'v' => write!(out, "{:02}", week(WEEK_YEAR | MONDAY_FIRST).0),
            'X' => write!(out, "{:04}", week(WEEK_YEAR | SUNDAY_FIRST).1),
            'x' => write!(out, "{:04}", week(WEEK_YEAR | MONDAY_FIRST).1),
            other => write!(out, "{other}"),
        };
    }
    Some(out)
}

/// Argument `i` read as a date and time.
fn date_arg(ctx: &Context<'_>, i: usize) -> Option<Parts> {
    stamp(ctx.get_raw(i)).map(|s| s.p)
}

/// Neither a zero month nor a zero day: a real calendar day.
fn full(p: &Parts) -> bool {
    p.month != 0 && p.day != 0
}

/// `UNIX_TIMESTAMP(d)`: seconds since the epoch of `d` in the session's time zone (with
/// `d`'s fraction digits), NULL outside TIMESTAMP's range.
fn unix_timestamp(raw: ValueRef<'_>) -> Value {
    let Some(s) = stamp(raw).filter(|s| full(&s.p)) else {
        return Value::Null;
    };
    let secs = unix_of_local(&s.p);
    if !(0..=TIMESTAMP_MAX).contains(&secs) {
        return Value::Null;
    }
    if s.fsp == 0 {
        Value::Integer(secs)
    } else {
        Value::Real(secs as f64 + s.p.micros as f64 / 1e6)
    }
}

/// `UNIX_TIMESTAMP(c, fsp, timestamp)` of a DATETIME(fsp) or TIMESTAMP(fsp) column (the
/// SQL rewrite adds the arguments): shown with the column's fraction digits, and 0 for a
/// TIMESTAMP's zero value, as MariaDB shows them.
fn unix_timestamp_of_column(raw: ValueRef<'_>, fsp: u32, timestamp: bool) -> Value {
    let zero = stamp(raw).is_some_and(|s| s.p == Parts::default());
    let (secs, micros) = match unix_timestamp(raw) {
        _ if zero && timestamp => (0, 0),
        Value::Integer(secs) => (secs, 0),
        Value::Real(r) => (
            r.trunc() as i64,
            ((r.fract() * 1e6).round() as u32).min(999_999),
        ),
        other => return other,
    };
    match fsp.min(6) {
        0 => Value::Integer(secs),
        n => Value::Text(format!("{secs}.{}", &format!("{micros:06}")[..n as usize])),
    }
}

/// `FROM_UNIXTIME(n[, format])`: `n` seconds since the epoch in the session's time zone.
fn from_unixtime(ctx: &Context<'_>) -> Result<Option<String>> {
    if !(1..=2).contains(&ctx.len()) {
        return Err(Error::UserFunctionError(
            "Incorrect parameter count in the call to native function 'from_unixtime'".into(),
        ));
    }
    let Some((us, fsp)) = seconds(ctx.get_raw(0)) else {
        return Ok(None);
    };
    if !(0..=TIMESTAMP_MAX as i128 * 1_000_000 + 999_999).contains(&us) {
        return Ok(None);
    }
    let Some(p) = local(us as i64) else {
        return Ok(None);
    };
    if ctx.len() == 1 {
        return Ok(Some(temporal::datetime_text(&p, fsp)));
    }
    Ok(match ctx.get_raw(1) {
        ValueRef::Null => None,
        f => format(&p, &text_of(f)),
    })
}

/// `CONVERT_TZ(d, from, to)`: `d` read in zone `from`, shown in zone `to` (offsets and
/// `SYSTEM`; a named zone is NULL, as in a MariaDB without time zone tables). A value
/// outside TIMESTAMP's range is returned as it is, a date with a zero part is NULL, as
/// MariaDB does.
fn convert_tz(ctx: &Context<'_>) -> Option<String> {
    let s = stamp(ctx.get_raw(0)).filter(|s| full(&s.p))?;
    let zone = |i| {
        TimeZone::parse(&text_of(ctx.get_raw(i)))
            .filter(|_| !matches!(ctx.get_raw(i), ValueRef::Null))
    };
    let (from, to) = (zone(1)?, zone(2)?);
    let local = micros_of(&s.p) as i128;
    let utc_secs = local / 1_000_000 - (EPOCH_DAYNR * 86_400) as i128 - from.offset() as i128;
    let out = if (0..=TIMESTAMP_MAX as i128).contains(&utc_secs) {
        at_micros(local + ((to.offset() - from.offset()) * 1_000_000) as i128)?
    } else {
        s.p
    };
    Some(temporal::datetime_text(&out, s.fsp))
}

/// `tutti_time_today(t)`: the TIME `t` as a datetime of the session's current day, with
/// `t`'s fraction digits, as MariaDB reads a TIME compared with a DATETIME or given to a
/// function that reads a date.
fn time_today(raw: ValueRef<'_>) -> Option<String> {
    let text = text_of(raw);
    let t = temporal::parse_time(&text)?;
    let digits = text.rsplit_once('.').map_or(0, |(_, f)| {
        f.bytes().take_while(u8::is_ascii_digit).count().min(6) as u32
    });
    let today = clock(false);
    let midnight = micros_of(&Parts {
        hour: 0,
        minute: 0,
        second: 0,
        micros: 0,
        ..today
    });
    at_micros(midnight as i128 + t.micros() as i128).map(|p| temporal::datetime_text(&p, digits))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("convert_tz", 3, PURE, |ctx| Ok(convert_tz(ctx)))?;
    c.create_scalar_function("tutti_time_today", 1, VOLATILE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            raw => time_today(raw),
        })
    })?;
    for name in [
        "now",
        "sysdate",
        "localtime",
        "localtimestamp",
        "current_timestamp",
    ] {
        c.create_scalar_function(name, -1, VOLATILE, |ctx| {
            Ok(temporal::datetime_text(&clock(false), fsp_arg(ctx)?))
        })?;
    }
    c.create_scalar_function("utc_timestamp", -1, VOLATILE, |ctx| {
        Ok(temporal::datetime_text(&clock(true), fsp_arg(ctx)?))
    })?;
    for (name, utc) in [
        ("curdate", false),
        ("current_date", false),
        ("utc_date", true),
    ] {
        c.create_scalar_function(name, 0, VOLATILE, move |_| {
            Ok(temporal::date_text(&clock(utc)))
        })?;
    }
    for (name, utc) in [
        ("curtime", false),
        ("current_time", false),
        ("utc_time", true),
    ] {
        c.create_scalar_function(name, -1, VOLATILE, move |ctx| {
            Ok(time_of_day(&clock(utc), fsp_arg(ctx)?))
        })?;
    }
    c.create_scalar_function("unix_timestamp", -1, VOLATILE, |ctx| {
        Ok(match ctx.len() {
            0 => Value::Integer(clock_micros().div_euclid(1_000_000)),
            3 => unix_timestamp_of_column(ctx.get_raw(0), ctx.get(1)?, ctx.get(2)?),
            _ => unix_timestamp(ctx.get_raw(0)),
        })
    })?;
    c.create_scalar_function("from_unixtime", -1, VOLATILE, from_unixtime)?;
    c.create_scalar_function("date_format", 2, PURE, |ctx| {
        Ok(match ctx.get_raw(1) {
            ValueRef::Null => None,
            f => date_arg(ctx, 0).and_then(|p| format(&p, &text_of(f))),
        })
    })?;
    c.create_scalar_function("datediff", 2, PURE, |ctx| {
        let (a, b) = (date_arg(ctx, 0), date_arg(ctx, 1));
        Ok(a.zip(b)
            .filter(|(a, b)| full(a) && full(b))
            .map(|(a, b)| daynr(a.year, a.month, a.day) - daynr(b.year, b.month, b.day)))
    })?;
    type Part = fn(&Parts) -> Option<i64>;
    // HOUR, MINUTE and SECOND read a TIME: see `time_parts`.
    let parts: [(&str, Part); 8] = [
        ("year", |p| Some(p.year as i64)),
        ("month", |p| Some(p.month as i64)),
        ("day", |p| Some(p.day as i64)),
        ("dayofmonth", |p| Some(p.day as i64)),
        ("to_days", |p| {
            full(p).then(|| daynr(p.year, p.month, p.day))
        }),
        ("dayofweek", |p| {
            full(p).then(|| weekday(daynr(p.year, p.month, p.day), true) + 1)
        }),
        ("weekday", |p| {
            full(p).then(|| weekday(daynr(p.year, p.month, p.day), false))
        }),
        ("dayofyear", |p| {
            full(p).then(|| daynr(p.year, p.month, p.day) - daynr(p.year, 1, 1) + 1)
        }),
    ];
    for (name, f) in parts {
        c.create_scalar_function(name, 1, PURE, move |ctx| {
            Ok(date_arg(ctx, 0).and_then(|p| f(&p)))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::calendar::tests::check;
    use crate::functions::settings::{set_function_settings, FunctionSettings, TimeZone};

    #[test]
    fn calendar_round_trips() {
        for days in [
            -800_000i64,
            -1,
            0,
            1,
            59,
            60,
            365,
            10_957,
            19_000,
            2_932_896,
        ] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn dates_as_mariadb_reads_them() {
        check(
            "
            dayofmonth(19970323) => 23
            dayofmonth('19970323') => 23
            month(20010203) => 2
            year('98-02-03') => 1998
            year(980203.5) => 1998
            month(19980203123456) => 2
            month('2001-02-00') => 2
            year('2001-00-00') => 2001
            day('2001-02-00') => 0
            dayofweek('2001-02-00') => NULL
            dayofweek('2024-02-29') => 5
            weekday('2024-02-29') => 3
            dayofyear('1997-12-31') => 365
            to_days('0000-01-01') => 1
            to_days(960201) => 729055
            to_days('2001-02-00') => NULL
            datediff('2024-03-01', '2024-02-28') => 2
            datediff('2001-02-00', '2001-01-01') => NULL
            year('nonsense') => NULL
            ",
        );
    }

    #[test]
    fn date_format_as_mariadb_formats() {
        check(
            "
            date_format('1997-01-02 03:04:05', '%M %W %D %Y %y %m %d %h %i %s %w') => January Thursday 2nd 1997 97 01 02 03 04 05 4
            date_format('1998-12-31', '%x-%v %X-%V %U %u %j %f') => 1998-53 1998-52 52 53 365 000000
            date_format('2000-01-01 10:11:12', '%D %E %Q %%') => 1st E Q %
            date_format('2024-02-29 13:05:09.25', '%Y/%m/%d %H:%i:%s.%f %a %b %j %p %r') => 2024/02/29 13:05:09.250000 Thu Feb 060 PM 01:05:09 PM
            date_format('2001-01-00', '%M %W %j %D') => January Sunday 000 0th
            date_format('2001-00-01', '%W %w') => Friday 5
            date_format('2001-00-01', '%M') => NULL
            date_format('0000-01-01', '%j') => NULL
            date_format('0000-00-00', '%W') => NULL
            date_format('0000-00-00', '%Y %D') => 0000 0th
            date_format('10:11:12', '%Y %M') => 2010 November
            date_format(NULL, '%Y') => NULL
            date_format('2001-01-01', NULL) => NULL
            date_format(19970323, '%D') => 23rd
            ",
        );
    }

    #[test]
    fn the_clock_is_the_sessions() {
        set_function_settings(FunctionSettings {
            time_zone: TimeZone::parse("+03:00").unwrap(),
            fixed_clock: Some(1_000_000_000_123_456),
            ..FunctionSettings::default()
        });
        check(
            "
            now() => 2001-09-09 04:46:40
            now(3) => 2001-09-09 04:46:40.123
            utc_timestamp() => 2001-09-09 01:46:40
            curdate() => 2001-09-09
            utc_date() => 2001-09-09
            curtime(6) => 04:46:40.123456
            utc_time() => 01:46:40
            unix_timestamp() => 1000000000
            unix_timestamp('1970-01-01 03:00:01') => 1
            unix_timestamp('1970-01-01 00:00:00') => NULL
            unix_timestamp('2001-02-03 04:05:06.5') => 981162306.5
            from_unixtime(0) => 1970-01-01 03:00:00
            from_unixtime(1.5) => 1970-01-01 03:00:01.5
            from_unixtime(0, '%Y %D %H') => 1970 1st 03
            from_unixtime(-1) => NULL
            from_unixtime(2147483648) => NULL
            convert_tz('2024-01-01 12:00:00', '+00:00', '+02:00') => 2024-01-01 14:00:00
            convert_tz('2024-01-01 12:00:00.5', 'SYSTEM', '-01:30') => 2024-01-01 10:30:00.5
            convert_tz('2024-01-01 12:00:00', '+00:00', 'Europe/Paris') => NULL
            convert_tz('1000-01-01 12:00:00', '+00:00', '+02:00') => 1000-01-01 12:00:00
            convert_tz(NULL, '+00:00', '+02:00') => NULL
            convert_tz('2022-00-00', '+00:00', '+07:05') => NULL
            tutti_time_today('10:00:00.5') => 2001-09-09 10:00:00.5
            tutti_time_today('-23:00:06') => 2001-09-08 00:59:54
            tutti_time_today('48:00:00') => 2001-09-11 00:00:00
            ",
        );
        set_function_settings(FunctionSettings::default());
        check(
            "
            unix_timestamp('1970-01-02') => 86400
            unix_timestamp('1969-12-31 23:59:59') => NULL
            unix_timestamp('2040-01-01') => NULL
            from_unixtime('1.5') => 1970-01-01 00:00:01.500000
            length(now()) => 19
            ",
        );
    }
}
