//! Storage tests: the capture → rollback → apply path, seqno atomicity, DDL outcomes.

use super::*;
use crate::Session;
use tutti_wsrep::{Ddl, DdlFailure};

fn open() -> (tempfile::TempDir, Storage) {
    let dir = tempfile::tempdir().unwrap();
    let s = Storage::open(dir.path(), Durability::Normal).unwrap();
    (dir, s)
}

fn ddl(s: &Storage, seqno: Seqno, d: Ddl) -> Outcome {
    let mut r = s
        .apply(&[ApplyItem {
            seqno,
            op: ApplyOp::Ddl(&d),
        }])
        .unwrap();
    assert!(r.inconsistency.is_none());
    r.outcomes.pop().unwrap()
}

fn schema(db: &str, sql: &str) -> Ddl {
    Ddl::Schema {
        database: db.into(),
        statements: vec![sql.into()],
    }
}

/// Runs `sql` on the writer with a session attached, returns the changeset, rolls back.
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

fn count(s: &Storage, sql: &str) -> i64 {
    s.reader()
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

#[test]
fn capture_rollback_apply_advances_seqno_with_data() {
    let (dir, s) = open();
    assert_eq!(s.applied(), 0);
    assert!(matches!(
        ddl(
            &s,
            1,
            Ddl::CreateDatabase {
                name: "app".into(),
                if_not_exists: false,
                collation: None,
            }
        ),
        Outcome::SchemaChanged { rows: 0 }
    ));
    let create = schema(
        "app",
        "CREATE TABLE \"app.t\"(id INTEGER PRIMARY KEY, v TEXT)",
    );
    assert!(matches!(
        ddl(&s, 2, create),
        Outcome::SchemaChanged { rows: 0 }
    ));
    let cs = capture(&s, "INSERT INTO \"app.t\" VALUES (1, 'a'), (2, 'b')");
    assert!(!cs.is_empty());
    assert_eq!(
        count(&s, "SELECT count(*) FROM \"app.t\""),
        0,
        "capture must roll back"
    );
    let r = s
        .apply(&[
            ApplyItem {
                seqno: 3,
                op: ApplyOp::Rows(&cs),
            },
            ApplyItem {
                seqno: 4,
                op: ApplyOp::Skip,
            },
        ])
        .unwrap();
    assert_eq!(r.applied, 4);
    assert_eq!(count(&s, "SELECT count(*) FROM \"app.t\""), 2);
    // Replaying an already applied item is a no-op.
    let r = s
        .apply(&[ApplyItem {
            seqno: 3,
            op: ApplyOp::Rows(&cs),
        }])
        .unwrap();
    assert!(matches!(r.outcomes[0], Outcome::Skipped));
    assert_eq!(count(&s, "SELECT count(*) FROM \"app.t\""), 2);
    drop(s);
    let s = Storage::open(dir.path(), Durability::Normal).unwrap();
    assert_eq!(s.applied(), 4, "seqno survives reopen");
    s.integrity_check().unwrap();
}

#[test]
fn conflicting_write_set_is_an_inconsistency_and_stops_the_batch() {
    let (_dir, s) = open();
    ddl(
        &s,
        1,
        Ddl::CreateDatabase {
            name: "d".into(),
            if_not_exists: false,
            collation: None,
        },
    );
    ddl(
        &s,
        2,
        schema("d", "CREATE TABLE \"d.t\"(id INTEGER PRIMARY KEY, v INT)"),
    );
    let ins = capture(&s, "INSERT INTO \"d.t\" VALUES (1, 10)");
    let again = ins.clone();
    let r = s
        .apply(&[
            ApplyItem {
                seqno: 3,
                op: ApplyOp::Rows(&ins),
            },
            ApplyItem {
                seqno: 4,
                op: ApplyOp::Rows(&again),
            },
        ])
        .unwrap();
    assert_eq!(r.applied, 3, "the prefix before the conflict is kept");
    assert!(matches!(
        r.inconsistency,
        Some(StorageError::Inconsistent { seqno: 4, .. })
    ));
    assert_eq!(s.applied(), 3);
    assert_eq!(count(&s, "SELECT v FROM \"d.t\" WHERE id = 1"), 10);
}

#[test]
fn ddl_outcomes_are_deterministic_errors() {
    let (_dir, s) = open();
    let create = || Ddl::CreateDatabase {
        name: "x".into(),
        if_not_exists: false,
        collation: None,
    };
    assert!(matches!(
        ddl(&s, 1, create()),
        Outcome::SchemaChanged { rows: 0 }
    ));
    assert!(matches!(
        ddl(&s, 2, create()),
        Outcome::DdlFailed(DdlFailure::DatabaseExists(_))
    ));
    assert!(matches!(
        ddl(
            &s,
            3,
            Ddl::CreateDatabase {
                name: "X".into(),
                if_not_exists: true,
                collation: None,
            }
        ),
        Outcome::SchemaChanged { rows: 0 }
    ));
    assert!(matches!(
        ddl(
            &s,
            4,
            schema("nope", "CREATE TABLE \"nope.t\"(id INT PRIMARY KEY)")
        ),
        Outcome::DdlFailed(DdlFailure::UnknownDatabase(_))
    ));
    // A failing multi-statement DDL leaves nothing behind.
    let bad = Ddl::Schema {
        database: "x".into(),
        statements: vec![
            "CREATE TABLE \"x.a\"(id INT PRIMARY KEY)".into(),
            "CREATE TABLE \"x.a\"(id INT PRIMARY KEY)".into(),
        ],
    };
    assert!(matches!(
        ddl(&s, 5, bad),
        Outcome::DdlFailed(DdlFailure::Sqlite { .. })
    ));
    assert_eq!(
        count(&s, "SELECT count(*) FROM sqlite_schema WHERE name = 'x.a'"),
        0
    );
    ddl(
        &s,
        6,
        schema("x", "CREATE TABLE \"x.p\"(id INT PRIMARY KEY)"),
    );
    ddl(
        &s,
        7,
        schema(
            "x",
            "CREATE TABLE \"x.c\"(id INT PRIMARY KEY, p INT REFERENCES \"x.p\"(id) DEFERRABLE INITIALLY DEFERRED)",
        ),
    );
    assert!(matches!(
        ddl(
            &s,
            8,
            Ddl::DropDatabase {
                name: "x".into(),
                if_exists: false
            }
        ),
        Outcome::SchemaChanged { rows: 0 }
    ));
    assert_eq!(
        count(
            &s,
            "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'x.%'"
        ),
        0
    );
    assert!(matches!(
        ddl(
            &s,
            9,
            Ddl::DropDatabase {
                name: "x".into(),
                if_exists: false
            }
        ),
        Outcome::DdlFailed(DdlFailure::DropMissingDatabase(_))
    ));
    assert_eq!(s.applied(), 9, "failed DDL still consumes its seqno");
    assert!(s.databases().unwrap().is_empty());
}

#[test]
fn cascades_in_a_changeset_do_not_fire_twice() {
    let (_dir, s) = open();
    ddl(
        &s,
        1,
        Ddl::CreateDatabase {
            name: "f".into(),
            if_not_exists: false,
            collation: None,
        },
    );
    ddl(&s, 2, Ddl::Schema {
        database: "f".into(),
        statements: vec![
            "CREATE TABLE \"f.p\"(id INT PRIMARY KEY)".into(),
            "CREATE TABLE \"f.c\"(id INT PRIMARY KEY, p INT REFERENCES \"f.p\"(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED)".into(),
        ],
    });
    let fill = capture(
        &s,
        "INSERT INTO \"f.p\" VALUES (1); INSERT INTO \"f.c\" VALUES (10, 1), (11, 1)",
    );
    s.apply(&[ApplyItem {
        seqno: 3,
        op: ApplyOp::Rows(&fill),
    }])
    .unwrap();
    // The DELETE cascades while captured: the changeset holds the parent and both children.
    let del = capture(&s, "DELETE FROM \"f.p\" WHERE id = 1");
    let r = s
        .apply(&[ApplyItem {
            seqno: 4,
            op: ApplyOp::Rows(&del),
        }])
        .unwrap();
    assert!(r.inconsistency.is_none(), "{:?}", r.inconsistency);
    assert_eq!(count(&s, "SELECT count(*) FROM \"f.c\""), 0);
}

#[test]
fn readers_see_committed_data_and_cannot_write() {
    let (_dir, s) = open();
    ddl(
        &s,
        1,
        Ddl::CreateDatabase {
            name: "r".into(),
            if_not_exists: false,
            collation: None,
        },
    );
    let r = s.reader().unwrap();
    assert!(r
        .execute_batch("INSERT INTO tutti_databases VALUES ('evil')")
        .is_err());
    assert_eq!(s.databases().unwrap(), vec!["r".to_string()]);
}

#[test]
fn fast_apply_detects_changed_rows_and_broken_foreign_keys() {
    let (_dir, s) = open();
    ddl(
        &s,
        1,
        Ddl::CreateDatabase {
            name: "k".into(),
            if_not_exists: false,
            collation: None,
        },
    );
    ddl(
        &s,
        2,
        Ddl::Schema {
            database: "k".into(),
            statements: vec![
                "CREATE TABLE \"k.p\"(id INT PRIMARY KEY, v INT)".into(),
                "CREATE TABLE \"k.c\"(id INT PRIMARY KEY, p INT REFERENCES \"k.p\"(id) DEFERRABLE INITIALLY DEFERRED)".into(),
            ],
        },
    );
    assert!(!s.fk_actions(), "no FK actions: the fast path applies");
    let fill = capture(&s, "INSERT INTO \"k.p\" VALUES (1, 10), (2, 20)");
    s.apply(&[ApplyItem {
        seqno: 3,
        op: ApplyOp::Rows(&fill),
    }])
    .unwrap();
    // Two updates of the same row captured on the same state: the second finds v changed.
    let a = capture(&s, "UPDATE \"k.p\" SET v = 11 WHERE id = 1");
    let b = capture(&s, "UPDATE \"k.p\" SET v = 12 WHERE id = 1");
    let del = capture(&s, "DELETE FROM \"k.p\" WHERE id = 1");
    let r = s
        .apply(&[
            ApplyItem {
                seqno: 4,
                op: ApplyOp::Rows(&a),
            },
            ApplyItem {
                seqno: 5,
                op: ApplyOp::Rows(&b),
            },
        ])
        .unwrap();
    assert!(matches!(
        r.inconsistency,
        Some(StorageError::Inconsistent { seqno: 5, .. })
    ));
    let r = s
        .apply(&[ApplyItem {
            seqno: 5,
            op: ApplyOp::Rows(&del),
        }])
        .unwrap();
    assert!(
        r.inconsistency.is_some(),
        "the DELETE saw v = 10, the row now has 11"
    );
    assert_eq!(count(&s, "SELECT v FROM \"k.p\" WHERE id = 1"), 11);
    // A child whose parent is gone: the whole changeset is refused.
    let child = capture(&s, "INSERT INTO \"k.c\" VALUES (7, 2)");
    let gone = capture(&s, "DELETE FROM \"k.p\" WHERE id = 2");
    s.apply(&[ApplyItem {
        seqno: 5,
        op: ApplyOp::Rows(&gone),
    }])
    .unwrap();
    let r = s
        .apply(&[ApplyItem {
            seqno: 6,
            op: ApplyOp::Rows(&child),
        }])
        .unwrap();
    assert!(matches!(
        r.inconsistency,
        Some(StorageError::Inconsistent { seqno: 6, .. })
    ));
    assert_eq!(count(&s, "SELECT count(*) FROM \"k.c\""), 0);
    // The changeset lists the child table first (it was modified first), its new parent
    // after: foreign keys are checked at the end of the apply, so it applies.
    let both = capture(
        &s,
        "INSERT INTO \"k.c\" VALUES (9, 1); INSERT INTO \"k.p\" VALUES (3, 30); INSERT INTO \"k.c\" VALUES (8, 3)",
    );
    let r = s
        .apply(&[ApplyItem {
            seqno: 6,
            op: ApplyOp::Rows(&both),
        }])
        .unwrap();
    assert!(r.inconsistency.is_none(), "{:?}", r.inconsistency);
    assert_eq!(count(&s, "SELECT count(*) FROM \"k.c\""), 2);
}

fn skip(s: &Storage, seqno: Seqno) {
    s.apply(&[ApplyItem {
        seqno,
        op: ApplyOp::Skip,
    }])
    .unwrap();
}

#[test]
fn durable_applied_lags_until_a_checkpoint_syncs_the_wal() {
    let (dir, s) = open();
    assert_eq!(s.durable_applied(), 0);
    skip(&s, 1);
    assert_eq!(s.applied(), 1);
    assert_eq!(s.durable_applied(), 0, "a NORMAL commit is not fsynced");
    s.assume_applied_is_durable(true);
    assert_eq!(s.durable_applied(), 1, "the test switch trusts memory");
    s.assume_applied_is_durable(false);
    // Every commit adds WAL pages; the checkpoint at the threshold makes all durable.
    let mut seqno = 1;
    while s.durable_applied() == 0 {
        seqno += 1;
        assert!(
            seqno < 20 * durable::CHECKPOINT_PAGES as u64,
            "never durable"
        );
        skip(&s, seqno);
    }
    assert_eq!(s.durable_applied(), seqno);
    skip(&s, seqno + 1);
    assert_eq!(s.durable_applied(), seqno);
    drop(s);
    // Opening makes what the database holds durable.
    let s = Storage::open(dir.path(), Durability::Normal).unwrap();
    assert_eq!(s.durable_applied(), seqno + 1);
}

#[test]
fn with_full_durability_applied_is_durable() {
    let dir = tempfile::tempdir().unwrap();
    let s = Storage::open(dir.path(), Durability::Full).unwrap();
    skip(&s, 1);
    skip(&s, 2);
    assert_eq!(s.durable_applied(), 2);
}

#[test]
fn a_schema_change_counts_the_rows_its_copy_inserted() {
    let (_dir, s) = open();
    let db = Ddl::CreateDatabase {
        name: "app".into(),
        if_not_exists: false,
        collation: None,
    };
    assert!(matches!(ddl(&s, 1, db), Outcome::SchemaChanged { rows: 0 }));
    // The rows inserted into user tables count, not the counter bookkeeping.
    let copy = Ddl::Schema {
        database: "app".into(),
        statements: vec![
            "CREATE TABLE \"app.c\"(id INTEGER PRIMARY KEY AUTOINCREMENT)".into(),
            "INSERT INTO \"app.c\" VALUES (1), (2)".into(),
            "INSERT INTO sqlite_sequence (name, seq) VALUES ('x', 1)".into(),
            "CREATE TABLE \"app.d\"(id INT)".into(),
        ],
    };
    assert!(matches!(
        ddl(&s, 2, copy),
        Outcome::SchemaChanged { rows: 2 }
    ));
}
