//! User variables that hold a DECIMAL.
//!
//! MariaDB keeps the type of what a user variable was given: after `SET @t = 0.1 + 0.2`,
//! `@t = 0.3` is 1 and `@t * 3` is exactly 0.9; after `SET @a = 1.10`, `@a` shows `1.10`.
//! The session keeps a DECIMAL's digits as a [`UserValue::Decimal`], and the front-end
//!
//! * reads `@v` holding one as `'digits' COLLATE tutti_decimal`, typed DECIMAL, so that
//!   arithmetic and comparisons take the exact functions (see `typing`);
//! * assigns a DECIMAL expression its digits — all a quotient holds, as MariaDB stores
//!   them (`SET @d = 1/3` keeps 0.333333333) — marked so that the session keeps them as a
//!   DECIMAL: `@v := x` becomes `tutti_set_var('v', tutti_dec_digits(x), 1)`, `SET @v = x`
//!   a [`SetValue::Decimal`].
//!
//! Not MariaDB's: in arithmetic MariaDB gives such a variable 38 decimals (`@a + 0` shows
//! `1.10000000000000000000000000000000000000`); tutti shows the exact result at its own
//! scale (`1.10`).

use sqlparser::ast::{DataType, Expr, Function};

use crate::ast_build::{cast, func, number, string};
use crate::typing::{args, collated, held, operand, type_of, NumType, Scopes};
use crate::{SetValue, UserValue, Value};

/// `tutti_dec_digits(x)`: a DECIMAL's digits as text, all a quotient holds.
const DIGITS: &str = "tutti_dec_digits";

/// `@v` read as a value.
pub(crate) fn read(v: &UserValue) -> Expr {
    match v {
        UserValue::Plain(v) => crate::literals::value_expr(v),
        UserValue::Decimal(d) => collated(string(d)),
    }
}

/// `@v` read in a statement that assigns it (`tutti_get_var('v', before)`): typed as what
/// it held before the statement, as MariaDB types it when the statement is prepared — a
/// string if it held nothing (NULL), so `@b := 0.1 + 0.2, @b = 0.3` compares `'0.3'` with
/// 0.3 as numbers (1).
pub(crate) fn read_assigned(name: &str, before: &UserValue) -> Expr {
    let call = func("tutti_get_var", vec![string(name), read(before)]);
    match before {
        UserValue::Plain(Value::Null) => cast(call, DataType::Text),
        UserValue::Plain(_) => call,
        UserValue::Decimal(_) => collated(call),
    }
}

/// The digits of a (rewritten) DECIMAL expression, all a quotient holds (a literal's as
/// written: `1.10`).
fn digits(x: &Expr) -> Expr {
    let x = held(x).cloned().unwrap_or_else(|| operand(x.clone()));
    func(DIGITS, vec![x])
}

/// `tutti_set_var('v', x)` (rewritten) of a DECIMAL `x` → `tutti_set_var('v',
/// tutti_dec_digits(x), 1)`, typed DECIMAL; None for other values.
pub(crate) fn assignment(f: &Function, scopes: &Scopes) -> Option<Expr> {
    let [name, x] = args(f)[..] else {
        return None;
    };
    (type_of(x, scopes) == NumType::Decimal).then(|| {
        let call = func("tutti_set_var", vec![name.clone(), digits(x), number("1")]);
        collated(call)
    })
}

/// `SET @v = x` of a (rewritten) DECIMAL `x`: a [`SetValue::Decimal`]; None for others.
pub(crate) fn set_value(x: &Expr) -> Option<SetValue> {
    (type_of(x, &Vec::new()) == NumType::Decimal)
        .then(|| SetValue::Decimal(format!("SELECT {}", digits(x))))
}
