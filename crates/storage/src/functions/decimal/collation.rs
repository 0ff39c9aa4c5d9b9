//! The `tutti_decimal` collation: DECIMAL columns hold their value as canonical text
//! (`'1.50'`) and this collation orders such texts by number, so `=`, `<`, `ORDER BY`,
//! `GROUP BY`, `MIN`/`MAX`, unique keys and index lookups on a DECIMAL column are numeric.
//!
//! A value compared with the column gets the column's TEXT affinity first (`d = 1.5`
//! compares `'1.50'` with `'1.5'`), so the other side may be any spelling: the fast path
//! reads plain `[-]digits[.digits]` without allocating; anything else (an exponent from a
//! REAL turned into text, a non-numeric string) goes through the full parse, which gives
//! non-numbers MySQL's value for them (their numeric prefix, else 0).

use std::cmp::Ordering;

use super::value::Decimal;

/// The collation's name, as DDL spells it.
pub(crate) const NAME: &str = "tutti_decimal";

/// A plain decimal text split into sign, integer digits without leading zeros and
/// fraction digits without trailing zeros; None when the text is not that simple.
fn split(s: &str) -> Option<(bool, &[u8], &[u8])> {
    let b = s.as_bytes();
    let (neg, rest) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        _ => (false, b),
    };
    let point = rest.iter().position(|&c| c == b'.');
    let (int, frac) = match point {
        Some(p) => (&rest[..p], &rest[p + 1..]),
        None => (rest, &rest[rest.len()..]),
    };
    if (int.is_empty() && frac.is_empty())
        || !int.iter().all(u8::is_ascii_digit)
        || !frac.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let int_start = int.iter().position(|&c| c != b'0').unwrap_or(int.len());
    let frac_end = frac.iter().rposition(|&c| c != b'0').map_or(0, |p| p + 1);
    let (int, frac) = (&int[int_start..], &frac[..frac_end]);
    let zero = int.is_empty() && frac.is_empty();
    Some((neg && !zero, int, frac))
}

fn magnitude(a: (&[u8], &[u8]), b: (&[u8], &[u8])) -> Ordering {
    a.0.len()
        .cmp(&b.0.len())
        .then_with(|| a.0.cmp(b.0))
        .then_with(|| a.1.cmp(b.1))
}

/// Numeric order of two texts.
pub(crate) fn compare(a: &str, b: &str) -> Ordering {
    match (split(a), split(b)) {
        (Some((an, ai, af)), Some((bn, bi, bf))) => match (an, bn) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => magnitude((ai, af), (bi, bf)),
            (true, true) => magnitude((bi, bf), (ai, af)),
        },
        _ => slow(a).cmp(&slow(b)),
    }
}

/// The value of any text, for the slow path: absurd exponents sort at the ends.
fn slow(s: &str) -> Slow {
    match Decimal::parse(s) {
        (Some(d), _) => Slow::Finite(d),
        (None, _) if s.trim_start().starts_with('-') => Slow::Low,
        (None, _) => Slow::High,
    }
}

#[derive(PartialEq, Eq)]
enum Slow {
    Low,
    Finite(Decimal),
    High,
}

impl PartialOrd for Slow {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Slow {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Slow::Finite(a), Slow::Finite(b)) => a.cmp(b),
            (Slow::Low, Slow::Low) | (Slow::High, Slow::High) => Ordering::Equal,
            (Slow::Low, _) | (_, Slow::High) => Ordering::Less,
            (Slow::High, _) | (_, Slow::Low) => Ordering::Greater,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_number() {
        use Ordering::*;
        for (a, b, want) in [
            ("1.50", "1.5", Equal),
            ("10.00", "9.99", Greater),
            ("-10.00", "-9.99", Less),
            ("-0.00", "0", Equal),
            ("0.001", "-0.001", Greater),
            ("007.10", "7.1", Equal),
            (
                "12345678901234567890123456789.01",
                "12345678901234567890123456789.1",
                Less,
            ),
            ("1.0e-07", "0.0000001", Equal),
            ("1.5e2", "150.00", Equal),
            ("abc", "0", Equal),
            ("12abc", "12", Equal),
            ("1e999999", "99999999999999999999", Greater),
            ("-1e999999", "-99999999999999999999", Less),
        ] {
            assert_eq!(compare(a, b), want, "{a} vs {b}");
            assert_eq!(compare(b, a), want.reverse(), "{b} vs {a}");
        }
    }
}
