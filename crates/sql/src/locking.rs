//! Locking reads: `SELECT ... FOR UPDATE`, `FOR SHARE`, `LOCK IN SHARE MODE`.
//!
//! SQLite has no row locks, so the executor locks the rows itself, by their certification
//! keys, as it does for the rows a write changes. It needs to know which rows the SELECT
//! reads: this module builds a second query from the rewritten one that returns the
//! primary-key values of the rows of every table in its FROM clause (same joins, same
//! WHERE, same ORDER BY and LIMIT unless the SELECT groups rows, in which case every row
//! that passes WHERE is locked, as InnoDB locks every row it reads). What cannot be mapped
//! to table rows (a UNION, a derived table, a CTE, a view) and `SKIP LOCKED` are refused
//! with a clear error rather than locking too little.

use sqlparser::ast::{
    Expr, GroupByExpr, LockClause, LockType, NonBlock, ObjectNamePart, Query, SelectItem, SetExpr,
    TableFactor, TableWithJoins,
};

use crate::names::quoted;
use crate::{Env, RowLock, SqlError, TableName};

/// The locking clause of a SELECT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LockSpec {
    exclusive: bool,
    nowait: bool,
}

impl LockSpec {
    /// `LOCK IN SHARE MODE`.
    pub fn share() -> LockSpec {
        LockSpec {
            exclusive: false,
            nowait: false,
        }
    }

    /// The clauses of one query (`FOR UPDATE OF a FOR SHARE OF b` locks the stronger way).
    pub fn of(locks: &[LockClause]) -> Result<LockSpec, SqlError> {
        let mut spec = LockSpec::share();
        for l in locks {
            if l.lock_type == LockType::Update {
                spec.exclusive = true;
            }
            match l.nonblock {
                Some(NonBlock::Nowait) => spec.nowait = true,
                Some(NonBlock::SkipLocked) => {
                    return Err(SqlError::Unsupported("SKIP LOCKED".into()))
                }
                None => {}
            }
        }
        Ok(spec)
    }

    /// Two clauses in one statement (a subquery's and the outer one's).
    pub fn merge(self, other: LockSpec) -> LockSpec {
        LockSpec {
            exclusive: self.exclusive || other.exclusive,
            nowait: self.nowait || other.nowait,
        }
    }
}

fn unsupported(what: &str) -> SqlError {
    SqlError::Unsupported(format!(
        "a locking read (FOR UPDATE / FOR SHARE) over {what}"
    ))
}

/// The row lock of a rewritten locking SELECT.
pub(crate) fn row_lock(env: &dyn Env, q: &Query, spec: LockSpec) -> Result<RowLock, SqlError> {
    let mut keys = q.clone();
    keys.locks.clear();
    let SetExpr::Select(select) = keys.body.as_mut() else {
        return Err(unsupported("UNION, INTERSECT or EXCEPT"));
    };
    let mut tables = Vec::new();
    let mut projection = Vec::new();
    for twj in &select.from {
        for factor in factors(twj) {
            let TableFactor::Table { name, alias, .. } = factor else {
                return Err(unsupported("a derived table"));
            };
            let sqlite_name = match name.0.as_slice() {
                [ObjectNamePart::Identifier(i)] => i.value.clone(),
                _ => return Err(unsupported(&name.to_string())),
            };
            let table = TableName::from_sqlite_name(&sqlite_name)
                .ok_or_else(|| unsupported(&format!("{sqlite_name} (a CTE)")))?;
            let info = env
                .table(&table)
                .ok_or_else(|| unsupported(&format!("{table} (a view)")))?;
            let mut pk_cols: Vec<_> = info.columns.iter().filter(|c| c.pk > 0).collect();
            pk_cols.sort_by_key(|c| c.pk);
            let mut pk: Vec<String> = pk_cols.iter().map(|c| c.name.clone()).collect();
            if pk.is_empty() {
                // A table without PRIMARY KEY: its rows are keyed by the invisible key.
                pk.push(crate::INVISIBLE_KEY.to_string());
            }
            let qualifier = alias
                .as_ref()
                .map(|a| a.name.clone())
                .unwrap_or_else(|| quoted(sqlite_name.clone()));
            for col in &pk {
                projection.push(SelectItem::UnnamedExpr(Expr::CompoundIdentifier(vec![
                    qualifier.clone(),
                    quoted(col.clone()),
                ])));
            }
            tables.push((table, pk.len()));
        }
    }
    if tables.is_empty() {
        return Err(unsupported("no table"));
    }
    let grouped = !matches!(&select.group_by, GroupByExpr::Expressions(e, _) if e.is_empty())
        || select.having.is_some()
        || select.distinct.is_some();
    select.projection = projection;
    select.group_by = GroupByExpr::Expressions(vec![], vec![]);
    select.having = None;
    select.distinct = None;
    if grouped {
        keys.order_by = None;
        keys.limit_clause = None;
    }
    Ok(RowLock {
        exclusive: spec.exclusive,
        nowait: spec.nowait,
        keys_sql: keys.to_string(),
        tables,
    })
}

/// The table factors of a FROM item: the relation, then every join's.
fn factors(twj: &TableWithJoins) -> Vec<&TableFactor> {
    let mut out = Vec::new();
    collect(&twj.relation, &mut out);
    for j in &twj.joins {
        collect(&j.relation, &mut out);
    }
    out
}

fn collect<'a>(f: &'a TableFactor, out: &mut Vec<&'a TableFactor>) {
    match f {
        TableFactor::NestedJoin {
            table_with_joins, ..
        } => out.extend(factors(table_with_joins)),
        other => out.push(other),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::q;

    #[test]
    fn locking_reads_know_their_rows() {
        let r = q("SELECT a FROM t WHERE a > 1 ORDER BY a LIMIT 2 FOR UPDATE");
        let l = r.row_lock.expect("row lock");
        assert!(l.exclusive && !l.nowait);
        assert_eq!(
            l.keys_sql,
            r#"SELECT "t"."id" FROM "app.t" AS "t" WHERE "a" > 1 ORDER BY "a" LIMIT 2"#
        );
        assert_eq!(l.tables.len(), 1);
        assert!(r.sql.find("FOR UPDATE").is_none());
        let l = q("SELECT * FROM t LOCK IN SHARE MODE").row_lock.unwrap();
        assert!(!l.exclusive);
        let l = q("SELECT count(*) FROM t JOIN u ON t.id = u.id WHERE t.a = 1 GROUP BY t.a LIMIT 1 FOR SHARE NOWAIT")
            .row_lock
            .unwrap();
        assert!(!l.exclusive && l.nowait);
        assert_eq!(
            l.keys_sql,
            r#"SELECT "t"."id", "u"."id" FROM "app.t" AS "t" JOIN "app.u" AS "u" ON "t"."id" = "u"."id" WHERE "t"."a" = 1"#
        );
        assert_eq!(q("SELECT a FROM t").row_lock, None);
        assert_eq!(q("SELECT a FROM t").reads.unwrap().len(), 1);
    }

    #[test]
    fn what_cannot_be_locked_is_refused() {
        use crate::tests::err;
        for sql in [
            "SELECT a FROM t UNION SELECT a FROM u FOR UPDATE",
            "SELECT * FROM (SELECT a FROM t) x FOR UPDATE",
            "SELECT a FROM t FOR UPDATE SKIP LOCKED",
        ] {
            let e = err(sql);
            assert!(
                e.to_string().contains("tutti does not support"),
                "{sql}: {e}"
            );
        }
    }
}
