//! Exact DECIMAL in SQLite, the front-end's half (the storage crate registers the functions
//! and the collation named here).
//!
//! * A `DECIMAL(p,s)` column is declared `DECIMAL TEXT(p,s) COLLATE tutti_decimal`: TEXT
//!   affinity keeps the exact digits (NUMERIC affinity would turn `'0.1'` into a lossy REAL),
//!   the collation compares the texts as numbers (so `=`, ranges, `ORDER BY` and indexes are
//!   numeric), and every value is written through `tutti_dec_store(v, p, s, column, row)`,
//!   which rounds to s digits and refuses what does not fit (1264) or is not a number (1366),
//!   so the column holds canonical text with exactly s fraction digits (`1.50`).
//! * Literal DEFAULTs are canonicalized here, at CREATE time.
//! * Expressions: see `typing`, which routes DECIMAL arithmetic, comparisons, casts and
//!   aggregates to the exact functions.

use crate::SqlError;
use sqlparser::ast::ExactNumberInfo;

/// The declared-type prefix of a DECIMAL column.
pub(crate) const DECL: &str = "DECIMAL TEXT";
/// What follows [`DECL`] in the declaration of a `DECIMAL UNSIGNED` column, before `(p,s)`
/// (MariaDB refuses negative values there: 1264, or 0 outside strict mode).
pub(crate) const UNSIGNED: &str = " UNSIGNED";

/// Whether a DECIMAL column's SQLite declaration says UNSIGNED.
pub(crate) fn unsigned_decl(decl: &str) -> bool {
    decl.strip_prefix(DECL)
        .is_some_and(|d| d.starts_with(UNSIGNED))
}
/// The collation of DECIMAL columns and DECIMAL expression results.
pub(crate) const COLLATION: &str = "tutti_decimal";
/// The most digits a DECIMAL holds.
pub(crate) const MAX_PRECISION: u64 = 65;
/// The most fraction digits a DECIMAL holds.
const MAX_SCALE: u64 = 38;

/// A DECIMAL literal's digits as MariaDB's parser keeps them: in at most 9 words of 9
/// digits (81), leading zeros aside, the fraction cut to the words the integer part leaves
/// (45 digits `.` 45 digits keeps 36 of the fraction); an integer part that alone needs more
/// is the largest DECIMAL, 65 nines (MariaDB's overflow, warning 1916).
pub(crate) fn bounded_literal(n: &str) -> String {
    const WORDS: usize = 9;
    let (int, frac) = n.split_once('.').unwrap_or((n, ""));
    let int_words = int.trim_start_matches('0').len().div_ceil(9);
    if int_words > WORDS {
        return "9".repeat(MAX_PRECISION as usize);
    }
    let keep = frac.len().min((WORDS - int_words) * 9);
    if keep == frac.len() {
        n.to_string()
    } else {
        format!("{int}.{}", &frac[..keep])
    }
}

/// `DECIMAL(precision, scale)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecimalType {
    /// Total digits.
    pub precision: u32,
    /// Digits after the point.
    pub scale: u32,
}

impl DecimalType {
    /// Validates MySQL's limits (1426 precision above 65, 1425 scale above 38, 1427 scale
    /// above precision).
    pub fn new(precision: u64, scale: u64) -> Result<DecimalType, SqlError> {
        if precision > MAX_PRECISION {
            return Err(SqlError::TooBigPrecision(String::new()));
        }
        if scale > MAX_SCALE {
            return Err(SqlError::TooBigScale {
                column: String::new(),
                max: MAX_SCALE,
            });
        }
        if scale > precision {
            return Err(SqlError::ScaleAbovePrecision(String::new()));
        }
        Ok(DecimalType {
            precision: precision.max(1) as u32,
            scale: scale as u32,
        })
    }

    /// The type `DECIMAL`, `DECIMAL(p)` or `DECIMAL(p,s)` names (default (10,0)).
    pub(crate) fn of_info(info: &ExactNumberInfo) -> Result<DecimalType, SqlError> {
        let (p, s) = match info {
            ExactNumberInfo::None => (10, 0),
            ExactNumberInfo::Precision(p) => (*p, 0),
            ExactNumberInfo::PrecisionAndScale(p, s) => (*p, (*s).max(0) as u64),
        };
        DecimalType::new(p, s)
    }

    /// The SQLite declared type (without the collation).
    pub fn decl(&self) -> String {
        self.decl_signed(false)
    }

    /// The SQLite declared type of `DECIMAL(p,s) [UNSIGNED]` (TEXT affinity either way).
    pub(crate) fn decl_signed(&self, unsigned: bool) -> String {
        let sign = if unsigned { UNSIGNED } else { "" };
        format!("{DECL}{sign}({},{})", self.precision, self.scale)
    }

    /// The type of a declared type written by [`DecimalType::decl`] (or with [`UNSIGNED`]
    /// before the parenthesis); None for others.
    pub fn of_decl(decl: &str) -> Option<DecimalType> {
        let rest = decl.strip_prefix(DECL)?;
        let rest = rest
            .strip_prefix(UNSIGNED)
            .unwrap_or(rest)
            .strip_prefix('(')?
            .strip_suffix(')')?;
        let (p, s) = rest.split_once(',')?;
        Some(DecimalType {
            precision: p.trim().parse().ok()?,
            scale: s.trim().parse().ok()?,
        })
    }

    /// A numeric literal as the column stores it (`-1.5` in DECIMAL(10,2) → `'-1.50'`),
    /// rounded half away from zero; None when it is not a plain number or does not fit.
    pub fn literal(&self, text: &str) -> Option<String> {
        let (neg, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if int.is_empty() && frac.is_empty()
            || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let scale = self.scale as usize;
        // All digits, cut to `scale` fraction digits; then round on the first one dropped.
        let mut all: Vec<u8> = int.bytes().chain(frac.bytes().take(scale)).collect();
        all.extend(std::iter::repeat_n(b'0', scale.saturating_sub(frac.len())));
        if frac.as_bytes().get(scale).is_some_and(|&d| d >= b'5') {
            let mut i = all.len();
            loop {
                if i == 0 {
                    all.insert(0, b'1');
                    break;
                }
                i -= 1;
                if all[i] == b'9' {
                    all[i] = b'0';
                } else {
                    all[i] += 1;
                    break;
                }
            }
        }
        let split = all.len() - scale;
        let int_part = std::str::from_utf8(&all[..split])
            .ok()?
            .trim_start_matches('0');
        let frac_part = std::str::from_utf8(&all[split..]).ok()?;
        if int_part.len() > (self.precision - self.scale) as usize {
            return None;
        }
        let zero = int_part.is_empty() && frac_part.bytes().all(|b| b == b'0');
        let mut out = String::new();
        if neg && !zero {
            out.push('-');
        }
        out.push_str(if int_part.is_empty() { "0" } else { int_part });
        if scale > 0 {
            out.push('.');
            out.push_str(frac_part);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types_round_trip_and_limits_hold() {
        let t = DecimalType::new(10, 2).unwrap();
        assert_eq!(t.decl(), "DECIMAL TEXT(10,2)");
        assert_eq!(DecimalType::of_decl(&t.decl()), Some(t));
        assert_eq!(DecimalType::of_decl("DECIMAL(10,2)"), None);
        let named = |p, s| DecimalType::new(p, s).map_err(|e| e.in_column("a").to_string());
        assert_eq!(
            named(66, 2),
            Err("Too big precision specified for 'a'. Maximum is 65".into())
        );
        assert_eq!(
            named(65, 39),
            Err("Too big scale specified for 'a'. Maximum is 38".into())
        );
        assert_eq!(
            named(5, 6),
            Err("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column 'a')".into())
        );
    }

    #[test]
    fn literals_get_the_column_scale() {
        let t = DecimalType::new(5, 2).unwrap();
        for (lit, want) in [
            ("-1.5", Some("-1.50")),
            ("1.005", Some("1.01")),
            ("999.994", Some("999.99")),
            ("999.995", None),
            ("99.995", Some("100.00")),
            ("-0.001", Some("0.00")),
            ("7", Some("7.00")),
            ("abc", None),
        ] {
            assert_eq!(t.literal(lit).as_deref(), want, "{lit}");
        }
        assert_eq!(
            DecimalType::new(3, 0).unwrap().literal("12.5").as_deref(),
            Some("13")
        );
    }
}
