//! `CREATE TABLE ... SELECT`, run as MariaDB runs it: the SELECT's result gives the new
//! columns, the table is created, then filled with the rows.
//!
//! Replication: the CREATE TABLE is an ordinary schema change (total order, TOI), the rows
//! one ordinary write-set (row-based, as Galera replicates the statement with
//! `binlog_format=ROW`). Rows are data, not a statement to re-run: every node gets exactly
//! the rows the origin selected, whatever `NOW()`, `RAND()` or a concurrent write would give
//! elsewhere. If filling fails (a duplicate key, a value that does not fit), the table is
//! dropped again and the error returned, so the statement is all or nothing as in MariaDB
//! 10.6+; other sessions may see the empty table in between.
//!
//! Column types: MariaDB's, derived from the SELECT's expressions by the translator (see
//! `tutti_sql::ResultType`): a column read as is keeps its definition (type, NOT NULL,
//! DEFAULT), a computed one gets the type MariaDB gives its expression (`a+1` over an INT:
//! `bigint(12)`). Where no type was derived, or the values would not fit the derived one, the
//! type comes from the values (integers: INT or BIGINT, by range; exact decimals:
//! DECIMAL(p,s) wide enough for every value; reals: DOUBLE; text: VARCHAR of the longest
//! value, LONGTEXT past 16383 characters; bytes: VARBINARY / LONGBLOB; only NULLs:
//! BINARY(0), as MariaDB): such a column can differ from MariaDB's in width, never in the
//! values it holds.

use tutti_sql::{CreateSelect, ResultType, Stmt};
use tutti_wsrep::Value;

use crate::result::Response;
use crate::session::Session;
use crate::show::mysql_type;
use crate::show_table::default_clause;
use crate::{sqlite, ExecError};

/// VARCHAR's longest length in utf8mb4 characters (65,535 bytes a row).
const MAX_VARCHAR: usize = 16_383;
/// VARBINARY's longest length in bytes.
const MAX_VARBINARY: usize = 65_532;

impl Session {
    /// Runs a `CREATE TABLE ... SELECT`.
    pub(crate) fn create_select(
        &mut self,
        cs: CreateSelect,
        params: &[Value],
    ) -> Result<Response, ExecError> {
        self.check_ready(false)?;
        let temporary = cs.temporary();
        if !temporary {
            self.commit()?;
        }
        if !temporary && self.temporary(&cs.table).is_some() {
            // Its rows would go where the name leads: into the temporary table.
            return Err(ExecError::Sql(tutti_sql::SqlError::Unsupported(
                "CREATE TABLE ... SELECT of a table a temporary table of the same name hides"
                    .into(),
            )));
        }
        if !cs.or_replace && self.table_exists(&cs.table, temporary)? {
            if cs.if_not_exists {
                crate::diagnostics::note_table_exists(&cs.table);
                return Ok(Response::ok());
            }
            return Err(ExecError::TableExists(cs.table.to_string()));
        }
        let (declared, rows) = if self.touches_temporary(&cs.select) {
            let conn = self.temporary_reader(&cs.select)?;
            sqlite::query_declared(conn, &cs.select.sql, params)?
        } else {
            let reader = self
                .exec
                .storage
                .reader()
                .map_err(|e| ExecError::Sqlite(e.to_string()))?;
            sqlite::query_declared(&reader, &cs.select.sql, params)?
        };
        let columns: Vec<(String, String)> = declared
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let decimal = cs.decimal.get(i).copied().flatten();
                let values = rows.iter().map(|r| &r[i]);
                let derived = cs.select.result_types.get(i).and_then(Option::as_ref);
                let ty = derived
                    .and_then(|t| derived_type(t, rows.iter().map(|r| &r[i])))
                    .unwrap_or_else(|| column_type(d.decl.as_deref(), values, decimal));
                (d.name.clone(), ty)
            })
            .collect();
        self.run_all(&cs.create_sql(&columns)?, &[])?;
        let names: Vec<String> = declared.into_iter().map(|d| d.name).collect();
        let filled = self.run_all(&cs.insert_sql(&names), params).and_then(|r| {
            if temporary {
                Ok(r)
            } else {
                self.commit().map(|()| r)
            }
        });
        match filled {
            Ok(r) => Ok(r),
            Err(e) => {
                if !temporary {
                    self.rollback();
                }
                let drop = format!(
                    "DROP {}TABLE `{}`.`{}`",
                    if temporary { "TEMPORARY " } else { "" },
                    cs.table.db.replace('`', "``"),
                    cs.table.table.replace('`', "``")
                );
                if let Err(d) = self.run_all(&drop, &[]) {
                    tracing::warn!("CREATE TABLE ... SELECT: dropping {} failed: {d}", cs.table);
                }
                Err(e)
            }
        }
    }

    /// Translates and runs MySQL text (one statement), returning its response.
    fn run_all(&mut self, sql: &str, params: &[Value]) -> Result<Response, ExecError> {
        let mut last = Response::ok();
        for stmt in tutti_sql::translate(sql, self)? {
            if matches!(stmt, Stmt::CreateSelect(_)) {
                return Err(ExecError::Sqlite(format!("unexpected statement {sql}")));
            }
            last = self.run(stmt, params)?;
        }
        Ok(last)
    }
}

/// The column definition MariaDB gives a result column of the derived type `t` (type and
/// NOT NULL, and a copied column's DEFAULT), when its values fit it.
fn derived_type<'a>(t: &ResultType, values: impl Iterator<Item = &'a Value>) -> Option<String> {
    let values: Vec<&Value> = values.collect();
    let has_null = values.iter().any(|v| v.is_null());
    match t {
        ResultType::Column {
            column,
            autoinc,
            members,
            shown_default,
        } => {
            // a view's columns have no declared type
            if column.decl_type.is_empty() || (column.not_null && has_null) {
                return None;
            }
            let mut def = match members {
                // ENUM's and SET's members live in a CHECK constraint, not in the declared type
                Some(m) => crate::show_table::display_type(&column.decl_type, Some(m)),
                None if tutti_sql::has_members(&column.decl_type) => return None,
                None => mysql_type(&column.decl_type),
            };
            if column.not_null {
                def.push_str(" NOT NULL");
            }
            let default = if *autoinc {
                Some("0".to_string())
            } else {
                shown_default.clone().or_else(|| default_clause(column))
            };
            if let Some(d) = default {
                def.push_str(&format!(" DEFAULT {d}"));
            }
            Some(def)
        }
        ResultType::Computed {
            mysql_type,
            not_null,
        } => {
            let present: Vec<&Value> = values.into_iter().filter(|v| !v.is_null()).collect();
            let mut def = match declared_fit(mysql_type, &present) {
                Fit::Yes => mysql_type.clone(),
                Fit::Widened(wider) => wider,
                Fit::No => return None,
            };
            if *not_null && !has_null {
                def.push_str(" NOT NULL");
            }
            Some(def)
        }
    }
}

/// The MySQL type of a result column: its declared type, or one that holds its values.
fn column_type<'a>(
    decl: Option<&str>,
    values: impl Iterator<Item = &'a Value>,
    decimal: Option<usize>,
) -> String {
    let values: Vec<&Value> = values.filter(|v| !v.is_null()).collect();
    // ENUM's and SET's members live in a CHECK constraint, not in the declared type.
    if let Some(d) = decl.filter(|d| !d.is_empty() && !tutti_sql::has_members(d)) {
        let ty = mysql_type(d);
        // A UNION's declared type is its first SELECT's: kept only if every value fits.
        match declared_fit(&ty, &values) {
            Fit::Yes => return ty,
            Fit::Widened(wider) => return wider,
            Fit::No => {}
        }
    }
    if values.is_empty() {
        return "BINARY(0)".into();
    }
    if values.iter().all(|v| matches!(v, Value::Int(_))) {
        let fits = |v: &&Value| matches!(v, Value::Int(i) if i32::try_from(*i).is_ok());
        return if values.iter().all(fits) {
            "INT"
        } else {
            "BIGINT"
        }
        .into();
    }
    if let Some(t) = decimal.and_then(|scale| decimal_type(&values, scale)) {
        return t;
    }
    if values
        .iter()
        .all(|v| matches!(v, Value::Int(_) | Value::Real(_)))
    {
        return "DOUBLE".into();
    }
    if values.iter().all(|v| matches!(v, Value::Blob(_))) {
        let longest = values.iter().map(|v| byte_len(v)).max().unwrap_or(0);
        return if longest <= MAX_VARBINARY {
            format!("VARBINARY({longest})")
        } else {
            "LONGBLOB".into()
        };
    }
    let longest = values.iter().map(|v| char_len(v)).max().unwrap_or(0);
    if longest <= MAX_VARCHAR {
        format!("VARCHAR({longest})")
    } else {
        "LONGTEXT".into()
    }
}

/// Whether values fit a declared type (MySQL spelling, lower case).
#[derive(Debug, PartialEq)]
enum Fit {
    Yes,
    No,
    /// No, but this wider type of the same family holds them (a DECIMAL with more digits, a
    /// DATETIME for dates and times).
    Widened(String),
}

fn declared_fit(ty: &str, values: &[&Value]) -> Fit {
    let base = ty.split(['(', ' ']).next().unwrap_or("");
    let unsigned = ty.contains("unsigned");
    let args: Vec<usize> = ty
        .split_once('(')
        .map(|(_, rest)| {
            rest.trim_end_matches(|c: char| !c.is_ascii_digit())
                .split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let all = |f: &dyn Fn(&Value) -> bool| values.iter().all(|v| f(v));
    let fits = match base {
        "tinyint" | "smallint" | "mediumint" | "int" | "integer" | "bigint" => {
            let bits = match base {
                "tinyint" => 8,
                "smallint" => 16,
                "mediumint" => 24,
                "int" | "integer" => 32,
                _ => 64,
            };
            all(&|v| match v {
                Value::Int(i) if bits == 64 => !unsigned || *i >= 0,
                Value::Int(i) if unsigned => *i >= 0 && *i < 1i64 << bits,
                Value::Int(i) => (-(1i64 << (bits - 1))..1i64 << (bits - 1)).contains(i),
                _ => false,
            })
        }
        "decimal" => {
            let (p, s) = (
                args.first().copied().unwrap_or(10),
                args.get(1).copied().unwrap_or(0),
            );
            match decimal_shape(values) {
                Some((int, scale)) if scale <= s && int <= p - s.min(p) => true,
                Some(_) => return decimal_type(values, s).map_or(Fit::No, Fit::Widened),
                None => false,
            }
        }
        // a fixed-decimal DOUBLE (`STD(d)`) is computed as its digits
        "float" | "double" | "real" => all(&|v| match v {
            Value::Int(_) | Value::Real(_) => true,
            Value::Text(t) => t.parse::<f64>().is_ok(),
            _ => false,
        }),
        "char" | "varchar" | "binary" | "varbinary" => {
            let n = args.first().copied().unwrap_or(1);
            all(&|v| byte_or_char_len(base, v) <= n)
        }
        "date" => {
            if all(&|v| matches!(v, Value::Text(t) if !t.contains([' ', 'T', ':']))) {
                true
            } else {
                let fsp = values
                    .iter()
                    .filter_map(|v| match v {
                        Value::Text(t) => t.split_once('.').map(|(_, f)| f.len()),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
                return Fit::Widened(match fsp.min(6) {
                    0 => "DATETIME".into(),
                    fsp => format!("DATETIME({fsp})"),
                });
            }
        }
        _ => true,
    };
    if fits {
        Fit::Yes
    } else {
        Fit::No
    }
}

fn byte_or_char_len(base: &str, v: &Value) -> usize {
    if base.ends_with("binary") {
        byte_len(v)
    } else {
        char_len(v)
    }
}

/// DECIMAL(p,s), s at least `least_scale`, holding every value (canonical decimal text,
/// or the REAL of a literal); None if one is not a decimal number.
fn decimal_type(values: &[&Value], least_scale: usize) -> Option<String> {
    let (int_digits, scale) = decimal_shape(values)?;
    let scale = scale.max(least_scale).min(38);
    let precision = (int_digits.max(1) + scale).min(65);
    Some(format!("DECIMAL({precision},{scale})"))
}

/// The most integer digits and fraction digits among decimal values; None if one is not a
/// decimal number.
fn decimal_shape(values: &[&Value]) -> Option<(usize, usize)> {
    let (mut int_digits, mut scale) = (0usize, 0usize);
    for v in values {
        let text = match v {
            Value::Text(t) => t.clone(),
            Value::Int(i) => i.to_string(),
            Value::Real(r) if r.is_finite() => r.to_string(),
            _ => return None,
        };
        let digits = text.trim_start_matches('-');
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let numeric = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() || !numeric(int) || !numeric(frac) {
            return None;
        }
        int_digits = int_digits.max(int.trim_start_matches('0').len());
        scale = scale.max(frac.len());
    }
    Some((int_digits, scale))
}

fn char_len(v: &Value) -> usize {
    match v {
        Value::Text(t) => t.chars().count(),
        Value::Blob(b) => String::from_utf8_lossy(b).chars().count(),
        Value::Int(i) => i.to_string().len(),
        Value::Real(r) => r.to_string().len(),
        _ => 0,
    }
}

fn byte_len(v: &Value) -> usize {
    match v {
        Value::Blob(b) => b.len(),
        other => char_len(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(decl: Option<&str>, values: &[Value], decimal: Option<usize>) -> String {
        column_type(decl, values.iter(), decimal)
    }

    #[test]
    fn declared_types_are_kept_computed_ones_hold_their_values() {
        assert_eq!(ty(Some("DECIMAL TEXT(10,2)"), &[], None), "decimal(10,2)");
        assert_eq!(ty(Some("BIGINT UNSIGNED"), &[], None), "bigint unsigned");
        assert_eq!(ty(Some("INT UNSIGNED(5)"), &[], None), "int(5) unsigned");
        assert_eq!(ty(None, &[Value::Null], None), "BINARY(0)");
        assert_eq!(ty(None, &[Value::Int(1), Value::Null], None), "INT");
        assert_eq!(ty(None, &[Value::Int(1 << 40)], None), "BIGINT");
        assert_eq!(ty(None, &[Value::Real(1.5), Value::Int(2)], None), "DOUBLE");
        let dec = [Value::Text("-12.50".into()), Value::Text("3.125".into())];
        assert_eq!(ty(None, &dec, Some(0)), "DECIMAL(5,3)");
        assert_eq!(ty(None, &dec, None), "VARCHAR(6)");
        assert_eq!(
            ty(None, &[Value::Text("abc".into())], Some(0)),
            "VARCHAR(3)"
        );
        assert_eq!(ty(None, &[Value::Real(1.5)], Some(2)), "DECIMAL(3,2)");
        assert_eq!(ty(None, &[Value::Text("héllo".into())], None), "VARCHAR(5)");
        assert_eq!(
            ty(
                Some(tutti_sql::ENUM_DECL),
                &[Value::Text("ab".into())],
                None
            ),
            "VARCHAR(2)"
        );
        assert_eq!(ty(None, &[Value::Blob(vec![0; 70_000])], None), "LONGBLOB");
    }

    #[test]
    fn a_union_keeps_its_first_declared_type_only_when_every_value_fits() {
        let ints = [Value::Int(3), Value::Int(-4)];
        assert_eq!(ty(Some("TINYINT"), &ints, None), "tinyint");
        assert_eq!(ty(Some("TINYINT UNSIGNED"), &ints, None), "INT");
        assert_eq!(ty(Some("TINYINT"), &[Value::Int(300)], None), "INT");
        assert_eq!(
            ty(Some("INT"), &[Value::Int(3), Value::Real(1.5)], None),
            "DOUBLE"
        );
        let dec = [Value::Text("1.25".into()), Value::Int(100)];
        assert_eq!(ty(Some("DECIMAL TEXT(5,2)"), &dec, None), "decimal(5,2)");
        assert_eq!(ty(Some("DECIMAL TEXT(4,2)"), &dec, None), "DECIMAL(5,2)");
        assert_eq!(
            ty(Some("VARCHAR(3)"), &[Value::Text("abcd".into())], None),
            "VARCHAR(4)"
        );
        let dates = [
            Value::Text("1972-10-22".into()),
            Value::Text("1972-10-22 11:50:00.25".into()),
        ];
        assert_eq!(ty(Some("DATE"), &dates[..1], None), "date");
        assert_eq!(ty(Some("DATE"), &dates, None), "DATETIME(2)");
    }
}
