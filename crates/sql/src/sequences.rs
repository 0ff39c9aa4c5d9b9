//! MariaDB's SEQUENCE engine tables: `seq_1_to_10`, `seq_10_to_1`, `seq_0_to_100_step_5`.
//!
//! MariaDB answers a reference to such a name in any database (unless a real table has it)
//! with a read-only table of one column, `seq`: the numbers from the first bound towards
//! the second, by the step (1 unless given), descending when the first is the larger
//! (`seq_10_to_1_step_3` is 10, 7, 4, 1). Tests and applications use them to generate
//! rows (`INSERT INTO t SELECT seq, ... FROM seq_1_to_10000`).
//!
//! tutti has no such engine: before a SELECT's scope is built, each such table in its FROM
//! clause becomes a derived table of the same name that counts the numbers with a recursive
//! CTE, so every later step (column resolution, typing, joins) sees an ordinary derived
//! table. The last value is computed here, so the recursion never steps past the bounds.
//! Bounds beyond 2^63 − 1 and a step of 0 are left alone (the name stays unknown: 1146).
//! CREATE TABLE of such a name is 1050, as in MariaDB; writing one is 1146 (MariaDB 1031).

use sqlparser::ast::{Ident, Query, Select, TableAlias, TableFactor, TableWithJoins};

use crate::names::parts;

/// A sequence table's numbers.
#[derive(Debug, PartialEq, Eq)]
struct Sequence {
    first: i64,
    last: i64,
    step: i64,
}

impl Sequence {
    /// `seq_FROM_to_TO[_step_STEP]`, with the last number the sequence reaches.
    fn named(name: &str) -> Option<Sequence> {
        let rest = name.strip_prefix("seq_")?;
        let (from, rest) = rest.split_once("_to_")?;
        let (to, step) = match rest.split_once("_step_") {
            Some((to, step)) => (to, number(step)?),
            None => (rest, 1),
        };
        let (first, to) = (number(from)?, number(to)?);
        if step == 0 {
            return None;
        }
        let count = first.abs_diff(to) / step.unsigned_abs();
        let span = i64::try_from(count).ok()?.checked_mul(step)?;
        let last = if first <= to {
            first + span
        } else {
            first - span
        };
        Some(Sequence { first, last, step })
    }

    /// The numbers as a query in MySQL form.
    fn query(&self) -> Query {
        let Sequence { first, last, step } = self;
        let (op, cmp) = if first <= last {
            ('+', '<')
        } else {
            ('-', '>')
        };
        let sql = format!(
            "WITH RECURSIVE tutti_seq (seq) AS (SELECT CAST({first} AS UNSIGNED) UNION ALL \
             SELECT seq {op} {step} FROM tutti_seq WHERE seq {cmp} {last}) SELECT seq FROM tutti_seq"
        );
        sqlparser::parser::Parser::new(&crate::lexer::DIALECT)
            .try_with_sql(&sql)
            .and_then(|mut p| p.parse_query())
            .map(|q| *q)
            .expect("a sequence's query parses")
    }
}

/// Whether a table name is a sequence's, which MariaDB does not let CREATE TABLE take (1050).
pub(crate) fn is_sequence(name: &str) -> bool {
    Sequence::named(name).is_some()
}

/// Digits (no sign, no leading `+`) as a number up to 2^63 − 1.
fn number(digits: &str) -> Option<i64> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Replaces the sequence tables of `s`'s FROM clause (see the module doc); `is_table` says
/// whether a name (one or two parts) is a real table or a CTE in scope, which keeps it.
pub(crate) fn expand(s: &mut Select, is_table: &dyn Fn(&sqlparser::ast::ObjectName) -> bool) {
    for twj in &mut s.from {
        expand_joined(twj, is_table);
    }
}

fn expand_joined(twj: &mut TableWithJoins, is_table: &dyn Fn(&sqlparser::ast::ObjectName) -> bool) {
    expand_factor(&mut twj.relation, is_table);
    for j in &mut twj.joins {
        expand_factor(&mut j.relation, is_table);
    }
}

fn expand_factor(tf: &mut TableFactor, is_table: &dyn Fn(&sqlparser::ast::ObjectName) -> bool) {
    let (name, alias) = match tf {
        TableFactor::NestedJoin {
            table_with_joins, ..
        } => return expand_joined(table_with_joins, is_table),
        TableFactor::Table {
            name,
            alias,
            args: None,
            ..
        } => (name, alias),
        _ => return,
    };
    let Some(table) = parts(name)
        .ok()
        .and_then(|ids| ids.last().map(|i| i.value.clone()))
    else {
        return;
    };
    let Some(sequence) = Sequence::named(&table) else {
        return;
    };
    if is_table(name) {
        return;
    }
    let alias = alias.take().unwrap_or_else(|| TableAlias {
        explicit: true,
        name: Ident::new(table),
        columns: vec![],
        at: None,
    });
    *tf = TableFactor::Derived {
        lateral: false,
        subquery: Box::new(sequence.query()),
        alias: Some(alias),
        sample: None,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(first: i64, last: i64, step: i64) -> Option<Sequence> {
        Some(Sequence { first, last, step })
    }

    #[test]
    fn names_give_their_bounds_and_the_last_number_reached() {
        assert_eq!(Sequence::named("seq_1_to_10"), seq(1, 10, 1));
        assert_eq!(Sequence::named("seq_10_to_1_step_3"), seq(10, 1, 3));
        assert_eq!(Sequence::named("seq_1_to_7_step_3"), seq(1, 7, 3));
        assert_eq!(Sequence::named("seq_0_to_100_step_7"), seq(0, 98, 7));
        assert_eq!(Sequence::named("seq_9_to_0_step_4"), seq(9, 1, 4));
        assert_eq!(Sequence::named("seq_5_to_5"), seq(5, 5, 1));
        for not in [
            "seq_1_to_3_step_0",
            "seq_-1_to_3",
            "seq_1_to_",
            "seq_a_to_3",
            "seq_1_to_99999999999999999999",
            "sequence",
            "t1",
        ] {
            assert_eq!(Sequence::named(not), None, "{not}");
        }
    }

    #[test]
    fn the_query_stops_at_the_last_number() {
        let q = Sequence::named("seq_10_to_1_step_3").unwrap().query();
        assert_eq!(
            q.to_string(),
            "WITH RECURSIVE tutti_seq (seq) AS (SELECT CAST(10 AS UNSIGNED) UNION ALL \
             SELECT seq - 3 FROM tutti_seq WHERE seq > 1) SELECT seq FROM tutti_seq"
        );
    }
}
