//! MySQL column types → SQLite declared types.
//!
//! SQLite keeps the declared type name verbatim and tutti derives the MySQL result type of a
//! column from it, so the MySQL name is kept wherever SQLite's grammar allows (a sequence of
//! names, then an optional `(n)` or `(n,m)`); the name also gives SQLite the right affinity
//! (`INT` → INTEGER, `CHAR`/`TEXT` → TEXT, `DOUBLE` → REAL, `DECIMAL` → NUMERIC, ...).
//!
//! * Integers keep their name plus ` UNSIGNED`, and a display width that is not the type's
//!   default (`INT(3)`, `INT UNSIGNED(5)`). `BOOL`/`BOOLEAN` → `TINYINT(1)`.
//! * `CHAR(n)`, `VARCHAR(n)`, `*TEXT`, `*BLOB`, `DATE`, `DATETIME(n)`, `TIMESTAMP(n)`,
//!   `TIME(n)`, `YEAR`, `BIT(n)` keep their name.
//! * `BINARY(n)`, `VARBINARY(n)` → `BINARY TEXT(n)`, `VARBINARY TEXT(n)` (TEXT affinity: the
//!   bytes stay as stored; plain `VARBINARY` would get NUMERIC affinity, which turns `'01'`
//!   into 1).
//! * `FLOAT`, `DOUBLE`, `REAL`: see `real` (`FLOAT(7,4)`, `DOUBLE UNSIGNED`).
//! * `DECIMAL(p,s)`, `NUMERIC(p,s)` → `DECIMAL TEXT(p,s)` (TEXT affinity: exact text, see
//!   `decimal`).
//! * `JSON` → `JSON TEXT` (TEXT affinity; plain `JSON` would get NUMERIC affinity).
//! * `ENUM('a','b')` → `ENUM TEXT`, `SET('a','b')` → `SET_TEXT`, plus a CHECK on the
//!   values (added by the caller; TEXT affinity keeps a member spelled `'01'` as it is).
//! * Spatial and other exotic types are refused.
//!
//! Text-like types (CHAR, VARCHAR, *TEXT, ENUM, SET, JSON) are flagged so the caller can give
//! them MySQL's default case-insensitive collation.

use sqlparser::ast::{BinaryLength, CharacterLength, DataType, EnumMember, ExactNumberInfo};

use crate::decimal::DecimalType;
use crate::real::RealType;
use crate::SqlError;

/// The declared type of a `BINARY(n)` column, before its `(n)`.
pub const BINARY_DECL: &str = "BINARY TEXT";
/// The declared type of a `VARBINARY(n)` column, before its `(n)`.
pub const VARBINARY_DECL: &str = "VARBINARY TEXT";

/// The declared type of an ENUM column.
pub const ENUM_DECL: &str = "ENUM TEXT";

/// The declared type of a SET column (SET is a keyword SQLite refuses as a type name).
pub const SET_DECL: &str = "SET_TEXT";

/// An ENUM or SET column's declared type (its members live in its member check).
pub fn has_members(decl: &str) -> bool {
    decl.eq_ignore_ascii_case(ENUM_DECL) || decl.eq_ignore_ascii_case(SET_DECL)
}

/// A translated column type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MappedType {
    /// The SQLite declared type.
    pub decl: String,
    /// CHAR/VARCHAR/TEXT/ENUM/SET/JSON: compared case-insensitively by default in MySQL.
    pub text_like: bool,
    /// An integer type (may carry AUTO_INCREMENT).
    pub integer: bool,
    /// The members of an ENUM or SET.
    pub enum_values: Option<Vec<String>>,
    /// A DECIMAL: its precision and scale.
    pub decimal: Option<DecimalType>,
}

fn plain(decl: impl Into<String>) -> MappedType {
    MappedType {
        decl: decl.into(),
        text_like: false,
        integer: false,
        enum_values: None,
        decimal: None,
    }
}

fn text(decl: impl Into<String>) -> MappedType {
    MappedType {
        text_like: true,
        ..plain(decl)
    }
}

/// An integer type; a display width other than the type's default is kept at the end
/// (`INT(3)`, `INT UNSIGNED(5)`: SQLite wants the parenthesis last), for SHOW CREATE TABLE.
fn int(name: &str, unsigned: bool, width: Option<u64>) -> MappedType {
    let default_width = match (name, unsigned) {
        ("TINYINT", false) => 4,
        ("TINYINT", true) => 3,
        ("SMALLINT", false) => 6,
        ("SMALLINT", true) => 5,
        ("MEDIUMINT", false) => 9,
        ("MEDIUMINT", true) => 8,
        ("INT" | "INTEGER", false) => 11,
        ("INT" | "INTEGER", true) => 10,
        _ => 20,
    };
    let mut decl = if unsigned {
        format!("{name} UNSIGNED")
    } else {
        name.to_string()
    };
    if let Some(w) = width.filter(|w| (1..=255).contains(w) && *w != default_width) {
        decl.push_str(&format!("({w})"));
    }
    MappedType {
        integer: true,
        ..plain(decl)
    }
}

fn with_len(name: &str, n: Option<u64>) -> String {
    match n {
        Some(n) => format!("{name}({n})"),
        None => name.to_string(),
    }
}

fn char_len(name: &str, l: &Option<CharacterLength>) -> String {
    match l {
        Some(CharacterLength::IntegerLength { length, .. }) => format!("{name}({length})"),
        _ => name.to_string(),
    }
}

/// `DECIMAL(p,s)` (default (10,0)) → `DECIMAL TEXT(p,s)`: see [`crate::decimal`].
fn decimal(info: &ExactNumberInfo, unsigned: bool) -> Result<MappedType, SqlError> {
    let ty = DecimalType::of_info(info)?;
    Ok(MappedType {
        decimal: Some(ty),
        ..plain(ty.decl_signed(unsigned))
    })
}

/// `FLOAT`/`DOUBLE` with their precision, shape and sign: see [`crate::real`].
fn real(double: bool, info: &ExactNumberInfo, unsigned: bool) -> Result<MappedType, SqlError> {
    Ok(plain(RealType::of_info(double, info, unsigned)?.decl()))
}

/// Maps a MySQL column type.
pub(crate) fn map_type(ty: &DataType) -> Result<MappedType, SqlError> {
    use DataType as T;
    Ok(match ty {
        T::TinyInt(Some(1)) => MappedType {
            integer: true,
            ..plain("TINYINT(1)")
        },
        T::Bool | T::Boolean => MappedType {
            integer: true,
            ..plain("TINYINT(1)")
        },
        T::TinyInt(w) => int("TINYINT", false, *w),
        T::TinyIntUnsigned(w) => int("TINYINT", true, *w),
        T::SmallInt(w) | T::Int2(w) => int("SMALLINT", false, *w),
        T::SmallIntUnsigned(w) | T::Int2Unsigned(w) => int("SMALLINT", true, *w),
        T::MediumInt(w) => int("MEDIUMINT", false, *w),
        T::MediumIntUnsigned(w) => int("MEDIUMINT", true, *w),
        T::Int(w) | T::Int4(w) => int("INT", false, *w),
        T::IntUnsigned(w) | T::Int4Unsigned(w) => int("INT", true, *w),
        T::Integer(w) => int("INTEGER", false, *w),
        T::IntegerUnsigned(w) => int("INTEGER", true, *w),
        T::BigInt(w) | T::Int8(w) => int("BIGINT", false, *w),
        T::BigIntUnsigned(w) | T::Int8Unsigned(w) => int("BIGINT", true, *w),
        T::Char(l) | T::Character(l) => text(char_len("CHAR", l)),
        T::Varchar(l) | T::CharacterVarying(l) | T::CharVarying(l) | T::Nvarchar(l) => {
            text(char_len("VARCHAR", l))
        }
        T::Text => text("TEXT"),
        T::TinyText => text("TINYTEXT"),
        T::MediumText => text("MEDIUMTEXT"),
        T::LongText => text("LONGTEXT"),
        T::JSON => text("JSON TEXT"),
        T::Enum(members, _) => MappedType {
            enum_values: Some(
                members
                    .iter()
                    .map(|m| match m {
                        EnumMember::Name(n) | EnumMember::NamedValue(n, _) => n.clone(),
                    })
                    .collect(),
            ),
            ..text(ENUM_DECL)
        },
        T::Set(members) => MappedType {
            enum_values: Some(members.clone()),
            ..text(SET_DECL)
        },
        T::Binary(n) => plain(with_len(BINARY_DECL, *n)),
        T::Varbinary(l) => plain(match l {
            Some(BinaryLength::IntegerLength { length }) => format!("{VARBINARY_DECL}({length})"),
            _ => VARBINARY_DECL.to_string(),
        }),
        T::Blob(_) => plain("BLOB"),
        T::TinyBlob => plain("TINYBLOB"),
        T::MediumBlob => plain("MEDIUMBLOB"),
        T::LongBlob => plain("LONGBLOB"),
        T::Decimal(i) | T::Dec(i) | T::Numeric(i) => decimal(i, false)?,
        T::DecimalUnsigned(i) | T::DecUnsigned(i) => decimal(i, true)?,
        T::Float(i) => real(false, i, false)?,
        T::FloatUnsigned(i) => real(false, i, true)?,
        T::Double(i) => real(true, i, false)?,
        T::DoubleUnsigned(i) => real(true, i, true)?,
        T::DoublePrecision | T::Real => real(true, &ExactNumberInfo::None, false)?,
        T::DoublePrecisionUnsigned | T::RealUnsigned => real(true, &ExactNumberInfo::None, true)?,
        T::Date => plain("DATE"),
        T::Datetime(n) => plain(with_len("DATETIME", *n)),
        T::Timestamp(n, _) => plain(with_len("TIMESTAMP", *n)),
        T::Time(n, _) => plain(with_len("TIME", *n)),
        // BIT and BIT(0) are BIT(1), as in MariaDB (`columns` refuses more than 64).
        T::Bit(n) => plain(format!("BIT({})", n.unwrap_or(1).max(1))),
        T::Custom(name, args)
            if args.is_empty() && name.to_string().eq_ignore_ascii_case("YEAR") =>
        {
            plain("YEAR")
        }
        // TEXT(n): the TEXT type that holds n characters (see `string_lengths`).
        T::Custom(name, args)
            if args.len() == 1 && name.to_string().eq_ignore_ascii_case("TEXT") =>
        {
            text("TEXT")
        }
        T::Custom(name, _) => {
            return Err(SqlError::Unsupported(format!("the column type {name}")));
        }
        T::GeometricType(kind) => {
            return Err(SqlError::Unsupported(format!("the spatial type {kind}")));
        }
        other => return Err(SqlError::Unsupported(format!("the column type {other}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::parser::Parser;

    fn decl(ty: &str) -> String {
        let mut p = Parser::new(&crate::lexer::DIALECT)
            .try_with_sql(ty)
            .unwrap();
        map_type(&p.parse_data_type().unwrap()).unwrap().decl
    }

    #[test]
    fn keeps_mysql_names() {
        for (mysql, sqlite) in [
            ("INT", "INT"),
            ("INT(11)", "INT"),
            ("INTEGER", "INTEGER"),
            ("INT UNSIGNED", "INT UNSIGNED"),
            ("BIGINT(20) UNSIGNED", "BIGINT UNSIGNED"),
            ("TINYINT(1)", "TINYINT(1)"),
            ("TINYINT(4)", "TINYINT"),
            ("INT(3)", "INT(3)"),
            ("INT(5) UNSIGNED", "INT UNSIGNED(5)"),
            ("BIGINT(21) UNSIGNED", "BIGINT UNSIGNED(21)"),
            ("SMALLINT", "SMALLINT"),
            ("MEDIUMINT UNSIGNED", "MEDIUMINT UNSIGNED"),
            ("BOOL", "TINYINT(1)"),
            ("BOOLEAN", "TINYINT(1)"),
            ("VARCHAR(20)", "VARCHAR(20)"),
            ("CHAR(120)", "CHAR(120)"),
            ("TEXT", "TEXT"),
            ("LONGTEXT", "LONGTEXT"),
            ("DECIMAL(10,2)", "DECIMAL TEXT(10,2)"),
            ("DECIMAL", "DECIMAL TEXT(10,0)"),
            ("NUMERIC(65,30)", "DECIMAL TEXT(65,30)"),
            ("NUMERIC", "DECIMAL TEXT(10,0)"),
            ("FLOAT", "FLOAT"),
            ("DOUBLE", "DOUBLE"),
            ("DOUBLE PRECISION", "DOUBLE"),
            ("FLOAT(25)", "DOUBLE"),
            ("REAL UNSIGNED", "DOUBLE UNSIGNED"),
            ("FLOAT(7,4) UNSIGNED", "FLOAT UNSIGNED(7,4)"),
            ("REAL", "DOUBLE"),
            ("DATE", "DATE"),
            ("DATETIME(6)", "DATETIME(6)"),
            ("TIMESTAMP", "TIMESTAMP"),
            ("TIME", "TIME"),
            ("YEAR", "YEAR"),
            ("BLOB", "BLOB"),
            ("MEDIUMBLOB", "MEDIUMBLOB"),
            ("BINARY(16)", "BINARY TEXT(16)"),
            ("VARBINARY(255)", "VARBINARY TEXT(255)"),
            ("BIT(8)", "BIT(8)"),
            ("JSON", "JSON TEXT"),
            ("SET('a','b')", "SET_TEXT"),
            ("ENUM('a','b')", "ENUM TEXT"),
        ] {
            assert_eq!(decl(mysql), sqlite, "{mysql}");
        }
    }

    #[test]
    fn flags() {
        let mut p = Parser::new(&crate::lexer::DIALECT)
            .try_with_sql("ENUM('x','y')")
            .unwrap();
        let m = map_type(&p.parse_data_type().unwrap()).unwrap();
        assert!(m.text_like && !m.integer);
        assert_eq!(m.enum_values, Some(vec!["x".to_string(), "y".to_string()]));
        let mut p = Parser::new(&crate::lexer::DIALECT)
            .try_with_sql("GEOMETRY")
            .unwrap();
        assert!(matches!(
            map_type(&p.parse_data_type().unwrap()),
            Err(SqlError::Unsupported(_))
        ));
    }
}
