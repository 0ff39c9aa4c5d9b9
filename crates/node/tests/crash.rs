//! End-to-end crash safety: kill -9 under write load, restart with the same command, and
//! check that every acknowledged commit is there and the database is intact.

mod harness;

use harness::*;
use mysql::prelude::*;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ACCOUNTS: i64 = 10;

/// Runs writers until `stop`; returns the ids whose INSERT was acknowledged.
fn writer(
    port: u16,
    t: i64,
    stop: Arc<AtomicBool>,
    acked: Arc<Mutex<BTreeSet<i64>>>,
    count: Arc<AtomicUsize>,
) {
    let Ok(mut c) = mysql::Conn::new(opts(port)) else {
        return;
    };
    let mut i = 0i64;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let id = t * 1_000_000 + i;
        // Alternate plain inserts and a bank transfer in one transaction.
        let r = if i % 2 == 0 {
            c.exec_drop(
                "INSERT INTO c.log (id, v) VALUES (?, ?)",
                (id, format!("w{t}-{i}")),
            )
        } else {
            let from = (id % ACCOUNTS) + 1;
            let to = ((id + 3) % ACCOUNTS) + 1;
            (|| -> Result<(), mysql::Error> {
                c.query_drop("BEGIN")?;
                c.exec_drop("UPDATE c.acct SET bal = bal - 1 WHERE id = ?", (from,))?;
                c.exec_drop("UPDATE c.acct SET bal = bal + 1 WHERE id = ?", (to,))?;
                c.exec_drop("INSERT INTO c.log (id, v) VALUES (?, 'transfer')", (id,))?;
                c.query_drop("COMMIT")
            })()
        };
        match r {
            Ok(()) => {
                acked.lock().unwrap().insert(id);
                count.fetch_add(1, Ordering::Relaxed);
            }
            Err(mysql::Error::MySqlError(e)) if e.code == 1213 => {
                let _ = c.query_drop("ROLLBACK");
            }
            Err(_) => return, // the node died
        }
    }
}

#[test]
fn kill9_under_load_loses_no_acknowledged_commit() {
    let base = temp_base("kill9");
    let mut n = NodeProc::new(base.path(), "n1");
    n.start();
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE c").unwrap();
    c.query_drop("CREATE TABLE c.acct (id INT PRIMARY KEY, bal INT NOT NULL)")
        .unwrap();
    c.query_drop("CREATE TABLE c.log (id BIGINT PRIMARY KEY, v VARCHAR(40))")
        .unwrap();
    for a in 1..=ACCOUNTS {
        c.exec_drop("INSERT INTO c.acct VALUES (?, 1000)", (a,))
            .unwrap();
    }
    drop(c);
    let acked = Arc::new(Mutex::new(BTreeSet::new()));
    for cycle in 0..3u64 {
        let stop = Arc::new(AtomicBool::new(false));
        let count = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let (stop, acked, count) = (stop.clone(), acked.clone(), count.clone());
                let port = n.mysql_port;
                let t = t + 10 * cycle as i64 + 1;
                std::thread::spawn(move || writer(port, t, stop, acked, count))
            })
            .collect();
        // Kill at a different point of the load each cycle.
        let target = 150 + 200 * cycle as usize;
        let deadline = Instant::now() + Duration::from_secs(60);
        while count.load(Ordering::Relaxed) < target && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        n.kill9();
        stop.store(true, Ordering::Relaxed);
        for t in threads {
            t.join().unwrap();
        }
        n.start();
        let mut c = n.conn();
        let present: BTreeSet<i64> = c
            .query("SELECT id FROM c.log")
            .unwrap()
            .into_iter()
            .collect();
        let acked = acked.lock().unwrap();
        let missing: Vec<_> = acked.difference(&present).take(5).collect();
        assert!(
            missing.is_empty(),
            "cycle {cycle}: acknowledged commits lost: {missing:?}"
        );
        let total: i64 = one(&mut c, "SELECT SUM(bal) FROM c.acct");
        assert_eq!(
            total,
            ACCOUNTS * 1000,
            "cycle {cycle}: the bank total is conserved"
        );
        assert!(!acked.is_empty());
    }
    n.stop();
    let db = rusqlite::Connection::open(n.datadir.join("tutti.db")).unwrap();
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
}
