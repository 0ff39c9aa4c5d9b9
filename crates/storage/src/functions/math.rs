//! MySQL's numeric functions: `MOD`, `CEIL`, `FLOOR`, `ROUND`, `TRUNCATE`, `POW`, `SQRT`,
//! `EXP`, `LN`, `LOG*`, `SIGN`, `PI`, `DEGREES`, `RADIANS`, trigonometry, `CONV`, `BIN`,
//! `OCT`, `HEX`, `UNHEX`.
//!
//! SQLite has no DECIMAL: a DECIMAL column or a literal such as `2.5` arrives as a REAL. So a
//! REAL argument gets MariaDB's *decimal* semantics (rounding half away from zero on the
//! shortest decimal spelling of the value: `ROUND(1.005, 2)` is 1.01, `MOD(1.1, 0.3)` is 0.2),
//! while a string argument gets MariaDB's *double* semantics (`ROUND('2.5')` is 2, rounding
//! half to even). Integers stay integers. Out-of-domain arguments give NULL as in MariaDB
//! (`SQRT(-1)`, `LN(0)`, `LOG(1, x)`); an infinite or NaN result is an error ("DOUBLE value
//! is out of range"), as MariaDB raises for `COT(0)` and `POW(-8, 1/3)`.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error, Result};

use super::PURE;

/// A numeric argument, by the semantics MariaDB would give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    /// An integer.
    Int(i64),
    /// A REAL, treated as an exact decimal (its shortest spelling).
    Dec(f64),
    /// A string converted to a number: a double.
    Dbl(f64),
}

impl Num {
    pub(crate) fn f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Dec(x) | Num::Dbl(x) => x,
        }
    }

    /// MariaDB's `val_int()`: decimals and doubles round half away from zero.
    pub(crate) fn int(self) -> i64 {
        match self {
            Num::Int(i) => i,
            Num::Dec(x) | Num::Dbl(x) => x.round() as i64,
        }
    }
}

/// The numeric prefix of a string, as MySQL converts it (`'12abc'` → 12, `'x'` → 0,
/// `'1e400'` → 1.7976931348623157e308).
pub(crate) fn parse_prefix(s: &str) -> f64 {
    let t = s.trim_start();
    let b = t.as_bytes();
    let mut end = 0;
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    if end < b.len() && (b[end] == b'-' || b[end] == b'+') {
        end += 1;
    }
    let sign_end = end;
    end = digits(end);
    let mut mantissa_digits = end - sign_end;
    if end < b.len() && b[end] == b'.' {
        let frac_end = digits(end + 1);
        mantissa_digits += frac_end - end - 1;
        end = frac_end;
    }
    if mantissa_digits > 0 && end < b.len() && (b[end] == b'e' || b[end] == b'E') {
        let mut e = end + 1;
        if e < b.len() && (b[e] == b'-' || b[e] == b'+') {
            e += 1;
        }
        let e_end = digits(e);
        if e_end > e {
            end = e_end;
        }
    }
    // beyond the largest double: the largest (MariaDB's `my_strtod`)
    let x: f64 = t[..end].parse().unwrap_or(0.0);
    if x.is_infinite() {
        f64::MAX.copysign(x)
    } else {
        x
    }
}

/// Argument `i` as a number, or None for NULL.
pub(crate) fn num(ctx: &Context<'_>, i: usize) -> Option<Num> {
    Some(match ctx.get_raw(i) {
        ValueRef::Null => return None,
        ValueRef::Integer(n) => Num::Int(n),
        ValueRef::Real(x) => Num::Dec(x),
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            Num::Dbl(parse_prefix(&String::from_utf8_lossy(t)))
        }
    })
}

/// An integral double as an INTEGER when it fits, else the REAL.
fn integral(x: f64) -> Value {
    if x.is_finite() && x.abs() < 9.2e18 {
        Value::Integer(x as i64)
    } else {
        Value::Real(x)
    }
}

/// The digits of |x| rounded (or truncated) to `d` decimals, using the shortest decimal
/// spelling of `x`: (negative, integer digits, exactly max(d, 0) fraction digits).
pub(crate) fn decimal_digits(x: f64, d: i64, truncate: bool) -> (bool, String, String) {
    // Beyond ±400 digits every double rounds to 0 or to itself: bounds the strings built
    // (`ROUND(1.5, 9223372036854775807)` must not allocate exabytes).
    let d = d.clamp(-400, 400);
    let neg = x.is_sign_negative();
    let sci = format!("{:e}", x.abs()); // "1.005e0"
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let mut digits: Vec<u8> = mant.bytes().filter(|c| c.is_ascii_digit()).collect();
    // value = 0.digits × 10^(exp + 1); keep the digits down to 10^-d.
    let point = exp + 1;
    let keep = point + d;
    if keep < 0 || (keep == 0 && (truncate || digits[0] < b'5')) {
        digits = vec![b'0'];
        return finish(neg, digits, 1, d);
    }
    let keep = keep as usize;
    if keep < digits.len() {
        let round_up = !truncate && digits[keep] >= b'5';
        digits.truncate(keep);
        if round_up {
            let mut i = keep;
            loop {
                if i == 0 {
                    digits.insert(0, b'1');
                    return finish(neg, digits, point + 1, d);
                }
                i -= 1;
                if digits[i] == b'9' {
                    digits[i] = b'0';
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        }
    }
    finish(neg, digits, point, d)
}

/// Lays out significant `digits` with the decimal point after `point` digits.
fn finish(neg: bool, mut digits: Vec<u8>, point: i64, d: i64) -> (bool, String, String) {
    let frac_len = d.max(0) as usize;
    let mut int_part = String::new();
    let mut frac = String::new();
    if point <= 0 {
        int_part.push('0');
        frac.extend(std::iter::repeat_n('0', (-point) as usize));
        frac.extend(digits.iter().map(|&c| c as char));
    } else {
        let p = point as usize;
        if digits.len() < p {
            digits.resize(p, b'0');
        }
        int_part.extend(digits[..p].iter().map(|&c| c as char));
        frac.extend(digits[p..].iter().map(|&c| c as char));
    }
    if frac.len() < frac_len {
        frac.extend(std::iter::repeat_n('0', frac_len - frac.len()));
    }
    frac.truncate(frac_len);
    let int_part = int_part.trim_start_matches('0');
    let int_part = if int_part.is_empty() { "0" } else { int_part };
    let zero = int_part == "0" && frac.bytes().all(|c| c == b'0');
    (neg && !zero, int_part.to_string(), frac)
}

/// 10^n as the nearest double, as MariaDB's `log_10` table holds it (`powi` multiplies
/// rounded products: its 10^200 is 1.0000000000000005e200).
pub(crate) fn pow10(n: u32) -> f64 {
    format!("1e{n}").parse().unwrap_or(f64::INFINITY)
}

/// MariaDB's `my_double_round`: rounding half to even (`rint`), for double arguments.
pub(crate) fn double_round(x: f64, d: i64, truncate: bool) -> f64 {
    let scale = pow10(d.unsigned_abs().min(400) as u32);
    let r = |v: f64| {
        if truncate {
            v.trunc()
        } else {
            v.round_ties_even()
        }
    };
    if d < 0 {
        if scale.is_infinite() {
            0.0
        } else {
            r(x / scale) * scale
        }
    } else if !(x * scale).is_finite() {
        x
    } else {
        r(x * scale) / scale
    }
}

/// `ROUND(x, d)` / `TRUNCATE(x, d)` for integers: exact, half away from zero.
fn int_round(i: i64, d: i64, truncate: bool) -> Value {
    if d >= 0 {
        return Value::Integer(i);
    }
    if d < -18 {
        return Value::Integer(0);
    }
    let p = 10i128.pow((-d) as u32);
    let v = i as i128;
    let mut q = v / p;
    let rem = (v % p).abs();
    if !truncate && rem * 2 >= p {
        q += v.signum();
    }
    match i64::try_from(q * p) {
        Ok(n) => Value::Integer(n),
        Err(_) => Value::Real((q * p) as f64),
    }
}

fn round_fn(n: Num, d: i64, truncate: bool) -> Value {
    match n {
        Num::Int(i) => int_round(i, d, truncate),
        Num::Dec(x) => {
            let (neg, int_part, frac) = decimal_digits(x, d, truncate);
            let s = format!("{}{int_part}.{frac}", if neg { "-" } else { "" });
            let v: f64 = s.parse().unwrap_or(0.0);
            if d <= 0 {
                integral(v)
            } else {
                Value::Real(v)
            }
        }
        Num::Dbl(x) => Value::Real(double_round(x, d, truncate)),
    }
}

/// The number of decimals in the shortest spelling of `x`.
fn scale_of(x: f64) -> i64 {
    let s = format!("{:e}", x.abs());
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let frac = mant.split_once('.').map_or(0, |(_, f)| f.len() as i64);
    (frac - exp.parse::<i64>().unwrap_or(0)).max(0)
}

fn modulo(a: Num, b: Num) -> Option<Value> {
    if b.f64() == 0.0 {
        super::diagnostics::warn(1365, "Division by 0");
        return None;
    }
    Some(match (a, b) {
        (Num::Int(x), Num::Int(y)) => Value::Integer(x.wrapping_rem(y)),
        (a, b) => {
            let (x, y) = (a.f64(), b.f64());
            let r = x % y;
            let dec = |n: Num| match n {
                Num::Dec(v) => Some(scale_of(v)),
                Num::Int(_) => Some(0),
                Num::Dbl(_) => None,
            };
            match (dec(a), dec(b)) {
                (Some(s1), Some(s2)) => {
                    let (neg, int_part, frac) = decimal_digits(r, s1.max(s2), false);
                    let s = format!("{}{int_part}.{frac}", if neg { "-" } else { "" });
                    Value::Real(s.parse().unwrap_or(r))
                }
                _ => Value::Real(r),
            }
        }
    })
}

fn out_of_range(name: &str) -> Error {
    Error::UserFunctionError(format!("DOUBLE value is out of range in '{name}'").into())
}

/// A double result: NaN or infinity is MariaDB's out-of-range error.
fn finite(x: f64, name: &str) -> Result<f64> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(out_of_range(name))
    }
}

/// MySQL's `CONV(n, from_base, to_base)` core: a number in base `from` (negative: signed)
/// to base `to` (negative: signed output).
fn conv(n: &ValueRef<'_>, from: i64, to: i64) -> Option<String> {
    if !(2..=36).contains(&from.abs()) || !(2..=36).contains(&to.abs()) {
        return None;
    }
    let value: u64 = match n {
        ValueRef::Null => return None,
        ValueRef::Integer(i) => *i as u64,
        // MariaDB reads a decimal's digits: CONV(2.7, 10, 2) is '10'.
        ValueRef::Real(x) => x.trunc() as i64 as u64,
        ValueRef::Text([]) | ValueRef::Blob([]) => return None,
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let s = String::from_utf8_lossy(t);
            let s = s.trim_start();
            let (neg, body) = match s.as_bytes().first() {
                Some(b'-') => (true, &s[1..]),
                Some(b'+') => (false, &s[1..]),
                _ => (false, s),
            };
            let base = from.unsigned_abs() as u32;
            let mut acc: u64 = 0;
            let mut overflow = false;
            for c in body.chars() {
                let Some(dgt) = c.to_digit(base) else { break };
                match acc
                    .checked_mul(base as u64)
                    .and_then(|a| a.checked_add(dgt as u64))
                {
                    Some(a) => acc = a,
                    None => overflow = true,
                }
            }
            if from < 0 {
                let lim = if neg { 1u64 << 63 } else { i64::MAX as u64 };
                let v = if overflow || acc > lim { lim } else { acc };
                if neg {
                    (v as i64).wrapping_neg() as u64
                } else {
                    v
                }
            } else if overflow {
                u64::MAX
            } else if neg {
                acc.wrapping_neg()
            } else {
                acc
            }
        }
    };
    let (neg, mut mag) = if to < 0 && (value as i64) < 0 {
        (true, (value as i64).unsigned_abs())
    } else {
        (false, value)
    };
    let base = to.unsigned_abs();
    let mut out = Vec::new();
    loop {
        let dgt = (mag % base) as u32;
        out.push(std::char::from_digit(dgt, base as u32)?.to_ascii_uppercase());
        mag /= base;
        if mag == 0 {
            break;
        }
    }
    if neg {
        out.push('-');
    }
    Some(out.iter().rev().collect())
}

type F1 = fn(f64) -> Option<f64>;

/// `tutti_real_cmp(a, b, precision[, null_safe])`: -1, 0 or 1 as doubles `a` and `b`
/// compare, equal when within `precision` (MariaDB's `compare_real_fixed`, for operands
/// with fixed decimals). NULL when one is NULL; with `null_safe` (`<=>`), 0 when both are
/// and 1 when one is.
fn real_cmp(ctx: &Context<'_>) -> Result<Option<i64>> {
    if !(3..=4).contains(&ctx.len()) {
        return Err(Error::UserFunctionError(
            "tutti_real_cmp takes 3 or 4 arguments".into(),
        ));
    }
    let null_safe = ctx.len() == 4 && ctx.get::<i64>(3)? != 0;
    let precision: f64 = ctx.get(2)?;
    Ok(match (num(ctx, 0), num(ctx, 1)) {
        (Some(a), Some(b)) => {
            let (a, b) = (a.f64(), b.f64());
            Some(if a == b || (a - b).abs() < precision {
                0
            } else if a < b {
                -1
            } else {
                1
            })
        }
        (None, None) if null_safe => Some(0),
        _ if null_safe => Some(1),
        _ => None,
    })
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    // MySQL's INTERVAL(n, a, b, ...): how many of a, b, ... come before the first one
    // greater than n (a NULL is never greater); -1 for a NULL n.
    c.create_scalar_function("tutti_interval", -1, PURE, |ctx| {
        let Some(n) = num(ctx, 0) else {
            return Ok(-1i64);
        };
        let bounds = 1..ctx.len();
        let first_greater = bounds
            .clone()
            .find(|&i| num(ctx, i).is_some_and(|b| b.f64() > n.f64()));
        Ok(first_greater.unwrap_or(bounds.end) as i64 - 1)
    })?;
    c.create_scalar_function("tutti_real_cmp", -1, PURE, real_cmp)?;
    c.create_scalar_function("mod", 2, PURE, |ctx| {
        Ok(match (num(ctx, 0), num(ctx, 1)) {
            (Some(a), Some(b)) => modulo(a, b),
            _ => None,
        })
    })?;
    for (name, up) in [("ceil", true), ("ceiling", true), ("floor", false)] {
        c.create_scalar_function(name, 1, PURE, move |ctx| {
            Ok(num(ctx, 0).map(|n| match n {
                Num::Int(i) => Value::Integer(i),
                Num::Dec(x) | Num::Dbl(x) => integral(if up { x.ceil() } else { x.floor() }),
            }))
        })?;
    }
    // `tutti_double_round(x, d)` is ROUND of a DOUBLE (the SQL front-end knows which REALs
    // are doubles): half to even. `tutti_double_shown(x, d)` is a DOUBLE(M,D) sum as
    // MariaDB shows it: rounded the same, but a negative value that rounds to zero keeps
    // its sign (`-0.00`), where ROUND's zero has none.
    let rounds = [
        ("round", false, -1, false),
        ("truncate", true, 2, false),
        ("tutti_double_round", false, -1, true),
        ("tutti_double_shown", false, 2, true),
    ];
    for (name, truncate, args, double) in rounds {
        let signed_zero = name == "tutti_double_shown";
        c.create_scalar_function(name, args, PURE, move |ctx| {
            if ctx.is_empty() || ctx.len() > 2 {
                return Err(Error::UserFunctionError(
                    format!("Incorrect parameter count in the call to native function '{name}'")
                        .into(),
                ));
            }
            let d = if ctx.len() == 2 {
                match num(ctx, 1) {
                    Some(d) => d.int(),
                    None => return Ok(None),
                }
            } else {
                0
            };
            let n = match num(ctx, 0) {
                Some(Num::Dec(x)) if double => Some(Num::Dbl(x)),
                n => n,
            };
            Ok(n.map(|n| match round_fn(n, d, truncate) {
                Value::Real(z) if z == 0.0 && !signed_zero => Value::Real(0.0),
                v => v,
            }))
        })?;
    }
    // BIT_COUNT(n): the bits set in n's 64-bit two's complement (-1 has 64).
    c.create_scalar_function("bit_count", 1, PURE, |ctx| {
        Ok(bit_operand(ctx, 0).map(u64::count_ones))
    })?;
    c.create_scalar_function("sign", 1, PURE, |ctx| {
        Ok(num(ctx, 0).map(|n| match n {
            Num::Int(i) => i.signum(),
            n => {
                let x = n.f64();
                if x > 0.0 {
                    1
                } else if x < 0.0 {
                    -1
                } else {
                    0
                }
            }
        }))
    })?;
    c.create_scalar_function("pi", 0, PURE, |_| Ok(std::f64::consts::PI))?;
    let unary: [(&str, F1); 13] = [
        ("sqrt", |x| (x >= 0.0).then(|| x.sqrt())),
        ("exp", |x| Some(x.exp())),
        ("ln", |x| (x > 0.0).then(|| x.ln())),
        ("log2", |x| (x > 0.0).then(|| x.log2())),
        ("log10", |x| (x > 0.0).then(|| x.log10())),
        ("degrees", |x| Some(x.to_degrees())),
        ("radians", |x| Some(x.to_radians())),
        ("sin", |x| Some(x.sin())),
        ("cos", |x| Some(x.cos())),
        ("tan", |x| Some(x.tan())),
        ("asin", |x| (-1.0..=1.0).contains(&x).then(|| x.asin())),
        ("acos", |x| (-1.0..=1.0).contains(&x).then(|| x.acos())),
        ("cot", |x| Some(1.0 / x.tan())),
    ];
    for (name, f) in unary {
        c.create_scalar_function(name, 1, PURE, move |ctx| match num(ctx, 0) {
            None => Ok(None),
            Some(n) => match f(n.f64()) {
                None => Ok(None),
                Some(y) => finite(y, &format!("{name}({})", n.f64())).map(Some),
            },
        })?;
    }
    c.create_scalar_function("log", -1, PURE, |ctx| {
        let (base, x) = match ctx.len() {
            1 => (None, num(ctx, 0)),
            2 => match num(ctx, 0) {
                None => return Ok(None),
                b => (b, num(ctx, 1)),
            },
            _ => {
                return Err(Error::UserFunctionError(
                    "Incorrect parameter count in the call to native function 'log'".into(),
                ))
            }
        };
        let Some(x) = x.map(Num::f64).filter(|x| *x > 0.0) else {
            return Ok(None);
        };
        Ok(match base.map(Num::f64) {
            None => Some(x.ln()),
            Some(b) if b <= 0.0 || b == 1.0 => None,
            Some(b) => Some(x.ln() / b.ln()),
        })
    })?;
    for name in ["pow", "power"] {
        c.create_scalar_function(name, 2, PURE, move |ctx| match (num(ctx, 0), num(ctx, 1)) {
            (Some(a), Some(b)) => finite(
                a.f64().powf(b.f64()),
                &format!("pow({},{})", a.f64(), b.f64()),
            )
            .map(Some),
            _ => Ok(None),
        })?;
    }
    c.create_scalar_function("atan", -1, PURE, |ctx| atan(ctx, 0))?;
    c.create_scalar_function("atan2", 2, PURE, |ctx| atan(ctx, 0))?;
    c.create_scalar_function("conv", 3, PURE, |ctx| {
        let (Some(from), Some(to)) = (conv_base(ctx, 1), conv_base(ctx, 2)) else {
            return Ok(None);
        };
        Ok(conv(&ctx.get_raw(0), from, to))
    })?;
    for (name, base) in [("bin", 2), ("oct", 8)] {
        c.create_scalar_function(name, 1, PURE, move |ctx| {
            Ok(conv(&ctx.get_raw(0), 10, base))
        })?;
    }
    // HEX of a DECIMAL (its text; the SQL front-end calls the second one for it) reads the
    // text as a number.
    for (name, numeric_text) in [("hex", false), ("tutti_hex_number", true)] {
        c.create_scalar_function(name, 1, PURE, move |ctx| {
            Ok(hex(ctx.get_raw(0), numeric_text))
        })?;
    }
    c.create_scalar_function("unhex", 1, PURE, |ctx| {
        let s = match ctx.get_raw(0) {
            ValueRef::Null => return Ok(None),
            v => super::text_of(v),
        };
        let s = if s.len() % 2 == 1 { format!("0{s}") } else { s };
        let bytes: Option<Vec<u8>> = (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
            .collect();
        Ok(bytes)
    })?;
    Ok(())
}

/// An argument as the 64 bits MariaDB's bit functions read: a BIGINT UNSIGNED above 2^63
/// (exact text) or an integer as they are, other numbers rounded.
fn bit_operand(ctx: &Context<'_>, i: usize) -> Option<u64> {
    if let ValueRef::Text(t) = ctx.get_raw(i) {
        if let Ok(n) = String::from_utf8_lossy(t).trim().parse::<i128>() {
            return Some(n.clamp(i64::MIN as i128, u64::MAX as i128) as u64);
        }
    }
    num(ctx, i).map(|n| n.int() as u64)
}

/// A base of CONV as MariaDB reads it: the argument's 64-bit integer cut to a C `int`
/// (`18446744073709551614` is -2, `4294967298` is 2).
fn conv_base(ctx: &Context<'_>, i: usize) -> Option<i64> {
    let wide: i128 = match ctx.get_raw(i) {
        ValueRef::Text(t) => {
            let t = String::from_utf8_lossy(t);
            match t.trim().parse::<i128>() {
                Ok(n) => n,
                Err(_) => num(ctx, i)?.int() as i128,
            }
        }
        _ => num(ctx, i)?.int() as i128,
    };
    Some(wide as u64 as i64 as i32 as i64)
}

/// `HEX(v)`: a string's bytes (with `numeric_text`, its number: an integer up to 2^64 − 1
/// is its bits, anything else reads as a double), a number's 64 bits.
fn hex(v: ValueRef<'_>, numeric_text: bool) -> Option<String> {
    let bits = match v {
        ValueRef::Null => return None,
        ValueRef::Integer(i) => i as u64,
        ValueRef::Real(x) => real_bits(x),
        // Longer than max_allowed_packet: NULL, as in MariaDB.
        ValueRef::Text(t) | ValueRef::Blob(t) if !numeric_text => {
            return (t.len().saturating_mul(2) <= super::MAX_ALLOWED_PACKET)
                .then(|| t.iter().map(|b| format!("{b:02X}")).collect());
        }
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let t = String::from_utf8_lossy(t);
            t.trim().parse::<u64>().unwrap_or_else(|_| {
                let (d, _) = super::decimal::value::Decimal::parse(&t);
                real_bits(d.map_or(0.0, |d| d.to_f64()))
            })
        }
    };
    Some(format!("{bits:X}"))
}

/// A double's 64 bits as MariaDB's HEX reads them: rounded half away from zero, and all
/// ones at or beyond the range of BIGINT and BIGINT UNSIGNED.
fn real_bits(x: f64) -> u64 {
    if x <= i64::MIN as f64 || x >= u64::MAX as f64 || x.is_nan() {
        u64::MAX
    } else if x < 0.0 {
        (x - 0.5) as i64 as u64
    } else {
        (x + 0.5) as u64
    }
}

/// `ATAN(x)`, `ATAN(y, x)`, `ATAN2(y, x)`.
fn atan(ctx: &Context<'_>, _: usize) -> Result<Option<f64>> {
    match ctx.len() {
        1 => Ok(num(ctx, 0).map(|x| x.f64().atan())),
        2 => Ok(match (num(ctx, 0), num(ctx, 1)) {
            (Some(y), Some(x)) => Some(y.f64().atan2(x.f64())),
            _ => None,
        }),
        _ => Err(Error::UserFunctionError(
            "Incorrect parameter count in the call to native function 'atan'".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_rounding_uses_the_shortest_spelling() {
        let s = |x, d, t| {
            let (n, i, f) = decimal_digits(x, d, t);
            format!("{}{i}.{f}", if n { "-" } else { "" })
        };
        assert_eq!(s(1.005, 2, false), "1.01");
        assert_eq!(s(15.1, -1, false), "20.");
        assert_eq!(s(99.96, 1, false), "100.0");
        assert_eq!(s(-0.4, 0, false), "0.");
        assert_eq!(s(0.05, 1, false), "0.1");
        assert_eq!(s(0.001, 1, false), "0.0");
        assert_eq!(s(1.239, 2, true), "1.23");
        assert_eq!(s(123.456, -5, false), "0.");
        assert_eq!(s(1e20, 0, false), "100000000000000000000.");
        // Extreme digit counts (MariaDB: 0 and 1.5) stay cheap.
        assert_eq!(round_fn(Num::Dec(1.5), i64::MIN, false), Value::Integer(0));
        assert_eq!(round_fn(Num::Dec(1.5), i64::MAX, true), Value::Real(1.5));
        assert_eq!(
            round_fn(Num::Dec(1.5), 4_294_967_296, false),
            Value::Real(1.5)
        );
    }

    #[test]
    fn fixed_decimal_doubles_compare_within_half_a_unit() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        let q = |sql: &str| -> Option<i64> {
            c.query_row(&format!("SELECT {sql}"), [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(q("tutti_real_cmp(0.1 + 0.2, 0.3, 5e-3)"), Some(0));
        assert_eq!(q("tutti_real_cmp(0.1 + 0.2, 0.3, 5e-18)"), Some(1));
        assert_eq!(q("tutti_real_cmp(0.29, 0.3, 5e-3)"), Some(-1));
        assert_eq!(q("tutti_real_cmp(NULL, 0.3, 5e-3)"), None);
        assert_eq!(q("tutti_real_cmp(NULL, 0.3, 5e-3, 1)"), Some(1));
        assert_eq!(q("tutti_real_cmp(NULL, NULL, 5e-3, 1)"), Some(0));
        assert_eq!(q("tutti_real_cmp('0.3', 0.3, 5e-3, 1)"), Some(0));
    }

    #[test]
    fn powers_of_ten_are_the_nearest_doubles() {
        assert_eq!(pow10(200), 1e200);
        assert_eq!(pow10(22), 1e22);
        // MariaDB: 150000000000000010000…
        assert_eq!(double_round(1.5e200, -199, false), 1.5000000000000001e200);
        assert_eq!(double_round(1.23e100, -98, true), 1.23e100);
    }

    #[test]
    fn strings_convert_by_their_numeric_prefix() {
        assert_eq!(parse_prefix(" 12abc"), 12.0);
        assert_eq!(parse_prefix("-1.5e2x"), -150.0);
        assert_eq!(parse_prefix("1e"), 1.0);
        assert_eq!(parse_prefix(".5"), 0.5);
        assert_eq!(parse_prefix("-"), 0.0);
        assert_eq!(parse_prefix("abc"), 0.0);
    }
}
