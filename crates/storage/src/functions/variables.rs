//! User variables assigned inside a statement: `SELECT @n := @n + 1, a FROM t`.
//!
//! The SQL front-end turns `@v := e` into `tutti_set_var('v', e)` and, in a statement that
//! assigns, each read of `@v` into `tutti_get_var('v', <value before the statement>)`, so
//! that a read sees what earlier rows assigned, row by row, as in MySQL. The values live
//! in a thread-local list: a statement runs on the thread of its session, start to end.
//! The executor clears it before a statement runs ([`clear_assigned`]) and moves the final
//! values into the session afterwards ([`take_assigned`]). `tutti_set_var('v', digits, 1)`
//! assigns a DECIMAL's digits, which the session keeps as a DECIMAL.

use rusqlite::types::Value;
use rusqlite::{Connection, Result};
use std::cell::RefCell;

use super::VOLATILE;

/// A variable a statement assigned.
#[derive(Clone, Debug, PartialEq)]
pub struct Assigned {
    /// Its name, lower case.
    pub name: String,
    /// Its final value.
    pub value: tutti_wsrep::Value,
    /// Whether the value is a DECIMAL's digits.
    pub decimal: bool,
}

thread_local! {
    static ASSIGNED: RefCell<Vec<(String, Value, bool)>> = const { RefCell::new(Vec::new()) };
}

/// Forgets the assignments of an earlier statement (or an earlier run of this one).
pub fn clear_assigned() {
    ASSIGNED.with(|a| a.borrow_mut().clear());
}

/// The variables the last statement assigned, with their final values.
pub fn take_assigned() -> Vec<Assigned> {
    ASSIGNED.with(|a| {
        a.borrow_mut()
            .drain(..)
            .map(|(name, v, decimal)| {
                let v = match v {
                    Value::Null => tutti_wsrep::Value::Null,
                    Value::Integer(i) => tutti_wsrep::Value::Int(i),
                    Value::Real(r) => tutti_wsrep::Value::Real(r),
                    Value::Text(t) => tutti_wsrep::Value::Text(t),
                    Value::Blob(b) => tutti_wsrep::Value::Blob(b),
                };
                Assigned {
                    name,
                    value: v,
                    decimal,
                }
            })
            .collect()
    })
}

fn current(name: &str) -> Option<Value> {
    ASSIGNED.with(|a| {
        a.borrow()
            .iter()
            .find(|(n, ..)| n == name)
            .map(|(_, v, _)| v.clone())
    })
}

pub(super) fn register(c: &Connection) -> Result<()> {
    for args in [2, 3] {
        c.create_scalar_function("tutti_set_var", args, VOLATILE, |ctx| {
            let name = ctx.get::<String>(0)?.to_ascii_lowercase();
            let value: Value = ctx.get(1)?;
            let decimal = ctx.len() > 2 && !matches!(value, Value::Null);
            ASSIGNED.with(|a| {
                let mut a = a.borrow_mut();
                match a.iter_mut().find(|(n, ..)| *n == name) {
                    Some(slot) => (slot.1, slot.2) = (value.clone(), decimal),
                    None => a.push((name, value.clone(), decimal)),
                }
            });
            Ok(value)
        })?;
    }
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
        let n = Assigned {
            name: "n".into(),
            value: tutti_wsrep::Value::Int(13),
            decimal: false,
        };
        assert_eq!(take_assigned(), [n]);
        assert!(take_assigned().is_empty());
    }
}
