//! The session settings MySQL's functions read: `div_precision_increment` (the fraction
//! digits a division adds), `default_week_format` (`WEEK(d)`'s mode), `time_zone` (what
//! `NOW()`, `CURDATE()`, `FROM_UNIXTIME()` and `UNIX_TIMESTAMP(d)` mean) and `timestamp`
//! (a session clock fixed by `SET timestamp = n`).
//!
//! A statement runs on its session's thread from start to end, and the executor sets them
//! before each statement: a thread-local, so that SQL functions, which have no session to
//! ask, see the running statement's values.

use std::cell::Cell;
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest `div_precision_increment` (MariaDB clamps larger values to it).
pub const MAX_DIV_PRECISION_INCREMENT: u32 = 30;

/// The settings of the running statement's session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionSettings {
    /// Fraction digits a division adds to its dividend's.
    pub div_precision_increment: u32,
    /// `WEEK(d)`'s mode (0-7).
    pub default_week_format: u32,
    /// The session's time zone.
    pub time_zone: TimeZone,
    /// `SET timestamp = n`: the session's clock, in microseconds since the epoch.
    pub fixed_clock: Option<i64>,
}

impl Default for FunctionSettings {
    fn default() -> Self {
        FunctionSettings {
            div_precision_increment: 4,
            default_week_format: 0,
            time_zone: TimeZone::System,
            fixed_clock: None,
        }
    }
}

thread_local! {
    static SETTINGS: Cell<FunctionSettings> = Cell::new(FunctionSettings::default());
}

/// Sets the settings this thread's statements see.
pub fn set_function_settings(s: FunctionSettings) {
    let s = FunctionSettings {
        div_precision_increment: s.div_precision_increment.min(MAX_DIV_PRECISION_INCREMENT),
        default_week_format: s.default_week_format & 7,
        ..s
    };
    SETTINGS.with(|c| c.set(s));
}

/// The running statement's settings.
pub(crate) fn settings() -> FunctionSettings {
    SETTINGS.with(Cell::get)
}

/// A session time zone: the server's (UTC; `@@system_time_zone`) or a fixed offset.
/// Named zones need MariaDB's time zone tables, which a Debian install leaves empty, so
/// MariaDB refuses them too (1298).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeZone {
    System,
    /// Seconds east of UTC, -12:59 to +13:00.
    Offset(i32),
}

impl TimeZone {
    /// Reads `SYSTEM` or `[+-]H[H]:MM`, as MariaDB does; None for anything else.
    pub fn parse(text: &str) -> Option<TimeZone> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("system") {
            return Some(TimeZone::System);
        }
        let negative = t.starts_with('-');
        let body = t.strip_prefix(['+', '-'])?;
        let (h, m) = body.split_once(':')?;
        let digits =
            |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(h) || !digits(m) {
            return None;
        }
        let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
        let secs = h * 3600 + m * 60;
        let fits = if negative {
            secs <= 12 * 3600 + 59 * 60
        } else {
            secs <= 13 * 3600
        };
        (m < 60 && fits).then_some(TimeZone::Offset(if negative { -secs } else { secs }))
    }

    /// Seconds east of UTC.
    pub fn offset(self) -> i64 {
        match self {
            TimeZone::System => 0,
            TimeZone::Offset(s) => s as i64,
        }
    }

    /// As `@@time_zone` shows it: `SYSTEM` or `+03:00`.
    pub fn name(self) -> String {
        match self {
            TimeZone::System => "SYSTEM".into(),
            TimeZone::Offset(s) => {
                let sign = if s < 0 { '-' } else { '+' };
                let a = s.unsigned_abs();
                format!("{sign}{:02}:{:02}", a / 3600, a / 60 % 60)
            }
        }
    }
}

/// The session's clock: microseconds since the epoch (UTC).
pub(crate) fn clock_micros() -> i64 {
    settings().fixed_clock.unwrap_or_else(|| {
        let t = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        t.as_micros() as i64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_zones_as_mariadb_reads_them() {
        let name = |t: &str| TimeZone::parse(t).map(TimeZone::name);
        assert_eq!(name("system").as_deref(), Some("SYSTEM"));
        assert_eq!(name("+3:0").as_deref(), Some("+03:00"));
        assert_eq!(name("-12:59").as_deref(), Some("-12:59"));
        assert_eq!(name("+13:00").as_deref(), Some("+13:00"));
        assert_eq!(
            TimeZone::parse("+05:30").map(TimeZone::offset),
            Some(19_800)
        );
        for bad in [
            "+13:01",
            "-13:00",
            "+14:00",
            "UTC",
            "Europe/Paris",
            "+3",
            "+03:60",
            "",
        ] {
            assert_eq!(TimeZone::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn settings_are_per_thread_and_clamped() {
        set_function_settings(FunctionSettings {
            div_precision_increment: 99,
            default_week_format: 9,
            ..FunctionSettings::default()
        });
        assert_eq!(
            settings().div_precision_increment,
            MAX_DIV_PRECISION_INCREMENT
        );
        assert_eq!(settings().default_week_format, 1);
        let other = std::thread::spawn(settings).join().unwrap();
        assert_eq!(other, FunctionSettings::default());
    }
}
