//! Numeric types of expressions, as MySQL infers them, and the DECIMAL routing that follows.
//!
//! SQLite has INTEGER and REAL arithmetic only; MySQL does exact DECIMAL arithmetic
//! whenever a DECIMAL is involved and no DOUBLE or string is (`0.1 + 0.2` is exactly 0.3,
//! `1/3` is 0.3333). So while an expression is rewritten (bottom-up, its children already
//! in SQLite form) tutti infers the numeric type of each operand — literals by their
//! spelling, columns by their declared type in the tables in scope, its own DECIMAL
//! functions by name — and routes:
//!
//! * `+ - * / MOD` with a DECIMAL operand and no DOUBLE/string one, and every `/` between
//!   integers, to `tutti_dec_add/sub/mul/div/mod` (a DECIMAL literal is passed as text, so
//!   all its digits arrive); unary minus of a DECIMAL expression to `tutti_dec_neg`;
//! * `+ - *` between integers to `tutti_int_op`, which fails with 1690 on overflow;
//! * a comparison of a DECIMAL expression (not a stored column, which compares by number
//!   through its collation and keeps its index usable) with an integer or DECIMAL to
//!   `tutti_dec_cmp(a, b) op 0`, and with a DOUBLE or string to a comparison of REALs;
//! * `SUM` and `AVG` of DECIMALs (and `AVG` of integers, a DECIMAL in MySQL) to
//!   `tutti_dec_sum`/`tutti_dec_avg`; `ROUND`, `TRUNCATE`, `FLOOR`, `CEIL(ING)`, `ABS` of a
//!   DECIMAL to their exact forms; `CAST(x AS DECIMAL(p,s))` to `tutti_dec_cast`.
//!
//! DECIMAL results are canonical text and carry `COLLATE tutti_decimal`, so `ORDER BY`,
//! `GROUP BY`, `DISTINCT`, `MIN` and `MAX` over them are numeric too.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, DataType, ExactNumberInfo, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArguments, Ident, ObjectName, Query, SelectItem, SetExpr, UnaryOperator,
    Value as SqlValue,
};

use crate::ast_build::{binop, cast, func, nested, number, string};
use crate::decimal::{DecimalType, COLLATION};
use crate::TableInfo;

/// The numeric type MySQL gives an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumType {
    /// An integer.
    Int,
    /// An exact DECIMAL.
    Decimal,
    /// A DOUBLE (or FLOAT).
    Double,
    /// A string (converted to DOUBLE by arithmetic).
    Str,
    /// The NULL literal (takes the type of what it is combined with).
    Null,
    /// Anything else, or not known.
    Other,
}

/// A table in scope: its alias and what the catalog knows of it.
#[derive(Clone, Debug)]
pub(crate) struct Scope {
    /// The name columns are qualified with (alias, or the table name).
    pub alias: String,
    /// The table.
    pub table: TableInfo,
}

/// Tables in scope, innermost query last.
pub(crate) type Scopes = Vec<Vec<Scope>>;

/// The numeric type of a column declared `decl` (its SQLite declaration).
pub(crate) fn decl_type(decl: &str) -> NumType {
    let d = decl.to_ascii_uppercase();
    if d.starts_with(crate::decimal::DECL) {
        NumType::Decimal
    } else if d.contains("INT") || d.starts_with("YEAR") || d.starts_with("BIT") {
        NumType::Int
    } else if d.starts_with("DOUBLE") || d.starts_with("FLOAT") || d.starts_with("REAL") {
        NumType::Double
    } else if d.contains("CHAR")
        || d.contains("TEXT")
        || d.contains("BLOB")
        || d.starts_with("ENUM")
    {
        NumType::Str
    } else {
        NumType::Other
    }
}

/// The declared type of a (rewritten, quoted) column reference.
pub(crate) fn column_decl<'a>(
    scopes: &'a Scopes,
    qualifier: Option<&str>,
    name: &str,
) -> Option<&'a str> {
    column_of(scopes, qualifier, name).map(|c| c.decl_type.as_str())
}

/// The column a (possibly qualified) name refers to, innermost scope first.
fn column_of<'a>(
    scopes: &'a Scopes,
    qualifier: Option<&str>,
    name: &str,
) -> Option<&'a crate::ColumnInfo> {
    owned_column(scopes, qualifier, name).map(|(_, c)| c)
}

/// The column a name refers to, with its table.
fn owned_column<'a>(
    scopes: &'a Scopes,
    qualifier: Option<&str>,
    name: &str,
) -> Option<(&'a TableInfo, &'a crate::ColumnInfo)> {
    for scope in scopes.iter().rev() {
        for s in scope {
            if qualifier.is_some_and(|q| !q.eq_ignore_ascii_case(&s.alias)) {
                continue;
            }
            if let Some(c) = s
                .table
                .columns
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
            {
                return Some((&s.table, c));
            }
        }
    }
    None
}

/// A column reference as written, also when it is read through `timestamps::READ` (the
/// value is the column's, in the session's zone).
fn column_ref(e: &Expr) -> &Expr {
    crate::timestamps::wrapped(e).unwrap_or(e)
}

/// The column a (rewritten) column reference refers to, with its table.
pub(crate) fn referenced_column<'a>(
    e: &Expr,
    scopes: &'a Scopes,
) -> Option<(&'a TableInfo, &'a crate::ColumnInfo)> {
    match column_ref(e) {
        Expr::Identifier(i) => owned_column(scopes, None, &i.value),
        Expr::CompoundIdentifier(ids) if ids.len() == 2 => {
            owned_column(scopes, Some(&ids[0].value), &ids[1].value)
        }
        _ => None,
    }
}

/// A column of a derived table or CTE (see `derived`: its table has no database) or of a
/// view: a computed value, without a stored column's affinity.
fn derived_column(e: &Expr, scopes: &Scopes) -> bool {
    let owner = referenced_column(e, scopes);
    owner.is_some_and(|(t, _)| t.name.db.is_empty() || t.create_sql.starts_with("CREATE VIEW"))
}

/// `d IS NULL` of a `NOT NULL` DATE or DATETIME column also finds the zero date, as in
/// MySQL (an ODBC convention): `(d IS NULL OR d = '0000-00-00')`.
pub(crate) fn zero_date_is_null(x: &Expr, scopes: &Scopes) -> Option<Expr> {
    let column = match x {
        Expr::Identifier(i) => column_of(scopes, None, &i.value),
        Expr::CompoundIdentifier(ids) if ids.len() == 2 => {
            column_of(scopes, Some(&ids[0].value), &ids[1].value)
        }
        _ => None,
    }?;
    let zero = match crate::stored::temporal_of(&column.decl_type)? {
        ("date", _) => "0000-00-00".to_string(),
        ("datetime", 0) => "0000-00-00 00:00:00".to_string(),
        ("datetime", fsp) => format!("0000-00-00 00:00:00.{}", "0".repeat(fsp as usize)),
        _ => return None,
    };
    if !column.not_null {
        return None;
    }
    let is_zero = binop(x.clone(), BinaryOperator::Eq, string(zero));
    Some(nested(binop(
        Expr::IsNull(Box::new(x.clone())),
        BinaryOperator::Or,
        is_zero,
    )))
}

/// The DECIMAL type of a column reference, if it is one.
pub(crate) fn decimal_column(e: &Expr, scopes: &Scopes) -> Option<DecimalType> {
    DecimalType::of_decl(decl_of(e, scopes)?)
}

fn is_column(e: &Expr) -> bool {
    matches!(e, Expr::Identifier(_) | Expr::CompoundIdentifier(_))
}

pub(crate) fn function_name(f: &Function) -> String {
    f.name.to_string().to_ascii_lowercase()
}

pub(crate) fn args(f: &Function) -> Vec<&Expr> {
    match &f.args {
        FunctionArguments::List(l) => l
            .args
            .iter()
            .filter_map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
                _ => None,
            })
            .collect(),
        _ => vec![],
    }
}

/// The numeric type of a rewritten expression.
pub(crate) fn type_of(e: &Expr, scopes: &Scopes) -> NumType {
    match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) => number_type(n),
            SqlValue::SingleQuotedString(_) | SqlValue::DoubleQuotedString(_) => NumType::Str,
            SqlValue::Boolean(_) => NumType::Int,
            SqlValue::Null => NumType::Null,
            _ => NumType::Other,
        },
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) => {
            decl_of(e, scopes).map_or(NumType::Other, decl_type)
        }
        Expr::Nested(inner) => type_of(inner, scopes),
        Expr::UnaryOp {
            op: UnaryOperator::Minus | UnaryOperator::Plus,
            expr,
        } => type_of(expr, scopes),
        Expr::Collate { collation, .. } if collation.to_string() == COLLATION => NumType::Decimal,
        Expr::Cast { data_type, .. } => match data_type {
            DataType::Real => NumType::Double,
            DataType::Integer(_) => NumType::Int,
            DataType::Text => NumType::Str,
            _ => NumType::Other,
        },
        Expr::BinaryOp {
            left,
            op: BinaryOperator::Plus | BinaryOperator::Minus | BinaryOperator::Multiply,
            right,
        } => match (type_of(left, scopes), type_of(right, scopes)) {
            (NumType::Int, NumType::Int) => NumType::Int,
            (NumType::Double | NumType::Str, _) | (_, NumType::Double | NumType::Str) => {
                NumType::Double
            }
            _ => NumType::Other,
        },
        Expr::BinaryOp {
            left,
            op: BinaryOperator::Divide,
            right,
        } => match (type_of(left, scopes), type_of(right, scopes)) {
            (NumType::Double | NumType::Str, _) | (_, NumType::Double | NumType::Str) => {
                NumType::Double
            }
            _ => NumType::Other,
        },
        Expr::Function(f) => {
            let name = function_name(f);
            match name.as_str() {
                "tutti_dec_cmp" | "tutti_int_op" | "tutti_interval" => NumType::Int,
                n if DOUBLE_MATH.contains(&n) => NumType::Double,
                "pi" | "rand" | "tutti_double_round" | "tutti_double_shown"
                | "tutti_float_cast" | HELD_DOUBLE => NumType::Double,
                // Unsigned results above 2^63 − 1 are digits: exact arithmetic needs DECIMAL.
                "tutti_bitop" | "tutti_uint_op" | "tutti_u64" => NumType::Decimal,
                "tutti_cast_int" => match args(f).get(1) {
                    Some(Expr::Value(v)) if v.value == SqlValue::Number("1".into(), false) => {
                        NumType::Decimal
                    }
                    _ => NumType::Int,
                },
                // FORMAT of a DECIMAL is a string (`1,234.50`), as FORMAT's always is.
                "tutti_dec_format" => NumType::Str,
                n if n.starts_with("tutti_dec_") => NumType::Decimal,
                "count" | "length" | "char_length" | "instr" | "sign" => NumType::Int,
                "min" | "max" | "nullif" => args(f)
                    .first()
                    .map_or(NumType::Other, |a| type_of(a, scopes)),
                // Functions that return one of their arguments.
                "coalesce" | "ifnull" | "greatest" | "least" => {
                    merge(args(f).iter().map(|a| type_of(a, scopes)))
                }
                "if" => merge(args(f).iter().skip(1).map(|a| type_of(a, scopes))),
                n if STRING_FUNCTIONS.contains(&n) => NumType::Str,
                _ => NumType::Other,
            }
        }
        Expr::Case {
            conditions,
            else_result,
            ..
        } => merge(case_results(conditions, else_result).map(|e| type_of(e, scopes))),
        Expr::Substring { .. } | Expr::Trim { .. } => NumType::Str,
        Expr::Subquery(q) => computed_item_type(q),
        _ => NumType::Other,
    }
}

/// The type of a subquery's single computed column (`SELECT AVG(a) ...`, `SELECT a / b ...`),
/// known from its functions alone; a column of the subquery's own tables is not known here
/// (the scopes in hand are the outer query's): Other.
pub(crate) fn computed_item_type(q: &Query) -> NumType {
    match single_item(q) {
        Some(e) if !is_column(e) => type_of(e, &Vec::new()),
        _ => NumType::Other,
    }
}

/// [`single_item`], to change.
pub(crate) fn single_item_mut(q: &mut Query) -> Option<&mut Expr> {
    let SetExpr::Select(s) = q.body.as_mut() else {
        return None;
    };
    match s.projection.as_mut_slice() {
        [SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }] => Some(e),
        _ => None,
    }
}

/// The item of a query that is one SELECT of one item (`SELECT x FROM ..`).
pub(crate) fn single_item(q: &Query) -> Option<&Expr> {
    let SetExpr::Select(s) = q.body.as_ref() else {
        return None;
    };
    match s.projection.as_slice() {
        [SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }] => Some(e),
        _ => None,
    }
}

/// `x [NOT] IN (SELECT d ...)` of a computed DECIMAL `d` (text such as `'1.0000'`, which
/// SQLite finds equal to no number), or of a computed string `d` and a number `x`
/// (`0 IN (SELECT 'a')`): both sides compared as doubles, as `x = d` is. (A BIGINT
/// UNSIGNED's digits are canonical already, and exact.)
pub(crate) fn in_decimal_subquery(expr: &mut Expr, subquery: &mut Query, scopes: &Scopes) {
    let item = computed_item_type(subquery);
    let x = type_of(expr, scopes);
    if item != NumType::Decimal && !string_meets_number(item, x) {
        return;
    }
    let SetExpr::Select(s) = subquery.body.as_mut() else {
        return;
    };
    if let [SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }] =
        s.projection.as_mut_slice()
    {
        let mut inner = &*e;
        while let Expr::Nested(x) | Expr::Collate { expr: x, .. } = inner {
            inner = x;
        }
        let unsigned = [
            "tutti_u64",
            "tutti_uint_op",
            "tutti_bitop",
            "tutti_cast_int",
        ];
        if matches!(inner, Expr::Function(f) if unsigned.contains(&function_name(f).as_str())) {
            return;
        }
        *e = cast(nested(e.clone()), DataType::Real);
        *expr = cast(nested(expr.clone()), DataType::Real);
    }
}

/// `x [NOT] IN (SELECT s ...)` of strings where no column or `COLLATE` decides the collation
/// (`'x' IN (SELECT 'X')` is 1): the default collation goes to `x`, as `=` gives it.
pub(crate) fn in_subquery_collation(expr: &mut Expr, subquery: &Query, scopes: &Scopes) {
    let Some(item) = single_item(subquery) else {
        return;
    };
    if type_of(item, &Vec::new()) == NumType::Str
        && !collation_decided(item)
        && type_of(expr, scopes) == NumType::Str
        && !collation_decided(expr)
    {
        collate_in_connection(expr, scopes);
    }
}

/// Functions whose value is a (character) string: compared with a number, MySQL reads it as
/// a DOUBLE (`CONCAT('1') = 1` is true), where SQLite finds no text equal to a number.
const STRING_FUNCTIONS: &[&str] = &[
    "concat",
    "concat_ws",
    "upper",
    "ucase",
    "lower",
    "lcase",
    "substring",
    "substr",
    "mid",
    "left",
    "right",
    "trim",
    "ltrim",
    "rtrim",
    "lpad",
    "rpad",
    "replace",
    "repeat",
    "reverse",
    "tutti_insert",
    "tutti_trim",
    "substring_index",
    crate::exprs::SUBSTRING_INDEX_SB,
    "space",
    "elt",
    "quote",
    "json_value",
    "json_unquote",
];

/// Whether `f` returns a (character) string (see [`STRING_FUNCTIONS`]).
pub(crate) fn string_function(f: &Function) -> bool {
    STRING_FUNCTIONS.contains(&function_name(f).as_str())
}

/// A value taken as a string (an argument of a string function, a CAST to CHAR): a
/// DECIMAL's or TIME's ordering collation comes off, which SQLite would otherwise pass on to
/// the string (`ORDER BY CONCAT(a / 1.1)` sorts `10.0000` before `7.2727`, as text).
pub(crate) fn as_string(e: &mut Expr) {
    if let Expr::Collate { expr, collation } = e {
        let name = collation.to_string();
        if name == crate::decimal::COLLATION || name == crate::columns::TIME_ORDER {
            *e = std::mem::replace(expr.as_mut(), crate::ast_build::null());
        }
    }
}

/// The type of an expression that returns one of several (IF, CASE, COALESCE, ...): all
/// integers → integer; integers and DECIMALs → DECIMAL; NULLs don't count; else not known.
fn merge(types: impl Iterator<Item = NumType>) -> NumType {
    let mut out = None;
    for t in types {
        if t == NumType::Null {
            continue;
        }
        out = Some(match (out, t) {
            (None, t) => t,
            (Some(a), b) if a == b => a,
            (Some(NumType::Int), NumType::Decimal) | (Some(NumType::Decimal), NumType::Int) => {
                NumType::Decimal
            }
            _ => NumType::Other,
        });
    }
    out.unwrap_or(NumType::Other)
}

/// A numeric literal's type: an exponent makes a DOUBLE, a point (or more digits than a
/// BIGINT holds) a DECIMAL.
fn number_type(n: &str) -> NumType {
    if n.contains(['e', 'E']) {
        NumType::Double
    } else if n.contains('.') || n.parse::<i64>().is_err() {
        NumType::Decimal
    } else {
        NumType::Int
    }
}

/// An operand of a DECIMAL function: a DECIMAL literal as text (all its digits, which a
/// REAL would lose), anything else as it is.
pub(crate) fn operand(e: Expr) -> Expr {
    match e {
        Expr::Value(_) => match decimal_literal(&e) {
            Some(n) => string(n),
            None => e,
        },
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => match decimal_literal(&expr) {
            Some(n) => string(format!("-{n}")),
            None => Expr::UnaryOp {
                op: UnaryOperator::Minus,
                expr,
            },
        },
        Expr::Nested(inner) => operand(*inner),
        // The results of CASE and of the functions returning an argument reach the DECIMAL
        // function as they are: their literals too must keep all their digits.
        Expr::Case {
            case_token,
            end_token,
            operand: subject,
            conditions,
            else_result,
        } => Expr::Case {
            case_token,
            end_token,
            operand: subject,
            conditions: conditions
                .into_iter()
                .map(|mut c| {
                    c.result = operand(c.result);
                    c
                })
                .collect(),
            else_result: else_result.map(|e| Box::new(operand(*e))),
        },
        // Only arguments that are returned and never compared: NULLIF, GREATEST and LEAST
        // compare theirs, and a text '1.5' is no number to SQLite's comparison
        // (`NULLIF('1.0', 1)` would not be NULL).
        Expr::Function(mut f) => {
            match function_name(&f).as_str() {
                "coalesce" | "ifnull" => operand_args(&mut f, 0),
                "if" => operand_args(&mut f, 1),
                _ => {}
            }
            Expr::Function(f)
        }
        e => e,
    }
}

/// The digits of a DECIMAL literal.
fn decimal_literal(e: &Expr) -> Option<String> {
    match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) if number_type(n) == NumType::Decimal => {
                Some(crate::decimal::bounded_literal(n))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A DECIMAL literal (or its negation) where a string is read (`CONCAT(1.50)`,
/// `LENGTH(-0.50)`): MySQL's text of the value with the literal's scale (`1.50`, `-0.50`,
/// `0.5` for `.5`, `1` for `1.`), which the REAL SQLite would read the literal as loses
/// (`1.5`, or a double's digits for a long one). None for other expressions.
pub(crate) fn decimal_literal_text(e: &Expr) -> Option<Expr> {
    let (digits, negative) = match unnested(e) {
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => (decimal_literal(unnested(expr))?, true),
        e => (decimal_literal(e)?, false),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let zero = int == "0" && frac.bytes().all(|b| b == b'0');
    let sign = if negative && !zero { "-" } else { "" };
    let point = if frac.is_empty() { "" } else { "." };
    Some(string(format!("{sign}{int}{point}{frac}")))
}

/// A SELECT item as MySQL prints it: a DECIMAL literal (or its negation) becomes its text,
/// typed DECIMAL, so that `SELECT 1.10` shows `1.10` and a long one all its digits (a REAL
/// would print `1.1` and round); anything else stays as it is.
pub(crate) fn exact_item(e: Expr) -> Expr {
    match decimal_literal_text(&e) {
        Some(text) => collated(text),
        None => e,
    }
}

/// The plain arguments of `f` from the `skip`th on.
pub(crate) fn args_from(f: &mut Function, skip: usize) -> impl Iterator<Item = &mut Expr> {
    let list = match &mut f.args {
        FunctionArguments::List(l) => l.args.as_mut_slice(),
        _ => &mut [],
    };
    list.iter_mut().skip(skip).filter_map(|a| match a {
        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
        _ => None,
    })
}

/// [`operand`] on the arguments of `f` from the `skip`th on.
fn operand_args(f: &mut Function, skip: usize) {
    for e in args_from(f, skip) {
        *e = operand(std::mem::replace(e, crate::ast_build::null()));
    }
}

/// A DECIMAL result, compared and sorted by number.
pub(crate) fn collated(e: Expr) -> Expr {
    Expr::Collate {
        expr: Box::new(e),
        collation: ObjectName::from(vec![Ident::new(COLLATION)]),
    }
}

/// A DECIMAL function's result. An operand that holds more digits than it shows (a
/// quotient) reaches the function with them; a result that may hold more is shown through
/// `tutti_dec_shown` (see storage's `decimal::held`).
fn decimal_result(name: &str, operands: Vec<Expr>) -> Expr {
    let mut any_held = false;
    let operands = operands
        .into_iter()
        .map(|e| match held(&e) {
            Some(x) => {
                any_held = true;
                x.clone()
            }
            None => operand(e),
        })
        .collect();
    held_result(name, any_held, func(name, operands))
}

/// The call of DECIMAL function `name`, shown through `tutti_dec_shown` when its result
/// may hold more digits than it shows (`any_held`: an operand did).
fn held_result(name: &str, any_held: bool, call: Expr) -> Expr {
    let holds = HOLDING.contains(&name) || any_held && PASSING_HELD.contains(&name);
    collated(if holds { func(SHOWN, vec![call]) } else { call })
}

/// `tutti_dec_shown(x)`: a DECIMAL that may hold more digits than it shows, as shown.
pub(crate) const SHOWN: &str = "tutti_dec_shown";
/// The DECIMAL functions whose result may hold more digits than it shows: a quotient, an
/// average.
const HOLDING: [&str; 2] = ["tutti_dec_div", "tutti_dec_avg"];
/// The DECIMAL functions whose result holds more digits than it shows when an operand
/// does (`1/3*3` multiplies 0.333333333); the others read the held digits and return
/// what they show (ROUND, FLOOR, CAST, a column's store).
const PASSING_HELD: [&str; 10] = [
    "tutti_dec_greatest",
    "tutti_dec_least",
    "tutti_dec_add",
    "tutti_dec_sub",
    "tutti_dec_mul",
    "tutti_dec_div",
    "tutti_dec_mod",
    "tutti_dec_neg",
    "tutti_dec_abs",
    "tutti_dec_sum",
];

/// `tutti_dec_double(x)`: a held DECIMAL as the double MariaDB reads it (`(1/3)*1e0` is
/// 0.333333333, `STD(a/b)` the deviation of the quotients' held digits).
pub(crate) const HELD_DOUBLE: &str = "tutti_dec_double";

/// The functions of doubles that read a DECIMAL argument as one.
const DOUBLE_MATH: [&str; 18] = [
    "sqrt", "exp", "ln", "log", "log2", "log10", "pow", "power", "sin", "cos", "tan", "cot",
    "asin", "acos", "atan", "atan2", "degrees", "radians",
];

/// A held DECIMAL where it meets a double (the other operand of `x`'s arithmetic, a
/// function of doubles): the double of its held digits.
fn held_as_double(x: &mut Expr) {
    if let Some(inner) = held(x).cloned() {
        *x = func(HELD_DOUBLE, vec![inner]);
    }
}

/// The held value under `tutti_dec_shown(x)`: `x`.
pub(crate) fn held(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Nested(x) | Expr::Collate { expr: x, .. } => held(x),
        Expr::Function(f) if function_name(f) == SHOWN => args(f).first().copied(),
        _ => None,
    }
}

/// `tutti_dec_cmp(l, r) op 0`: `l op r` compared exactly.
fn exact_comparison(l: &Expr, op: BinaryOperator, r: &Expr) -> Expr {
    let cmp = func(
        "tutti_dec_cmp",
        vec![operand(l.clone()), operand(r.clone())],
    );
    binop(cmp, op, number("0"))
}

/// `CAST(l AS REAL) op CAST(r AS REAL)`: `l op r` compared as doubles.
fn double_comparison(l: &Expr, op: BinaryOperator, r: &Expr) -> Expr {
    let real = |e: &Expr| cast(nested(e.clone()), DataType::Real);
    binop(real(l), op, real(r))
}

/// A numeric type.
fn is_number(t: NumType) -> bool {
    matches!(t, NumType::Int | NumType::Decimal | NumType::Double)
}

/// One a string, the other a number: MySQL compares them as doubles.
fn string_meets_number(a: NumType, b: NumType) -> bool {
    a == NumType::Str && is_number(b) || is_number(a) && b == NumType::Str
}

fn exact(t: NumType) -> bool {
    matches!(
        t,
        NumType::Int | NumType::Decimal | NumType::Null | NumType::Other
    )
}

/// `l op r` routed to DECIMAL arithmetic or comparison, when MySQL would do it exactly.
pub(crate) fn binary(l: &Expr, op: &BinaryOperator, r: &Expr, scopes: &Scopes) -> Option<Expr> {
    if let Some(fuzzy) = crate::real_decimals::fixed_comparison(l, op, r, scopes) {
        return Some(fuzzy);
    }
    let (lt, rt) = (type_of(l, scopes), type_of(r, scopes));
    let any_decimal = lt == NumType::Decimal || rt == NumType::Decimal;
    if *op == BinaryOperator::MyIntegerDivide && any_decimal && exact(lt) && exact(rt) {
        // The exact quotient, cut: `9223372036854775808 DIV 1` is no double.
        return Some(func(
            "tutti_dec_intdiv",
            vec![operand(l.clone()), operand(r.clone())],
        ));
    }
    let name = match op {
        BinaryOperator::Plus => "tutti_dec_add",
        BinaryOperator::Minus => "tutti_dec_sub",
        BinaryOperator::Multiply => "tutti_dec_mul",
        BinaryOperator::Divide => "tutti_dec_div",
        BinaryOperator::Modulo => "tutti_dec_mod",
        BinaryOperator::Eq
        | BinaryOperator::NotEq
        | BinaryOperator::Lt
        | BinaryOperator::LtEq
        | BinaryOperator::Gt
        | BinaryOperator::GtEq => return comparison(l, op, r, lt, rt, scopes),
        BinaryOperator::Spaceship => {
            return comparison(l, &BinaryOperator::Eq, r, lt, rt, scopes).and_then(null_safe)
        }
        _ => return None,
    };
    let symbol = match op {
        BinaryOperator::Plus => Some("+"),
        BinaryOperator::Minus => Some("-"),
        BinaryOperator::Multiply => Some("*"),
        _ => None,
    };
    let integer = |e: &Expr, t: NumType| t == NumType::Int || unsigned_int(e, scopes);
    let unsigned = unsigned_int(l, scopes) || unsigned_int(r, scopes);
    if let Some(symbol) = symbol.filter(|_| integer(l, lt) && integer(r, rt)) {
        // BIGINT arithmetic that overflows is an error (1690), not SQLite's double; with
        // an UNSIGNED operand the result is unsigned.
        let name = if unsigned {
            "tutti_uint_op"
        } else {
            "tutti_int_op"
        };
        return Some(func(
            name,
            vec![string(symbol), operand(l.clone()), operand(r.clone())],
        ));
    }
    let integer_division = *op == BinaryOperator::Divide && exact(lt) && exact(rt);
    if !(integer_division || any_decimal && exact(lt) && exact(rt)) {
        return None;
    }
    if matches!(l, Expr::Interval(_)) || matches!(r, Expr::Interval(_)) {
        return None;
    }
    Some(decimal_result(name, vec![l.clone(), r.clone()]))
}

fn comparison(
    l: &Expr,
    op: &BinaryOperator,
    r: &Expr,
    lt: NumType,
    rt: NumType,
    scopes: &Scopes,
) -> Option<Expr> {
    if let (Expr::Tuple(ls), Expr::Tuple(rs)) = (unnested(l), unnested(r)) {
        return row_comparison(ls, op, rs, scopes);
    }
    if row_subquery(l) || row_subquery(r) {
        return Some(row_subquery_comparison(l, op, r, scopes));
    }
    if let Some(e) = bytes_comparison(l, op, r, lt, rt, scopes) {
        return Some(e);
    }
    if let Some(e) = temporal_comparison(l, op, r, scopes) {
        return Some(e);
    }
    let (mut yl, mut yr) = (l.clone(), r.clone());
    if year_operands([&mut yl, &mut yr].into_iter(), scopes) {
        return Some(binop(yl, op.clone(), yr));
    }
    // An integer or double column compared with a string constant: MySQL reads the string
    // as a number (its numeric prefix, `'x'` is 0); SQLite finds no text equal to a number.
    let numeric_column =
        |e: &Expr, t: NumType| is_column(e) && matches!(t, NumType::Int | NumType::Double);
    let string_constant = |e: &Expr, t: NumType| t == NumType::Str && is_literal(e);
    // NUMERIC keeps an integer exact (a REAL would round `'97716021308405775'`).
    let number = |e: &Expr| cast(nested(e.clone()), DataType::Numeric(ExactNumberInfo::None));
    if numeric_column(l, lt) && string_constant(r, rt) {
        return Some(binop(l.clone(), op.clone(), number(r)));
    }
    if string_constant(l, lt) && numeric_column(r, rt) {
        return Some(binop(number(l), op.clone(), r.clone()));
    }
    // A stored DECIMAL column compares by number through its collation (and an index).
    let stored = |e: &Expr| stored_decimal(e, scopes);
    let computed = |e: &Expr, t: NumType| t == NumType::Decimal && !stored(e) && !is_literal(e);
    // A scalar subquery's value (a stored DECIMAL is text) compared with a DECIMAL.
    let subquery =
        |e: &Expr, other: NumType| matches!(e, Expr::Subquery(_)) && other == NumType::Decimal;
    if subquery(l, rt) || subquery(r, lt) {
        return Some(exact_comparison(l, op.clone(), r));
    }
    let numeric = |t: NumType| matches!(t, NumType::Int | NumType::Decimal | NumType::Double);
    // A string and a number: MySQL compares them as doubles (SQLite would order any number
    // before any text, and compare a string column with a number as text: `c = 0` missed
    // 'a' and '0.0', `c < 10` ordered '9' after '10'). No index serves such a comparison
    // in MySQL either. ENUM and JSON columns read as numbers in their own ways.
    let plain_string = |e: &Expr, t: NumType| {
        t == NumType::Str
            && (!is_column(e)
                || decl_of(e, scopes).is_some_and(|d| {
                    let d = d.to_ascii_uppercase();
                    !d.starts_with("ENUM") && !d.starts_with("JSON") && d != crate::SET_DECL
                }))
    };
    // A computed DECIMAL that reads a column meets a string constant as a DECIMAL
    // (`d + 0 = '100000000000000000000002'` is exact in MariaDB; between constants, and
    // with a string that is no constant, they compare as doubles).
    let decimal_of_column =
        |e: &Expr, t: NumType| t == NumType::Decimal && !stored(e) && reads_column(e);
    if decimal_of_column(l, lt) && string_constant(r, rt)
        || string_constant(l, lt) && decimal_of_column(r, rt)
    {
        return Some(exact_comparison(l, op.clone(), r));
    }
    // A DECIMAL column keeps its exact comparison with a string constant (by its
    // collation, below, and its index); with any other string it compares as a double.
    let a_number = |e: &Expr, t: NumType, other: &Expr| {
        numeric(t) && !(is_column(e) && t == NumType::Decimal && is_literal(other))
    };
    if plain_string(l, lt) && a_number(r, rt, l) || a_number(l, lt, r) && plain_string(r, rt) {
        return Some(double_comparison(l, op.clone(), r));
    }
    if stored(l) || stored(r) || !(computed(l, lt) || computed(r, rt)) {
        return default_collation(l, op, r, lt, rt, scopes);
    }
    Some(if exact(lt) && exact(rt) {
        exact_comparison(l, op.clone(), r)
    } else {
        double_comparison(l, op.clone(), r)
    })
}

/// `l <=> r` from what `l = r` was rewritten into (the operands made comparable, a
/// collation chosen): the same comparison with SQLite's `IS`, true for two NULLs, or
/// `tutti_dec_same` for an exact DECIMAL one. None for other shapes (a row value).
fn null_safe(eq: Expr) -> Option<Expr> {
    match eq {
        Expr::Nested(x) => null_safe(*x),
        Expr::BinaryOp {
            left,
            op: BinaryOperator::Eq,
            right,
        } => Some(match (*left, *right) {
            (Expr::Function(f), zero)
                if function_name(&f) == "tutti_dec_cmp" && zero == number("0") =>
            {
                func("tutti_dec_same", args(&f).into_iter().cloned().collect())
            }
            (l, r) => Expr::IsNotDistinctFrom(Box::new(nested(l)), Box::new(nested(r))),
        }),
        _ => None,
    }
}

/// `x [NOT] BETWEEN low AND high` with a computed DECIMAL among the three (SQLite would
/// compare its text with numbers as text, which sorts after them all: `0.1 + 0.2 BETWEEN 0
/// AND 1` was 0): `tutti_dec_between(x, low, high)`, exact on the digits a quotient holds
/// (MariaDB's BETWEEN reads them), or on doubles when a DOUBLE is among them. None when a
/// stored DECIMAL column compares through its collation, or a temporal value is involved.
pub(crate) fn between(
    x: &Expr,
    low: &Expr,
    high: &Expr,
    negated: bool,
    scopes: &Scopes,
) -> Option<Expr> {
    let operands = [x, low, high];
    if operands.iter().any(|e| is_temporal(e, scopes)) {
        return None;
    }
    let types = operands.map(|e| type_of(e, scopes));
    let any_decimal = types.contains(&NumType::Decimal);
    let computed = |e: &Expr, t: NumType| {
        t == NumType::Decimal && !stored_decimal(e, scopes) && !is_literal(e)
            || any_decimal && matches!(unnested(e), Expr::Subquery(_))
    };
    if !operands.iter().zip(types).any(|(e, t)| computed(e, t)) {
        return None;
    }
    let args = operands
        .iter()
        .map(|e| held(e).cloned().unwrap_or_else(|| operand((*e).clone())))
        .collect();
    let call = func("tutti_dec_between", args);
    Some(if negated { not(call) } else { call })
}

/// `GREATEST`/`LEAST` (`name`) of numbers, as MariaDB types them: with a DECIMAL among
/// integers and DECIMALs, `tutti_dec_greatest/least` (exact, shown at the largest scale:
/// `GREATEST(1.5, 2)` is `2.0`); with a DOUBLE or a string among numbers, every argument as
/// a double (`GREATEST('abc', 1.5)` is 1.5). SQLite would order a DECIMAL's text after
/// every number. Integers alone, strings alone, temporal values and arguments of unknown
/// type stay as they are.
pub(crate) fn min_max(f: &Function, name: &str, scopes: &Scopes) -> Option<Expr> {
    let operands = args(f);
    if operands.iter().any(|e| is_temporal(e, scopes)) {
        return None;
    }
    let types: Vec<NumType> = operands.iter().map(|e| type_of(e, scopes)).collect();
    let plain_string = |e: &Expr| {
        !is_column(e)
            || decl_of(e, scopes).is_some_and(|d| {
                let d = d.to_ascii_uppercase();
                !d.starts_with("ENUM") && !d.starts_with("JSON") && d != crate::SET_DECL
            })
    };
    let known = operands.iter().zip(&types).all(|(e, t)| match t {
        NumType::Str => plain_string(e),
        t => is_number(*t) || *t == NumType::Null,
    });
    let any = |t: NumType| types.contains(&t);
    if !known
        || !(any(NumType::Decimal) || any(NumType::Str) && types.iter().any(|t| is_number(*t)))
    {
        return None;
    }
    if any(NumType::Double) || any(NumType::Str) {
        let doubles = operands.into_iter().map(|e| match held(e) {
            Some(x) => func(HELD_DOUBLE, vec![x.clone()]),
            None => cast(nested(e.clone()), DataType::Real),
        });
        return Some(func(name, doubles.collect()));
    }
    let operands = operands.into_iter().cloned().collect();
    Some(decimal_result(&format!("tutti_dec_{name}"), operands))
}

/// A DECIMAL column of a table (not of a derived table), which compares by number through
/// its collation.
fn stored_decimal(e: &Expr, scopes: &Scopes) -> bool {
    is_column(e) && decimal_column(e, scopes).is_some() && !derived_column(e, scopes)
}

/// True when a (rewritten) string expression is binary, compared byte for byte: a BINARY,
/// VARBINARY or BLOB column, a `BINARY`/`_binary` cast, a `_bin` collation.
pub(crate) fn binary_string(e: &Expr, scopes: &Scopes) -> bool {
    match e {
        Expr::Nested(x) => binary_string(x, scopes),
        Expr::Collate { collation, .. } => {
            crate::columns::is_binary_collation(&collation.to_string())
        }
        Expr::Cast { data_type, .. } => {
            matches!(
                data_type,
                DataType::Blob(_) | DataType::Binary(_) | DataType::Varbinary(_)
            )
        }
        Expr::Function(f) => function_name(f) == "tutti_cast_binary",
        _ => decl_of(e, scopes).is_some_and(|d| {
            let d = d.to_ascii_uppercase();
            matches!(
                d.split(['(', ' ']).next(),
                Some("BINARY" | "VARBINARY" | "TINYBLOB" | "BLOB" | "MEDIUMBLOB" | "LONGBLOB")
            )
        }),
    }
}

/// True when a (rewritten) string expression matches case-sensitively in LIKE, REGEXP and
/// LOCATE: a [`binary_string`], or a column declared in a `_bin` collation.
pub(crate) fn case_sensitive(e: &Expr, scopes: &Scopes) -> bool {
    binary_string(e, scopes)
        || crate::derivation::column_collation(e, scopes)
            .is_some_and(|c| c.eq_ignore_ascii_case(crate::columns::BIN_PAD))
}

/// A LIKE operand: a number literal with a fraction is matched as written (`10.00`, not the
/// REAL 10.0), as MySQL matches the DECIMAL's text.
pub(crate) fn like_operand(e: &mut Expr) {
    if let Expr::Value(v) = e {
        if let SqlValue::Number(n, _) = &v.value {
            if n.contains('.') && !n.contains(['e', 'E']) {
                *e = string(n);
            }
        }
    }
}

/// The declared type of a column reference.
pub(crate) fn decl_of<'a>(e: &Expr, scopes: &'a Scopes) -> Option<&'a str> {
    match column_ref(e) {
        Expr::Identifier(i) => column_decl(scopes, None, &i.value),
        Expr::CompoundIdentifier(ids) if ids.len() == 2 => {
            column_decl(scopes, Some(&ids[0].value), &ids[1].value)
        }
        _ => None,
    }
}

/// An ENUM column read as a number becomes its member's index, a SET column its bits (see
/// `enums`).
pub(crate) fn enum_as_number(e: &mut Expr, scopes: &Scopes) {
    if let Some(index) = enum_index(e, scopes) {
        *e = index;
    }
}

/// The table and column a column reference names.
pub(crate) fn owned_column_of<'a>(
    e: &Expr,
    scopes: &'a Scopes,
) -> Option<(&'a TableInfo, &'a crate::ColumnInfo)> {
    match column_ref(e) {
        Expr::Identifier(i) => owned_column(scopes, None, &i.value),
        Expr::CompoundIdentifier(ids) if ids.len() == 2 => {
            owned_column(scopes, Some(&ids[0].value), &ids[1].value)
        }
        _ => None,
    }
}

/// The members of SET column `e`; None for other expressions.
pub(crate) fn set_members(e: &Expr, scopes: &Scopes) -> Option<Vec<String>> {
    let (table, column) = owned_column_of(e, scopes)?;
    if column.decl_type != crate::SET_DECL {
        return None;
    }
    table.enum_members(&column.name)
}

/// `tutti_enum_index(e, members...)` of an ENUM column `e`, `tutti_set_index(e, members...)`
/// of a SET column; None for other expressions.
pub(crate) fn enum_index(e: &Expr, scopes: &Scopes) -> Option<Expr> {
    if let Some(members) = set_members(e, scopes) {
        return Some(crate::enums::bits_of(e.clone(), &members));
    }
    let (table, column) = owned_column_of(e, scopes)?;
    if !column.decl_type.to_ascii_uppercase().starts_with("ENUM") {
        return None;
    }
    let members = table.enum_members(&column.name)?;
    Some(crate::enums::index_of(e.clone(), &members))
}

/// A FLOAT or DOUBLE column read by a string function, as MariaDB shows it (a FLOAT's 6
/// digits, a `(M,D)` type's fixed decimals), also a computed double with fixed decimals
/// (see `real_decimals`): `tutti_real_text(c, single, decimals)`. None for other
/// expressions and plain DOUBLE columns (which the string functions spell).
pub(crate) fn real_as_text(e: &Expr, scopes: &Scopes) -> Option<Expr> {
    if decl_of(e, scopes).is_none() && float_typed(e, scopes) {
        return Some(func(
            "tutti_real_text",
            vec![e.clone(), number("1"), number("-1")],
        ));
    }
    if decl_of(e, scopes).is_none() && type_of(e, scopes) == NumType::Double {
        // A computed double with fixed decimals (`f*3`, `PI()`): shown with them.
        let d = crate::real_decimals::fixed(e, scopes)?;
        return Some(func(
            "tutti_real_text",
            vec![e.clone(), number("0"), number(d.to_string())],
        ));
    }
    let ty = crate::real::RealType::of_decl(decl_of(e, scopes)?)?;
    if !ty.single && ty.shape.is_none() {
        return None;
    }
    let decimals = ty.decimals().map_or(-1, i64::from);
    Some(func(
        "tutti_real_text",
        vec![
            e.clone(),
            number(if ty.single { "1" } else { "0" }),
            number(decimals.to_string()),
        ],
    ))
}

/// The `tutti_temporal_store` kind and fraction digits of a DATE/DATETIME/TIMESTAMP/TIME
/// column.
pub(crate) fn temporal_kind(e: &Expr, scopes: &Scopes) -> Option<(&'static str, u32)> {
    decl_of(e, scopes).and_then(crate::stored::temporal_of)
}

/// A DATE/DATETIME/TIMESTAMP/TIME column compared with a constant: MySQL reads the constant
/// as a value of the column's type (`d = 20000102`, `dt = '2000-1-2'`), so it becomes the
/// column's canonical text, `tutti_temporal(c, kind, fsp)`; the column keeps its index.
fn temporal_comparison(l: &Expr, op: &BinaryOperator, r: &Expr, scopes: &Scopes) -> Option<Expr> {
    let (mut wl, mut wr) = (l.clone(), r.clone());
    if widen_dates(&mut wl, &mut wr, scopes) {
        return Some(binop(wl, op.clone(), wr));
    }
    let temporal = |e: &Expr| value_kind(e, scopes);
    // A DATE or DATETIME value compared with a TIME value (a TIME literal too): MariaDB
    // reads the TIME as that time of the current day.
    let dated = |e: &Expr| temporal(e).filter(|(kind, _)| *kind != "time");
    let time = |e: &Expr| crate::dates::is_time(e, scopes);
    if let (Some(t), true) = (dated(l), time(r)) {
        return Some(binop(l.clone(), op.clone(), today_at(r, t)));
    }
    if let (true, Some(t)) = (time(l), dated(r)) {
        return Some(binop(today_at(l, t), op.clone(), r.clone()));
    }
    if let (Some(t), true) = (temporal(l), temporal_constant(r)) {
        let r = compared_temporal(r, t);
        return crate::timestamps::stored_comparison(l, op, &r)
            .or_else(|| Some(binop(l.clone(), op.clone(), r)));
    }
    if let (true, Some(t)) = (temporal_constant(l), temporal(r)) {
        let l = compared_temporal(l, t);
        return crate::timestamps::stored_comparison(&l, op, r)
            .or_else(|| Some(binop(l, op.clone(), r.clone())));
    }
    // A temporal value compared with a number or string column or expression: MariaDB
    // compares them as the temporal type (`datetime_col = double_col`).
    if let (Some(t), true) = (temporal(l), read_as_temporal(r, scopes)) {
        return Some(binop(l.clone(), op.clone(), compared_temporal(r, t)));
    }
    if let (true, Some(t)) = (read_as_temporal(l, scopes), temporal(r)) {
        return Some(binop(compared_temporal(l, t), op.clone(), r.clone()));
    }
    None
}

/// The temporal kind of a column, or of `STR_TO_DATE(s, 'format')`, which is a DATETIME
/// when the format reads a date and a time of day, a DATE or a TIME when it reads only one
/// (with fraction digits for `%f`).
pub(crate) fn value_kind(e: &Expr, scopes: &Scopes) -> Option<(&'static str, u32)> {
    if let Some(t) = temporal_kind(e, scopes) {
        return Some(t);
    }
    if let Some(t) = temporal_value_kind(e) {
        return Some(t);
    }
    if let Some(t) = crate::dates::fraction_digits_kind(unnested(e), scopes) {
        return Some(t);
    }
    let Expr::Function(f) = unnested(e) else {
        return None;
    };
    const DATE_FUNCTIONS: [&str; 5] = ["curdate", "utc_date", "from_days", "makedate", "last_day"];
    let name = function_name(f);
    if name == "date" && args(f).len() == 1 || DATE_FUNCTIONS.contains(&name.as_str()) {
        return Some(("date", 0));
    }
    const NOW_FUNCTIONS: [&str; 6] = [
        "now",
        "sysdate",
        "utc_timestamp",
        "current_timestamp",
        "localtime",
        "localtimestamp",
    ];
    if NOW_FUNCTIONS.contains(&name.as_str()) {
        let fsp = match args(f).first() {
            None => 0,
            Some(Expr::Value(v)) => v.value.to_string().parse().ok()?,
            Some(_) => return None,
        };
        return Some(("datetime", u32::min(fsp, 6)));
    }
    if name != "str_to_date" {
        return None;
    }
    str_to_date_kind(f)
}

/// The kind of `STR_TO_DATE(s, format)`: what its format reads (see [`value_kind`]).
pub(crate) fn str_to_date_kind(f: &Function) -> Option<(&'static str, u32)> {
    let (format, flags) = match args(f)[..] {
        [_, format] => (format, None),
        [_, format, flags] => (format, Some(flags.to_string())),
        _ => return None,
    };
    let Some(format) = literal_format(format) else {
        // a format known when the statement runs (see `exprs`): a DATETIME(6)
        return flags
            .filter(|f| f.parse::<u32>().is_ok_and(|f| f & 4 != 0))
            .map(|_| ("datetime", 6));
    };
    let specifiers: Vec<char> = format
        .split('%')
        .skip(1)
        .filter_map(|p| p.chars().next())
        .collect();
    let timed = specifiers.iter().any(|c| "HhIiklpSsTrf".contains(*c));
    let dated = specifiers
        .iter()
        .any(|c| "YyMmbcDdejUuVvWwXxa".contains(*c));
    let fsp = if specifiers.contains(&'f') { 6 } else { 0 };
    match (dated, timed) {
        (true, false) => Some(("date", 0)),
        (true, true) => Some(("datetime", fsp)),
        (false, true) => Some(("time", fsp)),
        _ => None,
    }
}

/// The text of a string literal (STR_TO_DATE's format).
pub(crate) fn literal_format(e: &Expr) -> Option<&str> {
    match e {
        Expr::Value(v) => match &v.value {
            SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// The kind and fraction digits of a temporal literal (`TIME'10:20:30.5'`, rewritten as
/// `tutti_temporal_literal('..', 'time')`) or a temporal CAST (`tutti_cast_temporal(x,
/// 'date', fsp, ..)`): a number or string compared with one is read as its type, as MariaDB
/// reads it (`TIME'10:20:30' = 102030`, `DATE'2001-01-01' = 20010101`).
fn temporal_value_kind(e: &Expr) -> Option<(&'static str, u32)> {
    let e = match unnested(e) {
        Expr::Collate { expr, .. } => unnested(expr),
        e => e,
    };
    let Expr::Function(f) = e else { return None };
    let name = function_name(f);
    let a = args(f);
    let text = |e: &Expr| match e {
        Expr::Value(v) => match &v.value {
            SqlValue::SingleQuotedString(s) => Some(s.clone()),
            SqlValue::Number(n, _) => Some(n.clone()),
            _ => None,
        },
        _ => None,
    };
    let kind = match text(a.get(1)?)?.as_str() {
        "date" => "date",
        "time" => "time",
        "datetime" => "datetime",
        _ => return None,
    };
    let fsp = match name.as_str() {
        "tutti_temporal_literal" => {
            let literal = text(a.first()?)?;
            literal.rsplit_once('.').map_or(0, |(_, f)| {
                f.bytes().take_while(u8::is_ascii_digit).count() as u32
            })
        }
        "tutti_cast_temporal" => text(a.get(2)?)?.parse().ok()?,
        _ => return None,
    };
    Some((kind, fsp.min(6)))
}

/// A TIME value as a datetime of the current day, as a value of the column's type.
fn today_at(time: &Expr, (kind, fsp): (&str, u32)) -> Expr {
    let datetime = func("tutti_time_today", vec![time.clone()]);
    func(
        "tutti_temporal",
        vec![datetime, string(kind), number(fsp.to_string())],
    )
}

/// A DATE value (a column, `STR_TO_DATE`, `DATE()`, a cast) compared with a DATETIME or
/// TIMESTAMP one: MariaDB compares them as datetimes, so the date gets the other's midnight
/// (`d || ' 00:00:00'`), which compares as text as the datetime compares. True when one
/// side was widened.
pub(crate) fn widen_dates(a: &mut Expr, b: &mut Expr, scopes: &Scopes) -> bool {
    let kinds = (value_kind(a, scopes), value_kind(b, scopes));
    let (date, fsp) = match kinds {
        (Some(("date", _)), Some(("datetime" | "timestamp", fsp))) => (a, fsp),
        (Some(("datetime" | "timestamp", fsp)), Some(("date", _))) => (b, fsp),
        _ => return false,
    };
    at_midnight(date, fsp);
    true
}

/// A DATE value as the DATETIME at its midnight, with `fsp` fraction digits.
fn at_midnight(date: &mut Expr, fsp: u32) {
    let mut midnight = " 00:00:00".to_string();
    if fsp > 0 {
        midnight = format!("{midnight}.{}", "0".repeat(fsp as usize));
    }
    let d = std::mem::replace(date, crate::ast_build::null());
    *date = nested(binop(d, BinaryOperator::StringConcat, string(midnight)));
}

/// A constant a temporal column reads as its own type (not NULL).
fn temporal_constant(e: &Expr) -> bool {
    is_literal(e) && !matches!(unnested(e), Expr::Value(v) if v.value == SqlValue::Null)
        || temporal_literal(e)
}

/// `tutti_temporal(c, kind, fsp)`: the constant `c` as a value of the column's type.
fn as_temporal(c: &Expr, (kind, fsp): (&str, u32)) -> Expr {
    func(
        "tutti_temporal",
        vec![operand(c.clone()), string(kind), number(fsp.to_string())],
    )
}

/// [`as_temporal`] for a comparison with a temporal value: a string that is no TIME is read
/// as far as it is one (storage's `tutti_temporal` with a fourth argument 1).
fn compared_temporal(c: &Expr, (kind, fsp): (&str, u32)) -> Expr {
    let args = vec![
        operand(c.clone()),
        string(kind),
        number(fsp.to_string()),
        number("1"),
    ];
    func("tutti_temporal", args)
}

/// A number or a string that MariaDB reads as a temporal value when the other side of a
/// comparison is one: a constant, or a number or string column or expression that is not
/// itself temporal.
fn read_as_temporal(e: &Expr, scopes: &Scopes) -> bool {
    if temporal_constant(e) {
        return true;
    }
    if is_temporal(e, scopes) {
        return false;
    }
    matches!(
        type_of(e, scopes),
        NumType::Int | NumType::Decimal | NumType::Double | NumType::Str
    )
}

/// `y op c`, `y [NOT] IN (c, ..)`, `y BETWEEN c AND d` where `y` (or, of two operands, the
/// other) is a YEAR column: MariaDB reads each constant as the YEAR it stores (`10` and
/// `'10'` are 2010, `70` is 1970, `'0'` 2000, `0` 0000). True when a constant changed.
pub(crate) fn year_operands<'a>(
    operands: impl Iterator<Item = &'a mut Expr>,
    scopes: &Scopes,
) -> bool {
    let mut operands: Vec<&mut Expr> = operands.collect();
    let year = |e: &Expr| {
        decl_of(e, scopes).is_some_and(|d| d.trim().to_ascii_uppercase().starts_with("YEAR"))
    };
    if operands.len() == 2 && !year(operands[0]) && year(operands[1]) {
        operands.swap(0, 1);
    }
    if !operands.first().is_some_and(|y| year(y)) {
        return false;
    }
    let mut changed = false;
    for e in operands.into_iter().skip(1) {
        if let Some(y) = year_of_constant(e) {
            *e = number(y.to_string());
            changed = true;
        }
    }
    changed
}

/// The YEAR a constant is stored as: a number of 1-99 (rounded) or a string of one or two
/// digits is a two-digit year, others are years as they are; None for other constants and
/// values no YEAR holds.
fn year_of_constant(e: &Expr) -> Option<i64> {
    let (text, string) = match unnested(e) {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) => (n.clone(), false),
            SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => {
                (s.trim().to_string(), true)
            }
            _ => return None,
        },
        _ => return None,
    };
    let two_digits = string && (1..=2).contains(&text.len());
    let n = text.parse::<f64>().ok()?.round();
    if !n.is_finite() || !(0.0..=2155.0).contains(&n) {
        return None;
    }
    let n = n as i64;
    Some(match n {
        0 if two_digits => 2000,
        1..=69 => 2000 + n,
        70..=99 => 1900 + n,
        _ => n,
    })
}

/// `x [NOT] IN (..)` and `x BETWEEN a AND b` where `x` or another operand is a temporal
/// column (or `STR_TO_DATE`, `DATE()`, a temporal literal or cast): the other operands are
/// read as `x`'s type, as `=` reads them (`d BETWEEN '2001-2-5' AND '01-04-14'`, `dt IN
/// (double_col)`); when `x` is not temporal, as the type the temporal operands share
/// (`'01-03-10' BETWEEN dt1 AND dt2`); DATE operands among DATETIME ones compare as their
/// midnight (`'01-02-03 12:34:56' IN (d, dt)`).
pub(crate) fn temporal_operands<'a>(operands: impl Iterator<Item = &'a mut Expr>, scopes: &Scopes) {
    let mut operands: Vec<&mut Expr> = operands.collect();
    if times_among_dates(&mut operands, scopes) {
        return;
    }
    let x_kind = operands.first().and_then(|x| value_kind(x, scopes));
    let t = match x_kind {
        Some(t) => t,
        None => {
            let kinds: Vec<_> = operands
                .iter()
                .filter_map(|e| value_kind(e, scopes))
                .collect();
            let Some(t) = shared_kind(&kinds) else {
                return;
            };
            if t.0 == "datetime" {
                for e in operands.iter_mut() {
                    if value_kind(e, scopes).is_some_and(|k| k.0 == "date") {
                        at_midnight(e, t.1);
                    }
                }
            }
            t
        }
    };
    let skip = usize::from(x_kind.is_some());
    for e in operands.iter_mut().skip(skip) {
        let constant = x_kind.is_some() && temporal_constant(e);
        if constant || value_kind(e, scopes).is_none() && read_as_temporal(e, scopes) {
            // Against a temporal `x`, as `x = e` reads it; among others, strictly.
            **e = if x_kind.is_some() {
                compared_temporal(e, t)
            } else {
                as_temporal(e, t)
            };
        }
    }
}

/// The results of `CASE`, `IF`, `IFNULL` or `COALESCE`, all temporal (NULLs aside): of
/// different kinds MariaDB's result is a DATETIME (`IF(c, d, t)` of a DATE and a TIME: a
/// TIME is that time of the current day, a DATE its midnight), of one kind that kind;
/// either at the most fraction digits among them (`IFNULL(t, dt)` of a DATETIME(2) shows
/// `.00`). A string or number among them makes the result a string: left as it is.
pub(crate) fn temporal_results<'a>(results: impl Iterator<Item = &'a mut Expr>, scopes: &Scopes) {
    let null = |e: &Expr| matches!(unnested(e), Expr::Value(v) if v.value == SqlValue::Null);
    let mut results: Vec<&mut Expr> = results.filter(|e| !null(e)).collect();
    let Some(kinds) = results
        .iter()
        .map(|e| value_kind(e, scopes))
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    let Some(fsp) = kinds.iter().map(|k| k.1).max() else {
        return;
    };
    let kind = if kinds.iter().all(|k| k.0 == kinds[0].0) {
        kinds[0].0
    } else {
        "datetime"
    };
    for (e, k) in results.iter_mut().zip(&kinds) {
        match (k.0, kind) {
            (from, to) if from == to && k.1 == fsp => {}
            ("time", "datetime") => **e = today_at(e, ("datetime", fsp)),
            ("date", "datetime") => at_midnight(e, fsp),
            _ => **e = as_temporal(e, (kind, fsp)),
        }
    }
}

/// TIMEs among DATEs, DATETIMEs or TIMESTAMPs (`TIME'10:20:30' BETWEEN a AND b`): MariaDB
/// compares them all as datetimes, a TIME as that time of the current day, a DATE at
/// midnight. True when the operands were so converted.
fn times_among_dates(operands: &mut [&mut Expr], scopes: &Scopes) -> bool {
    let kinds: Vec<_> = operands.iter().map(|e| value_kind(e, scopes)).collect();
    let is_time = |k: &Option<(&str, u32)>| k.is_some_and(|k| k.0 == "time");
    let dated = |k: &Option<(&str, u32)>| k.is_some_and(|k| k.0 != "time");
    if !kinds.iter().any(is_time) || !kinds.iter().any(dated) {
        return false;
    }
    let fsp = kinds.iter().flatten().map(|k| k.1).max().unwrap_or(0);
    let first = kinds[0];
    for (e, k) in operands.iter_mut().zip(&kinds) {
        match (k, first) {
            (Some(("time", _)), _) => **e = today_at(e, ("datetime", fsp)),
            (Some(("date", _)), _) => at_midnight(e, fsp),
            // a number or string is read as the first operand's type (`TIME'10:20:30' IN
            // (102030, TIMESTAMP'..')` reads 102030 as a TIME)
            (None, Some(x)) if read_as_temporal(e, scopes) => {
                **e = match x.0 {
                    "time" => today_at(&compared_temporal(e, x), ("datetime", fsp)),
                    _ => compared_temporal(e, ("datetime", fsp)),
                }
            }
            _ => {}
        }
    }
    true
}

/// The temporal kind operands of these kinds compare as: their own when they agree, a
/// DATETIME of the most fraction digits when they are DATEs, DATETIMEs and TIMESTAMPs;
/// None for TIMEs among dates.
fn shared_kind(kinds: &[(&'static str, u32)]) -> Option<(&'static str, u32)> {
    let fsp = kinds.iter().map(|k| k.1).max()?;
    let first = kinds[0].0;
    if kinds.iter().all(|k| k.0 == first) {
        return Some((first, fsp));
    }
    let dated = |k: &&(&str, u32)| matches!(k.0, "date" | "datetime" | "timestamp");
    kinds.iter().all(|k| dated(&k)).then_some(("datetime", fsp))
}

/// `l op r` between strings where no column decides the collation (`'a' = 'A'`,
/// `UPPER(c) = 'X'`): MariaDB compares them in the default collation, case- and
/// trailing-space-insensitive; SQLite would compare bytes. A column on either side keeps
/// its own collation (SQLite takes it), and so does an explicit `COLLATE`. Two columns of
/// different collations, one of them `_bin`, compare in the `_bin` one (MariaDB's rule for
/// equal coercibility), where SQLite would take the left one's.
fn default_collation(
    l: &Expr,
    op: &BinaryOperator,
    r: &Expr,
    lt: NumType,
    rt: NumType,
    scopes: &Scopes,
) -> Option<Expr> {
    let textual = |t: NumType| matches!(t, NumType::Str | NumType::Other);
    if !textual(lt) || !textual(rt) {
        return None;
    }
    if is_column(unnested(l)) && is_column(unnested(r)) {
        let of = |e: &Expr| crate::derivation::column_collation(unnested(e), scopes);
        let bin = crate::columns::BIN_PAD;
        let (lc, rc) = (of(l)?, of(r)?);
        let binary = |c: &str| c.eq_ignore_ascii_case(bin);
        if !lc.eq_ignore_ascii_case(&rc) && !binary(&lc) && binary(&rc) {
            let collation = ObjectName::from(vec![Ident::new(bin)]);
            let l = Expr::Collate {
                expr: Box::new(nested(l.clone())),
                collation,
            };
            return Some(binop(l, op.clone(), r.clone()));
        }
        return None;
    }
    if collation_decided(l) || collation_decided(r) {
        return None;
    }
    Some(binop(
        connection_collated(l.clone(), scopes),
        op.clone(),
        r.clone(),
    ))
}

/// `(a, b) op (c, d)`: SQLite compares row values element by element, each pair in the
/// collation of its left element, so each left element gets the default collation where
/// the pair alone would (`ROW('a', 1) = ROW('A', 1)` is 1 as in MariaDB).
fn row_comparison(ls: &[Expr], op: &BinaryOperator, rs: &[Expr], scopes: &Scopes) -> Option<Expr> {
    if ls.len() != rs.len() {
        return None;
    }
    if let Some(e) = row_equality(ls, rs, scopes) {
        match op {
            BinaryOperator::Eq => return Some(nested(e)),
            BinaryOperator::NotEq => return Some(not(e)),
            _ => {}
        }
    }
    let left = ls
        .iter()
        .zip(rs)
        .map(|(l, r)| {
            let (lt, rt) = (type_of(l, scopes), type_of(r, scopes));
            // The left operand as the pair's comparison collates it.
            match default_collation(l, op, r, lt, rt, scopes) {
                Some(Expr::BinaryOp { left, .. }) => *left,
                _ => l.clone(),
            }
        })
        .collect();
    Some(binop(
        Expr::Tuple(left),
        op.clone(),
        Expr::Tuple(rs.to_vec()),
    ))
}

/// `(a, b) = (c, d)` as `a = c AND b = d`, each pair compared as MySQL compares it (a
/// number with a string as numbers, a date with a string as dates), when some pair needs
/// more than SQLite's row comparison and a collation; None when none does. The AND has
/// the row comparison's NULL: false when a pair differs, else NULL when a pair is NULL.
fn row_equality(ls: &[Expr], rs: &[Expr], scopes: &Scopes) -> Option<Expr> {
    let mut needed = false;
    let eq = BinaryOperator::Eq;
    let pairs = ls.iter().zip(rs).map(|(l, r)| {
        let (lt, rt) = (type_of(l, scopes), type_of(r, scopes));
        match comparison(l, &eq, r, lt, rt, scopes) {
            Some(e) => {
                needed |= default_collation(l, &eq, r, lt, rt, scopes).is_none();
                nested(e)
            }
            None => binop(l.clone(), eq.clone(), r.clone()),
        }
    });
    let all = pairs.reduce(|a, b| binop(a, BinaryOperator::And, b))?;
    needed.then_some(all)
}

/// `(a, b) [NOT] IN ((c, d), ..)` as a disjunction of [`row_equality`]s, when one of the
/// rows needs it.
fn row_in_list(ls: &[Expr], list: &[Expr], negated: bool, scopes: &Scopes) -> Option<Expr> {
    let rows = list.iter().map(|item| match unnested(item) {
        Expr::Tuple(rs) if rs.len() == ls.len() => Some((item, row_equality(ls, rs, scopes))),
        _ => None,
    });
    let rows: Vec<(&Expr, Option<Expr>)> = rows.collect::<Option<_>>()?;
    if rows.iter().all(|(_, e)| e.is_none()) {
        return None;
    }
    let x = Expr::Tuple(ls.to_vec());
    let any = rows
        .into_iter()
        .map(|(item, e)| match e {
            Some(e) => nested(e),
            None => binop(x.clone(), BinaryOperator::Eq, item.clone()),
        })
        .reduce(|a, b| binop(a, BinaryOperator::Or, b))?;
    Some(if negated { not(any) } else { nested(any) })
}

/// `NOT (e)`.
fn not(e: Expr) -> Expr {
    Expr::UnaryOp {
        op: UnaryOperator::Not,
        expr: Box::new(nested(e)),
    }
}

/// Functions whose value is a binary string.
const BINARY_FUNCTIONS: [&str; 8] = [
    "unhex",
    "from_base64",
    "compress",
    "aes_encrypt",
    "aes_decrypt",
    "random_bytes",
    "weight_string",
    "char",
];

/// String functions whose value is binary when their (first; CONCAT: any) argument is.
const BINARY_PASSING: [&str; 7] = [
    "concat",
    "left",
    "right",
    "repeat",
    "reverse",
    "substr",
    "substring",
];

/// How a binary string holds its collation: a literal or a function of one gives way to a
/// column's collation (MariaDB's COERCIBLE), a BINARY column or cast does not (IMPLICIT).
#[derive(Clone, Copy, PartialEq, Eq)]
enum BinaryValue {
    Coercible,
    Implicit,
}

/// Whether `e` is a binary string: a BINARY/BLOB column or cast, a hex literal, a function
/// that makes bytes, or a string function of one.
pub(crate) fn is_binary_value(e: &Expr, scopes: &Scopes) -> bool {
    binary_value(e, scopes).is_some()
}

fn binary_value(e: &Expr, scopes: &Scopes) -> Option<BinaryValue> {
    let literal =
        |e: &Expr| matches!(e, Expr::Value(v) if matches!(v.value, SqlValue::HexStringLiteral(_)));
    match unnested(e) {
        e if literal(e) => Some(BinaryValue::Coercible),
        // `_binary'..'` (a text literal holding a NUL is `CAST(X'..' AS TEXT)`: text).
        Expr::Cast {
            expr,
            data_type: DataType::Blob(_),
            ..
        } if literal(unnested(expr)) => Some(BinaryValue::Coercible),
        Expr::Function(f) if BINARY_FUNCTIONS.contains(&function_name(f).as_str()) => {
            Some(BinaryValue::Coercible)
        }
        // a string function of a binary string (any of CONCAT's arguments)
        Expr::Function(f) if BINARY_PASSING.contains(&function_name(f).as_str()) => {
            let a = args(f);
            let n = if function_name(f) == "concat" {
                a.len()
            } else {
                1
            };
            let kinds = a.iter().take(n).filter_map(|x| binary_value(x, scopes));
            kinds.reduce(|k, o| if o == BinaryValue::Implicit { o } else { k })
        }
        // `x COLLATE BINARY` (from `BINARY x`) is text SQLite compares by bytes already.
        Expr::Collate { .. } => None,
        e => binary_string(e, scopes).then_some(BinaryValue::Implicit),
    }
}

/// A text string compared with a binary string, as MariaDB does: a text column against a
/// binary literal or function (`f = x'61'`, `f = UNHEX('61')`) compares in the column's
/// collation, the bytes read as text; otherwise the binary side decides and both compare as
/// bytes. (SQLite never finds text equal to a BLOB.)
fn bytes_comparison(
    l: &Expr,
    op: &BinaryOperator,
    r: &Expr,
    lt: NumType,
    rt: NumType,
    scopes: &Scopes,
) -> Option<Expr> {
    let (lb, rb) = (binary_value(l, scopes), binary_value(r, scopes));
    let as_bytes = |e: &Expr| cast(nested(e.clone()), DataType::Blob(None));
    let as_text = |e: &Expr| cast(nested(e.clone()), DataType::Text);
    let (l2, r2) = match (lb, rb) {
        (None, Some(b)) if lt == NumType::Str => {
            if b == BinaryValue::Coercible && is_column(unnested(l)) {
                (l.clone(), as_text(r))
            } else {
                (as_bytes(l), as_bytes(r))
            }
        }
        (Some(b), None) if rt == NumType::Str => {
            if b == BinaryValue::Coercible && is_column(unnested(r)) {
                (as_text(l), r.clone())
            } else {
                (as_bytes(l), as_bytes(r))
            }
        }
        _ => return None,
    };
    Some(binop(l2, op.clone(), r2))
}

/// A subquery of several columns (or `*`), compared as a row.
fn row_subquery(e: &Expr) -> bool {
    let Expr::Subquery(q) = unnested(e) else {
        return false;
    };
    let mut body = q.body.as_ref();
    while let SetExpr::SetOperation { left, .. } = body {
        body = left.as_ref();
    }
    match body {
        SetExpr::Select(s) => {
            s.projection.len() != 1
                || matches!(
                    s.projection[0],
                    SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..)
                )
        }
        _ => false,
    }
}

/// `(a, b) op (SELECT c, d ...)`: a row constructor's string elements get the default
/// collation, as in `row_comparison`, and it goes to the left (SQLite takes each pair's
/// collation from its left element). Two subqueries compare as they are. A subquery of
/// more than one row fails with 1242, as in MariaDB.
fn row_subquery_comparison(l: &Expr, op: &BinaryOperator, r: &Expr, scopes: &Scopes) -> Expr {
    let (mut l, mut r) = (l.clone(), r.clone());
    match (&mut l, &mut r) {
        (Expr::Tuple(items), Expr::Subquery(q)) | (Expr::Subquery(q), Expr::Tuple(items)) => {
            numbers_with_strings(items, q, scopes)
        }
        _ => {}
    }
    let (l, r) = (&l, &r);
    let collated = |items: &[Expr]| {
        let items = items
            .iter()
            .map(|e| match type_of(e, scopes) {
                NumType::Str | NumType::Other if !collation_decided(e) => {
                    connection_collated(e.clone(), scopes)
                }
                _ => e.clone(),
            })
            .collect();
        Expr::Tuple(items)
    };
    let cmp = match (unnested(l), unnested(r)) {
        (Expr::Tuple(ls), _) => binop(collated(ls), op.clone(), r.clone()),
        (_, Expr::Tuple(rs)) => binop(collated(rs), mirrored(op), l.clone()),
        _ => binop(l.clone(), op.clone(), r.clone()),
    };
    [l, r]
        .into_iter()
        .fold(cmp, |cmp, side| match unnested(side) {
            Expr::Subquery(q) => crate::subquery::guard_row(cmp, q),
            _ => cmp,
        })
}

/// A row compared with a row subquery: where a string meets a number (`ROW('2') =
/// (SELECT 2)`), both are read as doubles, as MySQL compares them.
fn numbers_with_strings(items: &mut [Expr], q: &mut Query, scopes: &Scopes) {
    let SetExpr::Select(s) = q.body.as_mut() else {
        return;
    };
    if s.projection.len() != items.len() {
        return;
    }
    for (item, e) in s.projection.iter_mut().zip(items.iter_mut()) {
        let (SelectItem::UnnamedExpr(x) | SelectItem::ExprWithAlias { expr: x, .. }) = item else {
            continue;
        };
        if is_column(x) {
            continue;
        }
        let (xt, et) = (type_of(x, &Vec::new()), type_of(e, scopes));
        if string_meets_number(xt, et) {
            *x = cast(nested(x.clone()), DataType::Real);
            *e = cast(nested(e.clone()), DataType::Real);
        }
    }
}

/// The operator of `r op' l` that means `l op r`.
fn mirrored(op: &BinaryOperator) -> BinaryOperator {
    match op {
        BinaryOperator::Lt => BinaryOperator::Gt,
        BinaryOperator::LtEq => BinaryOperator::GtEq,
        BinaryOperator::Gt => BinaryOperator::Lt,
        BinaryOperator::GtEq => BinaryOperator::LtEq,
        other => other.clone(),
    }
}

/// A column or an explicit `COLLATE` decides a comparison's collation (SQLite applies it).
pub(crate) fn collation_decided(e: &Expr) -> bool {
    is_column(unnested(e)) || matches!(unnested(e), Expr::Collate { .. })
}

/// `e COLLATE c` for a string that no column or `COLLATE` places where SQLite compares it:
/// `c` is the collation of the first column `e` is computed from (`UPPER(c)` has `c`'s, as
/// a column's derivation beats a literal's), the default one when that column is out of
/// reach (in a subquery, say), else the connection's (see `connection_collation`).
pub(crate) fn connection_collated(e: Expr, scopes: &Scopes) -> Expr {
    let collation = computed_collation(&e, scopes);
    Expr::Collate {
        expr: Box::new(nested(e)),
        collation: ObjectName::from(vec![Ident::new(collation)]),
    }
}

/// Puts `e` in the collation [`connection_collated`] gives it, in place.
pub(crate) fn collate_in_connection(e: &mut Expr, scopes: &Scopes) {
    *e = connection_collated(std::mem::replace(e, crate::ast_build::null()), scopes);
}

/// The SQLite collation of string `e` (see [`connection_collated`]).
fn computed_collation(e: &Expr, scopes: &Scopes) -> String {
    let from = sqlparser::ast::visit_expressions(e, |x| match x {
        Expr::Identifier(i) if i.value.starts_with('@') => ControlFlow::Continue(()),
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) => {
            ControlFlow::Break(crate::derivation::column_collation(x, scopes).or_else(|| {
                owned_column_of(x, scopes)
                    .is_none()
                    .then(|| crate::columns::GENERAL_CI.into())
            }))
        }
        Expr::Subquery(_) | Expr::Exists { .. } => {
            ControlFlow::Break(Some(crate::columns::GENERAL_CI.into()))
        }
        _ => ControlFlow::Continue(()),
    });
    match from {
        ControlFlow::Break(Some(c)) => c,
        _ => crate::connection_collation::sqlite().to_string(),
    }
}

/// Puts `e` in `COLLATE collation` (an SQLite collation), in place.
pub(crate) fn collate_in(e: &mut Expr, collation: &str) {
    *e = Expr::Collate {
        expr: Box::new(nested(std::mem::replace(e, crate::ast_build::null()))),
        collation: ObjectName::from(vec![Ident::new(collation)]),
    };
}

/// `e` without the parentheses around it.
pub(crate) fn unnested(e: &Expr) -> &Expr {
    match e {
        Expr::Nested(inner) => unnested(inner),
        e => e,
    }
}

/// Whether `e` reads a column (is no constant to MariaDB).
pub(crate) fn reads_column(e: &Expr) -> bool {
    sqlparser::ast::visit_expressions(e, |x| match x {
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    })
    .is_break()
}

fn is_literal(e: &Expr) -> bool {
    match e {
        Expr::Value(_) => true,
        Expr::UnaryOp { expr, .. } | Expr::Nested(expr) => is_literal(expr),
        _ => false,
    }
}

/// A literal number of places, also one beyond 2^63 that `big_literal` made DECIMAL text.
fn constant_places(e: &Expr) -> bool {
    match e {
        Expr::Collate { expr, .. } => constant_places(expr),
        Expr::UnaryOp { expr, .. } | Expr::Nested(expr) => constant_places(expr),
        Expr::Function(f) if function_name(f) == "tutti_dec_neg" => {
            args(f).first().is_some_and(|x| constant_places(x))
        }
        e => is_literal(e),
    }
}

/// `FLOOR(x)` / `CEIL(x)` (sqlparser's own nodes) of a DECIMAL → the exact forms.
pub(crate) fn rounding(name: &str, x: &Expr, scopes: &Scopes) -> Option<Expr> {
    (type_of(x, scopes) == NumType::Decimal)
        .then(|| decimal_result(&format!("tutti_dec_{name}"), vec![x.clone()]))
}

/// `x [NOT] IN (a, b, ..)` with a computed DECIMAL `x` → a disjunction of exact
/// comparisons (`tutti_dec_cmp(x, a) = 0 OR ..`; NULL when nothing matches and a NULL was
/// compared, as IN is).
pub(crate) fn in_list(x: &Expr, list: &[Expr], negated: bool, scopes: &Scopes) -> Option<Expr> {
    if let Expr::Tuple(ls) = unnested(x) {
        return row_in_list(ls, list, negated, scopes);
    }
    let t = type_of(x, scopes);
    let types: Vec<NumType> = list.iter().map(|e| type_of(e, scopes)).collect();
    if binary_value(x, scopes).is_some()
        && !is_column(unnested(x))
        && types.iter().all(|t| *t == NumType::Str)
    {
        // A computed binary string among strings: compared as bytes, as `x = item` is
        // (`bytes_comparison`). (A column keeps its index: the plain IN below.)
        let as_bytes = |e: &Expr| cast(nested(e.clone()), DataType::Blob(None));
        return Some(Expr::InList {
            expr: Box::new(as_bytes(x)),
            list: list.iter().map(as_bytes).collect(),
            negated,
        });
    }
    let numbers = types.iter().any(|t| is_number(*t));
    if numbers && types.iter().all(|t| is_number(*t) || *t == NumType::Null) {
        if let Some(index) = enum_index(x, scopes) {
            // An ENUM in a list of numbers: its index.
            return Some(Expr::InList {
                expr: Box::new(index),
                list: list.to_vec(),
                negated,
            });
        }
    }
    let strings = t == NumType::Str || types.contains(&NumType::Str);
    let temporal_involved = is_temporal(x, scopes) || list.iter().any(|e| is_temporal(e, scopes));
    if strings && (numbers || is_number(t)) && !temporal_involved {
        // Strings and numbers: MariaDB compares `x` with each item as `x = item` would
        // (`'1.0' IN (1, 2)` as numbers, `s IN ('a', 1)` with 'a' as strings); SQLite
        // would find no text equal to a number.
        let any = list
            .iter()
            .map(|item| {
                comparison(
                    x,
                    &BinaryOperator::Eq,
                    item,
                    t,
                    type_of(item, scopes),
                    scopes,
                )
                .unwrap_or_else(|| binop(x.clone(), BinaryOperator::Eq, item.clone()))
            })
            .reduce(|a, b| binop(a, BinaryOperator::Or, b))?;
        return Some(if negated {
            Expr::UnaryOp {
                op: UnaryOperator::Not,
                expr: Box::new(nested(any)),
            }
        } else {
            nested(any)
        });
    }
    if matches!(t, NumType::Str | NumType::Other)
        && !collation_decided(x)
        && list
            .iter()
            .all(|e| matches!(type_of(e, scopes), NumType::Str | NumType::Null))
    {
        // Strings with no column to decide the collation: the default one, as `=` does.
        return Some(Expr::InList {
            expr: Box::new(connection_collated(x.clone(), scopes)),
            list: list.to_vec(),
            negated,
        });
    }
    let stored = is_column(x) && decimal_column(x, scopes).is_some();
    let list_decimal = list.iter().any(|e| type_of(e, scopes) == NumType::Decimal);
    if stored || !(t == NumType::Decimal || list_decimal && exact(t)) {
        return None;
    }
    if !list.iter().all(|e| exact(type_of(e, scopes))) || !exact(t) {
        return None;
    }
    let any = list
        .iter()
        .map(|e| exact_comparison(x, BinaryOperator::Eq, e))
        .reduce(|a, b| binop(a, BinaryOperator::Or, b))?;
    Some(if negated {
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr: Box::new(nested(any)),
        }
    } else {
        nested(any)
    })
}

/// `-x` of a DECIMAL expression (not a literal, which SQLite negates exactly enough).
pub(crate) fn negate(x: &Expr, scopes: &Scopes) -> Option<Expr> {
    (type_of(x, scopes) == NumType::Decimal && !is_literal(x))
        .then(|| decimal_result("tutti_dec_neg", vec![x.clone()]))
}

/// The store functions of number columns (see `stored`).
const NUMERIC_STORES: [&str; 4] = [
    "tutti_dec_store",
    "tutti_udec_store",
    "tutti_int_store",
    "tutti_real_store",
];

/// Aggregates and numeric functions of DECIMALs → their exact forms.
pub(crate) fn function(f: &Function, scopes: &Scopes) -> Option<Expr> {
    let name = function_name(f);
    let a = args(f);
    let first = type_of(a.first()?, scopes);
    let of_doubles = DOUBLE_MATH.contains(&name.as_str())
        || crate::having::DEVIATIONS.contains(&name.as_str()) && f.over.is_none();
    if of_doubles && a.iter().any(|x| held(x).is_some()) {
        let mut g = f.clone();
        args_from(&mut g, 0).for_each(held_as_double);
        return Some(Expr::Function(g));
    }
    if NUMERIC_STORES.contains(&name.as_str()) && is_temporal(a[0], scopes) {
        // A date or time stored into a number column is its number, 20101112000000.000014.
        let mut g = f.clone();
        if let Some(x) = args_from(&mut g, 0).next() {
            temporal_as_number(x, scopes);
            if name == "tutti_int_store" {
                // An integer column takes its whole part (TIME'00:00:10.9' is 10).
                let n = std::mem::replace(x, crate::ast_build::null());
                *x = func("tutti_dec_truncate", vec![n, number("0"), number("1")]);
            }
        }
        return Some(Expr::Function(g));
    }
    if NUMERIC_STORES.contains(&name.as_str()) && held(a[0]).is_some() {
        // A quotient's held digits are what the column rounds (`1/3` stores 0.333333 in a
        // DECIMAL(10,6), as MariaDB).
        let mut g = f.clone();
        if let Some(x) = args_from(&mut g, 0).next() {
            *x = held(x).cloned().unwrap_or_else(crate::ast_build::null);
        }
        return Some(Expr::Function(g));
    }
    if first == NumType::Decimal {
        if let Some(by_number) = crate::stored::bit_store_of_decimal(f) {
            return Some(by_number);
        }
    }
    if name == "mod" && a.len() == 2 {
        let types = [first, type_of(a[1], scopes)];
        if types.contains(&NumType::Decimal) && types.iter().all(|t| exact(*t)) {
            return Some(decimal_result(
                "tutti_dec_mod",
                vec![a[0].clone(), a[1].clone()],
            ));
        }
        return None;
    }
    if name == "round" && first == NumType::Double && f.over.is_none() {
        // A DOUBLE rounds half to even (MariaDB's `my_double_round`); SQLite's REALs are
        // DECIMAL literals too, which round half away from zero.
        let mut g = f.clone();
        g.name = ObjectName::from(vec![Ident::new("tutti_double_round")]);
        return Some(Expr::Function(g));
    }
    let exact_name = match name.as_str() {
        // SUM of integers is a DECIMAL in MariaDB: SQLite's sum fails with "integer
        // overflow" past 2^63 − 1, even on the way to a total that fits.
        "sum" if matches!(first, NumType::Decimal | NumType::Int) => "tutti_dec_sum",
        "avg" if matches!(first, NumType::Decimal | NumType::Int) => "tutti_dec_avg",
        _ if first != NumType::Decimal => return None,
        "round" => "tutti_dec_round",
        "truncate" => "tutti_dec_truncate",
        "floor" => "tutti_dec_floor",
        "ceil" | "ceiling" => "tutti_dec_ceil",
        "abs" => "tutti_dec_abs",
        _ => return None,
    };
    // SUM and AVG are window functions too (`SUM(d) OVER (...)`).
    let window = matches!(exact_name, "tutti_dec_sum" | "tutti_dec_avg");
    if (f.over.is_some() && !window) || f.filter.is_some() {
        return None;
    }
    let mut g = f.clone();
    g.name = ObjectName::from(vec![Ident::new(exact_name)]);
    operand_args(&mut g, 0);
    let mut any_held = false;
    if let Some(x) = args_from(&mut g, 0).next() {
        if let Some(inner) = held(x).cloned() {
            *x = inner;
            any_held = true;
        }
    }
    if matches!(exact_name, "tutti_dec_round" | "tutti_dec_truncate")
        && a.len() == 2
        && constant_places(a[1])
        && !unsigned_int(a[0], scopes)
    {
        // A constant number of places is the result's scale (`ROUND(1.5, 3)` is 1.500).
        if let FunctionArguments::List(l) = &mut g.args {
            l.args
                .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(number("1"))));
        }
    }
    Some(held_result(exact_name, any_held, Expr::Function(g)))
}

/// `OVER (ORDER BY d RANGE BETWEEN 0.1 PRECEDING AND ...)` over a DECIMAL `d`: SQLite
/// measures a RANGE offset on numbers only (tutti holds a DECIMAL as text), so the frame is
/// measured on the key's REAL.
pub(crate) fn range_frame_key(f: &mut Function, scopes: &Scopes) {
    use sqlparser::ast::{WindowFrameBound as B, WindowFrameUnits, WindowType};
    let Some(WindowType::WindowSpec(spec)) = &mut f.over else {
        return;
    };
    let Some(frame) = &spec.window_frame else {
        return;
    };
    let offset = |b: &B| matches!(b, B::Preceding(Some(_)) | B::Following(Some(_)));
    if frame.units != WindowFrameUnits::Range
        || !(offset(&frame.start_bound) || frame.end_bound.as_ref().is_some_and(offset))
    {
        return;
    }
    for key in &mut spec.order_by {
        if type_of(&key.expr, scopes) == NumType::Decimal {
            key.expr = cast(nested(key.expr.clone()), DataType::Real);
        }
    }
}

/// A result column `STD(x)`, `VARIANCE(x)` or a synonym of an integer, DECIMAL,
/// FLOAT(M,D) or DOUBLE(M,D) `x`: a DOUBLE that MariaDB shows with x's scale +
/// `div_precision_increment` decimals for an exact `x` (`STD(int_col)` is `0.4714`), D + 4
/// for a FLOAT/DOUBLE, so the double is shown as a DECIMAL of that scale. Only as a result column: in arithmetic
/// it stays the double it is.
pub(crate) fn fixed_deviation(e: &Expr, scopes: &Scopes) -> Option<Expr> {
    let Expr::Function(f) = e else { return None };
    let name = function_name(f);
    let name = name.as_str();
    if !crate::having::DEVIATIONS.contains(&name) || f.over.is_some() || f.filter.is_some() {
        return None;
    }
    let [x] = args(f)[..] else { return None };
    let real_scale = || {
        let (_, d) = crate::real::RealType::of_decl(decl_of(x, scopes)?)?.shape?;
        Some(d)
    };
    let mut args = vec![Expr::Function(f.clone()), number("65")];
    match crate::result_types::exact_scale(x, scopes) {
        // `div_precision_increment` more digits, added when the statement runs.
        Some(scale) => args.extend([number(scale.min(30).to_string()), number("1")]),
        // A FLOAT(M,D)/DOUBLE(M,D): D + 4.
        None => args.push(number((real_scale()? + 4).min(30).to_string())),
    }
    Some(decimal_result("tutti_dec_cast", args))
}

/// Functions whose result has their arguments' type (`MAX(d)` is a DATE for a DATE `d`).
pub(crate) const SAME_TYPE: [&str; 6] = ["max", "min", "least", "greatest", "coalesce", "ifnull"];

/// A FLOAT value: a FLOAT column, `CAST(x AS FLOAT)`, and `MAX`, `LEAST`, `COALESCE`,
/// ... of FLOATs, which MariaDB types FLOAT too.
pub(crate) fn float_typed(e: &Expr, scopes: &Scopes) -> bool {
    match unnested(e) {
        Expr::Function(f) if function_name(f) == FLOAT_CAST => true,
        // a scalar subquery's (see `rewrite`'s `typed_scalar_subquery`)
        Expr::Subquery(q) => crate::subquery::float_item(q),
        Expr::Function(f) if SAME_TYPE.contains(&function_name(f).as_str()) => {
            let a = args(f);
            f.over.is_none() && !a.is_empty() && a.iter().all(|x| float_typed(x, scopes))
        }
        e => decl_of(e, scopes)
            .and_then(crate::real::RealType::of_decl)
            .is_some_and(|t| t.single && t.shape.is_none()),
    }
}

/// The function of `CAST(x AS FLOAT)` (see storage's `gcvt`).
pub(crate) const FLOAT_CAST: &str = "tutti_float_cast";

/// A result column MariaDB types FLOAT though it is no column (`MAX(f)`, `LEAST(f, g)`,
/// `CAST(x AS FLOAT)`): shown with a FLOAT's 6 digits, as the column would be,
/// `tutti_float_value(x)`. Only as a result column: in arithmetic it stays the double.
pub(crate) fn float_shown(e: &Expr, scopes: &Scopes) -> Option<Expr> {
    (decl_of(e, scopes).is_none() && float_typed(e, scopes))
        .then(|| func("tutti_float_value", vec![e.clone()]))
}

/// A result column `SUM(x)` or `AVG(x)` of a FLOAT(M,D) or DOUBLE(M,D) column `x`: MariaDB
/// keeps D decimals (D + 4 for AVG), so a sum of -0.01 and 0.01 is 0.00 there, not the
/// double's 1e-17, also for a HAVING that names the column: `ROUND(SUM(x), D)`.
pub(crate) fn fixed_real_sum(e: &Expr, scopes: &Scopes) -> Option<Expr> {
    let d = fixed_real_decimals(e, scopes)?;
    // MariaDB's rounding keeps a negative zero's sign (`-0.00`).
    Some(func(
        "tutti_double_shown",
        vec![e.clone(), number(d.to_string())],
    ))
}

/// The decimals MariaDB shows `SUM(x)` or `AVG(x)` of a FLOAT(M,D) or DOUBLE(M,D) column
/// `x` with: D, D + 4; the window functions `CUME_DIST()` and `PERCENT_RANK()`, doubles
/// of 10 decimals.
pub(crate) fn fixed_real_decimals(e: &Expr, scopes: &Scopes) -> Option<u8> {
    let Expr::Function(f) = e else { return None };
    let name = function_name(f);
    if matches!(name.as_str(), "cume_dist" | "percent_rank") && f.over.is_some() {
        return Some(10);
    }
    let extra = match name.as_str() {
        "sum" => 0,
        "avg" => 4,
        _ => return None,
    };
    if f.over.is_some() || f.filter.is_some() {
        return None;
    }
    let [x] = args(f)[..] else { return None };
    let (_, d) = crate::real::RealType::of_decl(decl_of(x, scopes)?)?.shape?;
    u8::try_from((d + extra).min(38)).ok()
}

/// `CAST(x AS DECIMAL[(p[,s])])` → `tutti_dec_cast(x, p, s)` (default precision 10, scale 0).
pub(crate) fn cast_decimal(
    mut x: Expr,
    info: &ExactNumberInfo,
    scopes: &Scopes,
) -> Result<Expr, crate::SqlError> {
    let ty = DecimalType::of_info(info).map_err(|e| e.in_cast(&x.to_string()))?;
    temporal_as_number(&mut x, scopes);
    Ok(decimal_result(
        "tutti_dec_cast",
        vec![
            x,
            number(ty.precision.to_string()),
            number(ty.scale.to_string()),
        ],
    ))
}

/// `tutti_dec_cast(x, precision, scale)` of a rewritten value.
pub(crate) fn decimal_cast(x: Expr, precision: &str, scale: &str) -> Expr {
    decimal_result("tutti_dec_cast", vec![x, number(precision), number(scale)])
}

/// `e` where MySQL reads it as a number: its hex and bit literals (`0x41`, `b'101'`, also as
/// the result of `CASE`, `IF`, `COALESCE`, ...) become the integers they are in numeric
/// context — MySQL's hybrid literals, binary strings elsewhere. (`x'41'` is a plain binary
/// string in MariaDB; the lexer marks it `_binary`, so it does not reach here as a literal.)
pub(crate) fn numeric(e: &mut Expr) {
    match e {
        Expr::Value(v) => {
            if let Some(n) = hybrid_value(&v.value) {
                *e = match i64::try_from(n) {
                    Ok(n) => number(n.to_string()),
                    // Above 2^63 − 1 MariaDB's value is a BIGINT UNSIGNED: its digits,
                    // typed DECIMAL (as `big_literal`).
                    Err(_) => collated(string(n.to_string())),
                };
            }
        }
        Expr::Nested(inner) => numeric(inner),
        Expr::UnaryOp {
            op: UnaryOperator::Minus | UnaryOperator::Plus,
            expr,
        } => numeric(expr),
        Expr::Case {
            conditions,
            else_result,
            ..
        } => {
            conditions.iter_mut().for_each(|c| numeric(&mut c.result));
            if let Some(e) = else_result {
                numeric(e);
            }
        }
        Expr::Function(_) if json_value(e) => {
            let value = std::mem::replace(e, crate::ast_build::null());
            *e = func("tutti_json_num", vec![value]);
        }
        Expr::Function(f) => {
            if let Some(skip) = returned_arguments(f) {
                numeric_args(f, skip);
            }
        }
        _ => {}
    }
}

/// Whether `f` returns a JSON value that MariaDB reads by its JSON type in comparisons and
/// arithmetic (`JSON_EXTRACT(j, '$.a') = 'x'` compares the string's characters, `+ 0`
/// reads `true` as 1; see tutti_storage's `json::scalar`).
pub(crate) fn json_value(e: &Expr) -> bool {
    matches!(e, Expr::Function(f) if function_name(f) == "json_extract")
}

/// For a function that returns one of its arguments (`COALESCE`, `IF`, ...), the first
/// argument it may return (`IF`'s condition is not one); None for other functions.
fn returned_arguments(f: &Function) -> Option<usize> {
    match function_name(f).as_str() {
        "coalesce" | "ifnull" | "greatest" | "least" | "nullif" => Some(0),
        "if" => Some(1),
        _ => None,
    }
}

/// [`numeric`] on the arguments of `f` from the `skip`th on.
pub(crate) fn numeric_args(f: &mut Function, skip: usize) {
    args_from(f, skip).for_each(numeric);
}

/// A hex or bit literal's number: its last 8 bytes, big-endian, as MySQL reads it; None
/// for other values.
fn hybrid_value(v: &SqlValue) -> Option<u64> {
    let (digits, radix): (_, u32) = match v {
        SqlValue::HexStringLiteral(h) => (h, 16),
        SqlValue::SingleQuotedByteStringLiteral(b) | SqlValue::DoubleQuotedByteStringLiteral(b) => {
            (b, 2)
        }
        _ => return None,
    };
    let last = &digits[digits.len().saturating_sub(64 / radix.ilog2() as usize)..];
    Some(u64::from_str_radix(if last.is_empty() { "0" } else { last }, radix).unwrap_or(0))
}

/// True for a hex or bit literal, or an expression returning one: what [`numeric`] changes.
fn hybrid(e: &Expr) -> bool {
    match e {
        Expr::Value(v) => hybrid_value(&v.value).is_some(),
        Expr::Nested(inner) => hybrid(inner),
        Expr::UnaryOp {
            op: UnaryOperator::Minus | UnaryOperator::Plus,
            expr,
        } => hybrid(expr),
        Expr::Case {
            conditions,
            else_result,
            ..
        } => case_results(conditions, else_result).any(hybrid),
        Expr::Function(f) => {
            returned_arguments(f).is_some_and(|skip| args(f).into_iter().skip(skip).any(hybrid))
        }
        _ => false,
    }
}

/// Numeric context for the operands of `l op r`: both sides of arithmetic and bit
/// operators; a comparison's hybrid side when the other side is a number. A hybrid compared
/// with a string is a binary string (compared byte for byte).
pub(crate) fn binary_operands(l: &mut Expr, op: &BinaryOperator, r: &mut Expr, scopes: &Scopes) {
    use BinaryOperator as B;
    match op {
        B::Plus
        | B::Minus
        | B::Multiply
        | B::Divide
        | B::Modulo
        | B::MyIntegerDivide
        | B::BitwiseOr
        | B::BitwiseAnd
        | B::BitwiseXor
        | B::PGBitwiseShiftLeft
        | B::PGBitwiseShiftRight => {
            numeric(l);
            numeric(r);
            enum_as_number(l, scopes);
            enum_as_number(r, scopes);
            if !matches!(l, Expr::Interval(_)) && !matches!(r, Expr::Interval(_)) {
                temporal_as_number(l, scopes);
                temporal_as_number(r, scopes);
            }
            // DECIMAL op DOUBLE (or a string, read as one) is a double.
            let double = |e: &Expr| matches!(type_of(e, scopes), NumType::Double | NumType::Str);
            if double(r) {
                held_as_double(l);
            }
            if double(l) {
                held_as_double(r);
            }
        }
        B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::Spaceship => {
            comparison_operands(l, r, scopes);
            comparison_operands(r, l, scopes);
            // An ENUM compared with a number compares its index.
            if is_number(type_of(r, scopes)) {
                enum_as_number(l, scopes);
            }
            if is_number(type_of(l, scopes)) {
                enum_as_number(r, scopes);
            }
        }
        _ => {}
    }
}

/// `x BETWEEN low AND high` over strings and numbers: MariaDB compares all three as
/// numbers (one type for the three), so the strings are read as numbers (`'a' BETWEEN 0
/// AND blob_col` is `0 <= 0 AND 0 <= 1`).
pub(crate) fn between_operands(x: &mut Expr, low: &mut Expr, high: &mut Expr, scopes: &Scopes) {
    let types = [x as &Expr, low, high].map(|e| type_of(e, scopes));
    let temporal_involved = [x as &Expr, low, high]
        .iter()
        .any(|e| is_temporal(e, scopes));
    if temporal_involved || !types.contains(&NumType::Str) || !types.iter().any(|t| is_number(*t)) {
        return;
    }
    for (e, t) in [x, low, high].into_iter().zip(types) {
        if t == NumType::Str {
            let s = std::mem::replace(e, crate::ast_build::null());
            *e = cast(nested(s), DataType::Numeric(ExactNumberInfo::None));
        }
    }
}

/// `x BETWEEN low AND high` over strings none of which is a column or has a `COLLATE`:
/// compared in the default collation (`'B' BETWEEN 'a' AND 'c'` is 1), as `=` is.
pub(crate) fn between_collation(x: &mut Expr, low: &Expr, high: &Expr, scopes: &Scopes) {
    let textual = |e: &Expr| {
        matches!(type_of(e, scopes), NumType::Str | NumType::Other) && !collation_decided(e)
    };
    if textual(x) && textual(low) && textual(high) {
        collate_in_connection(x, scopes);
    }
}

/// `side` compared with `other`: a number when `other` is one, else bytes.
pub(crate) fn comparison_operands(side: &mut Expr, other: &Expr, scopes: &Scopes) {
    if json_value(side) && !json_value(other) {
        if is_number(type_of(other, scopes)) {
            numeric(side);
        } else {
            let value = std::mem::replace(side, crate::ast_build::null());
            *side = func("json_unquote", vec![value]);
        }
        return;
    }
    if !hybrid(side) {
        return;
    }
    match type_of(other, scopes) {
        NumType::Int | NumType::Decimal | NumType::Double => numeric(side),
        // A binary column compares a hex literal as the bytes it is.
        NumType::Str if !hybrid(other) && !binary_string(other, scopes) => {
            let text = cast(
                std::mem::replace(side, crate::ast_build::null()),
                DataType::Text,
            );
            *side = Expr::Collate {
                expr: Box::new(text),
                collation: ObjectName::from(vec![Ident::new("BINARY")]),
            };
        }
        _ => {}
    }
}

/// The width of a BIT(n) column reference.
pub(crate) fn bit_width(e: &Expr, scopes: &Scopes) -> Option<u64> {
    let decl = decl_of(e, scopes)?;
    decl.strip_prefix("BIT(")?.strip_suffix(')')?.parse().ok()
}

/// `CAST(x AS SIGNED | UNSIGNED)` → `tutti_cast_int(x, unsigned, kind)`, with the kind of
/// value MariaDB reads `x` as (DECIMALs round and clamp, temporal values become their digits,
/// the rest wraps; see storage's `unsigned`).
pub(crate) fn cast_int(x: Expr, unsigned: bool, scopes: &Scopes) -> Expr {
    let kind = if is_temporal(&x, scopes) {
        "2"
    } else if type_of(&x, scopes) == NumType::Decimal {
        "1"
    } else {
        "0"
    };
    func(
        "tutti_cast_int",
        vec![
            operand(x),
            number(if unsigned { "1" } else { "0" }),
            number(kind),
        ],
    )
}

/// An UNSIGNED integer expression: an UNSIGNED integer column, `CAST(x AS UNSIGNED)`, a
/// literal between 2^63 and 2^64 − 1, the result of a bit operator or of unsigned
/// arithmetic.
fn unsigned_int(e: &Expr, scopes: &Scopes) -> bool {
    match unnested(e) {
        e @ (Expr::Identifier(_) | Expr::CompoundIdentifier(_)) => {
            decl_of(e, scopes).is_some_and(|d| {
                decl_type(d) == NumType::Int && d.to_ascii_uppercase().contains("UNSIGNED")
            })
        }
        Expr::Collate { expr, collation } if collation.to_string() == COLLATION => {
            matches!(unnested(expr), Expr::Value(v) if matches!(&v.value,
                SqlValue::SingleQuotedString(n) if unsigned_digits(n)))
        }
        Expr::Function(f) => match function_name(f).as_str() {
            "tutti_bitop" | "tutti_uint_op" | "tutti_u64" => true,
            "tutti_cast_int" => {
                matches!(args(f).get(1), Some(Expr::Value(v)) if v.value == SqlValue::Number("1".into(), false))
            }
            _ => false,
        },
        _ => false,
    }
}

/// An integer literal above 2^63 − 1 (MariaDB's BIGINT UNSIGNED up to 2^64 − 1, a DECIMAL
/// beyond), which SQLite would read as an inexact REAL. It becomes its digits, typed
/// DECIMAL, so it prints and computes exactly; more digits than a DECIMAL holds make the
/// largest one (65 nines), as MariaDB's overflow does.
pub(crate) fn big_literal(v: &SqlValue) -> Option<Expr> {
    let SqlValue::Number(n, _) = v else {
        return None;
    };
    if !n.bytes().all(|b| b.is_ascii_digit()) || n.parse::<i64>().is_ok() {
        return None;
    }
    let digits = n.trim_start_matches('0');
    Some(collated(string(if digits.len() > MAX_DIGITS {
        "9".repeat(MAX_DIGITS)
    } else {
        digits.to_string()
    })))
}

/// An integer literal as [`big_literal`] spells it.
pub(crate) fn big_literal_digits(e: &Expr) -> bool {
    match e {
        Expr::Collate { expr, collation } if collation.to_string() == COLLATION => {
            matches!(unnested(expr), Expr::Value(v) if matches!(&v.value,
                SqlValue::SingleQuotedString(n) if n.bytes().all(|b| b.is_ascii_digit())))
        }
        _ => false,
    }
}

/// The most digits a DECIMAL holds.
const MAX_DIGITS: usize = crate::decimal::MAX_PRECISION as usize;

/// A string that spells an integer between 2^63 and 2^64 − 1.
fn unsigned_digits(n: &str) -> bool {
    n.bytes().all(|b| b.is_ascii_digit()) && n.parse::<i64>().is_err() && n.parse::<u64>().is_ok()
}

/// A DATE, DATETIME, TIMESTAMP or TIME column, or a function returning such a value.
pub(crate) fn is_temporal(e: &Expr, scopes: &Scopes) -> bool {
    const TEMPORAL_FUNCTIONS: [&str; 23] = [
        "convert_tz",
        "tutti_fsp",
        "tutti_cast_temporal",
        "tutti_temporal",
        "tutti_temporal_literal",
        "date",
        "time",
        "timestamp",
        "now",
        "curdate",
        "curtime",
        "sysdate",
        "utc_timestamp",
        "utc_date",
        "utc_time",
        "from_days",
        "makedate",
        "last_day",
        "str_to_date",
        "sec_to_time",
        "maketime",
        "timediff",
        "from_unixtime",
    ];
    let e = match unnested(e) {
        Expr::Collate { expr, .. } => expr,
        e => e,
    };
    // FROM_UNIXTIME(n, format) is text.
    let formatted =
        |f: &Function| matches!(&f.args, FunctionArguments::List(l) if l.args.len() > 1);
    // MAX(d), LEAST(d, e), COALESCE(d) of temporal values keep their type.
    let same_type = |f: &Function| {
        SAME_TYPE.contains(&function_name(f).as_str()) && {
            let a = args(f);
            !a.is_empty() && a.iter().all(|x| is_temporal(x, scopes))
        }
    };
    // `d + INTERVAL ..` of a temporal `d` is one too.
    let shifted = |f: &Function| {
        matches!(
            function_name(f).as_str(),
            "tutti_date_add" | "tutti_date_sub"
        ) && args(f).first().is_some_and(|x| is_temporal(x, scopes))
    };
    temporal_kind(e, scopes).is_some()
        || matches!(unnested(e), Expr::Function(f)
            if TEMPORAL_FUNCTIONS.contains(&function_name(f).as_str())
                && !(function_name(f) == "from_unixtime" && formatted(f)))
        || matches!(unnested(e), Expr::Function(f) if same_type(f) || shifted(f))
}

/// A temporal value where MySQL reads it as a number (`d + 0` is 20010203, `CAST(t AS
/// DECIMAL(20,6))` keeps the fraction): `tutti_temporal_number(x)`, a DECIMAL.
pub(crate) fn temporal_as_number(e: &mut Expr, scopes: &Scopes) {
    if is_temporal(e, scopes) || temporal_choice(e, scopes) {
        let x = std::mem::replace(e, crate::ast_build::null());
        *e = collated(func("tutti_temporal_number", vec![x]));
    }
}

/// A CASE's possible values: each THEN's result, and the ELSE's.
pub(crate) fn case_results<'a>(
    conditions: &'a [sqlparser::ast::CaseWhen],
    else_result: &'a Option<Box<Expr>>,
) -> impl Iterator<Item = &'a Expr> {
    conditions
        .iter()
        .map(|c| &c.result)
        .chain(else_result.as_deref())
}

/// `CASE … THEN d1 … ELSE d2 END` or `IF(c, d1, d2)` whose values are all of one temporal
/// kind (NULLs aside): MariaDB types it so, and reads it as that kind's number.
fn temporal_choice(e: &Expr, scopes: &Scopes) -> bool {
    let values: Vec<&Expr> = match unnested(e) {
        Expr::Case {
            conditions,
            else_result,
            ..
        } => case_results(conditions, else_result).collect(),
        Expr::Function(f) if function_name(f) == "if" => args(f).into_iter().skip(1).collect(),
        _ => return false,
    };
    let kinds: Vec<Option<&str>> = values
        .iter()
        .filter(|x| !matches!(unnested(x), Expr::Value(v) if v.value == SqlValue::Null))
        .map(|x| value_kind(x, scopes).map(|(kind, _)| kind))
        .collect();
    kinds
        .first()
        .is_some_and(|k| k.is_some() && kinds.iter().all(|o| o == k))
}

/// `DATE '..'`, `TIME '..'`, `TIMESTAMP '..'` (see `exprs::typed_literal`).
fn temporal_literal(e: &Expr) -> bool {
    match unnested(e) {
        Expr::Collate { expr, .. } => temporal_literal(expr),
        Expr::Function(f) => function_name(f) == "tutti_temporal_literal",
        _ => false,
    }
}
