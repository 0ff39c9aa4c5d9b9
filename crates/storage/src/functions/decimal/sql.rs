//! The SQLite functions the SQL front-end calls for DECIMAL expressions (it decides, from
//! the types it infers, which `+ - * / MOD`, comparisons, casts, roundings and sums are
//! DECIMAL ones):
//!
//! * `tutti_dec_add/sub/mul/div/mod(a, b)`, `tutti_dec_neg(a)`, `tutti_dec_abs(a)`: exact
//!   arithmetic; the result is canonical text, or a value holding more digits than it
//!   shows (a quotient, see `held`). A REAL argument makes it double arithmetic (MySQL:
//!   DECIMAL op DOUBLE is a DOUBLE). Division or MOD by zero is NULL.
//! * `tutti_dec_shown(x)`: a held value as shown, rounded to its scale; others unchanged.
//!   `tutti_dec_digits(x)`: a held value's digits, all of them, as text (what a user
//!   variable keeps).
//!   `tutti_dec_double(x)`: the double of a value's held digits.
//! * `tutti_dec_intdiv(a, b)`: `a DIV b`, the exact quotient cut to a BIGINT (UNSIGNED
//!   above 2^63 − 1, 1690 beyond).
//! * comparisons: see `compare`.
//! * `tutti_dec_cast(x, p, s)`: `CAST(x AS DECIMAL(p, s))`; out-of-range values clamp to
//!   the largest DECIMAL(p, s) as MariaDB does (with its warning 1264). With a fourth
//!   argument the scale is s + `div_precision_increment` (at most 30), as MariaDB shows
//!   `STD` and `VARIANCE` of an exact argument of scale s.
//! * `tutti_dec_store(x, p, s, column, row)` (`tutti_udec_store` for DECIMAL UNSIGNED, which
//!   refuses negative values): a value written to a DECIMAL(p, s) column, in
//!   strict mode: rounded to s digits, error 1264 when out of range, 1366 when not a number.
//! * `tutti_dec_round(x, d)`, `tutti_dec_truncate(x, d)`, `tutti_dec_floor(x)`,
//!   `tutti_dec_ceil(x)`: exact forms of the numeric functions.
//! * Aggregates `tutti_dec_sum(x)` (scale of the inputs) and `tutti_dec_avg(x)` (scale + 4,
//!   held as a quotient is).
//!
//! Arguments: INTEGER, TEXT (a stored DECIMAL, or a literal the front-end passes as text
//! to keep all its digits) and held values are exact; REAL is a double.

use rusqlite::functions::{Aggregate, Context, WindowAggregate};
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::held::Held;
use super::value::{Decimal, MAX_PRECISION, MAX_SCALE};
use crate::functions::diagnostics;
use crate::functions::stored::{Stored, Target, CODE_OUT_OF_RANGE};
use crate::functions::PURE;

/// A numeric argument.
pub(super) enum Arg {
    /// SQL NULL.
    Null,
    /// An integer, a DECIMAL's text or a held value: exact.
    Exact(Held),
    /// A REAL, or text that is no number (its numeric prefix): a double.
    Double(f64),
}

pub(super) fn arg(v: ValueRef<'_>) -> Arg {
    match v {
        ValueRef::Null => Arg::Null,
        ValueRef::Integer(i) => Arg::Exact(Held::plain(Decimal::from_i64(i))),
        ValueRef::Real(x) => Arg::Double(x),
        ValueRef::Blob(b) if Held::decode(b).is_some() => Arg::Exact(Held::decode(b).unwrap()),
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let s = String::from_utf8_lossy(t);
            match Decimal::parse(&s) {
                (Some(d), _) => Arg::Exact(Held::plain(d)),
                (None, _) => Arg::Double(super::super::math::parse_prefix(&s)),
            }
        }
    }
}

pub(super) fn f64_of(a: &Arg) -> f64 {
    match a {
        Arg::Exact(d) => d.value.to_f64(),
        Arg::Double(x) => *x,
        Arg::Null => 0.0,
    }
}

/// A double result: NULL when not finite (a division by zero).
fn double(x: f64) -> Value {
    if x.is_finite() {
        Value::Real(x)
    } else {
        Value::Null
    }
}

fn exact(d: Option<Held>) -> Value {
    d.map_or(Value::Null, Held::into_value)
}

type Exact = fn(&Held, &Held) -> Option<Held>;
type Float = fn(f64, f64) -> f64;

fn binary(ctx: &Context<'_>, exact_op: Exact, float_op: Float) -> Value {
    match (arg(ctx.get_raw(0)), arg(ctx.get_raw(1))) {
        (Arg::Null, _) | (_, Arg::Null) => Value::Null,
        (Arg::Exact(a), Arg::Exact(b)) => exact(exact_op(&a, &b)),
        (a, b) => double(float_op(f64_of(&a), f64_of(&b))),
    }
}

fn int_arg(ctx: &Context<'_>, i: usize) -> Result<i64> {
    Ok(match ctx.get_raw(i) {
        ValueRef::Integer(n) => n,
        ValueRef::Null => 0,
        v => match arg(v) {
            Arg::Exact(d) => d.value.round_to(0).to_i64().unwrap_or(i64::MAX),
            other => f64_of(&other) as i64,
        },
    })
}

/// `(precision, scale)` arguments at `i` and `i + 1`, validated.
fn precision_scale(ctx: &Context<'_>, i: usize) -> Result<(u32, u32)> {
    let p = int_arg(ctx, i)?.clamp(1, MAX_PRECISION as i64) as u32;
    let s = int_arg(ctx, i + 1)?.clamp(0, MAX_SCALE as i64) as u32;
    Ok((p, s.min(p)))
}

/// Fits `d` into DECIMAL(p, s): rounded, or Err(clamped value) when out of range.
fn fit(d: &Decimal, p: u32, s: u32) -> std::result::Result<Decimal, Decimal> {
    let r = d.round_to(s);
    if r.int_digits() > p - s {
        Err(Decimal::max_of(p, s, d.is_negative()))
    } else {
        Ok(r)
    }
}

/// `tutti_dec_store(x, p, s, column, row)`; `tutti_udec_store` (`unsigned`) for DECIMAL
/// UNSIGNED, where a negative value is out of range (0 outside strict mode).
fn store(ctx: &Context<'_>, unsigned: bool) -> Result<Value> {
    let (p, s) = precision_scale(ctx, 1)?;
    let target = Target::of(ctx, 3, "decimal")?;
    let d = match target.number(ctx.get_raw(0))? {
        None => return Ok(Value::Null),
        Some(Stored::Exact(d)) => d,
        Some(Stored::Double(x)) => match Decimal::from_f64(x) {
            Some(d) => d,
            None => {
                let max = Decimal::max_of(p, s, x < 0.0);
                target.adjust(CODE_OUT_OF_RANGE, target.out_of_range(), max)?
            }
        },
    };
    if unsigned && d.is_negative() {
        let zero = Decimal::zero().round_to(s).to_string();
        return target.adjust(CODE_OUT_OF_RANGE, target.out_of_range(), Value::Text(zero));
    }
    match fit(&d, p, s) {
        Ok(r) => {
            // One note per value: reading it already noted the spaces after a number.
            let noted = matches!(ctx.get_raw(0), ValueRef::Text(t) if t.last().is_some_and(u8::is_ascii_whitespace));
            if r.cmp(&d) != std::cmp::Ordering::Equal && !noted {
                target.note_truncated();
            }
            Ok(Value::Text(r.to_string()))
        }
        Err(max) => target.adjust(
            CODE_OUT_OF_RANGE,
            target.out_of_range(),
            Value::Text(max.to_string()),
        ),
    }
}

fn cast(ctx: &Context<'_>) -> Result<Value> {
    let (p, mut s) = precision_scale(ctx, 1)?;
    if ctx.len() > 3 {
        // A deviation's scale: its argument's plus `div_precision_increment`, at most 30.
        s = (s + super::value::div_precision_increment()).min(30);
    }
    let d = match arg(ctx.get_raw(0)) {
        Arg::Null => return Ok(Value::Null),
        Arg::Exact(d) => d.value,
        Arg::Double(x) => match Decimal::from_f64(x) {
            Some(d) => d,
            None => Decimal::max_of(p, s, x < 0.0),
        },
    };
    let d = fit(&d, p, s).unwrap_or_else(|max| max);
    Ok(Value::Text(d.to_string()))
}

/// ROUND (`round` true) or TRUNCATE of an exact value to `d` places.
fn round(ctx: &Context<'_>, round: bool) -> Result<Value> {
    let places = if ctx.len() > 1 {
        match ctx.get_raw(1) {
            ValueRef::Null => return Ok(Value::Null),
            _ => int_arg(ctx, 1)?,
        }
    } else {
        0
    };
    Ok(match arg(ctx.get_raw(0)) {
        Arg::Null => Value::Null,
        Arg::Exact(d) => {
            // The result's scale: a constant number of places (the third argument says
            // so), else the argument's own, as MariaDB types ROUND and TRUNCATE.
            let scale = if ctx.len() > 2 {
                places.clamp(0, MAX_SCALE as i64) as u32
            } else if ctx.len() > 1 {
                d.shown
            } else {
                0
            };
            let rounded = d.value.round_places(places, round);
            Value::Text(rounded.with_scale(scale).to_string())
        }
        // A double: the existing double functions apply (rounding half to even).
        Arg::Double(x) => Value::Real(super::super::math::double_round(x, places, !round)),
    })
}

/// `a DIV b` with a DECIMAL operand: the exact quotient cut toward zero, a BIGINT (or
/// BIGINT UNSIGNED) as in MariaDB, whose 1690 it gives beyond both.
fn int_div(ctx: &Context<'_>) -> Result<Value> {
    let q = match (arg(ctx.get_raw(0)), arg(ctx.get_raw(1))) {
        (Arg::Null, _) | (_, Arg::Null) => return Ok(Value::Null),
        (Arg::Exact(a), Arg::Exact(b)) => a.value.int_div(&b.value),
        (a, b) => Decimal::from_f64((f64_of(&a) / f64_of(&b)).trunc()),
    };
    let Some(q) = q else {
        return Ok(Value::Null);
    };
    let text = q.to_string();
    match q.to_i64() {
        Some(i) => Ok(Value::Integer(i)),
        None if text.parse::<u64>().is_ok() => Ok(Value::Text(text)),
        None => {
            let show = |i: usize| match ctx.get_raw(i) {
                ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                ValueRef::Integer(n) => n.to_string(),
                ValueRef::Real(x) => x.to_string(),
                _ => String::new(),
            };
            let msg = format!(
                "BIGINT value is out of range in '{} DIV {}'",
                show(0),
                show(1)
            );
            Err(rusqlite::Error::UserFunctionError(msg.into()))
        }
    }
}

/// An integer when it fits, else the exact text.
fn integral(d: Decimal) -> Value {
    match d.to_i64() {
        Some(i) => Value::Integer(i),
        None => Value::Text(d.to_string()),
    }
}

fn unary(ctx: &Context<'_>, f: fn(&Held) -> Value, g: fn(f64) -> f64) -> Value {
    match arg(ctx.get_raw(0)) {
        Arg::Null => Value::Null,
        Arg::Exact(d) => f(&d),
        Arg::Double(x) => double(g(x)),
    }
}

/// Running exact (or, once a double is seen, double) sum and count.
#[derive(Default)]
struct Sum {
    /// The sum of the INTEGER values (no allocation per row: `SUM` of an integer column is
    /// the common case, and an `i128` holds 2^64 values of 64 bits).
    integers: i128,
    exact: Option<Held>,
    double: Option<f64>,
    count: u64,
}

impl Sum {
    /// Adds (or, `add` false, takes back) the value `v`.
    fn step(&mut self, v: ValueRef<'_>, add: bool) {
        match v {
            ValueRef::Integer(i) if add => {
                self.integers += i128::from(i);
                self.count += 1;
            }
            ValueRef::Integer(i) => {
                self.integers -= i128::from(i);
                self.count -= 1;
            }
            v if add => self.add(arg(v)),
            v => self.remove(arg(v)),
        }
    }

    /// The INTEGER values' sum as a DECIMAL.
    fn integers(&self) -> Held {
        let (d, _) = Decimal::parse(&self.integers.to_string());
        Held::plain(d.unwrap_or_else(Decimal::zero))
    }

    fn add(&mut self, a: Arg) {
        match a {
            Arg::Null => return,
            Arg::Exact(d) => match self.double.as_mut() {
                Some(x) => *x += d.value.to_f64(),
                None => {
                    self.exact = Some(match self.exact.take() {
                        Some(s) => s.add(&d, true),
                        None => d,
                    })
                }
            },
            Arg::Double(x) => {
                let so_far = self.exact.take().map_or(0.0, |d| d.value.to_f64());
                *self.double.get_or_insert(so_far) += x;
            }
        }
        self.count += 1;
    }

    /// Takes back a value [`Sum::add`] added (a row leaving a window frame).
    fn remove(&mut self, a: Arg) {
        match a {
            Arg::Null => return,
            Arg::Exact(d) => match self.double.as_mut() {
                Some(x) => *x -= d.value.to_f64(),
                None => self.exact = self.exact.take().map(|s| s.add(&d, false)),
            },
            Arg::Double(x) => *self.double.get_or_insert(0.0) -= x,
        }
        self.count -= 1;
    }
}

/// `SUM` (`avg` false) or `AVG` of DECIMAL values.
struct DecimalAggregate {
    avg: bool,
}

impl Aggregate<Sum, Value> for DecimalAggregate {
    fn init(&self, _: &mut Context<'_>) -> Result<Sum> {
        Ok(Sum::default())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Sum) -> Result<()> {
        acc.step(ctx.get_raw(0), true);
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, acc: Option<Sum>) -> Result<Value> {
        self.result(acc.as_ref())
    }
}

/// As a window function (`SUM(d) OVER (...)`): rows leave the frame as well as enter it.
impl WindowAggregate<Sum, Value> for DecimalAggregate {
    fn value(&self, acc: Option<&mut Sum>) -> Result<Value> {
        self.result(acc.as_deref())
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut Sum) -> Result<()> {
        acc.step(ctx.get_raw(0), false);
        Ok(())
    }
}

impl DecimalAggregate {
    fn result(&self, acc: Option<&Sum>) -> Result<Value> {
        let Some(acc) = acc.filter(|a| a.count > 0) else {
            return Ok(Value::Null);
        };
        if let Some(x) = acc.double {
            let x = x + acc.integers as f64;
            return Ok(double(if self.avg { x / acc.count as f64 } else { x }));
        }
        // Added to the integers: at most 38 fraction digits, as all arithmetic.
        let zero = Held::plain(Decimal::zero());
        let sum = acc
            .integers()
            .add(acc.exact.as_ref().unwrap_or(&zero), true);
        if !self.avg {
            return Ok(sum.into_value());
        }
        let count = Held::plain(Decimal::from_i64(acc.count as i64));
        Ok(exact(sum.div(&count)))
    }
}

/// MySQL's code for a division by zero (`ER_DIVISION_BY_ZERO`), a warning in a SELECT.
const DIVISION_BY_ZERO: u16 = 1365;

/// A non-NULL value divided by zero: NULL, with MariaDB's warning.
fn by_zero(ctx: &Context<'_>) -> bool {
    let zero = match arg(ctx.get_raw(1)) {
        Arg::Exact(d) => d.value.is_zero(),
        Arg::Double(x) => x == 0.0,
        Arg::Null => false,
    };
    zero && !matches!(arg(ctx.get_raw(0)), Arg::Null)
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    let ops: [(&str, Exact, Float); 5] = [
        ("tutti_dec_add", |a, b| Some(a.add(b, true)), |a, b| a + b),
        ("tutti_dec_sub", |a, b| Some(a.add(b, false)), |a, b| a - b),
        ("tutti_dec_mul", |a, b| Some(a.mul(b)), |a, b| a * b),
        ("tutti_dec_div", Held::div, |a, b| a / b),
        ("tutti_dec_mod", Held::rem, |a, b| a % b),
    ];
    for (name, e, f) in ops {
        let divides = matches!(name, "tutti_dec_div" | "tutti_dec_mod");
        c.create_scalar_function(name, 2, PURE, move |ctx| {
            if divides && by_zero(ctx) {
                diagnostics::warn(DIVISION_BY_ZERO, "Division by 0");
                return Ok(Value::Null);
            }
            Ok(binary(ctx, e, f))
        })?;
    }
    c.create_scalar_function("tutti_dec_intdiv", 2, PURE, |ctx| {
        if by_zero(ctx) {
            diagnostics::warn(DIVISION_BY_ZERO, "Division by 0");
            return Ok(Value::Null);
        }
        int_div(ctx)
    })?;
    c.create_scalar_function("tutti_dec_shown", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Blob(b) => match Held::decode(b) {
                Some(h) => Value::Text(h.shown().to_string()),
                None => Value::Blob(b.to_vec()),
            },
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        })
    })?;
    c.create_scalar_function("tutti_dec_digits", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0).as_blob().ok().and_then(Held::decode) {
            Some(h) => Value::Text(h.value.to_string()),
            None => ctx.get::<Value>(0)?,
        })
    })?;
    c.create_scalar_function("tutti_dec_double", 1, PURE, |ctx| {
        Ok(match arg(ctx.get_raw(0)) {
            Arg::Null => None,
            a => Some(f64_of(&a)),
        })
    })?;
    c.create_scalar_function("tutti_dec_neg", 1, PURE, |ctx| {
        Ok(unary(ctx, |d| d.map(Decimal::neg).into_value(), |x| -x))
    })?;
    c.create_scalar_function("tutti_dec_abs", 1, PURE, |ctx| {
        Ok(unary(ctx, |d| d.map(Decimal::abs).into_value(), f64::abs))
    })?;
    c.create_scalar_function("tutti_dec_floor", 1, PURE, |ctx| {
        Ok(unary(ctx, |d| integral(d.value.floor()), f64::floor))
    })?;
    c.create_scalar_function("tutti_dec_ceil", 1, PURE, |ctx| {
        Ok(unary(ctx, |d| integral(d.value.ceil()), f64::ceil))
    })?;
    super::compare::register(c)?;
    for n in [3, 4] {
        c.create_scalar_function("tutti_dec_cast", n, PURE, cast)?;
    }
    for (name, unsigned) in [("tutti_dec_store", false), ("tutti_udec_store", true)] {
        for args in [5, 6] {
            c.create_scalar_function(name, args, PURE, move |ctx| store(ctx, unsigned))?;
        }
    }
    for n in 1..=3 {
        c.create_scalar_function("tutti_dec_round", n, PURE, |ctx| round(ctx, true))?;
    }
    for n in 2..=3 {
        c.create_scalar_function("tutti_dec_truncate", n, PURE, |ctx| round(ctx, false))?;
    }
    c.create_window_function("tutti_dec_sum", 1, PURE, DecimalAggregate { avg: false })?;
    c.create_window_function("tutti_dec_avg", 1, PURE, DecimalAggregate { avg: true })?;
    Ok(())
}
