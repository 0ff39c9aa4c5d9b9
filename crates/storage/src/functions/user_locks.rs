//! MySQL's named user locks — `GET_LOCK(name, timeout)`, `RELEASE_LOCK(name)`,
//! `IS_FREE_LOCK(name)`, `IS_USED_LOCK(name)`, `RELEASE_ALL_LOCKS()` — and `SLEEP(n)`.
//!
//! A lock belongs to a connection: it is held until released or until the connection ends
//! (the executor calls [`release_all_locks`]), and a connection may take the same lock
//! several times (released as often). Locks are local to the node, as in Galera, which does
//! not replicate them either: two nodes can hand out the same name.
//!
//! The functions wait, so they only run on reader connections (SELECT, DO, SET outside a
//! transaction that wrote). On the writer, which also applies the cluster's write-sets, a
//! wait would stall replication: there they fail with [`WAIT_ON_WRITER`] (mapped to 1235 by
//! the executor).
//! The executor names the connection running a statement with [`set_current_connection`]
//! (a statement runs on its session's thread from start to end).

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Condvar, LazyLock, Mutex};
use std::time::{Duration, Instant};

use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error, Result};

use super::{math, opt_text, VOLATILE};

/// The message of a waiting function called inside a write statement.
pub const WAIT_ON_WRITER: &str = "SLEEP and GET_LOCK inside a statement that writes";

thread_local! {
    static CONNECTION: Cell<u64> = const { Cell::new(0) };
}

/// Names the connection whose statement runs on this thread.
pub fn set_current_connection(id: u64) {
    CONNECTION.with(|c| c.set(id));
}

fn current() -> u64 {
    CONNECTION.with(|c| c.get())
}

/// A held lock: its connection and how many times it took it.
struct Held {
    owner: u64,
    count: u32,
}

/// Every held lock by name; waiters sleep on the condition variable.
static LOCKS: LazyLock<(Mutex<HashMap<String, Held>>, Condvar)> =
    LazyLock::new(|| (Mutex::new(HashMap::new()), Condvar::new()));

fn table() -> std::sync::MutexGuard<'static, HashMap<String, Held>> {
    LOCKS.0.lock().unwrap_or_else(|p| p.into_inner())
}

/// Releases every lock of a connection (RELEASE_ALL_LOCKS, or the connection ended);
/// returns how many times they had been taken.
pub fn release_all_locks(connection: u64) -> u64 {
    let mut locks = table();
    let mut released = 0;
    locks.retain(|_, h| {
        let mine = h.owner == connection;
        if mine {
            released += u64::from(h.count);
        }
        !mine
    });
    LOCKS.1.notify_all();
    released
}

/// The lock name argument: None (the function's NULL) for NULL or an empty name. Names
/// are case-sensitive and of any length, as in MariaDB 10.11.
fn lock_name(ctx: &Context<'_>) -> Option<String> {
    opt_text(ctx, 0).filter(|n| !n.is_empty())
}

/// `GET_LOCK(name, timeout)`: 1 once taken, 0 after `timeout` seconds (negative: forever).
fn get_lock(name: String, timeout: Option<f64>) -> Option<i64> {
    let me = current();
    let deadline = match timeout {
        Some(t) if t >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(t.min(1e9))),
        _ => None,
    };
    let mut locks = table();
    loop {
        match locks.get_mut(&name) {
            None => {
                locks.insert(
                    name,
                    Held {
                        owner: me,
                        count: 1,
                    },
                );
                return Some(1);
            }
            Some(h) if h.owner == me => {
                h.count += 1;
                return Some(1);
            }
            Some(_) => {}
        }
        let wait = match deadline {
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => left,
                _ => return Some(0),
            },
            None => Duration::from_secs(3600),
        };
        locks = LOCKS
            .1
            .wait_timeout(locks, wait)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

/// `RELEASE_LOCK(name)`: 1 released, 0 held by another connection, NULL not held.
fn release_lock(name: &str) -> Option<i64> {
    let mut locks = table();
    let h = locks.get_mut(name)?;
    if h.owner != current() {
        return Some(0);
    }
    h.count -= 1;
    if h.count == 0 {
        locks.remove(name);
        LOCKS.1.notify_all();
    }
    Some(1)
}

/// `SLEEP(n)`: waits n seconds, returns 0.
fn sleep(seconds: Option<f64>) -> Option<i64> {
    let s = seconds?;
    if s > 0.0 {
        std::thread::sleep(Duration::from_secs_f64(s.min(1e9)));
    }
    Some(0)
}

fn seconds(ctx: &Context<'_>, i: usize) -> Option<f64> {
    match ctx.get_raw(i) {
        ValueRef::Null => None,
        _ => math::num(ctx, i).map(math::Num::f64),
    }
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("get_lock", 2, VOLATILE, |ctx| {
        let timeout = seconds(ctx, 1);
        Ok(lock_name(ctx).and_then(|n| get_lock(n, timeout)))
    })?;
    c.create_scalar_function("release_lock", 1, VOLATILE, |ctx| {
        Ok(lock_name(ctx).and_then(|n| release_lock(&n)))
    })?;
    c.create_scalar_function("is_free_lock", 1, VOLATILE, |ctx| {
        Ok(lock_name(ctx).map(|n| i64::from(!table().contains_key(&n))))
    })?;
    c.create_scalar_function("is_used_lock", 1, VOLATILE, |ctx| {
        Ok(lock_name(ctx).and_then(|n| table().get(&n).map(|h| h.owner as i64)))
    })?;
    c.create_scalar_function("release_all_locks", 0, VOLATILE, |_| {
        Ok(release_all_locks(current()) as i64)
    })?;
    c.create_scalar_function("sleep", 1, VOLATILE, |ctx| Ok(sleep(seconds(ctx, 0))))
}

/// On the writer the waiting functions refuse (see the module doc).
pub(crate) fn register_writer(c: &Connection) -> Result<()> {
    for (name, args) in [("get_lock", 2), ("sleep", 1)] {
        c.create_scalar_function(name, args, VOLATILE, |_| -> Result<i64> {
            Err(Error::UserFunctionError(WAIT_ON_WRITER.into()))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_belong_to_connections() {
        set_current_connection(101);
        assert_eq!(get_lock("a".into(), Some(0.0)), Some(1));
        assert_eq!(get_lock("a".into(), Some(0.0)), Some(1), "taken twice");
        let other = std::thread::spawn(|| {
            set_current_connection(102);
            let started = Instant::now();
            let r = get_lock("a".into(), Some(0.2));
            (r, started.elapsed(), release_lock("a"))
        })
        .join()
        .unwrap();
        assert_eq!(other.0, Some(0), "timed out");
        assert!(
            other.1 >= Duration::from_millis(200),
            "waited {:?}",
            other.1
        );
        assert_eq!(other.2, Some(0), "held by another connection");
        assert_eq!(release_lock("a"), Some(1));
        assert_eq!(release_lock("a"), Some(1));
        assert_eq!(release_lock("a"), None, "no longer held");
        // A waiter gets the lock as soon as its holder's connection ends.
        assert_eq!(get_lock("b".into(), Some(0.0)), Some(1));
        let waiter = std::thread::spawn(|| {
            set_current_connection(103);
            get_lock("b".into(), Some(30.0))
        });
        assert_eq!(release_all_locks(101), 1);
        assert_eq!(waiter.join().unwrap(), Some(1));
        assert_eq!(release_all_locks(103), 1);
    }
}
