//! A string column's declared length against its type's limits, as MariaDB applies them
//! when a table is created or altered.
//!
//! * `CHAR(n)` and `BINARY(n)` hold at most 255 characters (bytes): more is 1074.
//! * `VARCHAR(n)` holds at most 65,532 bytes, so 16,383 characters in utf8mb4, 21,844 in
//!   utf8mb3 and 65,532 in a single-byte set; `VARBINARY(n)` 65,532 bytes. More is 1074 in
//!   strict mode; outside it the column becomes the TEXT (BLOB) type that holds `n`
//!   characters (bytes), with note 1246.
//! * `TEXT(n)` and `BLOB(n)` are the smallest TEXT (BLOB) type that holds `n` characters
//!   (bytes): `TEXT(50)` is TINYTEXT, `TEXT(70000)` MEDIUMTEXT.

use sqlparser::ast::{BinaryLength, CharacterLength, DataType};

use crate::{Note, SqlError};

/// CHAR's and BINARY's most characters.
const MAX_CHAR: u64 = 255;
/// VARCHAR's and VARBINARY's most bytes (a row's 65,535 less the length and null bytes).
const MAX_VARCHAR_BYTES: u64 = 65_532;
/// MySQL's code for a converted column (`ER_AUTO_CONVERT`).
const AUTO_CONVERT: u16 = 1246;

/// What a declared type becomes.
#[derive(Debug, PartialEq)]
pub(crate) enum Fitted {
    /// It is kept.
    Kept,
    /// It becomes this TEXT or BLOB type (upper case), with a note when MariaDB gives one.
    Became(&'static str, Option<Note>),
}

/// Checks `ty`, the type of column `column`, whose characters take up to `mbmaxlen` bytes;
/// `strict`: the session's sql_mode is strict.
pub(crate) fn fit(
    ty: &DataType,
    column: &str,
    mbmaxlen: u64,
    strict: bool,
) -> Result<Fitted, SqlError> {
    let too_long = |max| SqlError::ColumnTooLong {
        column: column.to_string(),
        max,
    };
    match ty {
        DataType::Char(l) | DataType::Character(l) if char_length(l) > Some(MAX_CHAR) => {
            Err(too_long(MAX_CHAR))
        }
        DataType::Binary(Some(n)) if *n > MAX_CHAR => Err(too_long(MAX_CHAR)),
        DataType::Varchar(l)
        | DataType::CharacterVarying(l)
        | DataType::CharVarying(l)
        | DataType::Nvarchar(l) => {
            let max = MAX_VARCHAR_BYTES / mbmaxlen;
            match char_length(l) {
                Some(n) if n > max && strict => Err(too_long(max)),
                Some(n) if n > max => Ok(converted(column, "VARCHAR", n * mbmaxlen, true)),
                _ => Ok(Fitted::Kept),
            }
        }
        DataType::Varbinary(Some(BinaryLength::IntegerLength { length }))
            if *length > MAX_VARCHAR_BYTES =>
        {
            if strict {
                Err(too_long(MAX_VARCHAR_BYTES))
            } else {
                Ok(converted(column, "VARBINARY", *length, false))
            }
        }
        DataType::Blob(Some(n)) => Ok(Fitted::Became(long_type(*n, false), None)),
        DataType::Custom(name, args) if name.to_string().eq_ignore_ascii_case("TEXT") => {
            match args.as_slice() {
                [n] => {
                    let n: u64 = n.parse().map_err(|_| too_long(u64::from(u32::MAX)))?;
                    Ok(Fitted::Became(long_type(n * mbmaxlen, true), None))
                }
                _ => Ok(Fitted::Kept),
            }
        }
        _ => Ok(Fitted::Kept),
    }
}

fn char_length(l: &Option<CharacterLength>) -> Option<u64> {
    match l {
        Some(CharacterLength::IntegerLength { length, .. }) => Some(*length),
        _ => None,
    }
}

/// A VARCHAR (VARBINARY) too long for its type, made the TEXT (BLOB) type of `bytes`.
fn converted(column: &str, from: &str, bytes: u64, text: bool) -> Fitted {
    let to = if text { "TEXT" } else { "BLOB" };
    let note = Note {
        code: AUTO_CONVERT,
        message: format!("Converting column '{column}' from {from} to {to}"),
        warning: false,
    };
    Fitted::Became(long_type(bytes, text), Some(note))
}

/// The smallest TEXT (`text`) or BLOB type that holds `bytes` bytes (0: TEXT, BLOB).
fn long_type(bytes: u64, text: bool) -> &'static str {
    let rank = match bytes {
        1..=255 => 0,
        0 | 256..=65_535 => 1,
        65_536..=16_777_215 => 2,
        _ => 3,
    };
    let names = if text {
        ["TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT"]
    } else {
        ["TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB"]
    };
    names[rank]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(sql: &str) -> DataType {
        sqlparser::parser::Parser::new(&crate::lexer::DIALECT)
            .try_with_sql(sql)
            .unwrap()
            .parse_data_type()
            .unwrap()
    }

    fn became(sql: &str, mbmaxlen: u64, strict: bool) -> Result<Option<&'static str>, SqlError> {
        Ok(match fit(&ty(sql), "c", mbmaxlen, strict)? {
            Fitted::Kept => None,
            Fitted::Became(t, _) => Some(t),
        })
    }

    #[test]
    fn lengths_within_the_limits_are_kept() {
        for t in [
            "CHAR(255)",
            "BINARY(255)",
            "VARCHAR(16383)",
            "VARBINARY(65532)",
            "TEXT",
        ] {
            assert_eq!(became(t, 4, true), Ok(None), "{t}");
        }
        assert_eq!(became("VARCHAR(65532)", 1, true), Ok(None));
        assert_eq!(became("VARCHAR(21844)", 3, true), Ok(None));
    }

    #[test]
    fn too_long_is_1074_in_strict_mode_and_a_text_type_outside_it() {
        let err = |max| {
            Err(SqlError::ColumnTooLong {
                column: "c".into(),
                max,
            })
        };
        assert_eq!(became("VARCHAR(16384)", 4, true), err(16383));
        assert_eq!(became("VARCHAR(21845)", 3, true), err(21844));
        assert_eq!(became("VARBINARY(65533)", 1, true), err(65532));
        // CHAR's limit holds in every mode
        assert_eq!(became("CHAR(256)", 4, false), err(255));
        assert_eq!(became("VARCHAR(16384)", 4, false), Ok(Some("MEDIUMTEXT")));
        assert_eq!(became("VARCHAR(70000000)", 4, false), Ok(Some("LONGTEXT")));
        assert_eq!(became("VARBINARY(65533)", 1, false), Ok(Some("BLOB")));
        assert_eq!(
            became("VARBINARY(16777216)", 1, false),
            Ok(Some("LONGBLOB"))
        );
        let Ok(Fitted::Became(_, Some(note))) = fit(&ty("VARCHAR(65532)"), "a", 4, false) else {
            panic!("no note");
        };
        assert_eq!(note.code, 1246);
        assert_eq!(note.message, "Converting column 'a' from VARCHAR to TEXT");
    }

    #[test]
    fn text_and_blob_lengths_pick_the_smallest_type() {
        assert_eq!(became("TEXT(63)", 4, true), Ok(Some("TINYTEXT")));
        assert_eq!(became("TEXT(64)", 4, true), Ok(Some("TEXT")));
        assert_eq!(became("TEXT(16384)", 4, true), Ok(Some("MEDIUMTEXT")));
        assert_eq!(became("TEXT(0)", 4, true), Ok(Some("TEXT")));
        assert_eq!(became("BLOB(255)", 1, true), Ok(Some("TINYBLOB")));
        assert_eq!(became("BLOB(256)", 1, true), Ok(Some("BLOB")));
        assert_eq!(became("BLOB(16777216)", 1, true), Ok(Some("LONGBLOB")));
    }
}
