//! MariaDB's types for date and time functions and date arithmetic, each checked against
//! the column `CREATE TABLE … SELECT` makes on MariaDB 10.11:
//!
//! * `x ± INTERVAL n unit`, `DATE_ADD`, `DATE_SUB`, `ADDDATE`, `SUBDATE`: a DATE moved by
//!   days (or weeks, months, quarters, years) stays a DATE, by a time unit it becomes a
//!   DATETIME; a DATETIME or TIMESTAMP becomes a DATETIME, a TIME stays a TIME; each with
//!   the larger of the operand's fraction digits and the interval's (6 for microseconds, a
//!   number's decimals for SECOND); a string or a number moved is a string of a datetime's
//!   length (`varchar(19)`, `varchar(26)` with fractions).
//! * `DATE`, `LAST_DAY`, `MAKEDATE` are DATEs; `TIMESTAMP`, `FROM_UNIXTIME`, `CONVERT_TZ`
//!   DATETIMEs; `TIME`, `SEC_TO_TIME`, `TIMEDIFF`, `MAKETIME` TIMEs; `ADDTIME`/`SUBTIME`
//!   the kind of their first argument; `STR_TO_DATE` what its format reads.
//! * Fraction digits come from the arguments as MariaDB's `datetime_precision` counts
//!   them: a temporal type's own, a string literal's written digits, 6 for other strings
//!   and doubles, a DECIMAL's scale, none for integers; a number of seconds
//!   (`SEC_TO_TIME`, `FROM_UNIXTIME`, `MAKETIME`, `INTERVAL n SECOND`) has its decimals, 6
//!   for any string.
//!
//! Without these, a computed date was a string: a `CREATE TABLE … SELECT` over an empty
//! table made `binary(0)` columns, over rows `varchar(10)` ones, and drivers read the
//! result column as text.

use sqlparser::ast::{Expr, Function, Interval, Value as SqlValue};

use super::{text_fraction_digits, unnest, Class, Infer, Ty};

/// The most fraction digits of a temporal value.
const MAX_FSP: u32 = 6;

/// The units that move only a date.
const DATE_UNITS: [&str; 6] = ["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "YEAR_MONTH"];

/// The fraction digits MariaDB reads `e` (of type `t`) with as a date and time.
fn precision(t: &Ty, e: &Expr) -> u32 {
    match t.class {
        Class::Datetime | Class::Timestamp | Class::Time => t.len,
        Class::Date | Class::Int(_) | Class::Year | Class::Null => 0,
        Class::Decimal => t.scale.min(MAX_FSP),
        Class::Str | Class::Text => match unnest(e) {
            Expr::Value(v) => match &v.value {
                SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => {
                    text_fraction_digits(s).min(MAX_FSP)
                }
                _ => MAX_FSP,
            },
            _ => MAX_FSP,
        },
        _ => MAX_FSP,
    }
}

/// The fraction digits of a number of seconds of type `t`: a DECIMAL's scale, none for
/// integers, 6 for doubles and strings.
fn seconds_digits(t: &Ty) -> u32 {
    match t.class {
        Class::Int(_) | Class::Null | Class::Year => 0,
        Class::Decimal => t.scale.min(MAX_FSP),
        _ => MAX_FSP,
    }
}

/// The fraction digits an interval of `unit` with a step of type `step` adds.
fn interval_digits(unit: &str, step: &Ty) -> u32 {
    if unit == "MICROSECOND" || unit.ends_with("_MICROSECOND") {
        MAX_FSP
    } else if unit == "SECOND" {
        seconds_digits(step)
    } else {
        0
    }
}

/// A string holding a datetime with `digits` fraction digits.
fn datetime_string(digits: u32) -> Ty {
    let len = 19 + if digits > 0 { digits + 1 } else { 0 };
    Ty::new(Class::Str, len, 0, true)
}

impl Infer<'_> {
    /// `x` moved by `interval` (`x + INTERVAL …`, `DATE_ADD(x, INTERVAL …)`).
    pub(super) fn shifted(&self, x: &Expr, interval: &Interval) -> Option<Ty> {
        let unit = crate::dates::interval_unit(interval)?;
        let step = self.expr(&interval.value)?;
        self.moved(x, unit, &step)
    }

    /// `x` moved by a step of type `step` in `unit`.
    fn moved(&self, x: &Expr, unit: &str, step: &Ty) -> Option<Ty> {
        let t = self.expr(x)?;
        let digits = interval_digits(unit, step).max(precision(&t, x));
        Some(match t.class {
            Class::Date if DATE_UNITS.contains(&unit) => Ty::new(Class::Date, 0, 0, true),
            Class::Date | Class::Datetime | Class::Timestamp => {
                Ty::new(Class::Datetime, digits, 0, true)
            }
            Class::Time => Ty::new(Class::Time, digits, 0, true),
            Class::Str | Class::Text | Class::Int(_) | Class::Null => datetime_string(digits),
            _ => return None,
        })
    }

    /// `DATE_ADD`, `DATE_SUB`, `ADDDATE`, `SUBDATE` (None: not one of them).
    pub(super) fn date_arithmetic(&self, name: &str, f: &Function) -> Option<Ty> {
        match (name, &crate::typing::args(f)[..]) {
            ("date_add" | "date_sub" | "adddate" | "subdate", [x, Expr::Interval(i)]) => {
                self.shifted(x, i)
            }
            // `ADDDATE(d, n)`: n days
            ("adddate" | "subdate", [x, n]) => self.moved(x, "DAY", &self.expr(n)?),
            _ => None,
        }
    }

    /// The type of a date or time function `name` of arguments of types `args` (None: not
    /// one, or not derived).
    pub(super) fn temporal_function(&self, name: &str, f: &Function, args: &[Ty]) -> Option<Ty> {
        let exprs = crate::typing::args(f);
        let digits = |i: usize| Some(precision(args.get(i)?, exprs.get(i)?));
        let widest = || (0..args.len()).filter_map(digits).max().unwrap_or(0);
        let of = |class: Class, len: u32| Some(Ty::new(class, len, 0, true));
        match name {
            "date" | "last_day" | "makedate" => of(Class::Date, 0),
            "timestamp" => of(Class::Datetime, widest()),
            "convert_tz" => of(Class::Datetime, digits(0)?),
            "from_unixtime" if args.len() == 1 => of(Class::Datetime, seconds_digits(&args[0])),
            "sec_to_time" => of(Class::Time, seconds_digits(args.first()?)),
            "maketime" => of(Class::Time, seconds_digits(args.get(2)?)),
            "time" => of(Class::Time, digits(0)?),
            "timediff" => of(Class::Time, widest()),
            "addtime" | "subtime" => match args.first()?.class {
                Class::Date | Class::Datetime | Class::Timestamp => of(Class::Datetime, widest()),
                Class::Time => of(Class::Time, widest()),
                Class::Str | Class::Text => Some(datetime_string(MAX_FSP)),
                _ => None,
            },
            "str_to_date" => {
                let (kind, fsp) = crate::typing::str_to_date_kind(f)?;
                let class = match kind {
                    "date" => Class::Date,
                    "time" => Class::Time,
                    _ => Class::Datetime,
                };
                of(class, fsp)
            }
            _ => None,
        }
    }

    /// `GREATEST`/`LEAST` with a temporal argument: that kind (a DATE with a DATETIME is a
    /// DATETIME), the most fraction digits among them; strings among them are read as it.
    pub(super) fn temporal_extreme(&self, args: &[Ty]) -> Option<Ty> {
        let temporal: Vec<&Ty> = args.iter().filter(|t| t.is_temporal()).collect();
        let first = temporal.first()?;
        let same = |c: Class| temporal.iter().all(|t| t.class == c);
        let class = if same(first.class) {
            first.class
        } else if temporal.iter().all(|t| t.class != Class::Time) {
            Class::Datetime
        } else {
            return None;
        };
        let len = temporal.iter().map(|t| t.len).max().unwrap_or(0);
        let nullable = args.iter().any(|t| t.nullable);
        Some(Ty::new(class, len, 0, nullable))
    }
}
