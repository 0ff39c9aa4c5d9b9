//! SQL values as SQLite stores them; the MySQL layer decides how to present them.

use std::fmt;

/// One SQL value in SQLite's five storage classes.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// A 64-bit signed integer.
    Int(i64),
    /// A double.
    Real(f64),
    /// UTF-8 text.
    Text(String),
    /// Raw bytes.
    Blob(Vec<u8>),
}

impl Value {
    /// True for NULL.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value as an SQL literal SQLite parses back to the same value.
    pub fn to_sql_literal(&self) -> String {
        match self {
            Value::Null => "NULL".into(),
            Value::Int(i) => i.to_string(),
            Value::Real(r) if r.is_finite() => format!("{r:?}"),
            Value::Real(_) => "NULL".into(),
            Value::Text(s) => format!("'{}'", s.replace('\'', "''")),
            Value::Blob(b) => {
                let mut s = String::with_capacity(3 + b.len() * 2);
                s.push_str("X'");
                for byte in b {
                    s.push_str(&format!("{byte:02X}"));
                }
                s.push('\'');
                s
            }
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Real(r) => write!(f, "{r}"),
            Value::Text(s) => f.write_str(s),
            Value::Blob(b) => f.write_str(&String::from_utf8_lossy(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_quote_and_hex() {
        assert_eq!(Value::Text("it's".into()).to_sql_literal(), "'it''s'");
        assert_eq!(Value::Blob(vec![0, 255]).to_sql_literal(), "X'00FF'");
        assert_eq!(Value::Int(-3).to_sql_literal(), "-3");
        assert_eq!(Value::Real(1.5).to_sql_literal(), "1.5");
        assert_eq!(Value::Null.to_sql_literal(), "NULL");
    }
}
