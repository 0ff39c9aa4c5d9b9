//! A DECIMAL as MariaDB's arithmetic holds it between operations, which can be more digits
//! than it shows.
//!
//! MariaDB computes a quotient to whole 9-digit words of fraction and keeps them: `1/3`
//! holds 0.333333333 though its scale, the digits it shows, is 4 (`div_precision_increment`
//! more than the dividend's). The next operation computes with what is held — `1/3*3` is
//! 0.999999999 shown at scale 4, so `1.0000`, not `0.9999`; `(1/7)*(1/7)` multiplies
//! 0.142857142 by itself; `SUM(a/b)`, `ROUND(1/7, 12)` (0.142857142000), `CAST(1/3 AS
//! DECIMAL(20,12))` and a store into a column (0.333333 in a DECIMAL(10,6), with note
//! 1265) see the held digits too. Only showing the value rounds it to its scale: a result
//! column, a string, a comparison (`1/3 = 0.3333` is true), GROUP BY and DISTINCT.
//!
//! Between tutti's DECIMAL functions such a value travels as a BLOB: [`TAG`], the scale it
//! shows, then the held digits as text. The SQL front-end hands it only to the functions
//! that read it (arithmetic, sums, rounding, casts, stores) and wraps every other use in
//! `tutti_dec_shown(x)`, which rounds it to the scale it shows; a value with no digits
//! beyond its scale travels as the plain text it always was.

use rusqlite::types::Value;

use super::value::{Decimal, MAX_SCALE};

/// The first byte of a held DECIMAL's BLOB (no text and no number starts with it).
const TAG: u8 = 0xFE;

/// A DECIMAL value and the scale it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Held {
    /// The digits arithmetic computes with.
    pub value: Decimal,
    /// The fraction digits it shows (MariaDB's `decimals` of the expression).
    pub shown: u32,
}

impl Held {
    /// A value that holds exactly what it shows.
    pub fn plain(value: Decimal) -> Held {
        Held {
            shown: value.scale(),
            value,
        }
    }

    /// The held value in `bytes`, if they are one.
    pub fn decode(bytes: &[u8]) -> Option<Held> {
        let (&TAG, rest) = bytes.split_first()? else {
            return None;
        };
        let (&shown, digits) = rest.split_first()?;
        let (value, _) = Decimal::parse(std::str::from_utf8(digits).ok()?);
        Some(Held {
            value: value?,
            shown: u32::from(shown),
        })
    }

    /// The value as tutti's functions pass it on: plain text when it holds no more digits
    /// than it shows, else the BLOB only they read (a quotient's zeros count: MariaDB's
    /// next division sees 1/4 as 0.250000000).
    pub fn into_value(self) -> Value {
        if self.value.scale() <= self.shown {
            return Value::Text(self.value.with_scale(self.shown).to_string());
        }
        let mut blob = vec![TAG, self.shown as u8];
        blob.extend_from_slice(self.value.to_string().as_bytes());
        Value::Blob(blob)
    }

    /// The value as shown: rounded (half away from zero) to its scale.
    pub fn shown(&self) -> Decimal {
        self.value.round_to(self.shown)
    }

    /// `self + other`, `self - other` (`add` false), shown at the larger scale (at most
    /// 38 digits, as all arithmetic).
    pub fn add(&self, other: &Held, add: bool) -> Held {
        let value = if add {
            self.value.add(&other.value)
        } else {
            self.value.sub(&other.value)
        };
        Held {
            value,
            shown: self.shown.max(other.shown).min(MAX_SCALE),
        }
    }

    /// `self * other`, shown at the sum of the scales.
    pub fn mul(&self, other: &Held) -> Held {
        Held {
            value: self.value.mul(&other.value),
            shown: (self.shown + other.shown).min(MAX_SCALE),
        }
    }

    /// `self / other`, shown at the dividend's scale plus `div_precision_increment`; None
    /// when dividing by zero.
    pub fn div(&self, other: &Held) -> Option<Held> {
        let shown = (self.shown + super::value::div_precision_increment()).min(MAX_SCALE);
        Some(Held {
            value: self.value.quotient(&other.value, shown)?,
            shown,
        })
    }

    /// `self MOD other`, shown at the larger scale; None when `other` is zero.
    pub fn rem(&self, other: &Held) -> Option<Held> {
        Some(Held {
            value: self.value.rem(&other.value)?,
            shown: self.shown.max(other.shown).min(MAX_SCALE),
        })
    }

    /// The same scale shown for `f` of the value (`-x`, `|x|`).
    pub fn map(&self, f: impl Fn(&Decimal) -> Decimal) -> Held {
        Held {
            value: f(&self.value),
            shown: self.shown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(text: &str, shown: u32) -> Held {
        Held {
            value: Decimal::parse(text).0.unwrap(),
            shown,
        }
    }

    #[test]
    fn a_value_with_hidden_digits_travels_as_a_tagged_blob() {
        let third = held("0.333333333", 4);
        let Value::Blob(b) = third.clone().into_value() else {
            panic!("not a blob")
        };
        assert_eq!(Held::decode(&b), Some(third.clone()));
        assert_eq!(third.shown().to_string(), "0.3333");
        // Nothing hidden: the plain text, at the scale shown.
        assert_eq!(held("0.25", 4).into_value(), Value::Text("0.2500".into()));
        assert_eq!(held("2", 4).into_value(), Value::Text("2.0000".into()));
        assert_eq!(Held::decode(b"0.5"), None);
    }

    #[test]
    fn arithmetic_computes_with_the_held_digits() {
        let one = Held::plain(Decimal::from_i64(1));
        let three = Held::plain(Decimal::from_i64(3));
        let third = one.div(&three).unwrap();
        assert_eq!(third, held("0.333333333", 4));
        assert_eq!(third.mul(&three).shown().to_string(), "1.0000");
        // 1/(1/7): the quotient of the held 0.142857142, shown at 4.
        let seventh = one.div(&Held::plain(Decimal::from_i64(7))).unwrap();
        assert_eq!(one.div(&seventh).unwrap().shown().to_string(), "7.0000");
        // A held dividend's digits count: 1/7/3 keeps 18 digits, as MariaDB.
        let q = seventh.div(&three).unwrap();
        assert_eq!(q.value.to_string(), "0.047619047333333333");
        assert_eq!(q.shown, 8);
        assert_eq!(third.add(&third, true).shown().to_string(), "0.6667");
        assert_eq!(one.div(&Held::plain(Decimal::zero())), None);
    }
}
