//! FLOAT and DOUBLE columns, the front-end's half (storage's `tutti_real_store` does the
//! arithmetic).
//!
//! MariaDB's FLOAT is single precision: a FLOAT column holds the value rounded to the
//! nearest `f32` (tutti stores that `f32` as SQLite's REAL, so `f + 0e0` is
//! `1.100000023841858` for a stored 1.1, as in MariaDB), and shows it with 6 significant
//! digits. `FLOAT(p)` is a FLOAT up to p = 24 and a DOUBLE up to 53. `FLOAT(M,D)` and
//! `DOUBLE(M,D)` round to D decimals and hold at most M digits (`FLOAT(4,3)` tops out at
//! 9.999); UNSIGNED refuses negative values. Outside strict mode a value out of range is
//! clamped with warning 1264.
//!
//! The declared type keeps it all in SQLite's grammar: `FLOAT`, `DOUBLE UNSIGNED`,
//! `FLOAT(7,4)`, `DOUBLE UNSIGNED(10,2)` (`REAL` and `DOUBLE PRECISION` of older tables read
//! as DOUBLE).

use sqlparser::ast::ExactNumberInfo;

use crate::SqlError;

/// The most digits a FLOAT(M,D)/DOUBLE(M,D) shows.
const MAX_WIDTH: u64 = 255;
/// The most decimals of a FLOAT(M,D)/DOUBLE(M,D).
const MAX_DECIMALS: u64 = 30;
/// The largest `p` of `FLOAT(p)` (a DOUBLE's 53 bits).
const MAX_FLOAT_PRECISION: u64 = 53;
/// `FLOAT(p)` up to this `p` is single precision.
const MAX_SINGLE_PRECISION: u64 = 24;

/// A FLOAT or DOUBLE column type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RealType {
    /// FLOAT (single precision), not DOUBLE.
    pub single: bool,
    /// `(M, D)`: at most M digits, D of them decimals.
    pub shape: Option<(u32, u32)>,
    /// UNSIGNED: no negative values.
    pub unsigned: bool,
}

impl RealType {
    /// The type `FLOAT[(p)|(M,D)]` (`double` false) or `DOUBLE[(M,D)]` names, validated as
    /// MariaDB validates it (1063, 1425, 1427, 1439; the column name is added by the caller).
    pub(crate) fn of_info(
        double: bool,
        info: &ExactNumberInfo,
        unsigned: bool,
    ) -> Result<RealType, SqlError> {
        let (single, shape) = match *info {
            ExactNumberInfo::None => (!double, None),
            ExactNumberInfo::Precision(p) if double => (false, Some((p, 0))),
            ExactNumberInfo::Precision(p) if p > MAX_FLOAT_PRECISION => {
                return Err(SqlError::WrongFieldSpec(String::new()))
            }
            ExactNumberInfo::Precision(p) => (p <= MAX_SINGLE_PRECISION, None),
            ExactNumberInfo::PrecisionAndScale(m, d) => (!double, Some((m, d.max(0) as u64))),
        };
        let shape = match shape {
            None => None,
            Some((_, d)) if d > MAX_DECIMALS => {
                return Err(SqlError::TooBigScale {
                    column: String::new(),
                    max: MAX_DECIMALS,
                })
            }
            Some((m, _)) if m > MAX_WIDTH => {
                return Err(SqlError::TooBigDisplayWidth {
                    column: String::new(),
                    max: MAX_WIDTH,
                })
            }
            Some((m, d)) if d > m || m == 0 => {
                return Err(SqlError::ScaleAbovePrecision(String::new()))
            }
            Some((m, d)) => Some((m as u32, d as u32)),
        };
        Ok(RealType {
            single,
            shape,
            unsigned,
        })
    }

    /// The SQLite declared type.
    pub fn decl(&self) -> String {
        let name = if self.single { "FLOAT" } else { "DOUBLE" };
        let unsigned = if self.unsigned { " UNSIGNED" } else { "" };
        match self.shape {
            Some((m, d)) => format!("{name}{unsigned}({m},{d})"),
            None => format!("{name}{unsigned}"),
        }
    }

    /// The type of a FLOAT/DOUBLE/REAL declared type; None for others.
    pub fn of_decl(decl: &str) -> Option<RealType> {
        let d = decl.to_ascii_uppercase();
        let (name, rest) = d.split_at(d.find(['(', ' ']).unwrap_or(d.len()));
        let single = match name {
            "FLOAT" => true,
            "DOUBLE" | "REAL" => false,
            _ => return None,
        };
        let shape = rest
            .split_once('(')
            .and_then(|(_, r)| r.split_once(')'))
            .and_then(|(inner, _)| inner.split_once(','))
            .and_then(|(m, d)| Some((m.trim().parse().ok()?, d.trim().parse().ok()?)));
        Some(RealType {
            single,
            shape,
            unsigned: rest.contains("UNSIGNED"),
        })
    }

    /// MariaDB's name of the type (`float`, `double(5,2) unsigned`).
    pub fn display(&self) -> String {
        let name = if self.single { "float" } else { "double" };
        let shape = self
            .shape
            .map(|(m, d)| format!("({m},{d})"))
            .unwrap_or_default();
        let unsigned = if self.unsigned { " unsigned" } else { "" };
        format!("{name}{shape}{unsigned}")
    }

    /// The fixed decimals of its values, if any (`DOUBLE(5,2)` shows `1.50`).
    pub fn decimals(&self) -> Option<u32> {
        self.shape.map(|(_, d)| d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(double: bool, info: ExactNumberInfo) -> Result<String, String> {
        RealType::of_info(double, &info, false)
            .map(|t| t.decl())
            .map_err(|e| e.in_column("a").to_string())
    }

    #[test]
    fn types_are_mariadbs() {
        use ExactNumberInfo::*;
        assert_eq!(named(false, None), Ok("FLOAT".into()));
        assert_eq!(named(false, Precision(24)), Ok("FLOAT".into()));
        assert_eq!(named(false, Precision(25)), Ok("DOUBLE".into()));
        assert_eq!(
            named(true, PrecisionAndScale(5, 2)),
            Ok("DOUBLE(5,2)".into())
        );
        assert_eq!(
            named(false, PrecisionAndScale(7, 4)),
            Ok("FLOAT(7,4)".into())
        );
        assert_eq!(
            named(false, Precision(54)),
            Err("Incorrect column specifier for column 'a'".into())
        );
        assert_eq!(
            named(true, PrecisionAndScale(40, 31)),
            Err("Too big scale specified for 'a'. Maximum is 30".into())
        );
        assert_eq!(
            named(true, PrecisionAndScale(1000, 0)),
            Err("Display width out of range for 'a' (max = 255)".into())
        );
        assert_eq!(
            named(false, PrecisionAndScale(1, 2)),
            Err("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column 'a')".into())
        );
        let t = RealType::of_info(true, &PrecisionAndScale(10, 2), true).unwrap();
        assert_eq!(t.decl(), "DOUBLE UNSIGNED(10,2)");
        assert_eq!(RealType::of_decl(&t.decl()), Some(t));
        assert_eq!(t.display(), "double(10,2) unsigned");
        assert_eq!(
            RealType::of_decl("DOUBLE PRECISION").map(|t| t.display()),
            Some("double".into())
        );
    }
}
