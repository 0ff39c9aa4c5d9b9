//! The SQL type of a value put into a JSON document, which MariaDB's JSON functions write
//! by: a boolean (`TRUE`, a comparison) as `true`/`false`, where SQLite only has 0 and 1;
//! the value of a JSON column as the document it holds, where SQLite only has its text; a
//! DECIMAL (which tutti holds as text) as a number with its scale (`1.50`).
//!
//! Before the arguments are rewritten, each value argument of `JSON_ARRAY`, `JSON_OBJECT`,
//! `JSON_ARRAY_APPEND`, `JSON_ARRAY_INSERT`, `JSON_INSERT`, `JSON_REPLACE`, `JSON_SET`,
//! `JSON_ARRAYAGG` and `JSON_OBJECTAGG` of one of those types is wrapped in
//! `tutti_json_bool(..)`, `tutti_json_doc(..)` or `tutti_json_number(..)`, which mark it
//! for tutti_storage's JSON functions (see its `json::marks`).

use sqlparser::ast::{
    BinaryOperator, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, SelectItem,
    SetExpr, UnaryOperator, Value as SqlValue,
};

use crate::ast_build::func;
use crate::typing::{self, NumType, Scopes};

/// Marks the boolean, JSON and DECIMAL value arguments of a JSON document function call `e`.
pub(crate) fn mark_values(e: &mut Expr, scopes: &Scopes) {
    let Expr::Function(f) = e else { return };
    let name = f.name.to_string().to_ascii_lowercase();
    // Which argument positions are values: (first, step).
    let (first, step) = match name.as_str() {
        "json_array" | "json_arrayagg" => (0, 1),
        "json_object" | "json_objectagg" => (1, 2),
        "json_array_append" | "json_array_insert" | "json_insert" | "json_replace" | "json_set" => {
            (2, 2)
        }
        _ => return,
    };
    let FunctionArguments::List(list) = &mut f.args else {
        return;
    };
    for (i, arg) in list.args.iter_mut().enumerate() {
        if i < first || (i - first) % step != 0 {
            continue;
        }
        if let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = arg {
            mark(x, scopes);
        }
    }
}

/// Wraps the value `x` in the mark of its type, if it needs one.
fn mark(x: &mut Expr, scopes: &Scopes) {
    if let Some(doc) = relaid_document(x) {
        *x = func("tutti_json_doc", vec![doc]);
        return;
    }
    let (mark, inner) = if boolean(x) {
        ("tutti_json_bool", None)
    } else if typing::decl_of(x, scopes).is_some_and(|d| d.to_ascii_uppercase().starts_with("JSON"))
    {
        ("tutti_json_doc", None)
    } else if typing::type_of(x, scopes) == NumType::Decimal {
        // A literal as its text: all its digits and its scale.
        ("tutti_json_number", typing::decimal_literal_text(x))
    } else {
        return;
    };
    let value = std::mem::replace(x, crate::ast_build::null());
    *x = func(mark, vec![inner.unwrap_or(value)]);
}

/// The document argument of `JSON_COMPACT`/`JSON_LOOSE`/`JSON_DETAILED`/`JSON_PRETTY`:
/// MariaDB puts a re-laid-out document into another one as its argument's text, unchanged
/// (`JSON_OBJECT('a', JSON_COMPACT('{"b":  1}'))` is `{"a": {"b":  1}}`).
fn relaid_document(x: &Expr) -> Option<Expr> {
    let Expr::Function(f) = x else { return None };
    let layout = ["json_compact", "json_loose", "json_detailed", "json_pretty"];
    if !layout.contains(&typing::function_name(f).as_str()) {
        return None;
    }
    let FunctionArguments::List(list) = &f.args else {
        return None;
    };
    match list.args.first() {
        Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(doc))) => Some(doc.clone()),
        _ => None,
    }
}

/// Whether MariaDB types `e` as a boolean.
fn boolean(e: &Expr) -> bool {
    match e {
        Expr::Value(v) => matches!(v.value, SqlValue::Boolean(_)),
        Expr::Nested(x) => boolean(x),
        Expr::BinaryOp { op, .. } => {
            crate::ast_build::is_comparison(op)
                || matches!(
                    op,
                    BinaryOperator::Spaceship
                        | BinaryOperator::And
                        | BinaryOperator::Or
                        | BinaryOperator::Xor
                )
        }
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            ..
        } => true,
        Expr::IsNull(_)
        | Expr::IsNotNull(_)
        | Expr::IsTrue(_)
        | Expr::IsFalse(_)
        | Expr::IsNotTrue(_)
        | Expr::IsNotFalse(_)
        | Expr::InList { .. }
        | Expr::InSubquery { .. }
        | Expr::Between { .. }
        | Expr::Like { .. }
        | Expr::ILike { .. }
        | Expr::RLike { .. }
        | Expr::Exists { .. } => true,
        Expr::Function(f) => boolean_function(f),
        Expr::Case {
            conditions,
            else_result,
            ..
        } => {
            conditions.iter().all(|c| boolean(&c.result))
                && else_result.as_deref().is_none_or(boolean)
        }
        Expr::Subquery(q) => match q.body.as_ref() {
            SetExpr::Select(s) => match s.projection.as_slice() {
                [SelectItem::UnnamedExpr(x) | SelectItem::ExprWithAlias { expr: x, .. }] => {
                    boolean(x)
                }
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}

/// `COALESCE`, `IFNULL`, `MIN`, `MAX` and `IF` of booleans are booleans.
fn boolean_function(f: &Function) -> bool {
    let name = f.name.to_string().to_ascii_lowercase();
    let FunctionArguments::List(list) = &f.args else {
        return false;
    };
    let values: Vec<&Expr> = list
        .args
        .iter()
        .filter_map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) => Some(x),
            _ => None,
        })
        .collect();
    let results = match name.as_str() {
        "coalesce" | "ifnull" | "min" | "max" => &values[..],
        "if" if values.len() == 3 => &values[1..],
        _ => return false,
    };
    !results.is_empty() && results.iter().all(|x| boolean(x))
}

#[cfg(test)]
mod tests {
    use crate::tests::s as sql;

    #[test]
    fn booleans_are_marked_in_json_documents() {
        let s = sql("SELECT JSON_ARRAY(1, 'a', FALSE, NULL, 1 = 1)");
        assert!(s.contains("tutti_json_bool(0)"), "{s}");
        assert!(s.contains("tutti_json_bool(1 = 1)"), "{s}");
        assert!(!s.contains("tutti_json_bool(1)"), "{s}");
        let s = sql("SELECT JSON_OBJECT('k', COALESCE(TRUE, FALSE), 'n', 2)");
        assert!(s.contains("tutti_json_bool(COALESCE(1, 0))"), "{s}");
        assert!(!s.contains("tutti_json_bool('k')"), "{s}");
        let s = sql("SELECT JSON_SET('{}', '$.a', a > 1) FROM t");
        assert!(s.contains("tutti_json_bool(\"a\" > 1)"), "{s}");
    }

    #[test]
    fn relaid_documents_go_in_as_their_argument() {
        let s = sql(
            "SELECT JSON_OBJECT('a', JSON_COMPACT('[1,  2]'), 'b', JSON_DETAILED(j, 2)) FROM t",
        );
        assert!(s.contains("tutti_json_doc('[1,  2]')"), "{s}");
        assert!(s.contains("tutti_json_doc(\"j\")"), "{s}");
        let call = s.split(" AS ").next().unwrap_or_default();
        assert!(!call.contains("JSON_COMPACT"), "{s}");
    }
}
