//! `sql_mode` values as MariaDB 10.11 reads and shows them: a comma-separated list of mode
//! names (any case, no spaces) or a number (the modes' bit mask), each combination mode
//! (`ANSI`, `TRADITIONAL`, `MSSQL`, ...) expanded to the modes it implies, shown upper-case
//! in MariaDB's bit order (`SET sql_mode='ansi'` reads back as
//! `REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI`).
//!
//! A name MariaDB does not know is its error 1231, naming that element. A mode that changes
//! answers in a way tutti does not implement (`NO_UNSIGNED_SUBTRACTION`,
//! `PAD_CHAR_TO_FULL_LENGTH`, `ORACLE`, ...) is refused (1235) rather than accepted and
//! ignored, which would silently give other answers than MariaDB. The translator reads
//! the modes with an effect (strictness, zero dates, `ANSI_QUOTES`, `PIPES_AS_CONCAT`,
//! `NO_BACKSLASH_ESCAPES`, `ONLY_FULL_GROUP_BY`, `REAL_AS_FLOAT`) from the normalised text.

use tutti_wsrep::Value;

use crate::ExecError;

/// MariaDB's modes, in bit order (bit i is `1 << i`).
const MODES: [&str; 35] = [
    "REAL_AS_FLOAT",
    "PIPES_AS_CONCAT",
    "ANSI_QUOTES",
    "IGNORE_SPACE",
    "IGNORE_BAD_TABLE_OPTIONS",
    "ONLY_FULL_GROUP_BY",
    "NO_UNSIGNED_SUBTRACTION",
    "NO_DIR_IN_CREATE",
    "POSTGRESQL",
    "ORACLE",
    "MSSQL",
    "DB2",
    "MAXDB",
    "NO_KEY_OPTIONS",
    "NO_TABLE_OPTIONS",
    "NO_FIELD_OPTIONS",
    "MYSQL323",
    "MYSQL40",
    "ANSI",
    "NO_AUTO_VALUE_ON_ZERO",
    "NO_BACKSLASH_ESCAPES",
    "STRICT_TRANS_TABLES",
    "STRICT_ALL_TABLES",
    "NO_ZERO_IN_DATE",
    "NO_ZERO_DATE",
    "ALLOW_INVALID_DATES",
    "ERROR_FOR_DIVISION_BY_ZERO",
    "TRADITIONAL",
    "NO_AUTO_CREATE_USER",
    "HIGH_NOT_PRECEDENCE",
    "NO_ENGINE_SUBSTITUTION",
    "PAD_CHAR_TO_FULL_LENGTH",
    "EMPTY_STRING_IS_NULL",
    "SIMULTANEOUS_ASSIGNMENT",
    "TIME_ROUND_FRACTIONAL",
];

/// The modes a combination mode implies (besides itself), as MariaDB expands them.
fn implied(mode: &str) -> Vec<&'static str> {
    const FOREIGN: [&str; 6] = [
        "PIPES_AS_CONCAT",
        "ANSI_QUOTES",
        "IGNORE_SPACE",
        "NO_KEY_OPTIONS",
        "NO_TABLE_OPTIONS",
        "NO_FIELD_OPTIONS",
    ];
    match mode {
        "ANSI" => vec![
            "REAL_AS_FLOAT",
            "PIPES_AS_CONCAT",
            "ANSI_QUOTES",
            "IGNORE_SPACE",
        ],
        "TRADITIONAL" => vec![
            "STRICT_TRANS_TABLES",
            "STRICT_ALL_TABLES",
            "NO_ZERO_IN_DATE",
            "NO_ZERO_DATE",
            "ERROR_FOR_DIVISION_BY_ZERO",
            "NO_AUTO_CREATE_USER",
            "NO_ENGINE_SUBSTITUTION",
        ],
        "MSSQL" | "DB2" | "POSTGRESQL" => FOREIGN.to_vec(),
        "MAXDB" => [&FOREIGN[..], &["NO_AUTO_CREATE_USER"]].concat(),
        "MYSQL323" | "MYSQL40" => vec!["HIGH_NOT_PRECEDENCE"],
        _ => vec![],
    }
}

/// Modes whose effect on answers tutti does not have: setting one is refused.
const NOT_IMPLEMENTED: [&str; 9] = [
    "NO_UNSIGNED_SUBTRACTION",
    "ORACLE",
    "NO_AUTO_VALUE_ON_ZERO",
    "ALLOW_INVALID_DATES",
    "HIGH_NOT_PRECEDENCE",
    "PAD_CHAR_TO_FULL_LENGTH",
    "EMPTY_STRING_IS_NULL",
    "SIMULTANEOUS_ASSIGNMENT",
    "TIME_ROUND_FRACTIONAL",
];

/// Reads a `sql_mode` value into MariaDB's normalised text.
pub(crate) fn normalize(value: &Value) -> Result<Value, ExecError> {
    let bad = |part: &str| ExecError::WrongValueForVar("sql_mode".into(), part.into());
    let mut bits: u64 = match value {
        Value::Int(i) if *i >= 0 && (*i as u64) < 1 << MODES.len() => *i as u64,
        Value::Text(t) => names_to_bits(t).map_err(|part| bad(&part))?,
        other => return Err(bad(&other.to_string())),
    };
    for (i, mode) in MODES.iter().enumerate() {
        if bits & (1 << i) != 0 {
            for m in implied(mode) {
                bits |= 1 << position(m).expect("an implied mode is a mode");
            }
        }
    }
    let names: Vec<&str> = MODES
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, m)| *m)
        .collect();
    if let Some(m) = names.iter().find(|m| NOT_IMPLEMENTED.contains(m)) {
        return Err(ExecError::Sql(tutti_sql::SqlError::Unsupported(format!(
            "sql_mode {m}"
        ))));
    }
    Ok(Value::Text(names.join(",")))
}

fn position(mode: &str) -> Option<usize> {
    MODES.iter().position(|m| m.eq_ignore_ascii_case(mode))
}

/// The bits of a comma-separated list of names; Err: the first element that is none.
fn names_to_bits(list: &str) -> Result<u64, String> {
    let mut bits = 0;
    for part in list.split(',') {
        if part.is_empty() {
            continue;
        }
        let i = position(part).ok_or_else(|| part.to_string())?;
        bits |= 1 << i;
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(v: Value) -> Result<String, String> {
        normalize(&v)
            .map(|v| v.to_string())
            .map_err(|e| e.to_string())
    }

    /// MariaDB 10.11's answers to `SET sql_mode = ...; SELECT @@sql_mode`.
    #[test]
    fn modes_read_back_as_mariadb_shows_them() {
        let text = |s: &str| norm(Value::Text(s.into())).unwrap();
        assert_eq!(
            text("ansi"),
            "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI"
        );
        assert_eq!(
            text("traditional,pipes_as_concat"),
            "PIPES_AS_CONCAT,STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"
        );
        assert_eq!(
            text("MSSQL"),
            "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,MSSQL,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS"
        );
        assert_eq!(text("ansi_quotes,ansi_quotes"), "ANSI_QUOTES");
        assert_eq!(text(""), "");
        assert_eq!(
            norm(Value::Int(3)).unwrap(),
            "REAL_AS_FLOAT,PIPES_AS_CONCAT"
        );
    }

    #[test]
    fn unknown_and_unimplemented_modes_are_refused() {
        let err = norm(Value::Text("  strict_all_tables , ansi_quotes".into())).unwrap_err();
        assert!(err.contains("'  strict_all_tables '"), "{err}");
        assert!(norm(Value::Text("1".into())).is_err());
        assert!(norm(Value::Null).is_err());
        let err = norm(Value::Text("no_unsigned_subtraction".into())).unwrap_err();
        assert!(err.contains("NO_UNSIGNED_SUBTRACTION"), "{err}");
        assert!(norm(Value::Text("mysql40".into())).is_err());
    }
}
