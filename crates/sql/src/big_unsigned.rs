//! BIGINT UNSIGNED columns up to 2^64 − 1.
//!
//! SQLite's integers are signed, so storage keeps a value above 2^63 − 1 as its 8 bytes
//! (see storage's `big_unsigned`): SQLite orders every INTEGER before every BLOB, so the
//! column sorts, groups and stays unique as MySQL's does, and its index still serves `=`,
//! ranges and `ORDER BY`. Only where a value is used for what it is does the BLOB have to
//! become a number:
//!
//! * every reference to such a column reads `tutti_u64(c)` (its digits, typed like an
//!   unsigned result: see `typing`), written when the column name is rewritten;
//! * a comparison of such columns with each other or with constants takes the wrapper off
//!   again and compares the stored forms, a constant through `tutti_u64_key` unless it is
//!   a plain integer literal: the index stays usable;
//! * `ORDER BY c`, `GROUP BY c`, `MIN(c)`/`MAX(c)` work on the stored form (the extreme is
//!   decoded afterwards), and so does the statement's own result column `c`, which the
//!   executor decodes from the column's declared type.
//!
//! An AUTO_INCREMENT column is SQLite's rowid and keeps 0..2^63 − 1 (beyond is 1264).

use sqlparser::ast::{
    BinaryOperator, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause,
    FunctionArguments, Ident, ObjectNamePart, Select, SelectItem, SetExpr, UnaryOperator,
    Value as SqlValue, WindowType,
};

use crate::ast_build::func;
use crate::typing::{args, column_decl, Scopes};

/// The function that reads a stored value as a number.
pub(crate) const VALUE: &str = "tutti_u64";
/// The function that turns a constant into the stored form it compares with.
const KEY: &str = "tutti_u64_key";
/// `tutti_int_store`'s `max` for a BIGINT UNSIGNED column: 2^64 − 1 (storage's
/// `BIGINT_UNSIGNED_MAX`).
pub(crate) const STORE_MAX: i64 = -1;

/// `qualifier.name` read as a number, if it names a BIGINT UNSIGNED column (not a rowid,
/// whose declared type is `INTEGER`); checked before the reference is built, as every
/// column reference of every statement passes here.
pub(crate) fn named_column_value(
    qualifier: Option<&Ident>,
    name: &Ident,
    scopes: &Scopes,
) -> Option<Expr> {
    read_through(qualifier, name, scopes, decl, VALUE)
}

/// `wrapper(qualifier.name)` if the column's declared type is one `of_kind` selects.
pub(crate) fn read_through(
    qualifier: Option<&Ident>,
    name: &Ident,
    scopes: &Scopes,
    of_kind: fn(&str) -> bool,
    wrapper: &str,
) -> Option<Expr> {
    let d = column_decl(scopes, qualifier.map(|q| q.value.as_str()), &name.value)?;
    of_kind(d).then(|| {
        let column = match qualifier {
            Some(q) => Expr::CompoundIdentifier(vec![q.clone(), name.clone()]),
            None => Expr::Identifier(name.clone()),
        };
        func(wrapper, vec![column])
    })
}

/// A BIGINT UNSIGNED declared type (not a rowid's `INTEGER`).
pub(crate) fn decl(decl: &str) -> bool {
    // Called for every column reference: no allocation.
    let starts = decl
        .get(..6)
        .is_some_and(|p| p.eq_ignore_ascii_case("BIGINT"));
    starts
        && decl
            .as_bytes()
            .windows(9)
            .any(|w| w.eq_ignore_ascii_case(b" UNSIGNED"))
}

/// The column of `tutti_u64(c)`.
fn wrapped(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Function(f) if named(f, VALUE) => match args(f).as_slice() {
            [c @ (Expr::Identifier(_) | Expr::CompoundIdentifier(_))] => Some(*c),
            _ => None,
        },
        _ => None,
    }
}

/// `f` is the function `name` (without allocating: called for every function).
fn named(f: &Function, name: &str) -> bool {
    matches!(f.name.0.as_slice(), [ObjectNamePart::Identifier(i)] if i.value.eq_ignore_ascii_case(name))
}

/// The column of `tutti_u64(c)` or of `tutti_timestamp_read(c)` (see `timestamps`), and
/// the function: a stored form read as a value.
fn stored_column(e: &Expr) -> Option<(&Expr, &'static str)> {
    match wrapped(e) {
        Some(c) => Some((c, VALUE)),
        None => crate::timestamps::wrapped(e).map(|c| (c, crate::timestamps::READ)),
    }
}

/// Replaces `tutti_u64(c)` or `tutti_timestamp_read(c)` by `c`; true if it was one.
pub(crate) fn unwrap(e: &mut Expr) -> bool {
    match stored_column(e).map(|(c, _)| c.clone()) {
        Some(c) => {
            *e = c;
            true
        }
        None => false,
    }
}

/// A number the statement gives: a literal (a negative one too, an integer beyond BIGINT
/// as `typing::big_literal` spells it, a string that is one: MySQL converts a constant to
/// the integer column's type) or a parameter. Anything else compares as MySQL reads it,
/// through the other rules of `typing`.
fn number(e: &Expr) -> bool {
    match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(..) | SqlValue::Placeholder(_) => true,
            SqlValue::SingleQuotedString(s) => numeric_string(s),
            _ => false,
        },
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => number(expr),
        Expr::Nested(inner) => number(inner),
        _ => crate::typing::big_literal_digits(e),
    }
}

/// Rewrites `e` if it works on the stored form (a comparison, `MIN`, `MAX`); true if so.
pub(crate) fn stored_form(e: &mut Expr) -> bool {
    match e {
        Expr::BinaryOp { left, op, right } => {
            (crate::ast_build::is_comparison(op) || *op == BinaryOperator::Spaceship)
                && (wrapped(left).is_some() || wrapped(right).is_some())
                && comparison([&mut **left, &mut **right])
        }
        Expr::InList { expr, list, .. }
            if wrapped(expr).is_some() || list.iter().any(|x| wrapped(x).is_some()) =>
        {
            comparison(std::iter::once(&mut **expr).chain(list.iter_mut()))
        }
        Expr::Between {
            expr, low, high, ..
        } => comparison([&mut **expr, &mut **low, &mut **high]),
        Expr::Function(f) => {
            sort_keys(f);
            extreme(e)
        }
        _ => false,
    }
}

/// A function's sort and partition keys (`GROUP_CONCAT(c ORDER BY c)`, `OVER (PARTITION
/// BY c ORDER BY c)`) in the stored form.
fn sort_keys(f: &mut Function) {
    if let FunctionArguments::List(list) = &mut f.args {
        for clause in &mut list.clauses {
            if let FunctionArgumentClause::OrderBy(keys) = clause {
                keys.iter_mut().for_each(|k| {
                    unwrap(&mut k.expr);
                });
            }
        }
    }
    if let Some(WindowType::WindowSpec(spec)) = &mut f.over {
        spec.partition_by.iter_mut().for_each(|e| {
            unwrap(e);
        });
        spec.order_by.iter_mut().for_each(|k| {
            unwrap(&mut k.expr);
        });
    }
}

/// A SELECT item that reads such a column is named after it, as the column itself would
/// be (a derived table's or view's column, `CREATE TABLE ... SELECT`).
pub(crate) fn name_item(item: &mut SelectItem) {
    if let SelectItem::UnnamedExpr(e) = item {
        let name = match stored_column(e).map(|(c, _)| c) {
            Some(Expr::Identifier(i)) => i.clone(),
            Some(Expr::CompoundIdentifier(ids)) => ids[ids.len() - 1].clone(),
            _ => return,
        };
        let expr = std::mem::replace(e, crate::ast_build::null());
        *item = SelectItem::ExprWithAlias { expr, alias: name };
    }
}

/// Operands compared with each other (`a = b`, `a IN (b, c)`, `a BETWEEN b AND c`): when
/// one is such a column and every other one is such a column or a constant, they compare
/// in the stored form. True if they were rewritten so (the comparison needs nothing else).
fn comparison<'a>(operands: impl IntoIterator<Item = &'a mut Expr>) -> bool {
    let mut operands: Vec<&mut Expr> = operands.into_iter().collect();
    if !operands.iter().all(|e| wrapped(e).is_some() || number(e))
        || !operands.iter().any(|e| wrapped(e).is_some())
    {
        return false;
    }
    for e in operands.iter_mut() {
        if unwrap(e) || small_integer(e) {
            continue;
        }
        let exact = match &**e {
            // A decimal literal by its digits: SQLite's REAL would round it.
            Expr::Value(v) => match &v.value {
                SqlValue::Number(n, _) => crate::ast_build::string(n),
                other => Expr::value(other.clone()),
            },
            other => other.clone(),
        };
        **e = func(KEY, vec![exact]);
    }
    true
}

/// A string that spells a decimal number (`' 12 '`, `'1.5e3'`), as SQLite's numeric
/// affinity reads it.
fn numeric_string(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        && t.parse::<f64>().is_ok()
}

/// An integer literal SQLite holds as it is.
fn small_integer(e: &Expr) -> bool {
    matches!(e, Expr::Value(v) if matches!(&v.value,
        SqlValue::Number(n, _) if n.parse::<i64>().is_ok()))
}

/// `MIN(tutti_u64(c))` → `tutti_u64(MIN(c))` (also `MAX`, and as window functions): the
/// stored form orders as the numbers do, their digits would not (a TIMESTAMP's likewise:
/// the stored form keeps the order and the index serves).
fn extreme(e: &mut Expr) -> bool {
    let Expr::Function(f) = e else { return false };
    if !(named(f, "min") || named(f, "max")) {
        return false;
    }
    let FunctionArguments::List(list) = &mut f.args else {
        return false;
    };
    let [FunctionArg::Unnamed(FunctionArgExpr::Expr(x))] = list.args.as_mut_slice() else {
        return false;
    };
    let Some((_, read)) = stored_column(x) else {
        return false;
    };
    unwrap(x);
    let extreme = std::mem::replace(e, crate::ast_build::null());
    *e = func(read, vec![extreme]);
    true
}

/// A DEFAULT above 2^63 − 1 in the stored form (`X'FFFFFFFFFFFFFFFF'`; SQLite would
/// read the number as a REAL); beyond 2^64 − 1 it is invalid (1067). None for the rest.
pub(crate) fn default(e: &Expr) -> Option<Result<String, crate::SqlError>> {
    let Expr::Value(v) = e else { return None };
    let (SqlValue::Number(n, _) | SqlValue::SingleQuotedString(n)) = &v.value else {
        return None;
    };
    let n = n.trim();
    if !n.bytes().all(|b| b.is_ascii_digit()) || n.parse::<i64>().is_ok() {
        return None;
    }
    Some(match n.parse::<u64>() {
        Ok(v) => Ok(format!("X'{v:016X}'")),
        Err(_) => Err(crate::SqlError::InvalidDefault(String::new())),
    })
}

/// The result columns of a query (the statement's, a derived table's, a CTE's, a view's)
/// that are such a column keep the stored form: in a UNION, those whose first SELECT reads one, in
/// every SELECT (they then compare and sort as numbers; SQLite declares the first
/// SELECT's types for the result). A TIMESTAMP column keeps it only in a single SELECT:
/// the other SELECTs' values of its result column would be read as UTC.
pub(crate) fn stored_results(body: &mut SetExpr) {
    let mut selects = Vec::new();
    branches(body, &mut selects);
    let Some(first) = selects.first() else { return };
    let single = selects.len() == 1;
    let stored = |e: &Expr| match stored_column(e) {
        Some((_, VALUE)) => true,
        Some(_) => single,
        None => false,
    };
    let positions: Vec<usize> = (first.projection.iter().enumerate())
        .filter(|(_, item)| item_expr(item).is_some_and(stored))
        .map(|(i, _)| i)
        .collect();
    for s in selects {
        for &i in &positions {
            if let Some(SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }) =
                s.projection.get_mut(i)
            {
                unwrap(e);
            }
        }
    }
}

fn item_expr(item: &SelectItem) -> Option<&Expr> {
    match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Some(e),
        _ => None,
    }
}

/// The SELECTs of a UNION, INTERSECT or EXCEPT, first to last.
fn branches<'a>(body: &'a mut SetExpr, out: &mut Vec<&'a mut Select>) {
    match body {
        SetExpr::Select(s) => out.push(s),
        SetExpr::SetOperation { left, right, .. } => {
            branches(left, out);
            branches(right, out);
        }
        SetExpr::Query(q) => branches(&mut q.body, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::env;
    use crate::{translate, Stmt};

    /// The SQLite text of a query over `ub` (two BIGINT UNSIGNED columns, an INT, a DOUBLE).
    fn sql(query: &str) -> String {
        let env = env().with_table(
            "app",
            "ub",
            &[
                ("id", "BIGINT UNSIGNED"),
                ("b", "BIGINT UNSIGNED"),
                ("c", "INT"),
                ("r", "DOUBLE"),
            ],
            &["id"],
            None,
            &[],
        );
        match translate(query, &env).unwrap().remove(0) {
            Stmt::Query(q) => q.sql,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn columns_read_as_numbers_but_compare_stored() {
        let s = sql("SELECT b + 1 FROM ub WHERE id = 5");
        assert!(s.contains("tutti_uint_op('+', tutti_u64(\"b\"), 1)"), "{s}");
        assert!(s.contains("WHERE \"id\" = 5"), "{s}");
        let s = sql("SELECT c FROM ub WHERE b > 18446744073709551614");
        assert!(s.contains("WHERE \"b\" > tutti_u64_key("), "{s}");
        let s = sql("SELECT c FROM ub WHERE b IN (1, ?) OR id BETWEEN b AND 9");
        assert!(s.contains("\"b\" IN (1, tutti_u64_key(?1))"), "{s}");
        assert!(s.contains("\"id\" BETWEEN \"b\" AND 9"), "{s}");
    }

    #[test]
    fn other_comparisons_read_the_numbers() {
        let s = sql("SELECT c FROM ub WHERE b = r");
        assert!(s.contains("tutti_u64(\"b\")"), "{s}");
        let s = sql("SELECT c FROM ub WHERE c = 1");
        assert!(!s.contains("tutti_u64"), "{s}");
    }

    #[test]
    fn order_group_extremes_and_results_use_the_stored_form() {
        let s = sql("SELECT MAX(b), c FROM ub GROUP BY c, b ORDER BY b");
        assert!(s.contains("tutti_u64(MAX(\"b\"))"), "{s}");
        assert!(s.contains("GROUP BY \"c\", \"b\" ORDER BY \"b\""), "{s}");
        let s = sql("SELECT b, id AS x FROM ub");
        assert!(
            s.starts_with("SELECT \"b\" AS \"b\", \"id\" AS \"x\""),
            "{s}"
        );
    }

    #[test]
    fn derived_tables_keep_the_stored_form_and_their_references_read_it() {
        let s = sql("SELECT b + 1 FROM (SELECT b FROM ub) d WHERE b = 18446744073709551615");
        assert!(s.contains("(SELECT \"b\" AS \"b\" FROM"), "{s}");
        assert!(s.contains("tutti_uint_op('+', tutti_u64(\"b\"), 1)"), "{s}");
        assert!(s.contains("WHERE \"b\" = tutti_u64_key("), "{s}");
        let s = sql("SELECT 1 FROM ub WHERE b IN (SELECT id FROM ub)");
        assert!(
            s.contains("tutti_u64(\"b\") IN (SELECT tutti_u64(\"id\") AS \"id\""),
            "{s}"
        );
    }
}
