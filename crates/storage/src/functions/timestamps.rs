//! TIMESTAMP columns hold UTC and are read in the session's `time_zone`, as in MySQL.
//!
//! A TIMESTAMP is a point in time: MySQL stores it in UTC and shows it in the reading
//! session's zone, so `SET time_zone = '+05:00'` moves every TIMESTAMP shown by five
//! hours while DATETIMEs stay as written. tutti keeps the UTC text in the column (a fixed
//! offset keeps UTC and local text in the same order, so indexes, `ORDER BY` and `MIN`
//! work on the stored form unchanged) and converts at the edges:
//!
//! * a value written to a TIMESTAMP column is read in the session's zone and stored in UTC
//!   (`tutti_temporal_store`, see `stored`), its range checked in UTC;
//! * `tutti_timestamp_read(c)` is the column's value in the session's zone, for
//!   expressions that use it (the SQL rewrite wraps references in a session whose zone is
//!   not UTC);
//! * `tutti_timestamp_key(x)` is a constant compared with the column, in UTC (the column
//!   keeps its index);
//! * `tutti_current_timestamp(p, fsp, utc)` is a `DEFAULT CURRENT_TIMESTAMP(p)` of a
//!   TIMESTAMP (UTC) or DATETIME (local) column with `fsp` fraction digits;
//! * the executor shows a result column declared TIMESTAMP through [`timestamp_in_session`].
//!
//! The zero value stays the zero value; text that is no datetime passes unchanged.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::calendar::{at_micros, micros_of, DAY_MICROS};
use super::settings::{clock_micros, settings};
use super::temporal::{self, Parts};
use super::{PURE, VOLATILE};

/// The day number (`calendar::daynr`) of 1970-01-01.
const EPOCH_DAYNR: i128 = 719_528;

/// The session's offset from UTC in seconds (0 in UTC).
fn session_offset() -> i64 {
    settings().time_zone.offset()
}

/// Whether the running statement's session reads TIMESTAMPs in UTC (nothing to convert).
pub fn session_in_utc() -> bool {
    session_offset() == 0
}

/// `p` moved by `seconds` (the zero value and dates with zero parts stay as they are).
pub(crate) fn shifted(p: &Parts, seconds: i64) -> Option<Parts> {
    if seconds == 0 || p.month == 0 || p.day == 0 {
        return Some(*p);
    }
    at_micros(micros_of(p) as i128 + seconds as i128 * 1_000_000)
}

/// A datetime of the session's zone in UTC.
pub(crate) fn to_utc(p: &Parts) -> Option<Parts> {
    shifted(p, -session_offset())
}

/// The text of a datetime moved by `seconds`, keeping its fraction digits; None when it is
/// no datetime.
fn shifted_text(text: &str, seconds: i64) -> Option<String> {
    let p = temporal::parse_datetime(text)?;
    let fsp = text
        .trim()
        .rsplit_once('.')
        .map_or(0, |(_, f)| f.len().min(6) as u32);
    Some(temporal::datetime_text(&shifted(&p, seconds)?, fsp))
}

/// A stored (UTC) TIMESTAMP as the running statement's session shows it; None when no
/// conversion is needed.
pub fn timestamp_in_session(stored: &str) -> Option<String> {
    match session_offset() {
        0 => None,
        offset => shifted_text(stored, offset),
    }
}

/// `f(text, offset)` of a text argument; other values pass unchanged.
fn converted(ctx: &Context<'_>, seconds: i64) -> Result<Value> {
    let value: Value = ctx.get(0)?;
    if seconds == 0 {
        return Ok(value);
    }
    Ok(match ctx.get_raw(0) {
        ValueRef::Text(t) => std::str::from_utf8(t)
            .ok()
            .and_then(|t| shifted_text(t, seconds))
            .map_or(value, Value::Text),
        _ => value,
    })
}

/// `tutti_current_timestamp(p, fsp, utc[, clock, offset])`: the session's clock (or
/// `clock`, microseconds since the epoch) with `p` fraction digits, shown with `fsp`, in
/// UTC or in the session's zone (or `offset` seconds east of UTC).
fn current_timestamp(ctx: &Context<'_>) -> Result<String> {
    let precision = ctx.get::<i64>(0)?.clamp(0, 6) as u32;
    let fsp = ctx.get::<i64>(1)?.clamp(0, 6) as u32;
    let utc: bool = ctx.get(2)?;
    let (clock, zone) = match ctx.len() {
        5 => (ctx.get::<i64>(3)?, ctx.get::<i64>(4)?),
        _ => (clock_micros(), session_offset()),
    };
    let offset = if utc { 0 } else { zone };
    let cut = 10i64.pow(6 - precision);
    let micros = clock.div_euclid(cut) * cut;
    let p =
        at_micros(micros as i128 + offset as i128 * 1_000_000 + EPOCH_DAYNR * DAY_MICROS as i128);
    Ok(temporal::datetime_text(&p.unwrap_or_default(), fsp))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_timestamp_read", 1, PURE, |ctx| {
        converted(ctx, session_offset())
    })?;
    c.create_scalar_function("tutti_timestamp_key", 1, PURE, |ctx| {
        converted(ctx, -session_offset())
    })?;
    c.create_scalar_function("tutti_current_timestamp", 3, VOLATILE, current_timestamp)?;
    c.create_scalar_function("tutti_current_timestamp", 5, PURE, current_timestamp)
}

#[cfg(test)]
mod tests {
    use super::super::settings::{set_function_settings, FunctionSettings, TimeZone};
    use super::*;

    fn in_zone(zone: &str) {
        set_function_settings(FunctionSettings {
            time_zone: TimeZone::parse(zone).unwrap(),
            fixed_clock: Some(1_000_000_000_123_456),
            ..FunctionSettings::default()
        });
    }

    fn one(c: &Connection, sql: &str) -> Option<String> {
        c.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn stored_utc_is_shown_in_the_session_zone_and_back() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        in_zone("+05:30");
        let read = |x: &str| one(&c, &format!("SELECT tutti_timestamp_read({x})"));
        let key = |x: &str| one(&c, &format!("SELECT tutti_timestamp_key({x})"));
        assert_eq!(
            read("'2020-12-31 20:00:00.50'").unwrap(),
            "2021-01-01 01:30:00.50"
        );
        assert_eq!(key("'2021-01-01 01:30:00'").unwrap(), "2020-12-31 20:00:00");
        assert_eq!(
            read("'0000-00-00 00:00:00'").unwrap(),
            "0000-00-00 00:00:00"
        );
        assert_eq!(read("NULL"), None);
        assert_eq!(key("'abc'").unwrap(), "abc");
        assert_eq!(
            timestamp_in_session("1970-01-01 00:00:01").unwrap(),
            "1970-01-01 05:30:01"
        );
        in_zone("SYSTEM");
        assert_eq!(
            read("'2020-12-31 20:00:00'").unwrap(),
            "2020-12-31 20:00:00"
        );
        assert_eq!(timestamp_in_session("1970-01-01 00:00:01"), None);
    }

    #[test]
    fn current_timestamp_defaults_cut_to_their_precision() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        in_zone("-03:00");
        let now = |p, fsp, utc| {
            one(
                &c,
                &format!("SELECT tutti_current_timestamp({p}, {fsp}, {utc})"),
            )
            .unwrap()
        };
        assert_eq!(now(2, 6, 1), "2001-09-09 01:46:40.120000");
        assert_eq!(now(3, 3, 0), "2001-09-08 22:46:40.123");
        assert_eq!(now(0, 0, 1), "2001-09-09 01:46:40");
        let at = "tutti_current_timestamp(1, 2, 0, 1100000000500000, 3600)";
        assert_eq!(
            one(&c, &format!("SELECT {at}")).unwrap(),
            "2004-11-09 12:33:20.50"
        );
    }
}
