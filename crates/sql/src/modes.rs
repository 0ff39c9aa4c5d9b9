//! The session's `sql_mode` as the translator reads it: the modes that change how a
//! statement is read (`ANSI_QUOTES`, `PIPES_AS_CONCAT`, `NO_BACKSLASH_ESCAPES`, see
//! `lexer`), what it means (`ONLY_FULL_GROUP_BY`, `REAL_AS_FLOAT`) or how values are stored
//! (strictness and zero dates, see `stored`). The executor keeps the variable normalised as
//! MariaDB shows it (upper-case names, combination modes expanded), so a mode is one
//! comma-separated element.

use crate::{Env, Value, VarScope};

/// The session's `sql_mode`.
pub struct SqlMode(Option<String>);

impl SqlMode {
    /// Reads it from the session (None: the variable is not there, as in unit tests).
    pub fn of(env: &dyn Env) -> SqlMode {
        SqlMode(match env.system_variable(VarScope::Session, "sql_mode") {
            Some(Value::Text(mode)) => Some(mode.to_ascii_uppercase()),
            _ => None,
        })
    }

    /// True when the variable is known.
    pub fn is_known(&self) -> bool {
        self.0.is_some()
    }

    /// True when `mode` (upper case) is set.
    pub fn has(&self, mode: &str) -> bool {
        self.0
            .as_deref()
            .is_some_and(|m| m.split(',').any(|x| x.trim() == mode))
    }
}
