//! A `LIMIT ?` or `OFFSET ?` placeholder, and one in `GROUP_CONCAT(… LIMIT ?)`, is read
//! through `tutti_limit(?, strict)` (storage), which takes the bound value as MariaDB does:
//! SQLite reads a negative LIMIT as no limit (`LIMIT -1` returned every row where MariaDB
//! refuses it with 1210) and fails on a string with its own "datatype mismatch".
//! `GROUP_CONCAT`'s limit is strict: MariaDB takes only an integer there (4107).

use sqlparser::ast::{Expr, LimitClause, Query, Value};

use crate::ast_build::{func, number};

/// Wraps the placeholders of `q`'s LIMIT and OFFSET.
pub(crate) fn query(q: &mut Query) {
    match &mut q.limit_clause {
        Some(LimitClause::LimitOffset { limit, offset, .. }) => {
            limit.iter_mut().for_each(|e| wrap(e, false));
            if let Some(o) = offset {
                wrap(&mut o.value, false);
            }
        }
        Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
            wrap(offset, false);
            wrap(limit, false);
        }
        None => {}
    }
}

/// Wraps an aggregate's `LIMIT` count or offset when it is a placeholder.
pub(crate) fn aggregate(e: &mut Expr) {
    wrap(e, true);
}

fn wrap(e: &mut Expr, strict: bool) {
    let Expr::Value(v) = e else {
        return;
    };
    if !matches!(v.value, Value::Placeholder(_)) {
        return;
    }
    let placeholder = std::mem::replace(e, crate::ast_build::null());
    *e = func(
        "tutti_limit",
        vec![placeholder, number(if strict { "1" } else { "0" })],
    );
}

#[cfg(test)]
mod tests {
    use crate::tests::s;

    #[test]
    fn limit_placeholders_are_read_through_tutti_limit() {
        let from = r#"SELECT "a" FROM "app.t" AS "t""#;
        assert_eq!(
            s("SELECT a FROM t LIMIT ? OFFSET ?"),
            format!("{from} LIMIT tutti_limit(?1, 0) OFFSET tutti_limit(?2, 0)")
        );
        assert_eq!(s("SELECT a FROM t LIMIT 2"), format!("{from} LIMIT 2"));
        assert!(s("SELECT GROUP_CONCAT(a LIMIT ?) FROM t").contains("tutti_limit(?1, 1)"));
    }
}
