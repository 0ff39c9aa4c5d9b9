//! Strings that no column and no `COLLATE` place (literals, user variables, computed
//! strings) compare in the connection's collation, `collation_connection`, which
//! `SET NAMES cs [COLLATE c]` sets: `'a' = 'A'` is 1 in `utf8mb4_general_ci`, 0 in
//! `utf8mb4_bin` and under `SET NAMES binary` (where `'a' = 'a '` is 0 too, bytes have no
//! padding), `'ß' = 'ss'` is 1 in `utf8mb4_unicode_ci`.
//!
//! The typing functions that give such a comparison its collation are free functions of an
//! expression; rather than thread the session through every one of them, the rewriter
//! enters a [`Scope`] for the statement it rewrites and they read [`sqlite`] — the SQLite
//! collation (see `columns::text_collation`) the connection's maps to. A scope restores the
//! outer one when it ends, so a rewrite within a rewrite sees the same. The scope also
//! holds the connection's character set when it is a single-byte one ([`single_byte`]),
//! in which MariaDB holds the literals the client sends.

use std::cell::Cell;
use tutti_wsrep::charsets::SingleByte;

use crate::columns::GENERAL_CI;
use crate::Env;

/// SQLite's own byte-wise collation: the `binary` character set's.
const BYTES: &str = "BINARY";

thread_local! {
    static CURRENT: Cell<&'static str> = const { Cell::new(GENERAL_CI) };
    static SET: Cell<Option<SingleByte>> = const { Cell::new(None) };
}

/// The connection's collation for as long as the rewrite of one statement lasts.
pub(crate) struct Scope {
    outer: &'static str,
    outer_set: Option<SingleByte>,
}

impl Scope {
    /// Enters the collation of `env`'s connection.
    pub(crate) fn enter(env: &dyn Env) -> Self {
        let mysql = crate::derivation::connection_collation(env);
        let set = SingleByte::named(crate::derivation::charset_of(&mysql));
        Scope {
            outer: CURRENT.replace(sqlite_of(&mysql)),
            outer_set: SET.replace(set),
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        CURRENT.set(self.outer);
        SET.set(self.outer_set);
    }
}

/// The connection's character set, when it is a single-byte one (latin1, cp1251, ...).
pub(crate) fn single_byte() -> Option<SingleByte> {
    SET.get()
}

/// The SQLite collation text of MySQL collation `mysql` compares in (see
/// `columns::text_collation`; [`BYTES`] for the `binary` set).
pub(crate) fn sqlite_of(mysql: &str) -> &'static str {
    crate::columns::text_collation(mysql).unwrap_or(BYTES)
}

/// The SQLite collation strings compare in where nothing else decides.
pub(crate) fn sqlite() -> &'static str {
    CURRENT.get()
}

/// Whether SQLite collation `c` compares bytes (`_bin`, or the `binary` set's).
pub(crate) fn compares_bytes(c: &str) -> bool {
    c == BYTES || c.eq_ignore_ascii_case(crate::columns::BIN_PAD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testenv::TestEnv;
    use crate::Value;

    #[test]
    fn a_scope_sets_and_restores_the_collation() {
        assert_eq!(sqlite(), GENERAL_CI);
        let named =
            |c: &str| TestEnv::new().with_var("collation_connection", Value::Text(c.into()));
        {
            let _outer = Scope::enter(&named("utf8mb4_bin"));
            assert_eq!(sqlite(), crate::columns::BIN_PAD);
            assert!(compares_bytes(sqlite()));
            {
                let _inner = Scope::enter(&named("latin1_swedish_ci"));
                assert_eq!(single_byte(), SingleByte::named("latin1"));
                let _binary = Scope::enter(&named("binary"));
                assert_eq!(sqlite(), BYTES);
                assert_eq!(single_byte(), None);
            }
            assert_eq!(sqlite(), crate::columns::BIN_PAD);
        }
        assert_eq!(sqlite(), GENERAL_CI);
        assert_eq!(single_byte(), None);
        assert!(!compares_bytes(sqlite()));
    }
}
