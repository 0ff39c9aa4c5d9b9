//! User variables assigned inside a statement: `SELECT @n := @n + 1, a FROM t`.
//!
//! The SQL front-end turns `@v := e` into `tutti_set_var('v', e)` and, in a statement that
//! assigns, each read of `@v` into `tutti_get_var('v', <value before the statement>)`, so
//! that a read sees what earlier rows assigned, row by row, as in MySQL. The values live
//! in a thread-local list: a statement runs on the thread of its session, start to end.
//! The executor clears it before a statement runs ([`clear_assigned`]) and moves the final
//! values into the session afterwards ([`take_assigned`]).

use rusqlite::types::Value;
use rusqlite::{Connection, Result};
use std::cell::RefCell;

use super::VOLATILE;

thread_local! {
    static ASSIGNED: RefCell<Vec<(String, Value)>> = const { RefCell::new(Vec::new()) };
}

/// Forgets the assignments of an earlier statement (or an earlier run of this one).
pub fn clear_assigned() {
    ASSIGNED.with(|a| a.borrow_mut().clear());
}

/// The variables the last statement assigned, with their final values (lower-case names).
pub fn take_assigned() -> Vec<(String, tutti_wsrep::Value)> {
    ASSIGNED.with(|a| {
        a.borrow_mut()
            .drain(..)
            .map(|(name, v)| {
                let v = match v {
                    Value::Null => tutti_wsrep::Value::Null,
                    Value::Integer(i) => tutti_wsrep::Value::Int(i),
                    Value::Real(r) => tutti_wsrep::Value::Real(r),
                    Value::Text(t) => tutti_wsrep::Value::Text(t),
                    Value::Blob(b) => tutti_wsrep::Value::Blob(b),
                };
                (name, v)
            })
            .collect()
    })
}

fn current(name: &str) -> Option<Value> {
    ASSIGNED.with(|a| {
        a.borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    })
}

pub(super) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_set_var", 2, VOLATILE, |ctx| {
        let name = ctx.get::<String>(0)?.to_ascii_lowercase();
        let value: Value = ctx.get(1)?;
        ASSIGNED.with(|a| {
            let mut a = a.borrow_mut();
            match a.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = value.clone(),
                None => a.push((name, value.clone())),
            }
        });
        Ok(value)
    })?;
    c.create_scalar_function("tutti_get_var", 2, VOLATILE, |ctx| {
        let name = ctx.get::<String>(0)?.to_ascii_lowercase();
        match current(&name) {
            Some(v) => Ok(v),
            None => ctx.get::<Value>(1),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_are_seen_by_later_rows_and_kept_after() {
        let c = Connection::open_in_memory().unwrap();
        register(&c).unwrap();
        clear_assigned();
        let mut s = c
            .prepare(
                "SELECT tutti_set_var('n', tutti_get_var('n', 10) + 1) \
                 FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)",
            )
            .unwrap();
        let got: Vec<i64> = s
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(got, [11, 12, 13]);
        assert_eq!(take_assigned(), [("n".into(), tutti_wsrep::Value::Int(13))]);
        assert!(take_assigned().is_empty());
    }
}
