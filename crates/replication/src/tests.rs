//! Single-node replication: order, certify, apply, and answer the waiting transaction.

use super::*;
use tutti_storage::Durability;
use tutti_storage::Session;
use tutti_wsrep::{Action, CertKeys, Ddl, DdlFailure};

fn start() -> (tempfile::TempDir, Arc<Storage>, Arc<Replication>) {
    let dir = tempfile::tempdir().unwrap();
    let storage = Arc::new(Storage::open(dir.path(), Durability::Normal).unwrap());
    let r = Replication::start_alone(7, dir.path(), storage.clone()).unwrap();
    (dir, storage, r)
}

fn ddl_ws(trx: u64, ddl: Ddl) -> WriteSet {
    WriteSet {
        origin: 7,
        trx_id: trx,
        last_seen: 0,
        keys: CertKeys::default(),
        action: Action::Ddl(ddl),
    }
}

fn capture(s: &Storage, sql: &str) -> Vec<u8> {
    let w = s.writer();
    w.execute_batch("BEGIN").unwrap();
    let out;
    {
        let mut session = Session::new(&w).unwrap();
        session.attach(None).unwrap();
        w.execute_batch(sql).unwrap();
        out = session.changeset().unwrap();
    }
    w.execute_batch("ROLLBACK").unwrap();
    out
}

#[test]
fn write_sets_commit_in_order_and_conflicts_fail() {
    let (_d, storage, r) = start();
    let create = Ddl::CreateDatabase {
        name: "db".into(),
        if_not_exists: false,
        collation: None,
    };
    let first = r.replicate(ddl_ws(1, create.clone())).unwrap().seqno;
    assert!(first >= 1);
    assert_eq!(
        r.replicate(ddl_ws(2, create)),
        Err(ReplicateError::Ddl(DdlFailure::DatabaseExists("db".into())))
    );
    let table = Ddl::Schema {
        database: "db".into(),
        statements: vec!["CREATE TABLE \"db.t\"(id INT PRIMARY KEY, v INT)".into()],
    };
    let created = r.replicate(ddl_ws(3, table)).unwrap().seqno;
    assert_eq!(created, first + 2, "the failed DDL took a seqno too");
    let cs = capture(&storage, "INSERT INTO \"db.t\" VALUES (1, 1)");
    let row = |trx, last_seen, cs: Vec<u8>| WriteSet {
        origin: 7,
        trx_id: trx,
        last_seen,
        keys: CertKeys {
            exclusive: vec![11],
            shared: vec![],
            tables: vec![5],
        },
        action: Action::Rows(cs),
    };
    assert_eq!(
        r.replicate(row(4, created, cs.clone())).unwrap().seqno,
        created + 1
    );
    // A transaction that executed before that and wrote the same row loses.
    assert_eq!(
        r.replicate(row(5, created, cs)),
        Err(ReplicateError::CertificationFailed)
    );
    // A failed verdict is reported before the applier has passed its seqno.
    r.sync_wait(Duration::from_secs(5)).unwrap();
    assert_eq!(r.applied(), created + 2);
    let n: i64 = storage
        .reader()
        .unwrap()
        .query_row("SELECT count(*) FROM \"db.t\"", [], |x| x.get(0))
        .unwrap();
    assert_eq!(n, 1);
    let status: std::collections::HashMap<_, _> = r.status().into_iter().collect();
    assert_eq!(status["wsrep_local_cert_failures"], "1");
    assert_eq!(status["wsrep_last_committed"], (created + 2).to_string());
    assert_eq!(status["wsrep_local_state_comment"], "Synced");
    r.sync_wait(Duration::from_secs(1)).unwrap();
    r.shutdown();
    let late = r.replicate(ddl_ws(
        9,
        Ddl::CreateDatabase {
            name: "z".into(),
            if_not_exists: true,
            collation: None,
        },
    ));
    assert!(matches!(late, Err(ReplicateError::NotReady(_))), "{late:?}");
}
