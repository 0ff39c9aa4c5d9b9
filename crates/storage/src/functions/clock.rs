//! MySQL's time-of-day and duration functions: `ADDTIME`, `SUBTIME`, `TIMEDIFF`,
//! `MAKETIME`, `SEC_TO_TIME`, `TIME_TO_SEC`, `TIMESTAMP(x[, t])`, and `STR_TO_DATE`, which
//! reads a date, a time or a datetime by a format.
//!
//! As in MariaDB, a value is a TIME or a DATETIME by how it is written: a number up to
//! 8385959 (838:59:59) is a time, a larger one a datetime; a string with a date part
//! (`2000-01-01 10:00:00`, or 12 digits and more) is a datetime, else a time. A result
//! TIME is clamped to ±838:59:59. Its fraction digits follow the arguments: a number's
//! decimals, a string's digits as written, but 6 (shown only when not zero) for `ADDTIME`
//! of a string, whose result MariaDB types as a string.
//!
//! A date string alone (`2000-01-01`) is ambiguous: MariaDB reads a DATE column's value as
//! a date but such a *literal* as the time 00:20:00, and tutti cannot tell the two apart.
//! `ADDTIME`, `SUBTIME`, `TIMEDIFF` and `TIME_TO_SEC` of one, where the answers disagree,
//! give NULL rather than either guess.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error, Result};

use super::calendar::{
    at_micros, daynr, from_daynr, int_arg, micros_of, stamp, text_fsp, weekday, year_2000,
};
use super::temporal::{self, Duration, Parts};
use super::time::{DAYS, MONTHS};
use super::{diagnostics, text_of, PURE};

/// 838:59:59 in microseconds, TIME's largest whole value.
const TIME_MAX: i64 = 3_020_399_000_000;
/// 838:59:59 as a number; larger numbers may be datetimes.
const TIME_MAX_NUMBER: u64 = 8_385_959;

/// A value read as a TIME, a DATETIME or a DATE.
pub(super) enum Moment {
    At(Parts),
    /// A date without a time: a number such as 20000101, or a string such as a DATE
    /// column's value (which MariaDB would read as a time if it were a literal).
    Day(Parts),
    /// Signed microseconds.
    Span(i64),
}

/// Argument `raw` as a TIME or DATETIME, with its fraction digits.
pub(super) fn moment(raw: ValueRef<'_>) -> Option<(Moment, u32)> {
    match raw {
        ValueRef::Null => None,
        // A number is a time up to 838:59:59; beyond, a datetime when it reads as one, else
        // a time clamped to 838:59:59 (MariaDB's number_to_time).
        ValueRef::Integer(_) | ValueRef::Real(_) => {
            let d = Decimal::of_number(raw)?;
            if d.int > TIME_MAX_NUMBER {
                if let Some(s) = stamp(raw) {
                    let m = if s.timed { Moment::At } else { Moment::Day };
                    return Some((m(s.p), s.fsp));
                }
            }
            Some((Moment::Span(number_span(&d)?), d.fsp))
        }
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let t = std::str::from_utf8(t).ok()?.trim();
            let body = t.strip_prefix('-').unwrap_or(t);
            let first = body.split(|c: char| c.is_ascii_whitespace()).next();
            let digits = body.bytes().take_while(u8::is_ascii_digit).count();
            if first.is_some_and(|w| w.contains(['-', '/'])) || digits >= 12 {
                let s = stamp(raw)?;
                let m = if s.timed { Moment::At } else { Moment::Day };
                Some((m(s.p), s.fsp))
            } else {
                Some((Moment::Span(span(t)?), text_fsp(t)))
            }
        }
    }
}

/// A TIME string as signed microseconds, clamped to ±838:59:59.999999 as MariaDB reads a
/// string (of unknown precision) as a TIME: `MICROSECOND('916:40:00')` is 999999, and a
/// result shown with the text's digits cuts them (`TIMEDIFF('916:40:00', '0:0:0.5')` is
/// 838:59:59.4).
fn span(t: &str) -> Option<i64> {
    let d = temporal::parse_duration(t)?;
    Some(clamp_time(d.micros() as i128, 6) as i64)
}

/// `raw` as `EXTRACT` reads it for its day and time units: an interval, not clamped to
/// 838:59:59 (`EXTRACT(HOUR FROM '10000:02:03')` is 16), and a number below 10^12 is one
/// too, `[H..]HMMSS` (20010203 is 2001:02:03); dates and datetimes as [`moment`] reads them.
pub(super) fn interval_moment(raw: ValueRef<'_>) -> Option<Moment> {
    let (m, _) = moment(raw)?;
    if !matches!(m, Moment::Span(_)) && !matches!(raw, ValueRef::Integer(_) | ValueRef::Real(_)) {
        return Some(m);
    }
    match raw {
        ValueRef::Integer(_) | ValueRef::Real(_) => {
            let d = Decimal::of_number(raw)?;
            if d.int >= 1_000_000_000_000 {
                return Some(m);
            }
            let (h, min, s) = (d.int / 10_000, d.int / 100 % 100, d.int % 100);
            if min > 59 || s > 59 {
                return None;
            }
            let us = ((h * 3600 + min * 60 + s) as i64) * 1_000_000 + d.micros as i64;
            Some(Moment::Span(if d.negative { -us } else { us }))
        }
        _ => {
            let t = text_of(raw);
            Some(Moment::Span(temporal::parse_duration(t.trim())?.micros()))
        }
    }
}

/// The largest TIME with `fsp` fraction digits (838:59:59.9..), in microseconds.
fn time_max(fsp: u32) -> i128 {
    let shown = fsp.min(6);
    (TIME_MAX + 999_999 - 999_999 % 10i64.pow(6 - shown)) as i128
}

/// Microseconds clamped to ±838:59:59 (with `fsp` 9s in the fraction).
fn clamp_time(us: i128, fsp: u32) -> i128 {
    us.clamp(-time_max(fsp), time_max(fsp))
}

/// A number read as a TIME, `[H..]HMMSS[.f]` (beyond 838:59:59 clamped; None when its
/// minutes or seconds are past 59).
fn number_span(d: &Decimal) -> Option<i64> {
    let (h, m, s) = (d.int / 10_000, d.int / 100 % 100, d.int % 100);
    if m > 59 || s > 59 {
        return None;
    }
    let us = ((h * 3600 + m * 60 + s) as i128) * 1_000_000 + d.micros as i128;
    let us = clamp_time(if d.negative { -us } else { us }, d.fsp);
    Some(us as i64)
}

/// The largest interval MariaDB adds to a time (`ADDTIME`'s second argument).
const INTERVAL_MAX_HOURS: u64 = 87_649_415;

/// The second argument of `ADDTIME`, `SUBTIME` and `TIMESTAMP(d, t)`: a time MariaDB reads
/// as an interval, up to ±87649415:59:59.999999 rather than TIME's ±838:59:59.
fn interval(raw: ValueRef<'_>) -> Option<(i64, u32)> {
    let (negative, hours, rest, fsp) = match raw {
        ValueRef::Null => return None,
        ValueRef::Integer(_) | ValueRef::Real(_) => {
            let d = Decimal::of_number(raw)?;
            let (m, s) = (d.int / 100 % 100, d.int % 100);
            if m > 59 || s > 59 {
                return None;
            }
            let rest = (m * 60 + s) as i64 * 1_000_000 + d.micros as i64;
            (d.negative, d.int / 10_000, rest, d.fsp)
        }
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let t = std::str::from_utf8(t).ok()?.trim();
            let Some((Moment::Span(_), _)) = moment(raw) else {
                return None;
            };
            let d = temporal::parse_duration(t)?;
            let rest = (d.minutes * 60 + d.seconds) as i64 * 1_000_000 + d.micros as i64;
            (d.negative, d.hours as u64, rest, text_fsp(t))
        }
    };
    if hours > INTERVAL_MAX_HOURS {
        return None;
    }
    let us = hours as i64 * 3_600_000_000 + rest;
    Some((if negative { -us } else { us }, fsp))
}

/// A number as its shortest decimal spelling splits it (a REAL is a DECIMAL in tutti).
pub(super) struct Decimal {
    pub negative: bool,
    pub int: u64,
    /// The first six fraction digits, cut.
    pub micros: u32,
    /// Fraction digits, at most 6.
    pub fsp: u32,
}

impl Decimal {
    /// An INTEGER or REAL argument (None for others).
    fn of_number(raw: ValueRef<'_>) -> Option<Decimal> {
        match raw {
            ValueRef::Integer(n) => Some(Decimal {
                negative: n < 0,
                int: n.unsigned_abs(),
                micros: 0,
                fsp: 0,
            }),
            ValueRef::Real(r) => Decimal::of(r),
            _ => None,
        }
    }

    pub fn of(r: f64) -> Option<Decimal> {
        if !r.is_finite() {
            return None;
        }
        let s = format!("{}", r.abs());
        let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
        let digits: String = frac.chars().chain("000000".chars()).take(6).collect();
        Some(Decimal {
            negative: r < 0.0,
            int: int.parse().unwrap_or(u64::MAX),
            micros: digits.parse().ok()?,
            fsp: frac.len().min(6) as u32,
        })
    }
}

/// Seconds as microseconds (an extra fraction digit cut) and fraction digits: an integer,
/// a REAL (a decimal: its digits), or a string (a double: 6 digits).
pub(super) fn seconds(raw: ValueRef<'_>) -> Option<(i128, u32)> {
    let (d, fsp) = match raw {
        ValueRef::Null => return None,
        ValueRef::Integer(n) => return Some((n as i128 * 1_000_000, 0)),
        ValueRef::Real(r) => {
            let d = Decimal::of(r)?;
            let fsp = d.fsp;
            (d, fsp)
        }
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let x = super::math::parse_prefix(&String::from_utf8_lossy(t));
            (Decimal::of(x)?, 6)
        }
    };
    let us = d.int as i128 * 1_000_000 + d.micros as i128;
    Some((if d.negative { -us } else { us }, fsp))
}

/// A TIME's text, clamped to ±838:59:59 (with as many 9s in the fraction as `fsp` shows);
/// `fsp` None: 6 digits when the fraction is not zero, else none.
fn time_out(us: i128, fsp: Option<u32>) -> String {
    let d = Duration::of_micros(clamp_time(us, fsp.unwrap_or(6)));
    let digits = fsp.unwrap_or(if d.micros != 0 { 6 } else { 0 });
    temporal::time_text(&d, digits)
}

/// A TIME or DATETIME text with exactly `digits` fraction digits (cut or padded with
/// zeros): the decimals MariaDB gives a temporal function from its arguments' types
/// (`TIME(varchar_col)`, `SEC_TO_TIME(2.5e0)` show six), where the value alone would say
/// fewer. Other text is returned as it is.
fn with_fraction(t: &str, digits: usize) -> String {
    if !t.contains(':') {
        return t.to_string();
    }
    let (whole, fraction) = t.split_once('.').unwrap_or((t, ""));
    let mut out = whole.to_string();
    if digits > 0 {
        out.push('.');
        out.extend(fraction.chars().chain(std::iter::repeat('0')).take(digits));
    }
    out
}

/// `ADDTIME(a, b)` (`sign` 1) and `SUBTIME(a, b)` (-1).
fn add_time(ctx: &Context<'_>, sign: i64) -> Option<String> {
    let (a, fa) = moment(ctx.get_raw(0))?;
    let (b, fb) = interval(ctx.get_raw(1))?;
    if matches!(a, Moment::Day(_)) && is_text(ctx, 0) {
        return None; // a DATE column's value or a time literal: NULL, not a guess
    }
    let fsp = (!is_text(ctx, 0)).then_some(fa.max(fb));
    match a {
        Moment::At(p) | Moment::Day(p) => {
            let out = at_micros(micros_of(&p) as i128 + (sign * b) as i128)?;
            let digits = fsp.unwrap_or(if out.micros != 0 { 6 } else { 0 });
            Some(temporal::datetime_text(&out, digits))
        }
        Moment::Span(a) => Some(time_out(a as i128 + (sign * b) as i128, fsp)),
    }
}

/// `TIMEDIFF(a, b)`: both times or both datetimes.
fn time_diff(ctx: &Context<'_>) -> Option<String> {
    let (a, fa) = moment(ctx.get_raw(0))?;
    let (b, fb) = moment(ctx.get_raw(1))?;
    let a_is_zero = matches!(a, Moment::Span(0));
    let diff = match (a, b) {
        (Moment::At(x), Moment::At(y)) => micros_of(&x) - micros_of(&y),
        (Moment::Span(x), Moment::Span(y)) => x - y,
        (Moment::Day(x), Moment::Day(y)) if !is_text(ctx, 0) && !is_text(ctx, 1) => {
            micros_of(&x) - micros_of(&y)
        }
        _ => return None,
    };
    // MariaDB subtracts from '-00:00:00' as from a negative time: the sign flips.
    let negative_zero = diff != 0 && a_is_zero && starts_negative(ctx.get_raw(0));
    let diff = if negative_zero { -diff } else { diff };
    Some(time_out(diff as i128, Some(fa.max(fb))))
}

/// Whether argument `i` is a string.
fn is_text(ctx: &Context<'_>, i: usize) -> bool {
    matches!(ctx.get_raw(i), ValueRef::Text(_) | ValueRef::Blob(_))
}

/// Whether a string starts with a minus sign.
fn starts_negative(raw: ValueRef<'_>) -> bool {
    matches!(raw, ValueRef::Text(t) | ValueRef::Blob(t) if t.trim_ascii_start().starts_with(b"-"))
}

/// `MAKETIME(h, m, s)`: NULL unless 0 <= m <= 59 and 0 <= s < 60.
fn make_time(ctx: &Context<'_>) -> Option<String> {
    let hours = int_arg(ctx.get_raw(0))?;
    let minutes = int_arg(ctx.get_raw(1))?;
    let (secs, fsp) = seconds(ctx.get_raw(2))?;
    if !(0..=59).contains(&minutes) || !(0..60_000_000).contains(&secs) {
        return None;
    }
    let h = (hours.unsigned_abs().min(839) as i128) * 3_600_000_000;
    let us = h + minutes as i128 * 60_000_000 + secs;
    Some(time_out(if hours < 0 { -us } else { us }, Some(fsp)))
}

/// `TIME_TO_SEC(t)`: an integer, or a REAL when there is a fraction.
fn time_to_sec(raw: ValueRef<'_>) -> Value {
    let text = matches!(raw, ValueRef::Text(_) | ValueRef::Blob(_));
    let us = match moment(raw) {
        None => return Value::Null,
        Some((Moment::Day(_), _)) if text => return Value::Null,
        Some((Moment::Day(_), _)) => 0,
        // A string's seconds at its own digits: cut to whole seconds without any, else
        // rounded (`'916:40:00'`, read as 838:59:59.999999, is 3020399; with `.5` 3020400).
        Some((Moment::Span(us), fsp)) if text => match 10i64.pow(6 - fsp.min(6)) {
            1_000_000 => us / 1_000_000 * 1_000_000,
            unit => (us + us.signum() * unit / 2) / unit * unit,
        },
        Some((Moment::Span(us), _)) => us,
        Some((Moment::At(p), _)) => {
            (p.hour * 3600 + p.minute * 60 + p.second) as i64 * 1_000_000 + p.micros as i64
        }
    };
    if us % 1_000_000 == 0 {
        Value::Integer(us / 1_000_000)
    } else {
        Value::Real(us as f64 / 1e6)
    }
}

/// `TIMESTAMP(x)`: x as a datetime; `TIMESTAMP(x, t)`: plus the time t.
fn timestamp(ctx: &Context<'_>) -> Result<Option<String>> {
    if !(1..=2).contains(&ctx.len()) {
        return Err(Error::UserFunctionError(
            "Incorrect parameter count in the call to native function 'timestamp'".into(),
        ));
    }
    let Some(s) = stamp(ctx.get_raw(0)) else {
        return Ok(None);
    };
    if ctx.len() == 1 {
        return Ok(Some(temporal::datetime_text(&s.p, s.fsp)));
    }
    let Some((t, ft)) = interval(ctx.get_raw(1)) else {
        return Ok(None);
    };
    let out = at_micros(micros_of(&s.p) as i128 + t as i128);
    Ok(out.map(|p| temporal::datetime_text(&p, s.fsp.max(ft))))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("addtime", 2, PURE, |ctx| Ok(add_time(ctx, 1)))?;
    c.create_scalar_function("subtime", 2, PURE, |ctx| Ok(add_time(ctx, -1)))?;
    c.create_scalar_function("timediff", 2, PURE, |ctx| Ok(time_diff(ctx)))?;
    c.create_scalar_function("maketime", 3, PURE, |ctx| Ok(make_time(ctx)))?;
    c.create_scalar_function("sec_to_time", 1, PURE, |ctx| {
        Ok(seconds(ctx.get_raw(0)).map(|(us, fsp)| time_out(us, Some(fsp))))
    })?;
    c.create_scalar_function("time_to_sec", 1, PURE, |ctx| {
        Ok(time_to_sec(ctx.get_raw(0)))
    })?;
    c.create_scalar_function("timestamp", -1, PURE, timestamp)?;
    c.create_scalar_function("tutti_fsp", 2, PURE, |ctx| {
        let digits = ctx.get::<i64>(1)?.clamp(0, 6) as usize;
        let raw = ctx.get_raw(0);
        Ok((!matches!(raw, ValueRef::Null)).then(|| with_fraction(&text_of(raw), digits)))
    })?;
    for n in [2, 3] {
        c.create_scalar_function("str_to_date", n, PURE, |ctx| {
            let (s, f) = (ctx.get_raw(0), ctx.get_raw(1));
            if matches!(s, ValueRef::Null) || matches!(f, ValueRef::Null) {
                return Ok(None);
            }
            let flags = match ctx.len() {
                3 => Flags::of(ctx.get(2)?),
                _ => Flags::default(),
            };
            let s = text_of(s);
            let out = str_to_date(s.as_bytes(), text_of(f).as_bytes(), flags);
            if out.is_none() {
                diagnostics::warn(
                    1411,
                    format!("Incorrect datetime value: '{s}' for function str_to_date"),
                );
            }
            Ok(out)
        })?;
    }
    Ok(())
}

/// What STR_TO_DATE yields for a format (MariaDB's `get_date_time_result_type`).
#[derive(Clone, Copy)]
enum Yields {
    Date,
    Time(u32),
    DateTime(u32),
}

fn yields(format: &[u8]) -> Yields {
    let (mut date, mut time, mut fraction) = (false, false, false);
    let mut specs = format.iter();
    while let Some(&c) = specs.next() {
        if c != b'%' {
            continue;
        }
        match specs.next() {
            Some(b'f') => (time, fraction) = (true, true),
            Some(c) if b"HISThiklrs".contains(c) => time = true,
            Some(c) if b"MVUXYWabcjmvuxyw".contains(c) => date = true,
            _ => {}
        }
    }
    let fsp = if fraction { 6 } else { 0 };
    match (date, time) {
        (true, true) => Yields::DateTime(fsp),
        (false, true) => Yields::Time(fsp),
        _ => Yields::Date,
    }
}

/// STR_TO_DATE's third argument, the SQL front-end's flags: the zero dates a session's
/// `sql_mode` forbids (1 for `NO_ZERO_IN_DATE`, 2 for `NO_ZERO_DATE`) and 4 for a format
/// that is no constant.
#[derive(Clone, Copy, Default)]
struct Flags {
    /// No zero month or day in a date that is not all zero.
    in_date: bool,
    /// No `0000-00-00` (`0000-00-00 00:00:00`).
    all: bool,
    /// The format is not the statement's constant: the result is a DATETIME(6), whatever
    /// the format reads (MariaDB types it before it knows the format).
    any_format: bool,
}

impl Flags {
    fn of(flags: i64) -> Flags {
        Flags {
            in_date: flags & 1 != 0,
            all: flags & 2 != 0,
            any_format: flags & 4 != 0,
        }
    }

    /// Whether the date of `t` is one these modes forbid.
    fn forbid(self, t: &Parts) -> bool {
        // A time of day on the zero date is no zero datetime (MDEV-8336).
        let zero = *t == Parts::default();
        if zero {
            self.all
        } else {
            self.in_date && (t.month == 0 || t.day == 0)
        }
    }
}

/// `STR_TO_DATE(s, format)`: None when `s` does not match, or when it is a date the
/// session's `sql_mode` forbids.
fn str_to_date(s: &[u8], format: &[u8], flags: Flags) -> Option<String> {
    let mut t = Parts::default();
    extract(format, s, 0, &mut t, false)?;
    let format_yields = match flags.any_format {
        true => Yields::DateTime(6),
        false => yields(format),
    };
    if !matches!(format_yields, Yields::Time(_)) && flags.forbid(&t) {
        return None;
    }
    Some(match format_yields {
        Yields::Date => temporal::date_text(&t),
        Yields::DateTime(fsp) => temporal::datetime_text(&t, fsp),
        Yields::Time(fsp) => {
            let d = Duration {
                negative: false,
                hours: t.hour + t.day * 24,
                minutes: t.minute,
                seconds: t.second,
                micros: t.micros,
            };
            temporal::time_text(&d, fsp)
        }
    })
}

/// Up to `max` digits at `v` (at least one) and how many there were.
fn number(s: &[u8], v: &mut usize, max: usize) -> Option<(u32, u32)> {
    let run = s[*v..]
        .iter()
        .take(max)
        .take_while(|c| c.is_ascii_digit())
        .count();
    let n = s[*v..*v + run]
        .iter()
        .fold(0, |n, c| n * 10 + (c - b'0') as u32);
    *v += run;
    (run > 0).then_some((n, run as u32))
}

/// The 1-based index of the name the letters at `v` spell or uniquely begin (any case),
/// names cut to `len` letters.
fn word(names: &[&str], len: usize, s: &[u8], v: &mut usize) -> Option<u32> {
    let run = s[*v..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let w = &s[*v..*v + run];
    let names = names.iter().map(|n| &n.as_bytes()[..len.min(n.len())]);
    let mut found = None;
    let mut partial = 0;
    for (i, name) in names.enumerate() {
        if name.eq_ignore_ascii_case(w) {
            found = Some(i);
            partial = 1;
            break;
        }
        if name.len() > w.len() && name[..w.len()].eq_ignore_ascii_case(w) {
            found = Some(i);
            partial += 1;
        }
    }
    *v += run;
    found.filter(|_| partial == 1).map(|i| i as u32 + 1)
}

/// A 1-based day of a Sunday-first week as Monday 1 .. Sunday 7.
fn monday_first(day: u32) -> u32 {
    if day == 1 {
        7
    } else {
        day - 1
    }
}

/// MariaDB's `extract_date_time`: reads `s` from `v` by `format` into `t`; a compound
/// specifier's pattern (`%r`, `%T`) is read by a nested call (`nested`). Returns where
/// reading stopped, None when `s` does not match.
fn extract(format: &[u8], s: &[u8], mut v: usize, t: &mut Parts, nested: bool) -> Option<usize> {
    let (mut day_of_week, mut yearday, mut daypart, mut week) = (0u32, 0u32, 0, None);
    let (mut usa, mut sunday_first, mut strict_week, mut week_year) = (false, false, false, None);
    let mut f = 0;
    while f < format.len() && v < s.len() {
        while v < s.len() && s[v].is_ascii_whitespace() {
            v += 1;
        }
        if v == s.len() {
            break;
        }
        if format[f] != b'%' || f + 1 == format.len() {
            if !format[f].is_ascii_whitespace() {
                if s[v] != format[f] {
                    return None;
                }
                v += 1;
            }
            f += 1;
            continue;
        }
        f += 1;
        match format[f] {
            b'Y' => {
                let (y, n) = number(s, &mut v, 4)?;
                t.year = if n <= 2 {
                    year_2000(y as u64) as u32
                } else {
                    y
                };
            }
            b'y' => t.year = year_2000(number(s, &mut v, 2)?.0 as u64) as u32,
            b'm' | b'c' => t.month = number(s, &mut v, 2)?.0,
            b'M' => t.month = word(&MONTHS, 9, s, &mut v)?,
            b'b' => t.month = word(&MONTHS, 3, s, &mut v)?,
            b'd' | b'e' => t.day = number(s, &mut v, 2)?.0,
            b'D' => {
                t.day = number(s, &mut v, 2)?.0;
                v = (v + 2).min(s.len());
            }
            c @ (b'h' | b'I' | b'l' | b'k' | b'H') => {
                usa |= matches!(c, b'h' | b'I' | b'l');
                t.hour = number(s, &mut v, 2)?.0;
            }
            b'i' => t.minute = number(s, &mut v, 2)?.0,
            b's' | b'S' => t.second = number(s, &mut v, 2)?.0,
            b'f' => {
                let (n, digits) = number(s, &mut v, 6)?;
                t.micros = n * 10u32.pow(6 - digits);
            }
            b'p' => {
                let ampm = s.get(v..v + 2).filter(|_| usa)?;
                if ampm.eq_ignore_ascii_case(b"PM") {
                    daypart = 12;
                } else if !ampm.eq_ignore_ascii_case(b"AM") {
                    return None;
                }
                v += 2;
            }
            b'W' => day_of_week = monday_first(word(&DAYS, 9, s, &mut v)?),
            b'a' => day_of_week = monday_first(word(&DAYS, 3, s, &mut v)?),
            b'w' => {
                day_of_week = match number(s, &mut v, 1)?.0 {
                    0 => 7,
                    d @ 1..=6 => d,
                    _ => return None,
                }
            }
            b'j' => yearday = number(s, &mut v, 3)?.0,
            c @ (b'U' | b'u' | b'V' | b'v') => {
                sunday_first = matches!(c, b'U' | b'V');
                strict_week = matches!(c, b'V' | b'v');
                let n = number(s, &mut v, 2)?.0;
                if strict_week && n == 0 || n > 53 {
                    return None;
                }
                week = Some(n as i64);
            }
            c @ (b'X' | b'x') => week_year = Some((number(s, &mut v, 4)?.0, c == b'X')),
            b'r' => v = extract(b"%I:%i:%S %p", s, v, t, true)?,
            b'T' => v = extract(b"%H:%i:%S", s, v, t, true)?,
            b'.' => {
                v += s[v..]
                    .iter()
                    .take_while(|c| c.is_ascii_punctuation())
                    .count()
            }
            b'@' => {
                v += s[v..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .count()
            }
            b'#' => v += s[v..].iter().take_while(|c| c.is_ascii_digit()).count(),
            _ => return None,
        }
        f += 1;
    }
    if usa {
        if !(1..=12).contains(&t.hour) {
            return None;
        }
        t.hour = t.hour % 12 + daypart;
    }
    if nested {
        return Some(v);
    }
    if yearday > 0 {
        let day = from_daynr(daynr(t.year, 1, 1) + yearday as i64 - 1)?;
        (t.year, t.month, t.day) = (day.year, day.month, day.day);
    }
    if let Some(week) = week.filter(|_| day_of_week != 0) {
        let year = match week_year {
            Some((y, sunday)) if strict_week && sunday == sunday_first => y,
            None if !strict_week => t.year,
            _ => return None,
        };
        let mut days = daynr(year, 1, 1);
        let first = weekday(days, sunday_first);
        days += if sunday_first {
            (if first == 0 { 0 } else { 7 }) - first + (week - 1) * 7 + day_of_week as i64 % 7
        } else {
            (if first <= 3 { 0 } else { 7 }) - first + (week - 1) * 7 + day_of_week as i64 - 1
        };
        let day = from_daynr(days)?;
        (t.year, t.month, t.day) = (day.year, day.month, day.day);
    }
    let in_range = t.month <= 12 && t.day <= 31 && t.hour <= 23 && t.minute <= 59;
    (in_range && t.second <= 59).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::super::calendar::tests::check;

    #[test]
    fn fraction_digits_by_type() {
        check(
            "
            tutti_fsp('00:00:00.0001', 6) => 00:00:00.000100
            tutti_fsp('2001-01-01 00:00:01', 6) => 2001-01-01 00:00:01.000000
            tutti_fsp('-10:00:00.123456', 2) => -10:00:00.12
            tutti_fsp('10:00:00.5', 0) => 10:00:00
            tutti_fsp(NULL, 6) => NULL
            ",
        );
    }

    #[test]
    fn addtime_and_subtime() {
        check(
            "
            addtime('2000-01-01 00:00:00', '01:00:00') => 2000-01-01 01:00:00
            -- TIMEs beyond 838:59:59 are clamped; ADDTIME's second argument is an interval
            addtime('916:40:00', '416:40:00') => 838:59:59.999999
            time_to_sec('916:40:00') => 3020399
            time_to_sec(-8395959) => -3020399
            addtime('2001-01-01 00:00:00', 8395959) => 2001-02-04 23:59:59
            addtime('2001-01-01 00:00:00', '839:59:59') => 2001-02-04 23:59:59
            addtime('0001-01-01 00:00:00', 876494155959) => 9999-12-31 23:59:59
            addtime(0, 9999999) => NULL
            timestamp('2001-01-01', 8395959) => 2001-02-04 23:59:59
            timediff('38:59:59', '839:00:00') => -800:00:00
            addtime('2000-01-01 00:00:00.5', '01:00:00') => 2000-01-01 01:00:00.500000
            addtime('2000-01-01 23:00:00', '2 01:00:00') => 2000-01-04 00:00:00
            addtime('2000-01-01 00:00:00', '-0:0:0.5') => 1999-12-31 23:59:59.500000
            addtime('2000-00-00 10:00:00', '01:00:00') => 1999-11-30 11:00:00
            addtime('9999-12-31 23:00:00', '01:00:00') => NULL
            addtime('0000-00-00 00:00:00', '01:00:00') => NULL
            addtime('2000-01-01 00:00:00', '2000-01-01 01:00:00') => NULL
            addtime('10:00:00', '-11:00:00') => -01:00:00
            addtime('10:00:00.123', '00:00:00.1') => 10:00:00.223000
            addtime('10:00:00', '10:00:00.000') => 20:00:00
            addtime('800:00:00', '100:00:00') => 838:59:59.999999
            addtime('-1 10:00:00', '1') => -33:59:59
            addtime('10:61:00', '1') => NULL
            addtime(101112, '1.5') => 10:11:13.5
            addtime(101112.5, 1) => 10:11:13.5
            addtime(-8385959, -1) => -838:59:59
            addtime(20000101, 1) => 2000-01-01 00:00:01
            addtime(20000101101112, '1.5') => 2000-01-01 10:11:13.5
            addtime('abc', '1') => NULL
            addtime(NULL, '1') => NULL
            subtime('2000-01-01 00:00:00', '00:00:01') => 1999-12-31 23:59:59
            subtime('0001-01-01 00:00:00', '00:00:01') => NULL
            subtime('10:00:00', '10:00:00.5') => -00:00:00.500000
            subtime('-10:00:00', '-10:00:00.5') => 00:00:00.500000
            -- A date string alone is a DATE column's value or a time literal: NULL.
            addtime('2000-01-01', '01:00:00') => NULL
            subtime('2000-01-01', 1.5) => NULL
            timediff('2000-01-01', '1999-12-31') => NULL
            time_to_sec('2000-01-01') => NULL",
        );
    }

    #[test]
    fn timediff() {
        check(
            "
            timediff('09:00:00', '10:00:00.5') => -01:00:00.5
            timediff('2000-01-02 00:00:00', '2000-01-01 00:00:00') => 24:00:00
            timediff('2000-03-01 00:00:00', '2000-01-01 00:00:00') => 838:59:59
            timediff('2000-01-01 00:00:00', '2000-01-01 00:00:00.000') => 00:00:00.000
            timediff('2000-00-01 00:00:00', '2000-00-01 00:00:00') => 00:00:00
            timediff('10:11:12.1234567', '0') => 10:11:12.123456
            timediff('1 00:00:00', '-1 00:00:00') => 48:00:00
            timediff('0', '-3.9') => 00:00:03.9
            timediff('-00:00:00', '01:00:00') => 01:00:00
            timediff(100.5, 50) => 00:00:10.5
            timediff(20000102, 20000101) => 24:00:00
            timediff('2000-01-01 00:00:00', '10:00:00') => NULL
            timediff('2000-01-01', '1999-12-31') => NULL
            timediff('abc', '1') => NULL",
        );
    }

    #[test]
    fn seconds_and_parts() {
        check(
            "
            maketime(10, 11, 12) => 10:11:12
            maketime(-10, 11, 12.5) => -10:11:12.5
            maketime(10, 11, 12.123456789) => 10:11:12.123456
            maketime('10', '11', '12.5') => 10:11:12.500000
            maketime(10.5, 11.6, 12) => 11:12:12
            maketime(839, 0, 0) => 838:59:59
            maketime(-839, 0, 0.5) => -838:59:59.9
            maketime(838, 59, 59.5) => 838:59:59.5
            maketime(10, 60, 12) => NULL
            maketime(10, 11, 60) => NULL
            maketime(0, 0, -1) => NULL
            maketime(NULL, 1, 1) => NULL
            sec_to_time(-3661) => -01:01:01
            sec_to_time(3661.5) => 01:01:01.5
            sec_to_time('3661') => 01:01:01.000000
            sec_to_time('abc') => 00:00:00.000000
            sec_to_time(0.1234567) => 00:00:00.123456
            sec_to_time(-0.5) => -00:00:00.5
            sec_to_time(3020400) => 838:59:59
            sec_to_time(3020400.5) => 838:59:59.9
            sec_to_time(NULL) => NULL
            time_to_sec('-01:01:01') => -3661
            time_to_sec('01:01:01.5') => 3661.5
            time_to_sec('1 01:00:00') => 90000
            time_to_sec('2000-01-01 01:01:01.25') => 3661.25
            time_to_sec(10101.5) => 3661.5
            time_to_sec(20000101010101) => 3661
            time_to_sec(20000101) => 0
            time_to_sec(8385960) => NULL
            time_to_sec('10:60:00') => NULL
            time_to_sec('') => NULL",
        );
    }

    #[test]
    fn timestamp() {
        check(
            "
            timestamp('2003-12-31') => 2003-12-31 00:00:00
            timestamp('2003-12-31 12:00:00.500') => 2003-12-31 12:00:00.500
            timestamp('2003-12-31 10:11:12.1234567') => 2003-12-31 10:11:12.123456
            timestamp('2003-00-00') => 2003-00-00 00:00:00
            timestamp(20031231101112.5) => 2003-12-31 10:11:12.5
            timestamp('2003-02-30') => NULL
            timestamp('2003-12-31 12:00:00', '12:00:00') => 2004-01-01 00:00:00
            timestamp('2003-12-31', '-12:00:00') => 2003-12-30 12:00:00
            timestamp('2003-12-31 10:11:12.123', '1.5') => 2003-12-31 10:11:13.623
            timestamp(20031231, 1.5) => 2003-12-31 00:00:01.5
            timestamp('9999-12-31', '24:00:00') => NULL
            timestamp('0000-00-00', '01:00:00') => NULL
            timestamp('2003-12-31', '2003-12-31 01:00:00') => NULL
            timestamp('2003-12-31', NULL) => NULL",
        );
    }

    #[test]
    fn str_to_date() {
        check(
            "
            str_to_date('2003-10-03', '%Y-%m-%d') => 2003-10-03
            str_to_date('10:11:12', '%H:%i:%s') => 10:11:12
            str_to_date('2003-10-03 10', '%Y-%m-%d %H') => 2003-10-03 10:00:00
            str_to_date('2003-10-03', '%Y-%m-%d %H') => 2003-10-03 00:00:00
            str_to_date('10:11:12.5', '%H:%i:%s.%f') => 10:11:12.500000
            str_to_date('2003-10-03 1:2:3.5', '%Y-%m-%d %T.%f') => 2003-10-03 01:02:03.500000
            str_to_date('2003', '%Y') => 2003-00-00
            str_to_date('2003-02-30', '%Y-%m-%d') => 2003-02-30
            str_to_date('2003-13-03', '%Y-%m-%d') => NULL
            str_to_date('70-1-3', '%y-%c-%e') => 1970-01-03
            str_to_date('  2003-10-03 extra', '%Y-%m-%d') => 2003-10-03
            str_to_date('2003/10/03', '%Y-%m-%d') => NULL
            str_to_date('oct 3 2003', '%M %e %Y') => 2003-10-03
            str_to_date('Ju 3 2003', '%M %e %Y') => NULL
            str_to_date('June 3 2003', '%b %e %Y') => NULL
            str_to_date('Friday, Oct 3rd 2003', '%W, %b %D %Y') => 2003-10-03
            str_to_date('10:11:12 PM', '%r') => 22:11:12
            str_to_date('12:11:12 am', '%h:%i:%s %p') => 00:11:12
            str_to_date('13:11:12 PM', '%h:%i:%s %p') => NULL
            str_to_date('10 pm', '%H %p') => NULL
            str_to_date('2004 366', '%Y %j') => 2004-12-31
            str_to_date('Sunday 2003 10', '%W %X %V') => 2003-03-09
            str_to_date('Monday 2003 10', '%W %x %v') => 2003-03-03
            str_to_date('Monday 2003 10', '%W %Y %v') => NULL
            str_to_date('0 2003 10', '%w %Y %U') => 2003-03-09
            str_to_date('2024-W01-2', '%x-W%v-%w') => 2024-01-02
            str_to_date('31 23:59:59.999', '%d %H:%i:%s.%f') => 767:59:59.999000
            str_to_date('2003.10.03', '%Y%.%m%.%d') => 2003-10-03
            str_to_date('2003abc10', '%Y%@%m') => 2003-10-00
            str_to_date('2003-10-03', '%Y-%m-%d%%') => 2003-10-03
            str_to_date('2003-10-03%', '%Y-%m-%d%%') => NULL
            str_to_date('x', '%Q') => NULL
            str_to_date('', '%Y') => 0000-00-00
            str_to_date(NULL, '%Y') => NULL
            str_to_date('2003', NULL) => NULL
            str_to_date('2007-10-00', '%Y-%m-%d', 1) => NULL
            str_to_date('0000-00-00', '%Y-%m-%d', 1) => 0000-00-00
            str_to_date('0000-00-00', '%Y-%m-%d', 2) => NULL
            str_to_date('2007-00-01', '%Y-%m-%d', 2) => 2007-00-01
            str_to_date('0000-00-00 10:20', '%Y-%m-%d %H:%i', 2) => 0000-00-00 10:20:00
            str_to_date('00:10', '%H:%i', 3) => 00:10:00",
        );
    }
}
