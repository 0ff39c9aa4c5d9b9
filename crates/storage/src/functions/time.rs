//! MySQL's date and time functions over SQLite's text datetimes ('YYYY-MM-DD HH:MM:SS').
//!
//! All in UTC; the calendar arithmetic is Howard Hinnant's days-from-civil algorithm.

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};
use std::time::{SystemTime, UNIX_EPOCH};

const PURE: FunctionFlags = FunctionFlags::SQLITE_UTF8.union(FunctionFlags::SQLITE_DETERMINISTIC);
const VOLATILE: FunctionFlags = FunctionFlags::SQLITE_UTF8;

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

/// A broken-down UTC time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DateTime {
    y: i64,
    mo: u32,
    d: u32,
    h: u32,
    mi: u32,
    s: u32,
    micros: u32,
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
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

/// Seconds since 1970-01-01 00:00:00 UTC of a (valid) date and time.
pub(crate) fn unix_seconds(p: &super::temporal::Parts) -> i64 {
    let days = days_from_civil(p.year as i64, p.month, p.day);
    days * 86400 + (p.hour * 3600 + p.minute * 60 + p.second) as i64
}

impl DateTime {
    fn from_unix(secs: i64, micros: u32) -> DateTime {
        let days = secs.div_euclid(86400);
        let rem = secs.rem_euclid(86400) as u32;
        let (y, mo, d) = civil_from_days(days);
        DateTime {
            y,
            mo,
            d,
            h: rem / 3600,
            mi: rem / 60 % 60,
            s: rem % 60,
            micros,
        }
    }

    fn now() -> DateTime {
        let t = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        DateTime::from_unix(t.as_secs() as i64, t.subsec_micros())
    }

    fn days(&self) -> i64 {
        days_from_civil(self.y, self.mo, self.d)
    }

    fn unix(&self) -> i64 {
        self.days() * 86400 + (self.h * 3600 + self.mi * 60 + self.s) as i64
    }

    /// Parses 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM:SS[.ffffff]' (or with 'T').
    pub(crate) fn parse(s: &str) -> Option<DateTime> {
        let s = s.trim();
        let (date, time) = match s.find([' ', 'T']) {
            Some(i) => (&s[..i], Some(s[i + 1..].trim())),
            None => (s, None),
        };
        let mut dp = date.splitn(3, '-');
        let y: i64 = dp.next()?.parse().ok()?;
        let mo: u32 = dp.next()?.parse().ok()?;
        let d: u32 = dp.next()?.parse().ok()?;
        if !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
            return None;
        }
        let mut dt = DateTime {
            y,
            mo,
            d,
            h: 0,
            mi: 0,
            s: 0,
            micros: 0,
        };
        if let Some(t) = time {
            let (hms, frac) = t.split_once('.').unwrap_or((t, ""));
            let mut tp = hms.splitn(3, ':');
            dt.h = tp.next()?.parse().ok()?;
            dt.mi = tp.next().unwrap_or("0").parse().ok()?;
            dt.s = tp.next().unwrap_or("0").parse().ok()?;
            if !frac.is_empty() {
                let digits: String = frac.chars().take(6).collect();
                dt.micros = format!("{digits:0<6}").parse().ok()?;
            }
            if dt.h > 23 || dt.mi > 59 || dt.s > 59 {
                return None;
            }
        }
        Some(dt)
    }

    fn datetime(&self) -> String {
        format!("{} {}", self.date(), self.time())
    }
    fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.y, self.mo, self.d)
    }
    fn time(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.h, self.mi, self.s)
    }
    /// 1 = Sunday ... 7 = Saturday (MySQL DAYOFWEEK).
    fn dayofweek(&self) -> u32 {
        ((self.days() + 4).rem_euclid(7) + 1) as u32
    }
    fn dayofyear(&self) -> i64 {
        self.days() - days_from_civil(self.y, 1, 1) + 1
    }

    /// MySQL DATE_FORMAT.
    pub(crate) fn format(&self, fmt: &str) -> String {
        let mut out = String::with_capacity(fmt.len() + 8);
        let mut it = fmt.chars();
        let h12 = if self.h.is_multiple_of(12) {
            12
        } else {
            self.h % 12
        };
        let ampm = if self.h < 12 { "AM" } else { "PM" };
        while let Some(c) = it.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let Some(spec) = it.next() else { break };
            let wd = self.dayofweek() as usize - 1;
            match spec {
                'Y' => out.push_str(&format!("{:04}", self.y)),
                'y' => out.push_str(&format!("{:02}", self.y.rem_euclid(100))),
                'm' => out.push_str(&format!("{:02}", self.mo)),
                'c' => out.push_str(&self.mo.to_string()),
                'd' => out.push_str(&format!("{:02}", self.d)),
                'e' => out.push_str(&self.d.to_string()),
                'H' => out.push_str(&format!("{:02}", self.h)),
                'k' => out.push_str(&self.h.to_string()),
                'h' | 'I' => out.push_str(&format!("{h12:02}")),
                'l' => out.push_str(&h12.to_string()),
                'i' => out.push_str(&format!("{:02}", self.mi)),
                's' | 'S' => out.push_str(&format!("{:02}", self.s)),
                'f' => out.push_str(&format!("{:06}", self.micros)),
                'p' => out.push_str(ampm),
                'T' => out.push_str(&self.time()),
                'r' => out.push_str(&format!("{h12:02}:{:02}:{:02} {ampm}", self.mi, self.s)),
                'j' => out.push_str(&format!("{:03}", self.dayofyear())),
                'M' => out.push_str(MONTHS[self.mo as usize - 1]),
                'b' => out.push_str(&MONTHS[self.mo as usize - 1][..3]),
                'W' => out.push_str(DAYS[wd]),
                'a' => out.push_str(&DAYS[wd][..3]),
                'w' => out.push_str(&(wd).to_string()),
                other => out.push(other),
            }
        }
        out
    }
}

fn arg_dt(ctx: &Context<'_>, i: usize) -> Option<DateTime> {
    match ctx.get_raw(i) {
        ValueRef::Text(t) => DateTime::parse(std::str::from_utf8(t).ok()?),
        ValueRef::Integer(n) => DateTime::parse(&n.to_string()),
        _ => None,
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    for name in [
        "now",
        "sysdate",
        "localtime",
        "localtimestamp",
        "utc_timestamp",
        "current_timestamp",
    ] {
        c.create_scalar_function(name, -1, VOLATILE, |ctx| {
            let now = DateTime::now();
            let fsp = if !ctx.is_empty() {
                ctx.get::<i64>(0)?.clamp(0, 6) as usize
            } else {
                0
            };
            Ok(if fsp == 0 {
                now.datetime()
            } else {
                format!(
                    "{}.{}",
                    now.datetime(),
                    &format!("{:06}", now.micros)[..fsp]
                )
            })
        })?;
    }
    for name in ["curdate", "utc_date", "current_date"] {
        c.create_scalar_function(name, 0, VOLATILE, |_| Ok(DateTime::now().date()))?;
    }
    for name in ["curtime", "utc_time", "current_time"] {
        c.create_scalar_function(name, 0, VOLATILE, |_| Ok(DateTime::now().time()))?;
    }
    c.create_scalar_function("unix_timestamp", -1, VOLATILE, |ctx| {
        if ctx.is_empty() {
            return Ok(Some(DateTime::now().unix()));
        }
        Ok(arg_dt(ctx, 0).map(|d| d.unix()))
    })?;
    c.create_scalar_function("from_unixtime", -1, PURE, |ctx| {
        let secs = super::math::num(ctx, 0).map(super::math::Num::f64);
        Ok(secs.map(|s| {
            let dt = DateTime::from_unix(s.floor() as i64, ((s.fract()) * 1e6) as u32);
            if ctx.len() > 1 {
                dt.format(&ctx.get::<String>(1).unwrap_or_default())
            } else {
                dt.datetime()
            }
        }))
    })?;
    c.create_scalar_function("date_format", 2, PURE, |ctx| {
        let fmt: Option<String> = ctx.get(1)?;
        Ok(arg_dt(ctx, 0).zip(fmt).map(|(d, f)| d.format(&f)))
    })?;
    c.create_scalar_function("datediff", 2, PURE, |ctx| {
        Ok(arg_dt(ctx, 0)
            .zip(arg_dt(ctx, 1))
            .map(|(a, b)| a.days() - b.days()))
    })?;
    c.create_scalar_function("to_days", 1, PURE, |ctx| {
        Ok(arg_dt(ctx, 0).map(|d| d.days() + 719528))
    })?;
    type Part = fn(&DateTime) -> i64;
    // HOUR, MINUTE and SECOND read a TIME: see `time_parts`.
    let parts: [(&str, Part); 7] = [
        ("year", |d| d.y),
        ("month", |d| d.mo as i64),
        ("day", |d| d.d as i64),
        ("dayofmonth", |d| d.d as i64),
        ("dayofweek", |d| d.dayofweek() as i64),
        ("weekday", |d| (d.dayofweek() as i64 + 5) % 7),
        ("dayofyear", |d| d.dayofyear()),
    ];
    for (name, f) in parts {
        c.create_scalar_function(name, 1, PURE, move |ctx| Ok(arg_dt(ctx, 0).map(|d| f(&d))))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let dt = DateTime::parse("2024-02-29 13:05:09.25").unwrap();
        assert_eq!(dt.unix(), 1_709_211_909);
        assert_eq!(DateTime::from_unix(1_709_211_909, 250_000), dt);
        assert_eq!(
            dt.format("%Y/%m/%d %H:%i:%s.%f %W %b %j %p"),
            "2024/02/29 13:05:09.250000 Thursday Feb 060 PM"
        );
        assert!(DateTime::parse("2024-13-01").is_none());
        assert!(DateTime::parse("nonsense").is_none());
    }

    #[test]
    fn sql_functions() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        let q =
            |sql: &str| -> rusqlite::types::Value { c.query_row(sql, [], |r| r.get(0)).unwrap() };
        use rusqlite::types::Value::*;
        assert_eq!(
            q("SELECT from_unixtime(0)"),
            Text("1970-01-01 00:00:00".into())
        );
        assert_eq!(q("SELECT unix_timestamp('1970-01-02')"), Integer(86400));
        assert_eq!(q("SELECT datediff('2024-03-01', '2024-02-28')"), Integer(2));
        assert_eq!(q("SELECT dayofweek('2024-02-29')"), Integer(5));
        assert_eq!(q("SELECT year('2024-02-29 10:00:00')"), Integer(2024));
        assert_eq!(q("SELECT length(now())"), Integer(19));
        assert_eq!(q("SELECT length(now(3))"), Integer(23));
        assert_eq!(q("SELECT date_format(NULL, '%Y')"), Null);
    }
}
