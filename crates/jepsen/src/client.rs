//! A client connection and the one rule that makes histories trustworthy: what an error
//! says about whether the operation took effect.
//!
//! An explicit transaction commits only at `COMMIT`: any error before it means it did not
//! happen (`fail`). At `COMMIT`, a certification failure, deadlock, lock wait timeout or
//! "record changed" (1213, 1205, 1020) is definite too; any other error, a broken
//! connection or a timeout leaves it unknown (`info`) and the connection is dropped. An
//! autocommit write is unknown unless the server refused it with one of those codes (or
//! a duplicate key, or "not ready": 1062, 1047). A connection that cannot even be opened
//! sent nothing (`fail`).

use crate::history::Outcome;
use mysql::prelude::*;
use std::time::Duration;

/// Errors at COMMIT that prove the transaction did not take effect.
const DEFINITE_AT_COMMIT: &[u16] = &[1213, 1205, 1020];
/// Errors of an autocommit write that prove it did not take effect.
const DEFINITE_WRITE: &[u16] = &[1213, 1205, 1020, 1062, 1047];

/// How long a client waits on one statement before calling the outcome unknown.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);

/// Where and as whom a client connects.
#[derive(Clone, Debug)]
pub struct Endpoint {
    /// 127.0.0.1 port.
    pub port: u16,
    /// MySQL user.
    pub user: String,
    /// Its password.
    pub password: String,
    /// Statements run on every new connection (e.g. `SET SESSION ...`).
    pub init: Vec<String>,
}

impl Endpoint {
    /// Client options with bounded connect, read and write times.
    pub fn opts(&self) -> mysql::Opts {
        mysql::OptsBuilder::new()
            .ip_or_hostname(Some("127.0.0.1"))
            .tcp_port(self.port)
            .user(Some(self.user.clone()))
            .pass(Some(self.password.clone()).filter(|p| !p.is_empty()))
            .prefer_socket(false)
            .tcp_connect_timeout(Some(Duration::from_secs(2)))
            .read_timeout(Some(STATEMENT_TIMEOUT))
            .write_timeout(Some(STATEMENT_TIMEOUT))
            .into()
    }

    /// A new connection.
    pub fn connect(&self) -> Result<mysql::Conn, mysql::Error> {
        let mut c = mysql::Conn::new(self.opts())?;
        for sql in &self.init {
            c.query_drop(sql)?;
        }
        Ok(c)
    }
}

/// How an operation ended, with the error in words.
#[derive(Clone, Debug)]
pub struct Done {
    /// Outcome.
    pub outcome: Outcome,
    /// The error, if any.
    pub error: Option<String>,
}

impl Done {
    /// Acknowledged.
    pub fn ok() -> Done {
        Done {
            outcome: Outcome::Ok,
            error: None,
        }
    }
    /// Definitely not applied (also used for a business refusal, e.g. "insufficient funds").
    pub fn fail(why: impl Into<String>) -> Done {
        Done {
            outcome: Outcome::Fail,
            error: Some(why.into()),
        }
    }
}

fn code(e: &mysql::Error) -> Option<u16> {
    match e {
        mysql::Error::MySqlError(e) => Some(e.code),
        _ => None,
    }
}

/// One client: a connection to one node, reopened after any doubt.
pub struct Client {
    endpoint: Endpoint,
    conn: Option<mysql::Conn>,
    sync_wait: u8,
}

impl Client {
    /// A client of `endpoint` (connects lazily).
    pub fn new(endpoint: Endpoint) -> Client {
        Client {
            endpoint,
            conn: None,
            sync_wait: 0,
        }
    }

    fn conn(&mut self) -> Result<&mut mysql::Conn, Done> {
        if self.conn.is_none() {
            let c = self
                .endpoint
                .connect()
                .map_err(|e| Done::fail(format!("connect: {e}")))?;
            self.conn = Some(c);
            self.sync_wait = 0;
        }
        Ok(self.conn.as_mut().expect("just opened"))
    }

    /// Sets `wsrep_sync_wait` on the session (only when it changes).
    fn sync_wait(&mut self, level: u8) -> Result<(), Done> {
        if self.sync_wait == level && self.conn.is_some() {
            return Ok(());
        }
        let c = self.conn()?;
        if let Err(e) = c.query_drop(format!("SET SESSION wsrep_sync_wait = {level}")) {
            self.conn = None;
            return Err(Done::fail(format!("set wsrep_sync_wait: {e}")));
        }
        self.sync_wait = level;
        Ok(())
    }

    /// The connection, opened if needed, with `wsrep_sync_wait` at `level`.
    fn session(&mut self, level: u8) -> Result<&mut mysql::Conn, Done> {
        self.sync_wait(level)?;
        self.conn()
    }

    /// Runs `body` in `START TRANSACTION ... COMMIT` and classifies the outcome; a body
    /// that returns `None` (the client's own decision) is rolled back and fails.
    pub fn txn<T>(
        &mut self,
        sync_wait: u8,
        body: impl FnOnce(&mut mysql::Conn) -> Result<Option<T>, mysql::Error>,
    ) -> (Done, Option<T>) {
        let c = match self.session(sync_wait) {
            Ok(c) => c,
            Err(d) => return (d, None),
        };
        if let Err(e) = c.query_drop("START TRANSACTION") {
            self.conn = None;
            return (Done::fail(format!("begin: {e}")), None);
        }
        let value = match body(c) {
            Ok(Some(v)) => v,
            Ok(None) => {
                if c.query_drop("ROLLBACK").is_err() {
                    self.conn = None;
                }
                return (Done::fail("rolled back by the client"), None);
            }
            Err(e) => {
                if code(&e).is_none() || c.query_drop("ROLLBACK").is_err() {
                    self.conn = None;
                }
                return (Done::fail(e.to_string()), None);
            }
        };
        match c.query_drop("COMMIT") {
            Ok(()) => (Done::ok(), Some(value)),
            Err(e) if code(&e).is_some_and(|c| DEFINITE_AT_COMMIT.contains(&c)) => {
                (Done::fail(e.to_string()), None)
            }
            Err(e) => {
                self.conn = None;
                (
                    Done {
                        outcome: Outcome::Info,
                        error: Some(format!("commit: {e}")),
                    },
                    Some(value),
                )
            }
        }
    }

    /// Runs one autocommit write.
    pub fn write(
        &mut self,
        body: impl FnOnce(&mut mysql::Conn) -> Result<(), mysql::Error>,
    ) -> Done {
        let c = match self.session(0) {
            Ok(c) => c,
            Err(d) => return d,
        };
        match body(c) {
            Ok(()) => Done::ok(),
            Err(e) if code(&e).is_some_and(|c| DEFINITE_WRITE.contains(&c)) => {
                Done::fail(e.to_string())
            }
            Err(e) => {
                self.conn = None;
                Done {
                    outcome: Outcome::Info,
                    error: Some(e.to_string()),
                }
            }
        }
    }

    /// Runs one read (no effect, so any error is a failure) at `sync_wait`.
    pub fn read<T>(
        &mut self,
        sync_wait: u8,
        body: impl FnOnce(&mut mysql::Conn) -> Result<T, mysql::Error>,
    ) -> (Done, Option<T>) {
        let c = match self.session(sync_wait) {
            Ok(c) => c,
            Err(d) => return (d, None),
        };
        match body(c) {
            Ok(v) => (Done::ok(), Some(v)),
            Err(e) => {
                if code(&e).is_none() {
                    self.conn = None;
                }
                (Done::fail(e.to_string()), None)
            }
        }
    }
}
