//! The exact DECIMAL value: an arbitrary-precision integer of units and a scale
//! (value = units / 10^scale), with MySQL's rules for result scales and rounding.
//!
//! Why this representation: a `DECIMAL(65,30)` needs 65 digits, beyond `i128` (38) and
//! `rust_decimal` (28), and SQLite has no decimal type at all. A `num_bigint::BigInt` of
//! units is exact at every size; the values MySQL allows are small (≤ 65 digits, a few
//! machine words), so the cost is an allocation per operation, paid only by DECIMAL
//! arithmetic — comparisons of stored values never build one (see `collation`).
//!
//! MySQL's rules, as MariaDB 10.11 applies them:
//! * `+`, `-`, MOD: scale min(max(s1, s2), 38); `*`: scale min(s1 + s2, 38); `/`: scale
//!   min(s1 + div_precision_increment (4), 38); results past 38 digits of fraction are
//!   rounded half away from zero; MOD has the sign of the dividend.
//! * Rounding to fewer digits is half away from zero (`ROUND(2.5)` = 3, `ROUND(-2.5)` = -3).
//! * Text is printed with exactly `scale` fraction digits (`1.50` stays `1.50`).

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

/// The most digits a DECIMAL holds.
pub(crate) const MAX_PRECISION: u32 = 65;
/// The 9-digit words MariaDB's arithmetic holds a value in (81 digits).
const WORDS: u32 = 9;
/// The most fraction digits a DECIMAL holds (MariaDB's DECIMAL_MAX_SCALE).
pub(crate) const MAX_SCALE: u32 = 38;
/// Fraction digits a division adds to its dividend's (`div_precision_increment`).
pub(crate) fn div_precision_increment() -> u32 {
    crate::functions::settings::settings().div_precision_increment
}
/// Exponents beyond this make a value that no DECIMAL holds (the parse refuses them
/// rather than building a number with thousands of digits).
const MAX_EXPONENT: i64 = 200;

/// An exact decimal number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    /// The value times 10^scale.
    units: BigInt,
    /// Digits after the decimal point.
    scale: u32,
}

/// How much of a text a parse used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// All of it (surrounding spaces aside).
    Whole,
    /// A numeric prefix; the rest is not a number (`'12abc'`).
    Prefix,
    /// No number at all (`'abc'`, `''`): the value is 0.
    Nothing,
}

fn pow10(n: u32) -> BigInt {
    BigInt::from(10u8).pow(n)
}

/// `n / d` rounded half away from zero.
fn div_round(n: &BigInt, d: &BigInt) -> BigInt {
    let q = n / d;
    let r = n % d;
    if (r.abs() * 2u8) >= d.abs() {
        if n.is_negative() != d.is_negative() {
            q - 1u8
        } else {
            q + 1u8
        }
    } else {
        q
    }
}

/// Skips a sign at `b[*i]`; true for `-`.
fn sign(b: &[u8], i: &mut usize) -> bool {
    match b.get(*i) {
        Some(b'-') => {
            *i += 1;
            true
        }
        Some(b'+') => {
            *i += 1;
            false
        }
        _ => false,
    }
}

/// The end of the run of digits starting at `i`.
fn digits_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

impl Decimal {
    /// Zero with no fraction digits.
    pub fn zero() -> Decimal {
        Decimal::from_i64(0)
    }

    /// An integer.
    pub fn from_i64(i: i64) -> Decimal {
        Decimal {
            units: BigInt::from(i),
            scale: 0,
        }
    }

    /// A double by its shortest decimal spelling (`0.1` → 0.1); None for NaN/infinity.
    pub fn from_f64(x: f64) -> Option<Decimal> {
        if !x.is_finite() {
            return None;
        }
        // `{}` never uses an exponent and prints the shortest round-tripping digits.
        let (d, _) = Decimal::parse(&format!("{x}"));
        let d = d?;
        // Doubles carry at most 17 significant digits; drop spurious trailing zeros.
        Some(d.trimmed())
    }

    /// The digits after the point.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.units.is_zero()
    }

    /// True below zero.
    pub fn is_negative(&self) -> bool {
        self.units.is_negative()
    }

    /// Parses MySQL's numeric text: spaces, a sign, digits, a point, digits, an exponent.
    /// Returns the value of the numeric prefix (0 when there is none) and how much was used;
    /// None when the exponent is absurd (no DECIMAL could hold the value).
    pub fn parse(s: &str) -> (Option<Decimal>, Parsed) {
        let t = s.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n' || c == '\r');
        let b = t.as_bytes();
        let mut i = 0;
        let neg = sign(b, &mut i);
        let int_start = i;
        i = digits_end(b, i);
        let int_digits = &t[int_start..i];
        let mut frac_digits = "";
        if i < b.len() && b[i] == b'.' {
            let f = i + 1;
            i = digits_end(b, f);
            frac_digits = &t[f..i];
        }
        if int_digits.is_empty() && frac_digits.is_empty() {
            return (Some(Decimal::zero()), Parsed::Nothing);
        }
        let mut exponent: i64 = 0;
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            let eneg = sign(b, &mut j);
            let start = j;
            j = digits_end(b, j);
            if j > start {
                let e: i64 = t[start..j].parse().unwrap_or(i64::MAX);
                if e > MAX_EXPONENT * 4 && !eneg {
                    return (None, Parsed::Whole);
                }
                // Far below any DECIMAL step (`1e-10000`) the value rounds to 0 all the same.
                let e = e.min(MAX_EXPONENT * 4);
                exponent = if eneg { -e } else { e };
                i = j;
            }
        }
        let used = if i == b.len() {
            Parsed::Whole
        } else {
            Parsed::Prefix
        };
        let digits = format!("{int_digits}{frac_digits}");
        let mut units: BigInt = digits.parse().unwrap_or_default();
        if neg {
            units = -units;
        }
        let scale = frac_digits.len() as i64 - exponent;
        let d = if scale < 0 {
            if units.is_zero() {
                Decimal::zero()
            } else if -scale > MAX_EXPONENT {
                return (None, used);
            } else {
                Decimal {
                    units: units * pow10((-scale) as u32),
                    scale: 0,
                }
            }
        } else if scale > (MAX_SCALE as i64) * 4 {
            // Far below the smallest DECIMAL step: keep enough digits to round correctly.
            let keep = (MAX_SCALE * 2) as i64;
            let drop = scale - keep;
            let rounded = if drop > digits.len() as i64 + 1 {
                BigInt::zero()
            } else {
                div_round(&units, &pow10(drop as u32))
            };
            // A value too small for these digits still is no zero (a store notes the change).
            let units = if rounded.is_zero() {
                units.signum()
            } else {
                rounded
            };
            Decimal {
                units,
                scale: keep as u32,
            }
        } else {
            Decimal {
                units,
                scale: scale as u32,
            }
        };
        (Some(d), used)
    }

    /// The same value with `scale` fraction digits, rounded half away from zero.
    pub fn round_to(&self, scale: u32) -> Decimal {
        self.rescale(scale, true)
    }

    /// The same value with `scale` fraction digits, cut toward zero.
    pub fn truncate_to(&self, scale: u32) -> Decimal {
        self.rescale(scale, false)
    }

    fn rescale(&self, scale: u32, round: bool) -> Decimal {
        let units = match scale.cmp(&self.scale) {
            Ordering::Equal => self.units.clone(),
            Ordering::Greater => &self.units * pow10(scale - self.scale),
            Ordering::Less => {
                let d = pow10(self.scale - scale);
                if round {
                    div_round(&self.units, &d)
                } else {
                    &self.units / d
                }
            }
        };
        Decimal { units, scale }
    }

    /// The same number shown with `scale` fraction digits (padded, or rounded).
    pub fn with_scale(&self, scale: u32) -> Decimal {
        self.rescale(scale, true)
    }

    /// Rounds (or truncates) to `digits` places, which may be negative (`ROUND(15.1, -1)`
    /// = 20); the result keeps min(max(digits, 0), scale) fraction digits, as MariaDB's
    /// ROUND and TRUNCATE of a DECIMAL do.
    pub fn round_places(&self, digits: i64, round: bool) -> Decimal {
        if digits >= 0 {
            return self.rescale(digits.min(self.scale as i64) as u32, round);
        }
        let up = digits.saturating_neg().min(MAX_PRECISION as i64 + 2) as u32;
        let step = pow10(self.scale + up);
        let n = if round {
            div_round(&self.units, &step)
        } else {
            &self.units / &step
        };
        Decimal {
            units: n * pow10(up),
            scale: 0,
        }
    }

    /// Removes trailing fraction zeros.
    pub fn trimmed(&self) -> Decimal {
        let mut d = self.clone();
        let ten = BigInt::from(10u8);
        while d.scale > 0 && (&d.units % &ten).is_zero() {
            d.units /= &ten;
            d.scale -= 1;
        }
        d
    }

    /// Digits before the point (0 for |x| < 1).
    pub fn int_digits(&self) -> u32 {
        let whole = (&self.units / pow10(self.scale)).abs();
        if whole.is_zero() {
            0
        } else {
            whole.to_string().len() as u32
        }
    }

    fn aligned(&self, other: &Decimal) -> (BigInt, BigInt, u32) {
        let s = self.scale.max(other.scale);
        (
            self.rescale(s, false).units,
            other.rescale(s, false).units,
            s,
        )
    }

    /// The value as a result of arithmetic: at most [`MAX_SCALE`] fraction digits,
    /// rounded (a literal may carry more, `0.1 + 0` may not).
    pub fn capped(self) -> Decimal {
        if self.scale > MAX_SCALE {
            self.round_to(MAX_SCALE)
        } else {
            self
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Decimal) -> Decimal {
        let (a, b, scale) = self.aligned(other);
        Decimal {
            units: a + b,
            scale,
        }
        .capped()
    }

    /// `self - other`.
    pub fn sub(&self, other: &Decimal) -> Decimal {
        let (a, b, scale) = self.aligned(other);
        Decimal {
            units: a - b,
            scale,
        }
        .capped()
    }

    /// `self * other`, as MariaDB's `decimal_mul` computes it: its result holds at most
    /// [`WORDS`] words of 9 digits, so where the exact product's fraction would need more,
    /// whole trailing 9-digit words of the factors' fractions are dropped first — a word of
    /// zeros, else one of the factor with more fraction words, else the smaller of the two
    /// last words (`12345678.0…01 * 987.0…02`, 36 fraction digits each, loses the `…01`).
    pub fn mul(&self, other: &Decimal) -> Decimal {
        let (mut a, mut b) = (self.clone(), other.clone());
        let int_words = (a.integer_digits() + b.integer_digits()).div_ceil(9);
        let (mut wa, mut wb) = (a.scale.div_ceil(9), b.scale.div_ceil(9));
        if int_words < WORDS {
            while int_words + wa + wb > WORDS {
                let (last_a, last_b) = (a.fraction_word(wa), b.fraction_word(wb));
                let cut_a = match (last_a, last_b) {
                    (0, _) => true,
                    (_, 0) => false,
                    _ if wa != wb => wa > wb,
                    _ => last_a < last_b,
                };
                if cut_a {
                    wa -= 1;
                    a = a.truncate_to(a.scale.min(wa * 9));
                } else {
                    wb -= 1;
                    b = b.truncate_to(b.scale.min(wb * 9));
                }
            }
        }
        Decimal {
            units: &a.units * &b.units,
            scale: a.scale + b.scale,
        }
        .capped()
    }

    /// Digits of the integer part as MariaDB counts them for a product's size (`0.5` has one).
    fn integer_digits(&self) -> u32 {
        self.truncate_to(0).units.magnitude().to_string().len() as u32
    }

    /// The `n`th 9-digit word of the fraction (1 is the first), zeros padding the scale.
    fn fraction_word(&self, n: u32) -> u64 {
        let padded = self.rescale(n * 9, false).units;
        (padded.magnitude() % 1_000_000_000u32)
            .to_u64()
            .unwrap_or(0)
    }

    /// `self / other` as MariaDB's `decimal_div` computes it, for a result shown at `shown`
    /// digits: the quotient cut to whole 9-digit words of fraction, enough for s1 + s2 +
    /// `div_precision_increment` digits (see `held`: these digits are what the next
    /// operation computes with); None when dividing by zero. So with no fraction digits at
    /// all (`5/2` at increment 0) the value shown is cut (2), and `1/16` at increment 1 is
    /// 0.1.
    pub fn quotient(&self, other: &Decimal, shown: u32) -> Option<Decimal> {
        if other.is_zero() {
            return None;
        }
        let work = (self.scale + other.scale + div_precision_increment()).div_ceil(9) * 9;
        let digits = work.max(shown);
        // units = self.units * 10^(digits - s1 + s2) / other.units, cut toward zero.
        let n = &self.units * pow10(digits - self.scale + other.scale);
        Some(Decimal {
            units: &n / &other.units,
            scale: digits,
        })
    }

    /// `self DIV other`: the exact quotient cut toward zero; None when `other` is zero.
    pub fn int_div(&self, other: &Decimal) -> Option<Decimal> {
        if other.is_zero() {
            return None;
        }
        let (a, b, _) = self.aligned(other);
        Some(Decimal {
            units: a / b,
            scale: 0,
        })
    }

    /// `self MOD other` (the sign of the dividend); None when `other` is zero.
    pub fn rem(&self, other: &Decimal) -> Option<Decimal> {
        if other.is_zero() {
            return None;
        }
        let (a, b, scale) = self.aligned(other);
        Some(
            Decimal {
                units: a % b,
                scale,
            }
            .capped(),
        )
    }

    /// `-self`.
    pub fn neg(&self) -> Decimal {
        Decimal {
            units: -&self.units,
            scale: self.scale,
        }
    }

    /// `|self|`.
    pub fn abs(&self) -> Decimal {
        Decimal {
            units: self.units.abs(),
            scale: self.scale,
        }
    }

    /// The largest integer not above the value.
    pub fn floor(&self) -> Decimal {
        let t = self.truncate_to(0);
        if self.is_negative() && t.rescale(self.scale, false) != *self {
            t.sub(&Decimal::from_i64(1))
        } else {
            t
        }
    }

    /// The smallest integer not below the value.
    pub fn ceil(&self) -> Decimal {
        let t = self.truncate_to(0);
        if !self.is_negative() && t.rescale(self.scale, false) != *self {
            t.add(&Decimal::from_i64(1))
        } else {
            t
        }
    }

    /// Numeric order.
    pub fn cmp(&self, other: &Decimal) -> Ordering {
        let (a, b, _) = self.aligned(other);
        a.cmp(&b)
    }

    /// The nearest double.
    pub fn to_f64(&self) -> f64 {
        self.to_string().parse().unwrap_or(0.0)
    }

    /// The value as an integer when it has no fraction and fits.
    pub fn to_i64(&self) -> Option<i64> {
        if self.scale == 0 {
            self.units.to_i64()
        } else {
            None
        }
    }

    /// The largest value of `DECIMAL(precision, scale)`, with the given sign.
    pub fn max_of(precision: u32, scale: u32, negative: bool) -> Decimal {
        let units = pow10(precision) - 1u8;
        Decimal {
            units: if negative { -units } else { units },
            scale,
        }
    }
}

impl std::fmt::Display for Decimal {
    /// Plain notation with exactly `scale` fraction digits.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.units.abs().to_string();
        let scale = self.scale as usize;
        let (int, frac) = if digits.len() > scale {
            digits.split_at(digits.len() - scale)
        } else {
            ("", digits.as_str())
        };
        if self.units.is_negative() {
            f.write_str("-")?;
        }
        f.write_str(if int.is_empty() { "0" } else { int })?;
        if scale > 0 {
            f.write_str(".")?;
            for _ in frac.len()..scale {
                f.write_str("0")?;
            }
            f.write_str(frac)?;
        }
        Ok(())
    }
}
