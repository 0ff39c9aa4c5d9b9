//! MySQL's calendar functions: `DATE`, `MAKEDATE`, `LAST_DAY`, `MONTHNAME`, `DAYNAME`, `QUARTER`,
//! `FROM_DAYS`, `TO_SECONDS`, `PERIOD_ADD`, `PERIOD_DIFF`, `WEEK`, `YEARWEEK`, `WEEKOFYEAR`,
//! and `TIMESTAMPDIFF` / `TIMESTAMPADD` (the SQL front-end calls them `tutti_timestampdiff`
//! and `tutti_timestampadd`, with the unit as text).
//!
//! The day numbers are MariaDB's own (`calc_daynr`: day 1 is 0000-01-01, and year 0 is no
//! leap year), so that zero months and days and year 0 come out as MariaDB's do. Values are
//! read as MariaDB reads them (see `temporal`); a value that is no date, or a zero date
//! where MariaDB wants a real one, gives NULL (MariaDB also warns).

use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};

use super::interval::Unit;
use super::temporal::{self, Parts};
use super::time::{DAYS, MONTHS};
use super::PURE;

/// The day number of 9999-12-31, the last date.
const MAX_DAY: i64 = 3_652_424;
/// Microseconds in a day.
pub(super) const DAY_MICROS: i64 = 86_400_000_000;

/// MariaDB's `calc_daynr`: days since year 0 (0000-01-01 is day 1; zero parts allowed).
pub(super) fn daynr(year: u32, month: u32, day: u32) -> i64 {
    if year == 0 && month == 0 {
        return 0;
    }
    let (mut y, m) = (year as i64, month as i64);
    let mut sum = 365 * y + 31 * (m - 1) + day as i64;
    if m <= 2 {
        y -= 1;
    } else {
        sum -= (m * 4 + 23) / 10;
    }
    sum + y / 4 - (y / 100 + 1) * 3 / 4
}

/// The date of a day number, None outside 0001-01-01 ..= 9999-12-31.
pub(super) fn from_daynr(n: i64) -> Option<Parts> {
    if !(366..=MAX_DAY).contains(&n) {
        return None;
    }
    let (y, month, day) = super::time::civil_from_days(n - 719_528);
    Some(Parts {
        year: y as u32,
        month,
        day,
        ..Parts::default()
    })
}

/// Days in `month` of `year`, by MariaDB's calendar (0000-02 has 28).
pub(super) fn month_len(year: u32, month: u32) -> u32 {
    match month {
        12 => 31,
        m => (daynr(year, m + 1, 1) - daynr(year, m, 1)) as u32,
    }
}

/// MariaDB's `calc_days_in_year` (a year wrapped below 0 has 365).
fn days_in_year(y: u32) -> i64 {
    if y & 3 == 0 && (!y.is_multiple_of(100) || y.is_multiple_of(400) && y != 0) {
        366
    } else {
        365
    }
}

/// 0 = Monday .. 6 = Sunday, or 0 = Sunday .. 6 = Saturday when `sunday_first`.
pub(super) fn weekday(daynr: i64, sunday_first: bool) -> i64 {
    (daynr + 5 + sunday_first as i64).rem_euclid(7)
}

/// Microseconds since day 0 of a date and time.
pub(super) fn micros_of(p: &Parts) -> i64 {
    let secs =
        daynr(p.year, p.month, p.day) * 86_400 + (p.hour * 3600 + p.minute * 60 + p.second) as i64;
    secs * 1_000_000 + p.micros as i64
}

/// The date and time of a count of microseconds since day 0 (None outside years 1-9999).
pub(super) fn at_micros(us: i128) -> Option<Parts> {
    let day = i64::try_from(us.div_euclid(DAY_MICROS as i128)).ok()?;
    let rest = us.rem_euclid(DAY_MICROS as i128) as i64;
    let secs = (rest / 1_000_000) as u32;
    Some(Parts {
        hour: secs / 3600,
        minute: secs / 60 % 60,
        second: secs % 60,
        micros: (rest % 1_000_000) as u32,
        ..from_daynr(day)?
    })
}

/// A value read as a date or datetime.
pub(super) struct Stamp {
    pub p: Parts,
    /// Its fraction digits (a string's as written, a number's as its decimals).
    pub fsp: u32,
    /// Whether it has a time part (else it is a DATE).
    pub timed: bool,
}

impl Stamp {
    /// Neither a zero month nor a zero day (MariaDB's NO_ZERO_DATE | NO_ZERO_IN_DATE).
    fn full(&self) -> bool {
        self.p.month != 0 && self.p.day != 0
    }
}

/// An argument as MariaDB reads it into a DATETIME (None for NULL or no such value).
pub(super) fn stamp(raw: ValueRef<'_>) -> Option<Stamp> {
    let (p, fsp, timed) = match raw {
        ValueRef::Null => return None,
        ValueRef::Integer(n) => (temporal::datetime_of_number(n)?, 0, n >= 100_000_000),
        ValueRef::Real(r) => {
            let d = super::clock::Decimal::of(r)?;
            let n = i64::try_from(d.int).ok().filter(|_| !d.negative)?;
            let p = temporal::datetime_of_number(n)?;
            let p = Parts {
                micros: d.micros,
                ..p
            };
            (p, d.fsp, n >= 100_000_000)
        }
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let t = std::str::from_utf8(t).ok()?.trim();
            (temporal::parse_datetime(t)?, text_fsp(t), text_timed(t))
        }
    };
    let real_day = p.month == 0 || p.day == 0 || p.day <= month_len(p.year, p.month);
    (temporal::valid_datetime(&p) && real_day).then_some(Stamp { p, fsp, timed })
}

/// Whether a date or datetime string (as `parse_datetime` reads it) has a time part.
pub(super) fn text_timed(t: &str) -> bool {
    let run = t.bytes().take_while(u8::is_ascii_digit).count();
    let next = t.as_bytes().get(run);
    if run >= 6 && !matches!(next, Some(c) if c.is_ascii_punctuation() && *c != b'.') {
        return run >= 10;
    }
    t.bytes().any(|c| c == b'T' || c.is_ascii_whitespace())
}

/// The fraction digits of a time or datetime string (at most 6).
pub(super) fn text_fsp(t: &str) -> u32 {
    let t = t.trim();
    match t.strip_prefix('-').unwrap_or(t).rsplit_once('.') {
        Some((head, tail))
            if tail.bytes().all(|c| c.is_ascii_digit())
                && (head.contains(':') || head.bytes().all(|c| c.is_ascii_digit())) =>
        {
            tail.len().min(6) as u32
        }
        _ => 0,
    }
}

/// An integer argument as MariaDB's `val_int()` reads it: a REAL rounds, a string's
/// leading integer counts ('2e3' is 2). None for NULL.
pub(super) fn int_arg(raw: ValueRef<'_>) -> Option<i64> {
    match raw {
        ValueRef::Null => None,
        ValueRef::Integer(n) => Some(n),
        ValueRef::Real(r) => Some(r.round() as i64),
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let t = t.trim_ascii_start();
            let (negative, digits) = match t.first() {
                Some(b'-') => (true, &t[1..]),
                Some(b'+') => (false, &t[1..]),
                _ => (false, t),
            };
            let n = digits
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .fold(0i64, |n, c| {
                    n.saturating_mul(10).saturating_add((c - b'0') as i64)
                });
            Some(if negative { -n } else { n })
        }
    }
}

/// A date function of argument 0.
fn on_date<T>(ctx: &Context<'_>, f: impl Fn(&Stamp) -> Option<T>) -> Option<T> {
    stamp(ctx.get_raw(0)).as_ref().and_then(f)
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("makedate", 2, PURE, |ctx| {
        let (Some(year), Some(day)) = (int_arg(ctx.get_raw(0)), int_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if !(0..=9999).contains(&year) || day <= 0 {
            return Ok(None);
        }
        let year = year_2000(year as u64) as u32;
        let n = daynr(year, 1, 1).saturating_add(day - 1);
        Ok(from_daynr(n).map(|p| temporal::date_text(&p)))
    })?;
    // MySQL's DATE(x), in place of SQLite's date().
    c.create_scalar_function("date", 1, PURE, |ctx| {
        Ok(on_date(ctx, |s| Some(temporal::date_text(&s.p))))
    })?;
    c.create_scalar_function("last_day", 1, PURE, |ctx| {
        Ok(on_date(ctx, |s| {
            let (year, month) = (s.p.year, s.p.month);
            let day = (month != 0).then(|| month_len(year, month))?;
            Some(temporal::date_text(&Parts {
                year,
                month,
                day,
                ..Parts::default()
            }))
        }))
    })?;
    c.create_scalar_function("monthname", 1, PURE, |ctx| {
        Ok(on_date(ctx, |s| {
            MONTHS.get(s.p.month.checked_sub(1)? as usize).copied()
        }))
    })?;
    c.create_scalar_function("dayname", 1, PURE, |ctx| {
        Ok(on_date(ctx, |s| {
            let n = daynr(s.p.year, s.p.month, s.p.day);
            s.full().then(|| DAYS[weekday(n, true) as usize])
        }))
    })?;
    c.create_scalar_function("quarter", 1, PURE, |ctx| {
        Ok(on_date(ctx, |s| Some((s.p.month as i64 + 2) / 3)))
    })?;
    c.create_scalar_function("from_days", 1, PURE, |ctx| {
        Ok(
            int_arg(ctx.get_raw(0))
                .map(|n| temporal::date_text(&from_daynr(n).unwrap_or_default())),
        )
    })?;
    c.create_scalar_function("to_seconds", 1, PURE, |ctx| {
        Ok(on_date(ctx, |s| {
            s.full().then(|| micros_of(&s.p) / 1_000_000)
        }))
    })?;
    c.create_scalar_function("period_add", 2, PURE, |ctx| {
        let (Some(p), Some(n)) = (int_arg(ctx.get_raw(0)), int_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if p == 0 {
            return Ok(Some(0));
        }
        // As MariaDB computes it: an unsigned period, a 32-bit month count.
        let months = (period_months(p as u64) as i32).wrapping_add(n as i32) as u32;
        Ok(Some(month_period(months as u64) as i64))
    })?;
    c.create_scalar_function("period_diff", 2, PURE, |ctx| {
        let (Some(a), Some(b)) = (int_arg(ctx.get_raw(0)), int_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        Ok(Some(
            period_months(a as u64) as i64 - period_months(b as u64) as i64,
        ))
    })?;
    for (name, mode) in [("week", None), ("yearweek", Some(WEEK_YEAR))] {
        c.create_scalar_function(name, -1, PURE, move |ctx| week_fn(ctx, mode))?;
    }
    c.create_scalar_function("weekofyear", 1, PURE, |ctx| {
        Ok(on_date(ctx, |s| {
            s.full().then(|| calc_week(&s.p, week_mode(3)).0 as i64)
        }))
    })?;
    c.create_scalar_function("tutti_timestampdiff", 3, PURE, |ctx| {
        let unit = unit(ctx)?;
        let (a, b) = (stamp(ctx.get_raw(1)), stamp(ctx.get_raw(2)));
        Ok(match (a, b) {
            (Some(a), Some(b)) if a.full() && b.full() => Some(timestamp_diff(unit, &a.p, &b.p)),
            _ => None,
        })
    })?;
    c.create_scalar_function("tutti_timestampadd", 3, PURE, |ctx| {
        let unit = unit(ctx)?;
        Ok(super::interval::timestamp_add(
            unit,
            ctx.get_raw(1),
            ctx.get_raw(2),
        ))
    })?;
    Ok(())
}

/// A year below 100 as a two-digit year (00-69 → 2000-2069, 70-99 → 1970-1999).
pub(super) fn year_2000(y: u64) -> u64 {
    if y < 100 {
        temporal::full_year(y as u32) as u64
    } else {
        y
    }
}

/// MariaDB's `convert_period_to_month` (YYMM or YYYYMM).
fn period_months(p: u64) -> u64 {
    if p == 0 || p > 999_912 {
        return 0;
    }
    year_2000(p / 100) * 12 + p % 100 - 1
}

/// MariaDB's `convert_month_to_period`.
fn month_period(months: u64) -> u64 {
    if months == 0 {
        return 0;
    }
    year_2000(months / 12) * 100 + months % 12 + 1
}

const MONDAY_FIRST: u32 = 1;
const WEEK_YEAR: u32 = 2;
const FIRST_WEEKDAY: u32 = 4;

/// MariaDB's `week_mode`: WEEK's mode argument (0-7) as `calc_week` flags.
pub(super) fn week_mode(mode: i64) -> u32 {
    let f = mode as u32 & 7;
    if f & MONDAY_FIRST == 0 {
        f ^ FIRST_WEEKDAY
    } else {
        f
    }
}

/// `WEEK(d[, mode])` (`extra` None) and `YEARWEEK(d[, mode])` (`extra` WEEK_YEAR). A NULL
/// mode is mode 0, as in MariaDB; no mode is `@@default_week_format` for `WEEK`.
fn week_fn(ctx: &Context<'_>, extra: Option<u32>) -> Result<Option<i64>> {
    if !(1..=2).contains(&ctx.len()) {
        return Err(Error::UserFunctionError(
            "Incorrect parameter count in the call to native function 'week'".into(),
        ));
    }
    let mode = match (ctx.len(), extra) {
        (2, _) => int_arg(ctx.get_raw(1)).unwrap_or(0),
        // WEEK(d) follows @@default_week_format; YEARWEEK(d) is mode 0.
        (_, None) => super::settings::settings().default_week_format as i64,
        _ => 0,
    };
    Ok(on_date(ctx, |s| {
        let flags = week_mode(mode) | extra.unwrap_or(0);
        let (week, year) = calc_week(&s.p, flags);
        s.full().then(|| match extra {
            None => week as i64,
            // MariaDB's unsigned arithmetic (January of year 0 wraps).
            Some(_) => year.wrapping_mul(100).wrapping_add(week) as i64,
        })
    }))
}

/// MariaDB's `calc_week`: the week and the year it belongs to.
pub(super) fn calc_week(p: &Parts, flags: u32) -> (u32, u32) {
    let day = daynr(p.year, p.month, p.day);
    let mut first = daynr(p.year, 1, 1);
    let monday_first = flags & MONDAY_FIRST != 0;
    let mut week_year = flags & WEEK_YEAR != 0;
    let first_weekday = flags & FIRST_WEEKDAY != 0;
    let mut wd = weekday(first, !monday_first);
    let mut year = p.year;
    let late_start = |wd: i64| first_weekday && wd != 0 || !first_weekday && wd >= 4;
    if p.month == 1 && p.day as i64 <= 7 - wd {
        if !week_year && late_start(wd) {
            return (0, year);
        }
        week_year = true;
        year = year.wrapping_sub(1);
        let days = days_in_year(year);
        first -= days;
        wd = (wd + 53 * 7 - days) % 7;
    }
    let days = if late_start(wd) {
        day - (first + 7 - wd)
    } else {
        day - (first - wd)
    };
    if week_year && days >= 52 * 7 {
        let wd = (wd + days_in_year(year)) % 7;
        if !first_weekday && wd < 4 || first_weekday && wd == 0 {
            return (1, year.wrapping_add(1));
        }
    }
    ((days / 7 + 1) as u32, year)
}

/// Argument 0, the unit's name (`FRAC_SECOND` is MICROSECOND); a simple unit.
fn unit(ctx: &Context<'_>) -> Result<Unit> {
    let name: String = ctx.get(0)?;
    let unit = match name.to_ascii_uppercase().as_str() {
        "FRAC_SECOND" => Some(Unit::Microsecond),
        other => Unit::of(other).filter(|u| u.is_simple()),
    };
    unit.ok_or_else(|| Error::UserFunctionError(format!("no unit {name}").into()))
}

/// TIMESTAMPDIFF(unit, a, b): whole units from a to b; months by the calendar, a month
/// being complete when b's day (and time) reaches a's.
fn timestamp_diff(unit: Unit, a: &Parts, b: &Parts) -> i64 {
    let diff = micros_of(b) - micros_of(a);
    let secs = diff / 1_000_000;
    match unit {
        Unit::Microsecond => diff,
        Unit::Second => secs,
        Unit::Minute => secs / 60,
        Unit::Hour => secs / 3600,
        Unit::Day => secs / 86_400,
        Unit::Week => secs / (7 * 86_400),
        _ => {
            let (beg, end, sign) = if diff < 0 { (b, a, -1) } else { (a, b, 1) };
            let clock = |p: &Parts| (p.hour * 3600 + p.minute * 60 + p.second, p.micros);
            let mut months =
                (end.year as i64 - beg.year as i64) * 12 + end.month as i64 - beg.month as i64;
            if end.day < beg.day || end.day == beg.day && clock(end) < clock(beg) {
                months -= 1;
            }
            sign * match unit {
                Unit::Year => months / 12,
                Unit::Quarter => months / 3,
                _ => months,
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use rusqlite::types::Value;
    use rusqlite::Connection;

    /// Checks lines `expression => result` (the result as text, NULL for NULL) as MariaDB
    /// 10.11 answers them; `--` starts a comment line.
    pub(crate) fn check(table: &str) {
        let c = Connection::open_in_memory().unwrap();
        crate::functions::register(&c).unwrap();
        let lines = table.lines().map(str::trim);
        for line in lines.filter(|l| !l.is_empty() && !l.starts_with("--")) {
            let (sql, want) = line.split_once(" => ").unwrap();
            let v: Value = c
                .query_row(&format!("SELECT {sql}"), [], |r| r.get(0))
                .unwrap();
            let got = match v {
                Value::Null => "NULL".to_string(),
                Value::Integer(i) => i.to_string(),
                Value::Real(r) => r.to_string(),
                Value::Text(t) => t,
                Value::Blob(b) => format!("{b:?}"),
            };
            assert_eq!(got, want, "{sql}");
        }
    }

    #[test]
    fn dates() {
        check(
            "
            makedate(2000, 60) => 2000-02-29
            makedate(2001, 366) => 2002-01-01
            makedate(2000, 1000) => 2002-09-26
            makedate(69, 1) => 2069-01-01
            makedate(70, 1) => 1970-01-01
            makedate(100, 1) => 0100-01-01
            makedate(9999, 366) => NULL
            makedate(2000, 0) => NULL
            makedate(-1, 1) => NULL
            makedate(2000.6, 1.5) => 2001-01-02
            makedate('2e3', '31.9') => 2002-01-31
            makedate('abc', 1) => 2000-01-01
            makedate(NULL, 1) => NULL
            date('10:11:12') => 2010-11-12
            date('2001-02-00') => 2001-02-00
            date(0) => 0000-00-00
            date(20010203101112.5) => 2001-02-03
            date('2001-02-30') => NULL
            date('2001-02-03 10:11:12.5') => 2001-02-03
            last_day('2000-02-10') => 2000-02-29
            last_day('1900-02-01 10:11:12') => 1900-02-28
            last_day('0000-02-01') => 0000-02-28
            last_day('2000-02-00') => 2000-02-29
            last_day('2000-00-10') => NULL
            last_day('2000-02-30') => NULL
            last_day(101112) => 2010-11-30
            last_day(20000210.5) => 2000-02-29
            monthname('2000-12-00') => December
            monthname('0000-00-00') => NULL
            monthname('10:11:12') => November
            dayname('2024-02-29 23:59:59') => Thursday
            dayname('0000-01-01') => Sunday
            dayname('0001-01-01') => Monday
            dayname('0000-02-29') => NULL
            dayname('2000-02-00') => NULL
            quarter('2000-04-01') => 2
            quarter('2000-00-10') => 0
            quarter('abc') => NULL
            from_days(730000) => 1998-09-03
            from_days(365) => 0000-00-00
            from_days(366) => 0001-01-01
            from_days(3652424) => 9999-12-31
            from_days(3652425) => 0000-00-00
            from_days(730000.5) => 1998-09-04
            from_days(' 730000.9x') => 1998-09-03
            from_days(NULL) => NULL
            to_seconds('2000-01-01 10:11:12.5') => 63113940672
            to_seconds('0000-12-31 23:59:59') => 31622399
            to_seconds('0001-01-01') => 31622400
            to_seconds(20000101101112) => 63113940672
            to_seconds('2000-00-01') => NULL
            to_seconds('0000-00-00') => NULL",
        );
    }

    #[test]
    fn periods() {
        check(
            "
            period_add(200801, 2) => 200803
            period_add(0801, 2) => 200803
            period_add(6912, 1) => 207001
            period_add(7001, -1) => 196912
            period_add(200813, 1) => 200902
            period_add(99, 1) => 200804
            period_add(0, 1) => 0
            period_add(-1, 1) => 200002
            period_add(200801, -24097) => 35791394104
            period_add(200801, 1e10) => 11750745809
            period_add(200801.6, 2.5) => 200805
            period_add('200801.9', 1) => 200802
            period_add(200801, NULL) => NULL
            period_diff(200802, 200703) => 11
            period_diff(7001, 6912) => -1199
            period_diff(-1, 1) => -24000
            period_diff(NULL, 1) => NULL",
        );
    }

    /// A date, its WEEK in modes 0-7, its YEARWEEK in modes 0-7.
    const WEEKS: &str = "
        1999-12-31 52 52 52 52 52 52 52 52 199952 199952 199952 199952 199952 199952 199952 199952
        2000-01-01  0  0 52 52  0  0 52 52 199952 199952 199952 199952 199952 199952 199952 199952
        2000-01-02  1  0  1 52  1  0  1 52 200001 199952 200001 199952 200001 199952 200001 199952
        2004-12-31 52 53 52 53 52 52 52 52 200452 200453 200452 200453 200452 200452 200452 200452
        2005-01-02  1  0  1 53  1  0  1 52 200501 200453 200501 200453 200501 200452 200501 200452
        2008-12-29 52 53 52  1 53 52 53 52 200852 200901 200852 200901 200853 200852 200853 200852
        2009-01-04  1  1  1  1  1  0  1 52 200901 200901 200901 200901 200901 200852 200901 200852
        2020-12-31 52 53 52 53 53 52 53 52 202052 202053 202052 202053 202053 202052 202053 202052
        0000-01-01  1  0  1 52  1  0  1 52 1 4294967248 1 4294967248 1 4294967248 1 4294967248
        0001-01-01  0  1 53  1  1  1  1  1 53 101 53 101 101 101 101 101";

    #[test]
    fn weeks_in_all_modes() {
        let mut table = String::new();
        for row in WEEKS.lines().filter(|l| !l.trim().is_empty()) {
            let cells: Vec<&str> = row.split_whitespace().collect();
            for mode in 0..8 {
                let (date, week, yearweek) = (cells[0], cells[1 + mode], cells[9 + mode]);
                table += &format!("week('{date}', {mode}) => {week}\n");
                table += &format!("yearweek('{date}', {mode}) => {yearweek}\n");
            }
        }
        check(&table);
        check(
            "
            week('2000-01-01') => 0
            week('2000-01-01', NULL) => 0
            week('2000-01-01', -1) => 52
            week('2000-01-01', 9) => 0
            week('2000-01-01', '3.9') => 52
            week('2000-01-01', 2.5) => 52
            week(20000101, 3) => 52
            week('10:11:12') => 45
            week('2000-00-01') => NULL
            week('2000-02-30') => NULL
            week(NULL) => NULL
            yearweek('2000-01-01') => 199952
            yearweek('9999-12-31', 1) => 999952
            weekofyear('2008-12-29') => 1
            weekofyear('2021-01-03') => 53
            weekofyear('0000-00-00') => NULL",
        );
    }

    #[test]
    fn timestampdiff() {
        check(
            "
            tutti_timestampdiff('month', '2003-01-31', '2003-02-28') => 0
            tutti_timestampdiff('MONTH', '2003-01-31', '2003-03-01') => 1
            tutti_timestampdiff('month', '2000-03-31', '2000-02-29') => -1
            tutti_timestampdiff('month', '2000-01-01 10:00:00', '2000-02-01 09:59:59') => 0
            tutti_timestampdiff('month', '2000-01-01 10:00:00.5', '2000-02-01 10:00:00.4') => 0
            tutti_timestampdiff('year', '2000-02-29', '2001-02-28') => 0
            tutti_timestampdiff('year', '2000-05-10', '1990-05-11') => -9
            tutti_timestampdiff('quarter', '2000-01-01', '2000-12-31 23:59:59') => 3
            tutti_timestampdiff('week', '2000-01-01', '2000-01-15') => 2
            tutti_timestampdiff('day', '2000-01-03 09:59:59', '2000-01-01 10:00:00') => -1
            tutti_timestampdiff('day', '0000-01-01', '0000-03-01') => 59
            tutti_timestampdiff('hour', '2000-01-01', '2000-01-02 05:30:00') => 29
            tutti_timestampdiff('second', '2000-01-01 00:00:01.9', '2000-01-01') => -1
            tutti_timestampdiff('microsecond', '2000-01-01', '2000-01-01 00:00:01.9') => 1900000
            tutti_timestampdiff('microsecond', '0001-01-01', '9999-12-31') => 315537811200000000
            tutti_timestampdiff('day', 20000101, 20000201) => 31
            tutti_timestampdiff('day', '2000-00-01', '2000-01-01') => NULL
            tutti_timestampdiff('day', '10:00:00', '2000-01-01') => NULL
            tutti_timestampdiff('day', NULL, '2000-01-01') => NULL",
        );
    }

    #[test]
    fn timestampadd() {
        check(
            "
            tutti_timestampadd('MONTH', 1, '2000-01-31') => 2000-02-29
            tutti_timestampadd('month', -1, '2000-03-31 10:00:00') => 2000-02-29 10:00:00
            tutti_timestampadd('month', 1, '0000-01-31') => 0000-02-28
            tutti_timestampadd('year', 1, '2000-02-29') => 2001-02-28
            tutti_timestampadd('year', -2000, '2000-01-01') => 0000-01-01
            tutti_timestampadd('year', 8000, '2000-01-01') => NULL
            tutti_timestampadd('quarter', 1, '2000-11-30') => 2001-02-28
            tutti_timestampadd('week', -1, '2000-01-07') => 1999-12-31
            tutti_timestampadd('day', 1, '2000-01-31 00:00:00.500') => 2000-02-01 00:00:00.500
            tutti_timestampadd('day', 1.5, '2000-01-01') => 2000-01-03
            tutti_timestampadd('day', '1.5', '2000-01-01 00:00:00.5') => 2000-01-02 00:00:00.5
            tutti_timestampadd('day', 1, '10:11:12') => 2010-11-13
            tutti_timestampadd('day', 31 + 28, '0000-01-01') => NULL
            tutti_timestampadd('day', -730119, '2000-01-01') => 0001-01-01
            tutti_timestampadd('day', 1, '9999-12-31') => NULL
            tutti_timestampadd('hour', 1, 20000131) => 2000-01-31 01:00:00
            tutti_timestampadd('second', 1.5, '2000-01-01') => 2000-01-01 00:00:01.5
            tutti_timestampadd('second', '1', '2000-01-01') => 2000-01-01 00:00:01.000000
            tutti_timestampadd('second', -1.5, '2000-01-01') => 1999-12-31 23:59:58.5
            tutti_timestampadd('microsecond', 1, '2000-01-31 00:00:00.5') => 2000-01-31 00:00:00.500001
            tutti_timestampadd('second', 9223372036854775807, '2000-01-01') => NULL
            tutti_timestampadd('day', 1, '2000-00-00') => NULL
            tutti_timestampadd('day', NULL, '2000-01-01') => NULL",
        );
    }
}
