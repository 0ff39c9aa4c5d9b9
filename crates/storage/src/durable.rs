//! How far the database is durable: the applied seqno SQLite has fsynced.
//!
//! With `synchronous=NORMAL` in WAL mode ([`Durability::Normal`]) a commit is written to
//! the WAL but not fsynced: SQLite fsyncs the WAL only when it checkpoints. So the seqno
//! applied in memory (and in the OS cache) runs ahead of what survives a power loss, and
//! anything that throws away history the database might need again (gcache purging) must
//! go by the *durable* one, or a power loss can leave a database behind the oldest entry
//! its node still holds: unrecoverable without a full state transfer.
//!
//! SQLite's auto-checkpoint is replaced by the same check run right after each applied
//! batch (a PASSIVE checkpoint once the WAL holds [`CHECKPOINT_PAGES`] pages, SQLite's
//! default), because its result tells when everything committed so far is durable: a
//! complete checkpoint (every WAL frame in the database file) has fsynced the WAL, or found
//! it fully copied by an earlier one, and fsynced the database file. A partial one (readers
//! hold old snapshots) may not have synced anything, so it does not count. At open, one
//! checkpoint makes whatever the database holds durable: a crash without power loss can
//! leave committed but unsynced WAL frames in the OS cache. With [`Durability::Full`] every
//! commit is fsynced: durable is applied.

use rusqlite::wal::CheckpointMode;
use rusqlite::Connection;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Arc;
use tutti_wsrep::Seqno;

use crate::{Durability, StorageError};

/// WAL pages after which a checkpoint runs (SQLite's `wal_autocheckpoint` default).
pub const CHECKPOINT_PAGES: i32 = 1000;

/// The durable applied seqno and what it takes to move it.
pub(crate) struct Durable {
    mode: Durability,
    /// Pages in the WAL after the last commit (set by the WAL hook).
    wal_pages: Arc<AtomicI32>,
    /// The applied seqno known fsynced.
    seqno: AtomicU64,
    /// Test-only: report the applied seqno as durable (what purging used to trust).
    trust_applied: AtomicBool,
}

/// Runs a PASSIVE checkpoint; true when it was complete.
fn checkpoint(conn: &Connection) -> bool {
    match conn.wal_checkpoint_v2(Some("main"), CheckpointMode::PASSIVE) {
        Ok((log, done)) => log >= 0 && log == done,
        Err(e) => {
            tracing::warn!("checkpoint failed: {e}");
            false
        }
    }
}

impl Durable {
    /// Sets up tracking on the writer connection, whose database holds `applied`.
    pub(crate) fn install(
        conn: &mut Connection,
        mode: Durability,
        applied: Seqno,
    ) -> Result<Durable, StorageError> {
        let wal_pages = Arc::new(AtomicI32::new(0));
        let mut seqno = applied;
        if mode == Durability::Normal {
            let pages = wal_pages.clone();
            conn.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, n| {
                pages.store(n, Ordering::Relaxed);
                Ok(())
            }))?;
            if !checkpoint(conn) {
                seqno = 0;
            }
        }
        Ok(Durable {
            mode,
            wal_pages,
            seqno: AtomicU64::new(seqno),
            trust_applied: AtomicBool::new(false),
        })
    }

    /// After a batch committed (`applied` is now stored): checkpoint when the WAL is
    /// large, and move the durable seqno when that made everything durable.
    pub(crate) fn after_commit(&self, conn: &Connection, applied: Seqno) {
        match self.mode {
            Durability::Full => self.seqno.store(applied, Ordering::Release),
            Durability::Normal => {
                if self.wal_pages.load(Ordering::Relaxed) >= CHECKPOINT_PAGES && checkpoint(conn) {
                    self.wal_pages.store(0, Ordering::Relaxed);
                    self.seqno.store(applied, Ordering::Release);
                }
            }
        }
    }

    /// The applied seqno known to survive a power loss (`applied` when the test switch is
    /// on).
    pub(crate) fn get(&self, applied: Seqno) -> Seqno {
        if self.trust_applied.load(Ordering::Relaxed) {
            applied
        } else {
            self.seqno.load(Ordering::Acquire).min(applied)
        }
    }

    /// Test-only switch, see [`crate::Storage::assume_applied_is_durable`].
    pub(crate) fn trust_applied(&self, on: bool) {
        self.trust_applied.store(on, Ordering::Relaxed);
    }
}
