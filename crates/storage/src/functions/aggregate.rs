//! MySQL aggregates SQLite lacks: `STDDEV`/`STD`/`STDDEV_POP`, `STDDEV_SAMP`,
//! `VARIANCE`/`VAR_POP`, `VAR_SAMP`, `BIT_AND`/`BIT_OR`/`BIT_XOR`, and
//! `tutti_group_concat_limit(x, separator, n[, offset])`: `GROUP_CONCAT(x ... LIMIT
//! [offset,] n)`, n non-NULL values after the first `offset` (in the call's ORDER BY, which
//! SQLite applies) joined by the separator.
//!
//! Variances use Welford's running mean (numerically stable in one pass); NULLs are skipped,
//! no rows give NULL, and the sample forms give NULL for a single row, as in MariaDB. The bit
//! aggregates work on unsigned 64-bit values: over no rows `BIT_AND` is
//! 18446744073709551615 and the others 0. A result above `i64::MAX` is returned as its
//! decimal text, since SQLite integers are signed.
//!
//! `tutti_arrival()` numbers the rows in the order they reach an aggregate: the SQL front-end
//! sorts `GROUP_CONCAT(... ORDER BY k)` by `k, tutti_arrival() DESC`, because MariaDB keeps
//! the values in a tree that puts a value tying with an earlier one before it, so ties come
//! out in reverse arrival order.

use rusqlite::functions::{Aggregate, Context};
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use std::sync::atomic::{AtomicI64, Ordering};

use super::math::num;
use super::{PURE, VOLATILE};

/// The next `tutti_arrival()` number; only the order of the numbers matters.
static ARRIVAL: AtomicI64 = AtomicI64::new(0);

/// `GROUP_CONCAT(... LIMIT n)`: the values kept so far, and the separator (which the
/// final call, having no arguments, cannot read).
#[derive(Default)]
struct Kept {
    values: Vec<Vec<u8>>,
    separator: Vec<u8>,
    /// A non-NULL value was seen (`LIMIT 0` then gives '', not NULL).
    seen: bool,
    /// Non-NULL values skipped for the offset.
    skipped: usize,
}

struct LimitedConcat;

impl Aggregate<Kept, Option<Value>> for LimitedConcat {
    fn init(&self, _: &mut Context<'_>) -> Result<Kept> {
        Ok(Kept::default())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Kept) -> Result<()> {
        let limit = ctx.get::<i64>(2)?.max(0) as usize;
        let value = ctx.get_raw(0);
        if matches!(value, ValueRef::Null) {
            return Ok(());
        }
        acc.seen = true;
        let offset = match ctx.len() {
            4 => ctx.get::<i64>(3)?.max(0) as usize,
            _ => 0,
        };
        if acc.skipped < offset {
            acc.skipped += 1;
            return Ok(());
        }
        if acc.values.len() < limit {
            acc.values.push(super::bytes_of(value));
            acc.separator = super::bytes_of(ctx.get_raw(1));
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, acc: Option<Kept>) -> Result<Option<Value>> {
        let Some(kept) = acc.filter(|k| k.seen) else {
            return Ok(None);
        };
        let joined = kept.values.join(&kept.separator[..]);
        Ok(Some(match String::from_utf8(joined) {
            Ok(text) => Value::Text(text),
            Err(e) => Value::Blob(e.into_bytes()),
        }))
    }
}

/// Running count, mean and sum of squared deviations.
#[derive(Default)]
struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

/// `VAR_POP`-like (`sample` false) or `VAR_SAMP`-like aggregate, square-rooted when `root`.
struct Variance {
    sample: bool,
    root: bool,
}

impl Aggregate<Welford, Option<f64>> for Variance {
    fn init(&self, _: &mut Context<'_>) -> Result<Welford> {
        Ok(Welford::default())
    }

    fn step(&self, ctx: &mut Context<'_>, w: &mut Welford) -> Result<()> {
        if let Some(x) = num(ctx, 0) {
            let x = match x {
                super::math::Num::Int(i) => i as f64,
                super::math::Num::Dec(x) | super::math::Num::Dbl(x) => x,
            };
            w.n += 1;
            let delta = x - w.mean;
            w.mean += delta / w.n as f64;
            w.m2 += delta * (x - w.mean);
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, w: Option<Welford>) -> Result<Option<f64>> {
        let Some(w) = w.filter(|w| w.n > u64::from(self.sample)) else {
            return Ok(None);
        };
        let var = w.m2 / (w.n - u64::from(self.sample)) as f64;
        Ok(match (self.root, var.is_finite()) {
            (true, true) => Some(var.sqrt()),
            (false, true) => Some(var),
            // Overflowed: a deviation is the largest double, NULL if the running mean
            // became NaN, as MariaDB's (MDEV-10468); a variance is out of range (1690,
            // where MariaDB shows 0).
            (true, false) => (!var.is_nan()).then_some(f64::MAX),
            (false, false) => Some(f64::INFINITY),
        })
    }
}

/// Which bit aggregate.
#[derive(Clone, Copy)]
enum BitOp {
    And,
    Or,
    Xor,
}

impl Aggregate<u64, Value> for BitOp {
    fn init(&self, _: &mut Context<'_>) -> Result<u64> {
        Ok(match self {
            BitOp::And => u64::MAX,
            _ => 0,
        })
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut u64) -> Result<()> {
        if let Some(x) = num(ctx, 0) {
            let x = x.int() as u64;
            match self {
                BitOp::And => *acc &= x,
                BitOp::Or => *acc |= x,
                BitOp::Xor => *acc ^= x,
            }
        }
        Ok(())
    }

    fn finalize(&self, ctx: &mut Context<'_>, acc: Option<u64>) -> Result<Value> {
        let v = match acc {
            Some(v) => v,
            None => self.init(ctx)?,
        };
        Ok(match i64::try_from(v) {
            Ok(i) => Value::Integer(i),
            Err(_) => Value::Text(v.to_string()),
        })
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    let variances = [
        ("std", false, true),
        ("stddev", false, true),
        ("stddev_pop", false, true),
        ("stddev_samp", true, true),
        ("variance", false, false),
        ("var_pop", false, false),
        ("var_samp", true, false),
    ];
    for (name, sample, root) in variances {
        c.create_aggregate_function(name, 1, PURE, Variance { sample, root })?;
    }
    for arity in [3, 4] {
        c.create_aggregate_function("tutti_group_concat_limit", arity, PURE, LimitedConcat)?;
    }
    for (name, op) in [
        ("bit_and", BitOp::And),
        ("bit_or", BitOp::Or),
        ("bit_xor", BitOp::Xor),
    ] {
        c.create_aggregate_function(name, 1, PURE, op)?;
    }
    c.create_scalar_function("tutti_arrival", 0, VOLATILE, |_| {
        Ok(ARRIVAL.fetch_add(1, Ordering::Relaxed))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use rusqlite::types::Value;
    use rusqlite::Connection;

    /// Expected values observed on MariaDB 10.11 over the same rows (which prints these
    /// doubles with 4 decimals).
    #[test]
    fn aggregates_match_mariadb() {
        let c = Connection::open_in_memory().unwrap();
        super::super::register(&c).unwrap();
        c.execute_batch(
            "CREATE TABLE t (id INTEGER, g INTEGER, v INTEGER, d REAL);
             INSERT INTO t VALUES (1,1,2,2.5),(2,1,4,NULL),(3,1,4,1.5),(4,2,5,3),(5,3,NULL,NULL),
                                  (6,2,7,4),(7,1,12,0);",
        )
        .unwrap();
        let q = |sql: &str| -> Value { c.query_row(sql, [], |r| r.get(0)).unwrap() };
        let f = |sql: &str| match q(sql) {
            Value::Real(r) => format!("{r:.4}"),
            other => format!("{other:?}"),
        };
        for (agg, want) in [
            ("STDDEV(v)", "3.1972"),
            ("STD(v)", "3.1972"),
            ("STDDEV_POP(v)", "3.1972"),
            ("STDDEV_SAMP(v)", "3.5024"),
            ("VARIANCE(v)", "10.2222"),
            ("VAR_POP(v)", "10.2222"),
            ("VAR_SAMP(v)", "12.2667"),
            ("VARIANCE(d)", "1.8600"),
        ] {
            assert_eq!(f(&format!("SELECT {agg} FROM t")), want, "{agg}");
        }
        assert_eq!(q("SELECT VAR_SAMP(v) FROM t WHERE id=1"), Value::Null);
        assert_eq!(f("SELECT STDDEV(v) FROM t WHERE id=1"), "0.0000");
        assert_eq!(q("SELECT STDDEV(v) FROM t WHERE id=5"), Value::Null);
        assert_eq!(f("SELECT STDDEV_SAMP(v) FROM t WHERE g=1"), "4.4347");
        assert_eq!(q("SELECT STDDEV_SAMP(v) FROM t WHERE g=3"), Value::Null);
        let big = "(SELECT 1.7976931348623157e308 AS x UNION ALL SELECT -1.7976931348623157e308)";
        assert_eq!(
            q(&format!("SELECT STD(x) FROM {big}")),
            Value::Real(f64::MAX)
        );
        assert_eq!(
            q(&format!("SELECT VAR_POP(x) FROM {big}")),
            Value::Real(f64::INFINITY)
        );
        let nan = "(SELECT 1.7e308 AS x UNION ALL SELECT -1.7e308 UNION ALL SELECT 0)";
        assert_eq!(q(&format!("SELECT STD(x) FROM {nan}")), Value::Null);
        assert_eq!(q("SELECT BIT_AND(v) FROM t"), Value::Integer(0));
        assert_eq!(q("SELECT BIT_OR(v) FROM t"), Value::Integer(15));
        assert_eq!(q("SELECT BIT_XOR(v) FROM t"), Value::Integer(12));
        assert_eq!(q("SELECT BIT_OR(d) FROM t"), Value::Integer(7));
        let all_ones = Value::Text("18446744073709551615".into());
        assert_eq!(q("SELECT BIT_AND(v) FROM t WHERE id=5"), all_ones);
        assert_eq!(q("SELECT BIT_AND(v) FROM t WHERE id>100"), all_ones);
        assert_eq!(q("SELECT BIT_AND(-1) FROM t"), all_ones);
        assert_eq!(q("SELECT BIT_OR(v) FROM t WHERE id=5"), Value::Integer(0));
        assert_eq!(
            q("SELECT BIT_XOR(v) FROM t WHERE id>100"),
            Value::Integer(0)
        );
    }
}
