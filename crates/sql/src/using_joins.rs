//! `USING` and `NATURAL` joins whose common columns have different types become `ON` joins.
//!
//! SQLite compares a `USING (a)` pair with its own rules (the left column's affinity and
//! collation): a `TIME` with a `DOUBLE`, a `DATE` with a `DATETIME`, a `_ci` column with a
//! `_bin` one are compared as text or bytes, so rows MySQL joins go missing. MySQL compares
//! them as it compares `t1.a = t2.a`, which tutti's comparison rewriting already does. So
//! when a pair's types (or collations) compare differently, the constraint becomes
//! `ON l.a = r.a AND ...`, and the statement's unqualified references to a merged column
//! are qualified with the table MySQL takes it from (the left one; the right one for a
//! RIGHT JOIN). Same-typed pairs keep SQLite's `USING`. Only a SELECT whose `*` was
//! expanded (see `natural`) or has none, over plain tables, is changed; a subquery's
//! reference to a merged column of an enclosing query is left alone.

use sqlparser::ast::{
    BinaryOperator, Expr, GroupByExpr, Ident, JoinConstraint, JoinOperator, ObjectName, Select,
    SelectItem, TableFactor, TableWithJoins,
};

use crate::own_level::visit_own_level_mut;

use crate::typing::{NumType, Scope, Scopes};

/// A table in scope by its name and alias in the query.
pub(crate) type ScopeOf<'a> = dyn Fn(&ObjectName, Option<&str>) -> Option<Scope> + 'a;

/// A merged column turned into a pair: its name and the table MySQL reads it from.
struct Merged {
    name: String,
    table: String,
}

/// Rewrites the joins of `s` (see the module doc).
pub(crate) fn to_on(s: &mut Select, scope_of: &ScopeOf<'_>) {
    if s.projection
        .iter()
        .any(|i| matches!(i, SelectItem::Wildcard(_)))
    {
        return;
    }
    let mut merged = Vec::new();
    for twj in &mut s.from {
        convert(twj, scope_of, &mut merged);
    }
    if merged.is_empty() {
        return;
    }
    for item in &mut s.projection {
        match item {
            SelectItem::UnnamedExpr(Expr::Identifier(id)) => {
                if let Some(m) = source(&merged, id) {
                    let expr = qualified(m, id);
                    let alias = id.clone();
                    *item = SelectItem::ExprWithAlias { expr, alias };
                }
            }
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                qualify(e, &merged)
            }
            _ => {}
        }
    }
    let group = match &mut s.group_by {
        GroupByExpr::Expressions(g, _) => g.iter_mut().collect(),
        _ => Vec::new(),
    };
    let on = s
        .from
        .iter_mut()
        .flat_map(|twj| &mut twj.joins)
        .filter_map(
            |j| match crate::natural::constraint_mut(&mut j.join_operator) {
                Some(JoinConstraint::On(e)) => Some(e),
                _ => None,
            },
        );
    let conditions = s.selection.iter_mut().chain(s.having.iter_mut());
    for e in conditions.chain(group).chain(on) {
        qualify(e, &merged);
    }
}

/// Converts the joins of one FROM item over plain tables, left to right.
fn convert(twj: &mut TableWithJoins, scope_of: &ScopeOf<'_>, merged: &mut Vec<Merged>) {
    let Some(first) = table(&twj.relation, scope_of) else {
        return;
    };
    let mut left = vec![first];
    for j in &mut twj.joins {
        let Some(right) = table(&j.relation, scope_of) else {
            return;
        };
        let right_join = matches!(
            j.join_operator,
            JoinOperator::Right(_) | JoinOperator::RightOuter(_)
        );
        if let Some(c) = crate::natural::constraint_mut(&mut j.join_operator) {
            let pairs = common(c, &left, &right);
            let converted_before = pairs
                .iter()
                .any(|(n, _)| merged.iter().any(|m| m.name.eq_ignore_ascii_case(n)));
            if !pairs.is_empty()
                && (converted_before || pairs.iter().any(|(n, l)| differ(n, l, &right)))
            {
                *c = JoinConstraint::On(on(&pairs, &right));
                for (name, l) in pairs {
                    let table = if right_join { &right.alias } else { &l.alias };
                    merged.push(Merged {
                        table: table.clone(),
                        name,
                    });
                }
            }
        }
        left.push(right);
    }
}

fn table(tf: &TableFactor, scope_of: &ScopeOf<'_>) -> Option<Scope> {
    match tf {
        TableFactor::Table { name, alias, .. } => {
            scope_of(name, alias.as_ref().map(|a| a.name.value.as_str()))
        }
        _ => None,
    }
}

/// The column names a `USING`/`NATURAL` constraint merges, each with the left table it is
/// read from (the first that has it); empty for another constraint.
fn common(c: &JoinConstraint, left: &[Scope], right: &Scope) -> Vec<(String, Scope)> {
    let has = |s: &Scope, n: &str| {
        s.table
            .columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(n))
    };
    let names: Vec<String> = match c {
        JoinConstraint::Using(names) => names
            .iter()
            .filter_map(|n| n.0.last().and_then(|p| p.as_ident()))
            .map(|i| i.value.clone())
            .collect(),
        JoinConstraint::Natural => left
            .iter()
            .flat_map(|s| s.table.columns.iter().map(|c| c.name.clone()))
            .filter(|n| n != crate::types::INVISIBLE_KEY && has(right, n))
            .collect(),
        _ => return Vec::new(),
    };
    let mut out: Vec<(String, Scope)> = Vec::new();
    for n in names {
        if out.iter().any(|(m, _)| m.eq_ignore_ascii_case(&n)) {
            continue;
        }
        match left.iter().find(|s| has(s, &n)) {
            Some(l) if has(right, &n) => out.push((n, l.clone())),
            // A name one side lacks: SQLite's own error for USING stays.
            _ => return Vec::new(),
        }
    }
    out
}

/// What decides how SQLite compares a column: its numeric type, temporal kind and
/// fraction digits, a type read in its own way (ENUM, SET, JSON, YEAR, BIT), and BIGINT
/// UNSIGNED's stored form. `INT` and `BIGINT`, `VARCHAR(10)` and `TEXT` compare alike.
type Comparing = (NumType, Option<(&'static str, u32)>, Option<String>, bool);

fn comparing(decl: &str) -> Comparing {
    let word: String = decl
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_uppercase();
    let own = ["ENUM", "SET", "JSON", "YEAR", "BIT"].contains(&word.as_str());
    (
        crate::typing::decl_type(decl),
        crate::stored::temporal_of(decl),
        own.then_some(word),
        crate::big_unsigned::decl(decl),
    )
}

/// Whether column `name` compares differently (type or collation) in `l` and `r`.
fn differ(name: &str, l: &Scope, r: &Scope) -> bool {
    let decl = |s: &Scope| {
        s.table
            .columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
            .map(|c| comparing(&c.decl_type))
    };
    if decl(l) != decl(r) {
        return true;
    }
    let collation = |s: &Scope| {
        let scopes: Scopes = vec![vec![s.clone()]];
        crate::derivation::column_collation(&column(&s.alias, name), &scopes)
            .map(|c| c.to_ascii_lowercase())
    };
    collation(l) != collation(r)
}

fn column(table: &str, name: &str) -> Expr {
    Expr::CompoundIdentifier(vec![Ident::new(table), Ident::new(name)])
}

/// `l.a = r.a AND ...` for the pairs.
fn on(pairs: &[(String, Scope)], right: &Scope) -> Expr {
    let eq = |(name, l): &(String, Scope)| Expr::BinaryOp {
        left: Box::new(column(&l.alias, name)),
        op: BinaryOperator::Eq,
        right: Box::new(column(&right.alias, name)),
    };
    let mut it = pairs.iter().map(eq);
    let first = it.next().expect("a pair");
    it.fold(first, |acc, e| Expr::BinaryOp {
        left: Box::new(acc),
        op: BinaryOperator::And,
        right: Box::new(e),
    })
}

/// The merged column an unqualified name means, if any.
fn source<'a>(merged: &'a [Merged], id: &Ident) -> Option<&'a Merged> {
    merged
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(&id.value))
}

/// `table.name` for a merged column.
fn qualified(m: &Merged, id: &Ident) -> Expr {
    Expr::CompoundIdentifier(vec![Ident::new(&m.table), id.clone()])
}

/// Qualifies the unqualified references to merged columns in `e`, outside subqueries.
fn qualify(e: &mut Expr, merged: &[Merged]) {
    visit_own_level_mut(e, |x| {
        if let Expr::Identifier(id) = x {
            if let Some(m) = source(merged, id) {
                *x = qualified(m, id);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::tests::{env, s};

    /// A TIME(6) `a` in `tm`, a DOUBLE `a` in `dbl`.
    fn translated(sql: &str) -> String {
        let env = env()
            .with_table(
                "app",
                "tm",
                &[("id", "INT"), ("a", "TIME(6)")],
                &["id"],
                None,
                &[],
            )
            .with_table(
                "app",
                "dbl",
                &[("k", "INT"), ("a", "DOUBLE")],
                &["k"],
                None,
                &[],
            );
        match crate::translate(sql, &env).unwrap().remove(0) {
            crate::Stmt::Query(q) => q.sql,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn types_that_compare_alike_keep_using() {
        // INT and INTEGER compare alike.
        assert!(s("SELECT * FROM t JOIN u USING (id)").contains("USING"));
        assert!(s("SELECT a FROM t NATURAL JOIN u").contains("NATURAL"));
    }

    #[test]
    fn types_that_compare_differently_join_on() {
        let sql = translated("SELECT a, k FROM tm JOIN dbl USING (a) WHERE a > 1 ORDER BY a");
        assert!(!sql.contains("USING"), "{sql}");
        assert!(sql.contains(r#"AS "a""#), "{sql}");
        // Every `a` is qualified: none is left bare (ambiguous to SQLite).
        assert!(
            !sql.contains(r#" "a" >"#) && !sql.contains(r#"("a""#),
            "{sql}"
        );
        let right = translated("SELECT a FROM tm RIGHT JOIN dbl USING (a)");
        assert!(right.contains(r#""dbl"."a""#), "{right}");
        let natural = translated("SELECT tm.id FROM tm NATURAL JOIN dbl");
        assert!(!natural.contains("NATURAL"), "{natural}");
        // A `*` that cannot be expanded keeps USING (both copies would show).
        let derived = translated("SELECT * FROM (SELECT * FROM tm) x JOIN dbl USING (a)");
        assert!(derived.contains("USING"), "{derived}");
    }
}
