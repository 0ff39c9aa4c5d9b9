//! The `tutti_time` collation: TIME values (`'-838:59:59'` .. `'838:59:59'`, canonical text)
//! compared as durations. Their text does not sort so (`'100:00:00'` < `'24:00:00'`,
//! negative values backwards); TIME columns and TIME casts carry the collation, so `<`,
//! `ORDER BY`, `MIN`/`MAX` and indexes order them as MariaDB does.

use std::cmp::Ordering;

/// The collation's name.
pub const COLLATION: &str = "tutti_time";

/// Signed microseconds of a canonical TIME text (None when it is none).
fn micros(t: &str) -> Option<i128> {
    let (negative, body) = match t.trim().strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.trim()),
    };
    let (hms, fraction) = body.split_once('.').unwrap_or((body, ""));
    let mut parts = hms.split(':');
    let mut total: i128 = 0;
    for _ in 0..3 {
        let p = parts.next()?;
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        total = total * 60 + p.parse::<i128>().ok()?;
    }
    if parts.next().is_some() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits: String = fraction
        .chars()
        .chain(std::iter::repeat('0'))
        .take(6)
        .collect();
    let v = total * 1_000_000 + digits.parse::<i128>().ok()?;
    Some(if negative { -v } else { v })
}

/// Durations in order; texts that are no TIME after all TIMEs, by their bytes.
pub fn compare(a: &str, b: &str) -> Ordering {
    match (micros(a), micros(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::compare;
    use std::cmp::Ordering::*;

    #[test]
    fn times_compare_as_durations() {
        assert_eq!(compare("100:55:50", "24:00:00"), Greater);
        assert_eq!(compare("-01:00:00", "-00:59:59"), Less);
        assert_eq!(compare("-00:00:01", "00:00:00"), Less);
        assert_eq!(compare("10:00:00.5", "10:00:00.25"), Greater);
        assert_eq!(compare("10:00:00", "10:00:00.000"), Equal);
        assert_eq!(compare("838:59:59", "abc"), Less);
    }
}
