//! The conditions (warnings and notes) a statement raises while SQLite runs it.
//!
//! MariaDB reports what it adjusted instead of refusing — a value clamped outside strict
//! mode, a string that is read as the number it starts with, a division by zero that gave
//! NULL — as warnings the client sees in the OK packet's count and in `SHOW WARNINGS`.
//! tutti's MySQL functions run inside SQLite, on the thread that runs the statement, so
//! they record them here, per thread; the executor clears the list before a statement and
//! takes it after.

use rusqlite::Error;
use std::cell::RefCell;

/// How serious a condition is (`SHOW WARNINGS`' `Level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `Note`: something expected happened (`DROP TABLE IF EXISTS` of a missing table).
    Note,
    /// `Warning`: a value was adjusted.
    Warning,
    /// `Error`: the statement failed.
    Error,
}

impl Level {
    /// The word `SHOW WARNINGS` shows.
    pub fn word(self) -> &'static str {
        match self {
            Level::Note => "Note",
            Level::Warning => "Warning",
            Level::Error => "Error",
        }
    }
}

/// One condition: level, MySQL error code and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// Its level.
    pub level: Level,
    /// MySQL's code (1265, 1292, ...).
    pub code: u16,
    /// MySQL's text.
    pub message: String,
}

/// At most this many conditions are kept per statement (MariaDB's `max_error_count`
/// default); the count goes on.
pub const MAX_KEPT: usize = 64;

#[derive(Default)]
struct Raised {
    kept: Vec<Condition>,
    count: usize,
}

thread_local! {
    static RAISED: RefCell<Raised> = RefCell::default();
}

/// Records a condition of the statement running on this thread.
pub fn raise(level: Level, code: u16, message: impl Into<String>) {
    RAISED.with(|r| {
        let mut r = r.borrow_mut();
        r.count += 1;
        if r.kept.len() < MAX_KEPT {
            r.kept.push(Condition {
                level,
                code,
                message: message.into(),
            });
        }
    });
}

/// Records a warning.
pub fn warn(code: u16, message: impl Into<String>) {
    raise(Level::Warning, code, message);
}

/// Records a warning MariaDB gives once per statement (not once per row): nothing when
/// the statement already raised the same one.
pub(crate) fn warn_once(code: u16, message: impl Into<String>) {
    let message = message.into();
    let raised = RAISED.with(|r| {
        r.borrow()
            .kept
            .iter()
            .any(|c| c.code == code && c.message == message)
    });
    if !raised {
        warn(code, message);
    }
}

/// Records `e` (a function's error, whose text is MySQL's) as a warning with `code`: what
/// strict mode refuses, MariaDB otherwise adjusts and reports so.
pub(crate) fn warn_error(code: u16, e: &Error) {
    match e {
        Error::UserFunctionError(m) => warn(code, m.to_string()),
        other => warn(code, other.to_string()),
    }
}

/// Forgets what this thread recorded (a statement starts, or runs again).
pub fn clear_conditions() {
    RAISED.with(|r| *r.borrow_mut() = Raised::default());
}

/// Takes what this thread recorded since [`clear_conditions`]: the kept conditions and
/// how many were raised in all.
pub fn take_conditions() -> (Vec<Condition>, usize) {
    RAISED.with(|r| {
        let r = std::mem::take(&mut *r.borrow_mut());
        (r.kept, r.count)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_kept_per_thread_up_to_the_limit() {
        clear_conditions();
        for i in 0..70 {
            warn(1265, format!("w{i}"));
        }
        std::thread::spawn(|| assert_eq!(take_conditions().1, 0))
            .join()
            .unwrap();
        let (kept, count) = take_conditions();
        assert_eq!((kept.len(), count), (MAX_KEPT, 70));
        assert_eq!(kept[0].message, "w0");
        assert_eq!(take_conditions().1, 0);
        warn_once(1364, "a");
        warn_once(1364, "a");
        warn_once(1364, "b");
        assert_eq!(take_conditions().1, 2);
    }
}
