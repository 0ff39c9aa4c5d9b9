//! TIMESTAMP columns read in the session's `time_zone`.
//!
//! Storage keeps a TIMESTAMP in UTC (see storage's `timestamps`; writes convert there, at
//! run time). In a session whose zone is not UTC, a statement must read each TIMESTAMP as
//! its local time, so every reference to such a column reads `tutti_timestamp_read(c)`,
//! written when the column name is rewritten (`typing` sees through it: the value is the
//! column's type). As with BIGINT UNSIGNED (see `big_unsigned`), the stored form is used
//! where it serves as well, since a fixed offset keeps the order:
//!
//! * `ORDER BY c`, `GROUP BY c`, `MIN(c)`/`MAX(c)` and sort keys work on the stored form;
//! * `c op constant` compares the stored form with the constant in UTC
//!   (`tutti_timestamp_key`): the column keeps its index;
//! * the statement's own result column `c`, and a derived table's, CTE's or view's column
//!   `c` when its query is one SELECT, keep the stored form: the executor shows the
//!   client's in the session's zone (by the declared type), references to the others read
//!   them as a table's column.
//!
//! In UTC (`SYSTEM`, the default) nothing is rewritten. A view's query is always written
//! so, as it runs in the zones of the sessions that read it.

use sqlparser::ast::{BinaryOperator, Expr, Ident};

use crate::ast_build::func;
use crate::typing::{args, function_name, Scopes};
use crate::{Env, Value, VarScope};

/// The function that reads a stored TIMESTAMP in the session's zone.
pub(crate) const READ: &str = "tutti_timestamp_read";
/// The function that turns a constant of the session's zone into UTC.
const KEY: &str = "tutti_timestamp_key";

/// The session's `time_zone` in seconds east of UTC (`SYSTEM` is UTC; the executor
/// accepts only `SYSTEM` and `[+-]HH:MM`).
pub(crate) fn zone_offset(env: &dyn Env) -> i64 {
    let Some(Value::Text(zone)) = env.system_variable(VarScope::Session, "time_zone") else {
        return 0;
    };
    let z = zone.trim();
    let Some((h, m)) = z.trim_start_matches(['+', '-']).split_once(':') else {
        return 0;
    };
    let secs = h.parse::<i64>().unwrap_or(0) * 3600 + m.parse::<i64>().unwrap_or(0) * 60;
    if z.starts_with('-') {
        -secs
    } else {
        secs
    }
}

/// Whether the session's `time_zone` is not UTC (TIMESTAMPs need converting).
pub(crate) fn zoned_session(env: &dyn Env) -> bool {
    zone_offset(env) != 0
}

/// The session's clock (`@@timestamp`) in microseconds since the epoch.
pub(crate) fn session_clock_micros(env: &dyn Env) -> i64 {
    match env.system_variable(VarScope::Session, "timestamp") {
        Some(Value::Int(secs)) => secs * 1_000_000,
        Some(Value::Real(secs)) => (secs * 1e6).round() as i64,
        _ => 0,
    }
}

/// A TIMESTAMP declared type.
pub(crate) fn decl(decl: &str) -> bool {
    decl.get(..9)
        .is_some_and(|p| p.eq_ignore_ascii_case("TIMESTAMP"))
}

/// `qualifier.name` read in the session's zone, if it names a TIMESTAMP column.
pub(crate) fn named_column_value(
    qualifier: Option<&Ident>,
    name: &Ident,
    scopes: &Scopes,
) -> Option<Expr> {
    crate::big_unsigned::read_through(qualifier, name, scopes, decl, READ)
}

/// The column of `tutti_timestamp_read(c)`.
pub(crate) fn wrapped(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Function(f) if function_name(f) == READ => match args(f).as_slice() {
            [c @ (Expr::Identifier(_) | Expr::CompoundIdentifier(_))] => Some(*c),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a TIMESTAMP holds `'YYYY-MM-DD hh:mm:ss[.f]'` (SQLite text, in UTC): the zero
/// value, or 1970-01-01 00:00:01 to 2038-01-19 03:14:07.999999.
pub(crate) fn fits(sql: &str) -> bool {
    let text = sql.trim_matches('\'');
    let whole = text.get(..19).unwrap_or(text);
    whole == "0000-00-00 00:00:00"
        || ("1970-01-01 00:00:01"..="2038-01-19 03:14:07").contains(&whole)
}

/// A TIMESTAMP column's DEFAULT literal (`'2003-01-01 00:00:00[.f]'`, SQLite text) of a
/// session `offset` seconds east of UTC, in UTC: MySQL fixes the point in time when the
/// table is created. None for other text (and the zero value), kept as written.
pub(crate) fn literal_in_utc(sql: &str, offset: i64) -> Option<String> {
    let text = sql.strip_prefix('\'')?.strip_suffix('\'')?;
    if offset == 0 || text.len() < 19 || !text.is_char_boundary(19) {
        return None;
    }
    let (whole, fraction) = text.split_at(19);
    let b = whole.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = whole.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    if (b[4], b[7], b[10], b[13], b[16]) != (b'-', b'-', b' ', b':', b':') {
        return None;
    }
    let (y, m, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let (h, mi, sec) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    if !(1..=12).contains(&m) || d == 0 {
        return None;
    }
    let seconds = days_from_civil(y, m, d) * 86_400 + h * 3600 + mi * 60 + sec - offset;
    let (y, m, d) = civil_from_days(seconds.div_euclid(86_400));
    let t = seconds.rem_euclid(86_400);
    Some(format!(
        "'{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}{fraction}'",
        t / 3600,
        t / 60 % 60,
        t % 60
    ))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// The date of a count of days since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `tutti_timestamp_read(c) op k` of a constant `k` (already the column type's text)
/// → `c op tutti_timestamp_key(k)`, either way round.
pub(crate) fn stored_comparison(l: &Expr, op: &BinaryOperator, r: &Expr) -> Option<Expr> {
    let binop = |l: Expr, r: Expr| Expr::BinaryOp {
        left: Box::new(l),
        op: op.clone(),
        right: Box::new(r),
    };
    if let Some(c) = wrapped(l) {
        return Some(binop(c.clone(), func(KEY, vec![r.clone()])));
    }
    wrapped(r).map(|c| binop(func(KEY, vec![l.clone()]), c.clone()))
}

#[cfg(test)]
mod tests {
    use crate::tests::env;
    use crate::{translate, Stmt, Value};

    /// The SQLite text of a statement over `ts` (a TIMESTAMP(2) and a DATETIME column) in
    /// the session zone `zone`.
    fn sql(zone: &str, query: &str) -> String {
        let env = env()
            .with_table(
                "app",
                "ts",
                &[("id", "INT"), ("t", "TIMESTAMP(2)"), ("d", "DATETIME")],
                &["id"],
                None,
                &[],
            )
            .with_var("time_zone", Value::Text(zone.into()));
        match translate(query, &env).unwrap().remove(0) {
            Stmt::Query(q) => q.sql,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn default_literals_are_fixed_in_utc() {
        let utc = |t: &str, offset| super::literal_in_utc(t, offset);
        assert_eq!(
            utc("'2003-01-01 00:00:00'", 3 * 3600).unwrap(),
            "'2002-12-31 21:00:00'"
        );
        assert_eq!(
            utc("'2000-02-28 23:30:00.5'", -3600).unwrap(),
            "'2000-02-29 00:30:00.5'"
        );
        assert_eq!(utc("'0000-00-00 00:00:00'", 3600), None);
        assert_eq!(utc("'2003-01-01 00:00:00'", 0), None);
        assert_eq!(utc("20030101", 3600), None);
    }

    #[test]
    fn utc_sessions_read_the_stored_form() {
        for zone in ["SYSTEM", "+00:00", "-0:00"] {
            let s = sql(zone, "SELECT t + 0 FROM ts WHERE t = d");
            assert!(!s.contains("tutti_timestamp"), "{zone}: {s}");
        }
    }

    #[test]
    fn other_zones_read_local_time_but_keep_the_index() {
        let s = sql(
            "+05:00",
            "SELECT t + 0, t FROM ts WHERE t > '2020-01-01' AND t = d",
        );
        assert!(
            s.contains("tutti_temporal_number(tutti_timestamp_read(\"t\"))"),
            "{s}"
        );
        assert!(s.contains(", \"t\" AS \"t\" FROM"), "{s}");
        assert!(s.contains("\"t\" > tutti_timestamp_key("), "{s}");
        assert!(s.contains("tutti_timestamp_read(\"t\") = \"d\""), "{s}");
        let s = sql("+05:00", "SELECT MAX(t) FROM ts GROUP BY t ORDER BY t");
        assert!(s.contains("tutti_timestamp_read(MAX(\"t\"))"), "{s}");
        assert!(s.contains("GROUP BY \"t\" ORDER BY \"t\""), "{s}");
    }

    #[test]
    fn derived_tables_keep_the_stored_form_of_plain_columns_only() {
        let s = sql("-03:00", "SELECT x.t + 0 FROM (SELECT t FROM ts) x");
        assert!(s.contains("(SELECT \"t\" AS \"t\" FROM"), "{s}");
        assert!(s.contains("tutti_timestamp_read(\"x\".\"t\")"), "{s}");
        let s = sql(
            "-03:00",
            "SELECT x.m + 0 FROM (SELECT MAX(t) AS m FROM ts) x",
        );
        assert!(!s.contains("tutti_timestamp_read(\"x\""), "{s}");
        let s = sql("-03:00", "SELECT t FROM ts UNION SELECT d FROM ts");
        assert!(s.starts_with("SELECT tutti_timestamp_read(\"t\")"), "{s}");
    }

    #[test]
    fn a_current_timestamp_default_given_as_a_value_is_the_session_time() {
        let env = env()
            .with_table(
                "app",
                "tx",
                &[("id", "INT"), ("a", "TIMESTAMP(3)")],
                &["id"],
                None,
                &[],
            )
            .with_default("app", "tx", "a", "tutti_current_timestamp(3, 3, 1)");
        for q in [
            "INSERT INTO tx VALUES (2, DEFAULT)",
            "UPDATE tx SET a = DEFAULT",
        ] {
            let s = match translate(q, &env).unwrap().remove(0) {
                Stmt::Query(q) => q.sql,
                other => panic!("{other:?}"),
            };
            assert!(
                s.contains("tutti_temporal_store(NOW(3), 'timestamp', 3"),
                "{s}"
            );
        }
    }

    #[test]
    fn values_of_the_new_row_are_stored_again() {
        let s = sql(
            "+05:00",
            "INSERT INTO ts (id, t) VALUES (2, '2020-01-01') ON DUPLICATE KEY UPDATE t = VALUES(t)",
        );
        assert!(
            s.contains(
                "tutti_temporal_store(tutti_timestamp_read(\"excluded\".\"t\"), 'timestamp', 2"
            ),
            "{s}"
        );
    }
}
