//! A UNION's result column is a FLOAT only when each of its SELECTs gives a FLOAT (or NULL)
//! there; a FLOAT with anything else makes a DOUBLE in MariaDB (`SELECT f UNION SELECT 1`
//! shows f's double, `1.100000023841858`). SQLite declares a compound's column by its first
//! SELECT, so the FLOAT members of a mixed column are read as their doubles,
//! `CAST(f AS REAL)`, and the column shows a DOUBLE's digits.

use sqlparser::ast::{DataType, Expr, Select, SelectItem, SetExpr};

use crate::typing::Scopes;

/// What one SELECT of a UNION gives in a result column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Member {
    Float,
    Null,
    Other,
}

/// The members of the statement's UNION, one list per SELECT in order.
#[derive(Default)]
pub(crate) struct UnionFloats(Vec<Vec<Member>>);

pub(crate) fn item_expr(item: &SelectItem) -> Option<&Expr> {
    match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Some(e),
        _ => None,
    }
}

impl UnionFloats {
    /// Notes what a SELECT of the UNION gives (its items rewritten, its scope still open).
    pub(crate) fn note(&mut self, s: &Select, scopes: &Scopes) {
        let members = s
            .projection
            .iter()
            .map(|item| match item_expr(item) {
                Some(e) if crate::typing::float_typed(e, scopes) => Member::Float,
                Some(Expr::Value(v)) if v.value == sqlparser::ast::Value::Null => Member::Null,
                _ => Member::Other,
            })
            .collect();
        self.0.push(members);
    }

    /// Casts the FLOAT members of mixed columns in the UNION `body` to REAL.
    pub(crate) fn apply(self, body: &mut SetExpr) {
        let mut selects = Vec::new();
        members(body, &mut selects);
        let Some(width) = self.0.first().map(Vec::len) else {
            return;
        };
        if selects.len() != self.0.len() || self.0.iter().any(|m| m.len() != width) {
            return;
        }
        for i in 0..width {
            let column: Vec<Member> = self.0.iter().map(|m| m[i]).collect();
            if !(column.contains(&Member::Float) && column.contains(&Member::Other)) {
                continue;
            }
            for (s, m) in selects.iter_mut().zip(&column) {
                if *m != Member::Float {
                    continue;
                }
                let Some(item) = s.projection.get_mut(i) else {
                    continue;
                };
                keep_name(item);
                if let SelectItem::ExprWithAlias { expr: e, .. } = item {
                    let x = match std::mem::replace(e, crate::ast_build::null()) {
                        // the first SELECT's FLOAT shown as one (`typing::float_shown`)
                        Expr::Function(f) if f.name.to_string() == "tutti_float_value" => {
                            crate::typing::args(&f)[0].clone()
                        }
                        x => x,
                    };
                    *e = crate::ast_build::cast(x, DataType::Real);
                }
            }
        }
    }
}

/// An unnamed item gets its name as an alias, so that a function wrapped around its
/// expression leaves the column's name as it was (`f`, not `CAST(f AS REAL)`).
pub(crate) fn keep_name(item: &mut SelectItem) {
    if let SelectItem::UnnamedExpr(e) = item {
        let alias = match &*e {
            Expr::Identifier(i) => i.value.clone(),
            Expr::CompoundIdentifier(ids) => {
                ids.last().map(|i| i.value.clone()).unwrap_or_default()
            }
            other => other.to_string(),
        };
        let expr = std::mem::replace(e, crate::ast_build::null());
        *item = SelectItem::ExprWithAlias {
            expr,
            alias: crate::names::quoted(alias),
        };
    }
}

/// The SELECTs of a UNION, left to right (the order the rewriter visits them in).
pub(crate) fn members<'a>(body: &'a mut SetExpr, out: &mut Vec<&'a mut Select>) {
    match body {
        SetExpr::Select(s) => out.push(s),
        SetExpr::SetOperation { left, right, .. } => {
            members(left, out);
            members(right, out);
        }
        _ => {}
    }
}
