//! MySQL's temporal values as a client writes them, read the way MariaDB reads them into a
//! `DATE`, `DATETIME(fsp)`, `TIMESTAMP(fsp)`, `TIME(fsp)` or `YEAR` column, and their
//! canonical text (what tutti stores, and what MariaDB shows).
//!
//! * Dates and datetimes: delimited (`2000-1-2 3:4:5.678`, any punctuation between the date's
//!   parts, a space or `T` before the time, a missing minute or second is 0) or compact
//!   (`YYYYMMDD[HHMMSS]`, `YYMMDD[HHMMSS]`); numbers as MySQL's `number_to_datetime` reads
//!   them (`20000101` is 2000-01-01, `101` 2000-01-01). A two-digit year is 2000-2069 below
//!   70, else 1970-1999. MariaDB 10.11's default `sql_mode` allows zero dates and zero parts
//!   (`0000-00-00`, `2000-00-01`) but not impossible ones (`2024-02-30`).
//! * Times: `[-][D ]H:M[:S][.f]` or compact (`SS`, `MMSS`, `HHMMSS`), up to ±838:59:59; a
//!   datetime's time part.
//! * Fractions beyond the column's precision are cut, not rounded (MariaDB's default).

use std::fmt::Write;

/// A temporal column type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Date,
    DateTime,
    Timestamp,
    Time,
    Year,
}

impl Kind {
    /// From the name the SQL front-end passes (`date`, `datetime`, ...).
    pub fn of(name: &str) -> Option<Kind> {
        Some(match name {
            "date" => Kind::Date,
            "datetime" => Kind::DateTime,
            "timestamp" => Kind::Timestamp,
            "time" => Kind::Time,
            "year" => Kind::Year,
            _ => return None,
        })
    }

    /// The word MariaDB's 1292 message uses ("Incorrect datetime value: ...").
    pub fn word(self) -> &'static str {
        match self {
            Kind::Date => "date",
            Kind::DateTime | Kind::Timestamp => "datetime",
            Kind::Time => "time",
            Kind::Year => "year",
        }
    }
}

/// A date and time of day, as parsed (not yet checked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Parts {
    pub year: u32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub micros: u32,
}

/// Days in `month` of `year` (proleptic Gregorian).
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A two-digit year: 00-69 → 2000-2069, 70-99 → 1970-1999.
pub(crate) fn full_year(yy: u32) -> u32 {
    if yy < 70 {
        2000 + yy
    } else {
        1900 + yy
    }
}

/// Microseconds of a fraction's digits (the first six count).
fn micros(digits: &str) -> u32 {
    let mut m = 0;
    for i in 0..6 {
        m = m * 10 + digits.as_bytes().get(i).map_or(0, |b| (b - b'0') as u32);
    }
    m
}

/// A scanner over ASCII text.
struct Scan<'a> {
    s: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn digits(&mut self, max: usize) -> Option<(u32, usize)> {
        let start = self.i;
        while self.i < self.s.len() && self.i - start < max && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let run = &self.s[start..self.i];
        (!run.is_empty()).then(|| {
            // saturating: a long run of digits is out of every range, never wrapped
            let v = run.iter().fold(0u32, |v, b| {
                v.saturating_mul(10).saturating_add((b - b'0') as u32)
            });
            (v, run.len())
        })
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, pred: impl Fn(u8) -> bool) -> bool {
        match self.peek() {
            Some(c) if pred(c) => {
                self.i += 1;
                true
            }
            _ => false,
        }
    }
    fn done(&self) -> bool {
        self.i == self.s.len()
    }
    /// `.ffff`: the fraction's digits ("" when none).
    fn fraction(&mut self) -> String {
        if !self.eat(|c| c == b'.') {
            return String::new();
        }
        let start = self.i;
        while self.eat(|c| c.is_ascii_digit()) {}
        self.rest_from(start)
    }
    fn rest_from(&self, start: usize) -> String {
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }
}

/// Parses a date or datetime string (None when MariaDB would not read it).
pub(crate) fn parse_datetime(text: &str) -> Option<Parts> {
    let t = text.trim();
    parse_datetime_start(t).and_then(|(p, read)| (read == t.len()).then_some(p))
}

/// A date or datetime string that goes on after its value (`'2003-01-01 00:00:00 xyz'`):
/// the value MariaDB reads from its start, with a truncation warning (None when the
/// string is a whole value or has no value at its start).
pub(crate) fn parse_datetime_truncated(text: &str) -> Option<Parts> {
    let t = text.trim();
    parse_datetime_start(t).and_then(|(p, read)| (read < t.len()).then_some(p))
}

/// Parses the date or datetime at the start of `t`: its parts and the bytes they took.
fn parse_datetime_start(t: &str) -> Option<(Parts, usize)> {
    let mut sc = Scan {
        s: t.as_bytes(),
        i: 0,
    };
    let run = t.bytes().take_while(u8::is_ascii_digit).count();
    let compact =
        run >= 6 && !matches!(sc.s.get(run), Some(c) if c.is_ascii_punctuation() && *c != b'.');
    let mut p = Parts::default();
    let year_digits;
    if compact {
        let has_time;
        (year_digits, has_time) = match run {
            6 => (2, false),
            8 => (4, false),
            10 | 12 => (2, true),
            14 => (4, true),
            _ => return None,
        };
        p.year = sc.digits(year_digits)?.0;
        p.month = sc.digits(2)?.0;
        p.day = sc.digits(2)?.0;
        if has_time {
            p.hour = sc.digits(2)?.0;
            p.minute = sc.digits(2)?.0;
            if run > 10 {
                p.second = sc.digits(2)?.0;
            }
            p.micros = micros(&sc.fraction());
        }
        sc.eat(|c| c == b'T');
    } else {
        // Each delimited part is its whole run of digits, leading zeros and all
        // (`'0002006-008-010'` is 2006-08-10; `'2006-08-10 10:11:123'` no value), as in
        // MySQL's str_to_datetime; a year written with more than two digits is taken as is.
        const PART: usize = usize::MAX;
        (p.year, year_digits) = sc.digits(PART)?;
        let delimiter = |c: u8| c.is_ascii_punctuation();
        if !sc.eat(delimiter) {
            return None;
        }
        p.month = sc.digits(PART)?.0;
        if !sc.eat(delimiter) {
            return None;
        }
        p.day = sc.digits(PART)?.0;
        // A day run on into the time is no value (`'2007/10/2000:00:00'`).
        if p.year > 9999 || p.month > 99 || p.day > 99 {
            return None;
        }
        let date_end = sc.i;
        if sc.eat(|c| c == b'T' || c.is_ascii_whitespace()) {
            while sc.eat(|c| c.is_ascii_whitespace()) {}
            match sc.digits(PART) {
                Some((hour, _)) => {
                    p.hour = hour;
                    if sc.eat(|c| c == b':') {
                        p.minute = sc.digits(PART)?.0;
                        if sc.eat(|c| c == b':') {
                            p.second = sc.digits(PART)?.0;
                            p.micros = micros(&sc.fraction());
                        }
                    }
                }
                // trailing blanks, or something else after the date
                None if sc.done() => {}
                None => sc.i = date_end,
            }
            if p.hour > 99 || p.minute > 99 || p.second > 99 {
                return None;
            }
        }
    }
    // A two-digit year is this century's or the last, except in the zero date
    // (`00-00-00`), as in MySQL's str_to_datetime.
    if year_digits <= 2 && p != Parts::default() {
        p.year = full_year(p.year);
    }
    Some((p, sc.i))
}

/// A date or datetime from an integer, as MySQL's `number_to_datetime` reads it.
pub(crate) fn datetime_of_number(n: i64) -> Option<Parts> {
    const YY: i64 = 70;
    let full = match n {
        0 => return Some(Parts::default()),
        n if n < 101 => return None,
        n if n <= (YY - 1) * 10000 + 1231 => (n + 20_000_000) * 1_000_000,
        n if n < YY * 10000 + 101 => return None,
        n if n <= 991231 => (n + 19_000_000) * 1_000_000,
        n if n < 10_000_101 => return None,
        n if n <= 99_991_231 => n * 1_000_000,
        n if n < 101_000_000 => return None,
        n if n <= (YY - 1) * 10_000_000_000 + 1_231_235_959 => n + 20_000_000_000_000,
        n if n < YY * 10_000_000_000 + 101_000_000 => return None,
        n if n <= 991_231_235_959 => n + 19_000_000_000_000,
        n if n <= 99_991_231_235_959 => n,
        _ => return None,
    };
    let part = |div: i64, m: i64| (full / div % m) as u32;
    Some(Parts {
        year: part(10_000_000_000, 10000),
        month: part(100_000_000, 100),
        day: part(1_000_000, 100),
        hour: part(10000, 100),
        minute: part(100, 100),
        second: part(1, 100),
        micros: 0,
    })
}

/// Whether a date and time is one MariaDB's default `sql_mode` stores (zero dates and
/// zero months or days are allowed; impossible days, hours and minutes are not).
pub(crate) fn valid_datetime(p: &Parts) -> bool {
    let date_ok = p.year <= 9999
        && p.month <= 12
        && p.day <= 31
        && (p.month == 0 || p.day == 0 || p.day <= days_in_month(p.year, p.month));
    date_ok && p.hour <= 23 && p.minute <= 59 && p.second <= 59
}

/// Whether a date and time is valid but for its day, which its month lacks (`2005-09-31`,
/// `2007-02-30`).
pub(crate) fn impossible_day(p: &Parts) -> bool {
    p.day <= 31 && !valid_datetime(p) && valid_datetime(&Parts { day: 1, ..*p })
}

/// Whether a datetime fits a TIMESTAMP (1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC, or
/// the zero value).
pub(crate) fn fits_timestamp(p: &Parts) -> bool {
    if *p == Parts::default() {
        return true;
    }
    if p.month == 0 || p.day == 0 {
        return false;
    }
    let secs = super::time::unix_seconds(p);
    (1..=i32::MAX as i64).contains(&secs)
}

/// A signed duration (TIME).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Duration {
    pub negative: bool,
    pub hours: u32,
    pub minutes: u32,
    pub seconds: u32,
    pub micros: u32,
}

impl Duration {
    /// A signed count of microseconds as hours, minutes, seconds (hours unbounded).
    pub fn of_micros(us: i128) -> Duration {
        let abs = us.unsigned_abs();
        let secs = (abs / 1_000_000) as u64;
        Duration {
            negative: us < 0,
            hours: (secs / 3600).min(u32::MAX as u64) as u32,
            minutes: (secs / 60 % 60) as u32,
            seconds: (secs % 60) as u32,
            micros: (abs % 1_000_000) as u32,
        }
    }

    /// Signed microseconds.
    pub fn micros(&self) -> i64 {
        let secs = self.hours as i64 * 3600 + self.minutes as i64 * 60 + self.seconds as i64;
        let us = secs * 1_000_000 + self.micros as i64;
        if self.negative {
            -us
        } else {
            us
        }
    }
}

/// The largest TIME, 838:59:59 (in seconds).
const TIME_MAX_SECONDS: u64 = 838 * 3600 + 59 * 60 + 59;

/// Parses a TIME string (None when MariaDB would not read it, or it is out of range).
pub(crate) fn parse_time(text: &str) -> Option<Duration> {
    parse_duration(text).filter(|d| !over_time_max(d))
}

/// Parses a TIME string whatever its hours (`'916:40:00'`: MariaDB clamps such a TIME, but
/// reads an interval such as `ADDTIME`'s second argument as it is).
pub(crate) fn parse_duration(text: &str) -> Option<Duration> {
    scan_duration(text)
        .filter(|(_, whole)| *whole)
        .map(|(d, _)| d)
}

/// Whether a TIME text is a datetime's time of day (`'2001-01-01 10:11:12'`,
/// `20010101101112`): MariaDB notes the date it drops.
pub(crate) fn is_datetime_time(text: &str) -> bool {
    let t = text.trim();
    if t.starts_with('-') {
        return false;
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let whole = t.split('.').next().unwrap_or(t);
    t.contains(['-', '/'])
        || whole.bytes().all(|b| b.is_ascii_digit())
            && whole
                .parse::<u64>()
                .is_ok_and(|n| (10_000_000..=99_991_231_235_959).contains(&n))
}

/// The TIME the text starts with, and whether that is all of it (`'10.22.22'` is 10.22
/// seconds followed by more); None when its minutes or seconds are past 59.
fn scan_duration(text: &str) -> Option<(Duration, bool)> {
    let t = text.trim();
    let (negative, body) = match t.strip_prefix('-') {
        Some(b) => (true, b.trim_start()),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if body.contains(['-', '/']) {
        // A datetime: its time part.
        let p = parse_datetime(body).filter(valid_datetime)?;
        let d = Duration {
            negative,
            hours: p.hour,
            minutes: p.minute,
            seconds: p.second,
            micros: p.micros,
        };
        return Some((d, true));
    }
    let mut sc = Scan {
        s: body.as_bytes(),
        i: 0,
    };
    let mut d = Duration {
        negative,
        ..Duration::default()
    };
    let start = sc.i;
    let (first, n) = sc.digits(usize::MAX)?;
    let days = if sc.peek() == Some(b' ') && n <= 3 {
        while sc.eat(|c| c == b' ') {}
        Some(first)
    } else {
        None
    };
    if let Some(days) = days {
        d.hours = days * 24 + sc.digits(3)?.0;
        if sc.eat(|c| c == b':') {
            d.minutes = sc.digits(2)?.0;
            if sc.eat(|c| c == b':') {
                d.seconds = sc.digits(2)?.0;
            }
        }
    } else if sc.eat(|c| c == b':') {
        d.hours = first;
        d.minutes = sc.digits(2)?.0;
        if sc.eat(|c| c == b':') {
            d.seconds = sc.digits(2)?.0;
        }
    } else {
        // Compact: [H..]HHMMSS from the right; as MariaDB's `number_to_time`, 8 to 14 digits
        // are a datetime (its time of day), more are beyond every TIME.
        let whole = body.as_bytes()[start..start + n].iter().fold(0u64, |v, b| {
            v.saturating_mul(10).saturating_add((b - b'0') as u64)
        });
        if whole > 99_991_231_235_959 {
            d.hours = u32::MAX;
        } else if whole > 9_999_999 && !negative {
            let p = datetime_of_number(whole as i64).filter(valid_datetime)?;
            (d.hours, d.minutes, d.seconds) = (p.hour, p.minute, p.second);
        } else {
            d.hours = (whole / 10000) as u32;
            d.minutes = (whole / 100 % 100) as u32;
            d.seconds = (whole % 100) as u32;
        }
    }
    d.micros = micros(&sc.fraction());
    (d.minutes <= 59 && d.seconds <= 59).then_some((d, sc.done()))
}

/// A TIME outside strict mode: as read when in range, beyond ±838:59:59 clamped (to
/// 838:59:59.999999, cut to the column's fraction digits as MariaDB does). Text that is
/// not all a TIME is read as far as it is one (`'12:30x'` is 12:30:00, `'10.22.22'` 10.22
/// seconds); a TIME with minutes or seconds past 59 is 0.
pub(crate) fn clamped_time(text: &str) -> Duration {
    match scan_duration(text) {
        Some((d, _)) if over_time_max(&d) => Duration {
            negative: d.negative,
            hours: 838,
            minutes: 59,
            seconds: 59,
            micros: 999_999,
        },
        Some((d, _)) => d,
        None => Duration::default(),
    }
}

/// A TIME string beyond ±838:59:59, as the largest TIME of its sign (838:59:59.999999);
/// None for any other text.
pub(crate) fn beyond_time_range(text: &str) -> Option<Duration> {
    let (d, _) = scan_duration(text)?;
    over_time_max(&d).then(|| clamped_time(text))
}

/// Beyond 838:59:59.999999 (MariaDB's TIME'838:59:59.5' is a TIME).
fn over_time_max(d: &Duration) -> bool {
    let total = d.hours as u64 * 3600 + d.minutes as u64 * 60 + d.seconds as u64;
    total > TIME_MAX_SECONDS
}

/// `.ffffff` cut to `fsp` digits ("" for 0).
fn fraction(micros: u32, fsp: u32) -> String {
    if fsp == 0 {
        return String::new();
    }
    let digits = format!("{micros:06}");
    format!(".{}", &digits[..fsp.min(6) as usize])
}

/// `YYYY-MM-DD`.
pub(crate) fn date_text(p: &Parts) -> String {
    format!("{:04}-{:02}-{:02}", p.year, p.month, p.day)
}

/// `YYYY-MM-DD HH:MM:SS[.f]` with `fsp` fraction digits.
pub(crate) fn datetime_text(p: &Parts, fsp: u32) -> String {
    let mut s = date_text(p);
    let _ = write!(s, " {:02}:{:02}:{:02}", p.hour, p.minute, p.second);
    s + &fraction(p.micros, fsp)
}

/// `[-]HH:MM:SS[.f]` with `fsp` fraction digits.
pub(crate) fn time_text(d: &Duration, fsp: u32) -> String {
    let f = fraction(d.micros, fsp);
    let shown_zero = d.hours == 0
        && d.minutes == 0
        && d.seconds == 0
        && f.bytes().all(|b| b == b'.' || b == b'0');
    let sign = if d.negative && !shown_zero { "-" } else { "" };
    format!("{sign}{:02}:{:02}:{:02}{f}", d.hours, d.minutes, d.seconds)
}

/// A YEAR from a number (0, 1-99 two-digit, 1901-2155), None when out of range.
pub(crate) fn year_of_number(n: i64) -> Option<i64> {
    match n {
        0 => Some(0),
        1..=69 => Some(2000 + n),
        70..=99 => Some(1900 + n),
        1901..=2155 => Some(n),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(s: &str) -> Option<String> {
        parse_datetime(s)
            .filter(valid_datetime)
            .map(|p| datetime_text(&p, 6))
    }

    #[test]
    fn a_datetime_followed_by_more_is_read_from_its_start() {
        let start = |s: &str| parse_datetime_truncated(s).map(|p| datetime_text(&p, 6));
        assert_eq!(
            start("2003-01-01 00:00:00 some trailer").as_deref(),
            Some("2003-01-01 00:00:00.000000")
        );
        assert_eq!(
            start("2003-01-01x").as_deref(),
            Some("2003-01-01 00:00:00.000000")
        );
        assert_eq!(
            start("2003-01-01 00:00:00.5 tr").as_deref(),
            Some("2003-01-01 00:00:00.500000")
        );
        // a whole value, or none at the start, is no truncated one
        assert_eq!(start("2003-01-01 00:00:00"), None);
        assert_eq!(start("trailer"), None);
        assert!(parse_datetime("2003-01-01 x").is_none());
    }

    #[test]
    fn datetimes_are_read_as_mariadb_reads_them() {
        for (s, want) in [
            ("2000-1-2 3:4:5.6789", "2000-01-02 03:04:05.678900"),
            (" 2000-01-02 ", "2000-01-02 00:00:00.000000"),
            ("2000/01/02T03:04:05", "2000-01-02 03:04:05.000000"),
            ("2000.01.02", "2000-01-02 00:00:00.000000"),
            ("00-01-02", "2000-01-02 00:00:00.000000"),
            ("70-01-02", "1970-01-02 00:00:00.000000"),
            // a two-digit year stays 0 in the zero date only
            ("00-00-00", "0000-00-00 00:00:00.000000"),
            ("000000", "0000-00-00 00:00:00.000000"),
            ("12-00-00", "2012-00-00 00:00:00.000000"),
            ("00-00-00 01:00:00", "2000-00-00 01:00:00.000000"),
            ("20000102030405", "2000-01-02 03:04:05.000000"),
            ("200001", "2020-00-01 00:00:00.000000"),
            ("20000102T", "2000-01-02 00:00:00.000000"),
            ("2000-01-02 10", "2000-01-02 10:00:00.000000"),
            ("2000-01-02 03:04:05.", "2000-01-02 03:04:05.000000"),
            ("0000-00-00", "0000-00-00 00:00:00.000000"),
            ("2000-00-01", "2000-00-01 00:00:00.000000"),
            ("2000-02-29", "2000-02-29 00:00:00.000000"),
            // each delimited part is its whole run of digits
            ("0002000-001-02 0003:04:05", "2000-01-02 03:04:05.000000"),
            ("0000006-08-10", "0006-08-10 00:00:00.000000"),
        ] {
            assert_eq!(dt(s).as_deref(), Some(want), "{s}");
        }
        for s in [
            "2024-02-30",
            "1900-02-29",
            "2000-13-01",
            "12000-01-02",
            "2000-01-02 101112",
            "2000-01-02 10:11:123",
            "2000-01-02abc",
            "2000-01-02 abc",
            "2000-01-02 24:00:00",
            "10000-01-01",
            "2000-01",
            "abc",
            "",
        ] {
            assert_eq!(dt(s), None, "{s}");
        }
    }

    #[test]
    fn numbers_are_read_as_number_to_datetime_reads_them() {
        let n = |n| datetime_of_number(n).map(|p| datetime_text(&p, 0));
        assert_eq!(n(20000101).as_deref(), Some("2000-01-01 00:00:00"));
        assert_eq!(n(101).as_deref(), Some("2000-01-01 00:00:00"));
        assert_eq!(n(991231).as_deref(), Some("1999-12-31 00:00:00"));
        assert_eq!(n(20000102030405).as_deref(), Some("2000-01-02 03:04:05"));
        assert_eq!(n(100), None);
        assert_eq!(n(700000), None);
    }

    #[test]
    fn times_are_read_as_mariadb_reads_them() {
        let t = |s: &str| parse_time(s).map(|d| time_text(&d, 6));
        for (s, want) in [
            ("-10:11:12.123456789", "-10:11:12.123456"),
            ("838:59:59", "838:59:59.000000"),
            ("2000-01-02 10:11:12", "10:11:12.000000"),
            ("10:11", "10:11:00.000000"),
            ("101112.5", "10:11:12.500000"),
            ("1 02:03", "26:03:00.000000"),
            ("34 10", "826:00:00.000000"),
            ("-0:0:1", "-00:00:01.000000"),
            ("12", "00:00:12.000000"),
            ("1234", "00:12:34.000000"),
            ("838:59:59.5", "838:59:59.500000"),
        ] {
            assert_eq!(t(s).as_deref(), Some(want), "{s}");
        }
        for s in ["900:00:00", "10:60:00", "abc", "", "839:00:00"] {
            assert_eq!(t(s), None, "{s}");
        }
        let long = |s: &str| parse_duration(s).map(|d| time_text(&d, 0));
        assert_eq!(long("916:40:00").as_deref(), Some("916:40:00"));
        assert_eq!(long("+100:20:30").as_deref(), Some("100:20:30"));
        assert_eq!(long("-87649415:59:59").as_deref(), Some("-87649415:59:59"));
        assert_eq!(time_text(&parse_time("-0:0:0.4").unwrap(), 0), "00:00:00");
        let clamped = |s: &str| time_text(&clamped_time(s), 0);
        assert_eq!(clamped("900:00:00"), "838:59:59");
        assert_eq!(clamped("-9000000"), "-838:59:59");
        assert_eq!(clamped("abc"), "00:00:00");
        assert_eq!(clamped("10:11:12"), "10:11:12");
        // as much as is a TIME, none when its minutes or seconds are past 59 (MariaDB 10.11)
        for (s, want) in [
            ("10.22.22", "00:00:10"),
            ("12.45a", "00:00:12"),
            ("1:2:3:4", "01:02:03"),
            ("12:30x", "12:30:00"),
            ("-12.5.5", "-00:00:12"),
            ("123456.5.5", "12:34:56"),
            ("1234567.5.5", "00:00:00"),
            ("123456789", "00:00:00"),
            ("18446744069414584320", "838:59:59"),
            ("-9223372036854775808", "-838:59:59"),
            ("20010101101112", "10:11:12"),
            ("99999999.1.1", "00:00:00"),
        ] {
            assert_eq!(clamped(s), want, "{s}");
        }
    }
}
