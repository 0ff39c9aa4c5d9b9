//! DECIMAL comparisons the SQL front-end routes here when a computed DECIMAL is involved
//! (a stored DECIMAL column compares through its collation instead, keeping its index):
//!
//! * `tutti_dec_cmp(a, b)`: -1, 0 or 1 (NULL with a NULL), the values as shown
//!   (`1/3 = 0.3333` is true in MariaDB);
//! * `tutti_dec_same(a, b)`: `a <=> b`, 1 for two NULLs, 0 for one;
//! * `tutti_dec_between(x, low, high)`: `x BETWEEN low AND high` in three-valued logic,
//!   on the digits a quotient holds (MariaDB's BETWEEN reads them: `1/3 BETWEEN 0.3333
//!   AND 0.3333` is 0);
//! * `tutti_dec_greatest(...)`, `tutti_dec_least(...)`: the largest or smallest value
//!   (held digits compared and kept), shown at the largest scale among the arguments as
//!   MariaDB types the result (`GREATEST(1.5, 2)` is `2.0`); NULL when any is NULL.
//!
//! Without SQLite these would be wrong in a way no error shows: a computed DECIMAL is text
//! to SQLite, and text sorts after every number (`0.1 + 0.2 BETWEEN 0 AND 1` was 0). A
//! REAL argument (a DOUBLE, or a string read as one) makes the comparison one of doubles,
//! as MariaDB compares DECIMAL with DOUBLE.

use std::cmp::Ordering;

use rusqlite::functions::Context;
use rusqlite::types::Value;
use rusqlite::{Connection, Result};

use super::held::Held;
use super::sql::{arg, f64_of, Arg};
use crate::functions::PURE;

/// `a` against `b`: exact on the held digits (`shown` false) or as shown; as doubles when
/// either is one; None with a NULL.
fn order(a: &Arg, b: &Arg, shown: bool) -> Option<Ordering> {
    match (a, b) {
        (Arg::Null, _) | (_, Arg::Null) => None,
        (Arg::Exact(a), Arg::Exact(b)) if shown => Some(a.shown().cmp(&b.shown())),
        (Arg::Exact(a), Arg::Exact(b)) => Some(a.value.cmp(&b.value)),
        (a, b) => f64_of(a).partial_cmp(&f64_of(b)),
    }
}

/// SQL's AND of two truth values (None: NULL).
fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

fn between(ctx: &Context<'_>) -> Option<bool> {
    let [x, low, high] = [0, 1, 2].map(|i| arg(ctx.get_raw(i)));
    let above_low = order(&x, &low, false).map(Ordering::is_ge);
    let below_high = order(&x, &high, false).map(Ordering::is_le);
    and(above_low, below_high)
}

/// GREATEST (`greatest` true) or LEAST of the arguments.
fn extreme(ctx: &Context<'_>, greatest: bool) -> Value {
    let args: Vec<Arg> = (0..ctx.len()).map(|i| arg(ctx.get_raw(i))).collect();
    if args.iter().any(|a| matches!(a, Arg::Null)) {
        return Value::Null;
    }
    let wanted = if greatest {
        Ordering::Greater
    } else {
        Ordering::Less
    };
    let mut best = 0;
    for i in 1..args.len() {
        if order(&args[i], &args[best], false) == Some(wanted) {
            best = i;
        }
    }
    let exact: Vec<&Held> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Exact(h) => Some(h),
            _ => None,
        })
        .collect();
    match &args[best] {
        Arg::Exact(h) if exact.len() == args.len() => Held {
            value: h.value.clone(),
            shown: exact.iter().map(|h| h.shown).max().unwrap_or(h.shown),
        }
        .into_value(),
        a => Value::Real(f64_of(a)),
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_dec_cmp", 2, PURE, |ctx| {
        let (a, b) = (arg(ctx.get_raw(0)), arg(ctx.get_raw(1)));
        Ok(order(&a, &b, true).map(|o| o as i64))
    })?;
    c.create_scalar_function("tutti_dec_same", 2, PURE, |ctx| {
        Ok(match (arg(ctx.get_raw(0)), arg(ctx.get_raw(1))) {
            (Arg::Null, Arg::Null) => true,
            (a, b) => order(&a, &b, true) == Some(Ordering::Equal),
        })
    })?;
    c.create_scalar_function("tutti_dec_between", 3, PURE, |ctx| Ok(between(ctx)))?;
    for (name, greatest) in [("tutti_dec_greatest", true), ("tutti_dec_least", false)] {
        c.create_scalar_function(name, -1, PURE, move |ctx| Ok(extreme(ctx, greatest)))?;
    }
    Ok(())
}
