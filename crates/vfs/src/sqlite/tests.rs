use crate::power_loss::{Cut, PowerLoss};
use rusqlite::Connection;
use std::path::Path;

fn open(path: &Path, sync: &str) -> Connection {
    let c = Connection::open(path).unwrap();
    let mode: String = c
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    c.execute_batch(&format!(
        "PRAGMA synchronous={sync}; PRAGMA wal_autocheckpoint=0;
         CREATE TABLE IF NOT EXISTS t(k INTEGER PRIMARY KEY, v BLOB)"
    ))
    .unwrap();
    c
}

fn count(c: &Connection) -> i64 {
    c.query_row("SELECT count(*) FROM t", [], |r| r.get(0))
        .unwrap()
}

fn insert(c: &Connection, from: i64, n: i64) {
    for k in from..from + n {
        c.execute("INSERT INTO t VALUES (?1, zeroblob(3000))", [k])
            .unwrap();
    }
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf, PowerLoss) {
    super::register();
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("node");
    std::fs::create_dir(&root).unwrap();
    let pl = PowerLoss::install(&root).unwrap();
    (base, root, pl)
}

#[test]
fn normal_sync_loses_commits_since_the_last_checkpoint_and_recovers() {
    let (_b, root, pl) = setup();
    let db = root.join("x.db");
    let c = open(&db, "NORMAL");
    insert(&c, 0, 20);
    let (log, done) = c
        .wal_checkpoint_v2(None::<&str>, rusqlite::wal::CheckpointMode::PASSIVE)
        .unwrap();
    assert_eq!(log, done, "a complete checkpoint");
    insert(&c, 20, 30);
    assert_eq!(count(&c), 50);
    assert!(!pl.pending().writes.is_empty(), "the WAL is not synced");
    pl.cut(Cut::Everything).unwrap();
    // The old connection's process is dead: closing it writes nothing.
    drop(c);
    let c = open(&db, "NORMAL");
    assert_eq!(count(&c), 20, "what the checkpoint synced, nothing more");
    let ok: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    insert(&c, 20, 5);
    assert_eq!(count(&c), 25);
}

#[test]
fn full_sync_loses_nothing_and_random_cuts_always_recover() {
    let (_b, root, pl) = setup();
    let db = root.join("x.db");
    let c = open(&db, "FULL");
    insert(&c, 0, 10);
    pl.cut(Cut::RandomPrefix(3)).unwrap();
    drop(c);
    let mut before = count(&open(&db, "FULL"));
    assert_eq!(before, 10);
    for seed in 0..12 {
        let c = open(&db, "NORMAL");
        insert(&c, 1000 + seed * 100, 15);
        pl.cut(Cut::RandomPrefix(seed as u64)).unwrap();
        drop(c);
        let c = open(&db, "NORMAL");
        let ok: String = c
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok", "seed {seed}");
        let after = count(&c);
        assert!(
            (before..=before + 15).contains(&after),
            "seed {seed}: {before} -> {after}"
        );
        before = after;
    }
}

#[test]
fn skipping_sqlite_syncs_loses_full_commits() {
    let (_b, root, pl) = setup();
    let db = root.join("x.db");
    let c = open(&db, "FULL");
    insert(&c, 0, 3);
    pl.skip_sync(crate::SyncPoint::Sqlite);
    insert(&c, 3, 3);
    pl.cut(Cut::Everything).unwrap();
    drop(c);
    let c = open(&db, "FULL");
    assert_eq!(count(&c), 3);
}
