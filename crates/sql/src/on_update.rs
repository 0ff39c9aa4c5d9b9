//! `ON UPDATE CURRENT_TIMESTAMP[(n)]`: a TIMESTAMP or DATETIME column that takes the
//! statement's time whenever an UPDATE (or an upsert's update) changes another column of
//! its row and does not set it itself, as MariaDB does.
//!
//! SQLite has no such clause, so the column's definition keeps it as a comment
//! (`/*tutti:on_update 3*/`, the fraction digits; see `column_marks`), and every UPDATE of
//! the table gets one more assignment:
//!
//! ```text
//! ts = CASE WHEN a COLLATE BINARY IS DISTINCT FROM (<a's new value>) OR ... THEN NOW(3) ELSE ts END
//! ```
//!
//! computed from the row's old values, as the statement's other assignments are. The row
//! counts as changed when a value differs byte for byte (`'a'` → `'A'` changes it, as in
//! MariaDB's record comparison). Assigning the column itself, even its own value, keeps
//! MariaDB's rule: then no automatic value.

use sqlparser::ast::{Assignment, AssignmentTarget, CaseWhen, DataType, Expr, Ident, ObjectName};

use crate::ast_build::{func, nested, number};
use crate::names::quoted;
use crate::{SqlError, TableInfo};

/// The comment that marks such a column in its SQLite definition.
const MARK: &str = "tutti:on_update ";

/// The fraction digits of `ON UPDATE x` for a column of type `data_type`: x must be
/// `CURRENT_TIMESTAMP`, `NOW()` or a synonym, the column a TIMESTAMP or DATETIME (else
/// MariaDB's 1294).
pub(crate) fn fsp(column: &str, data_type: &DataType, x: &Expr) -> Result<u32, SqlError> {
    let invalid = || SqlError::InvalidOnUpdate(column.to_string());
    if !matches!(data_type, DataType::Timestamp(..) | DataType::Datetime(_)) {
        return Err(invalid());
    }
    let Expr::Function(f) = x else {
        return Err(invalid());
    };
    let name = f.name.to_string().to_ascii_uppercase();
    if !matches!(
        name.as_str(),
        "CURRENT_TIMESTAMP" | "NOW" | "LOCALTIME" | "LOCALTIMESTAMP"
    ) {
        return Err(invalid());
    }
    let arg = f.args.to_string();
    let digits = arg.trim_matches(|c| c == '(' || c == ')').trim();
    match digits {
        "" => Ok(0),
        d => d.parse().ok().filter(|n| *n <= 6).ok_or_else(invalid),
    }
}

/// The comment that records the clause in the column's SQLite definition.
pub(crate) fn mark(fsp: u32) -> String {
    crate::column_marks::mark(MARK, &fsp.to_string())
}

/// The columns of a table with the clause, and their fraction digits, from the table's
/// SQLite definition.
pub fn columns(create_sql: &str) -> Vec<(String, u32)> {
    crate::column_marks::marked(create_sql, MARK)
        .into_iter()
        .map(|(column, fsp)| (column, fsp.trim().parse().unwrap_or(0)))
        .collect()
}

/// Adds the automatic assignment of each such column of `table` that `assignments` do not
/// set; `new_value` gives the column's value as an assignment stores it.
pub(crate) fn add_assignments(
    table: &TableInfo,
    assignments: &mut Vec<Assignment>,
    new_value: impl Fn(&str, Expr) -> Expr,
) {
    // The old values as stored: compared with the new ones as stored, kept as they are.
    let stored_form = |c: Expr| func(crate::exprs::STORED_FORM, vec![c]);
    let auto = columns(&table.create_sql);
    if auto.is_empty() || assignments.is_empty() {
        return;
    }
    let assigned: Vec<(String, Expr)> = assignments
        .iter()
        .filter_map(|a| match &a.target {
            AssignmentTarget::ColumnName(n) => Some((n.to_string(), a.value.clone())),
            _ => None,
        })
        .collect();
    let is_assigned = |c: &str| {
        assigned
            .iter()
            .any(|(n, _)| n.trim_matches('"').eq_ignore_ascii_case(c))
    };
    for (column, fsp) in auto {
        if is_assigned(&column) {
            continue;
        }
        let changed = assigned
            .iter()
            .map(|(name, value)| {
                let old = Expr::Collate {
                    expr: Box::new(stored_form(Expr::Identifier(quoted(
                        name.trim_matches('"'),
                    )))),
                    collation: ObjectName::from(vec![Ident::new("BINARY")]),
                };
                Expr::IsDistinctFrom(Box::new(old), Box::new(nested(value.clone())))
            })
            .reduce(|a, b| crate::ast_build::binop(a, sqlparser::ast::BinaryOperator::Or, b))
            .expect("some assignment");
        let now = new_value(&column, func("NOW", vec![number(fsp.to_string())]));
        let case = Expr::Case {
            case_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
            end_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
            operand: None,
            conditions: vec![CaseWhen {
                condition: changed,
                result: now,
            }],
            else_result: Some(Box::new(stored_form(Expr::Identifier(quoted(&column))))),
        };
        assignments.push(Assignment {
            target: AssignmentTarget::ColumnName(ObjectName::from(vec![quoted(&column)])),
            value: case,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::ast::TimezoneInfo;

    #[test]
    fn marked_columns_are_found_by_position() {
        let sql = format!(
            r#"CREATE TABLE "d.t" ("id" INT NOT NULL, "ts" TIMESTAMP(3) {} NULL DEFAULT CURRENT_TIMESTAMP, "b" DATETIME {}, PRIMARY KEY ("id"), CHECK ("id" > 0))"#,
            mark(3),
            mark(0)
        );
        assert_eq!(columns(&sql), [("ts".to_string(), 3), ("b".to_string(), 0)]);
        assert!(columns(r#"CREATE TABLE "d.t" ("id" INT)"#).is_empty());
    }

    #[test]
    fn only_current_timestamp_on_temporal_columns() {
        let parse = |x: &str| {
            sqlparser::parser::Parser::new(&sqlparser::dialect::MySqlDialect {})
                .try_with_sql(x)
                .unwrap()
                .parse_expr()
                .unwrap()
        };
        let ts = DataType::Timestamp(None, TimezoneInfo::None);
        assert_eq!(fsp("c", &ts, &parse("CURRENT_TIMESTAMP(3)")).unwrap(), 3);
        assert_eq!(fsp("c", &ts, &parse("now()")).unwrap(), 0);
        assert!(fsp("c", &DataType::Int(None), &parse("NOW()")).is_err());
        assert!(fsp("c", &ts, &parse("CURDATE()")).is_err());
    }
}
