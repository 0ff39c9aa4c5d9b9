//! Reader connections: a small pool so read-only statements run concurrently.
//!
//! WAL mode lets readers proceed while the writer commits. A reader is checked out for one
//! statement, or for a whole read-only transaction (one snapshot), and returned on drop.
//! Readers are `query_only`: nothing can write through them.
//!
//! A reader's cached prepared statements are dropped when the schema changed since it last
//! ran one: SQLite re-prepares a stale statement only when it reads a table, so one over a
//! view of a CTE alone (`WITH c(a) AS (SELECT 1) SELECT * FROM c`) would keep answering
//! from the view's old definition.

use parking_lot::Mutex;
use rusqlite::Connection;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::Arc;

use crate::StorageError;

/// How many idle readers are kept open.
const MAX_IDLE: usize = 32;

pub(crate) struct Pool {
    path: PathBuf,
    /// Idle readers, each with the schema epoch its statement cache was made under.
    idle: Mutex<Vec<(Connection, u64)>>,
}

impl Pool {
    pub(crate) fn new(path: PathBuf) -> Pool {
        Pool {
            path,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// A reader whose cached statements were prepared under `schema_epoch`.
    pub(crate) fn get(self: &Arc<Self>, schema_epoch: u64) -> Result<Reader, StorageError> {
        let conn = match self.idle.lock().pop() {
            Some((c, epoch)) => {
                if epoch != schema_epoch {
                    c.flush_prepared_statement_cache();
                }
                c
            }
            None => {
                let c = crate::open_connection(&self.path)?;
                c.execute_batch("PRAGMA query_only = ON")?;
                crate::autoinc::register_reader_stub(&c)?;
                c
            }
        };
        Ok(Reader {
            pool: self.clone(),
            conn: Some(conn),
            schema_epoch,
        })
    }
}

/// A pooled read-only connection (owned, so a session can keep it across statements).
pub struct Reader {
    pool: Arc<Pool>,
    conn: Option<Connection>,
    schema_epoch: u64,
}

impl Deref for Reader {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn.as_ref().expect("reader present until drop")
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take() {
            // A reader given back inside a transaction would pin an old snapshot.
            if !c.is_autocommit() {
                let _ = c.execute_batch("ROLLBACK");
            }
            let mut idle = self.pool.idle.lock();
            if idle.len() < MAX_IDLE {
                idle.push((c, self.schema_epoch));
            }
        }
    }
}
