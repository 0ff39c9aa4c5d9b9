//! End-to-end: no lost updates. Clients on every node of a real 3-node cluster, two per
//! node, increment counters with read-modify-write transactions (`BEGIN; SELECT v [FOR
//! UPDATE]; UPDATE v = read + 1; COMMIT`), retrying on 1020 / 1213 as applications do. Every
//! acknowledged increment must be in the final counters, and no two acknowledged increments
//! may have read the same value of the same counter (Adya's P4).

mod harness;

use harness::*;
use mysql::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

const KEYS: i64 = 3;
const ATTEMPTS: usize = 60;

type Acked = Arc<Mutex<Vec<(i64, i64)>>>;

fn client(port: u16, seed: u64, locking: bool, acked: Acked) -> usize {
    let mut c = mysql::Conn::new(opts(port)).unwrap();
    let mut rng = seed | 1;
    let mut retries = 0;
    for _ in 0..ATTEMPTS {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let k = (rng % KEYS as u64) as i64;
        let lock = if locking { " FOR UPDATE" } else { "" };
        let result = (|| -> Result<i64, mysql::Error> {
            c.query_drop("BEGIN")?;
            let v: i64 = c
                .query_first(format!("SELECT v FROM d.c WHERE k = {k}{lock}"))?
                .expect("row");
            c.query_drop(format!("UPDATE d.c SET v = {} WHERE k = {k}", v + 1))?;
            c.query_drop("COMMIT")?;
            Ok(v)
        })();
        match result {
            Ok(v) => acked.lock().unwrap().push((k, v)),
            Err(mysql::Error::MySqlError(e)) if [1020, 1213].contains(&e.code) => {
                let _ = c.query_drop("ROLLBACK");
                retries += 1;
            }
            Err(e) => panic!("client on {port}: {e}"),
        }
    }
    retries
}

fn run(locking: bool) {
    let base = temp_base(if locking { "iso-for-update" } else { "iso-si" });
    let nodes = cluster(base.path(), 3);
    let mut c = nodes[0].conn();
    c.query_drop("CREATE DATABASE d").unwrap();
    c.query_drop("CREATE TABLE d.c (k INT PRIMARY KEY, v INT NOT NULL)")
        .unwrap();
    for k in 0..KEYS {
        c.query_drop(format!("INSERT INTO d.c VALUES ({k}, 0)"))
            .unwrap();
    }
    let refs: Vec<&NodeProc> = nodes.iter().collect();
    converge(&refs, "SELECT * FROM d.c ORDER BY k");
    let acked: Acked = Arc::default();
    let threads: Vec<_> = (0..6u64)
        .map(|i| {
            let (port, acked) = (nodes[(i % 3) as usize].mysql_port, acked.clone());
            std::thread::spawn(move || client(port, 1000 + i, locking, acked))
        })
        .collect();
    let retries: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    let rows = converge(&refs, "SELECT k, v FROM d.c ORDER BY k");
    let acked = acked.lock().unwrap().clone();
    let mut per_key: BTreeMap<i64, i64> = BTreeMap::new();
    let mut reads: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for (k, v) in &acked {
        *per_key.entry(*k).or_default() += 1;
        *reads.entry((*k, *v)).or_default() += 1;
    }
    let lost: Vec<_> = reads.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        lost.is_empty(),
        "increments that read the same value: {lost:?}"
    );
    for (k, row) in rows.iter().enumerate() {
        let want = per_key.get(&(k as i64)).copied().unwrap_or(0);
        assert_eq!(
            *row,
            format!("Bytes(\"{k}\")|Bytes(\"{want}\")"),
            "counter {k}: every acknowledged increment, no more"
        );
    }
    assert!(
        acked.len() > 60,
        "{} acknowledged, {retries} retried",
        acked.len()
    );
}

#[test]
fn read_modify_write_on_every_node_loses_no_update() {
    run(false);
}

#[test]
fn select_for_update_on_every_node_loses_no_update() {
    run(true);
}
