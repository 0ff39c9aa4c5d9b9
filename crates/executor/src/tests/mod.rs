//! Executor tests through the real SQL front-end, storage and single-node replication.

use super::*;
use std::time::Duration;

mod isolation;
mod temporary;
use tutti_replication::Replication;
use tutti_storage::Durability;

struct Fixture {
    _dir: tempfile::TempDir,
    exec: Arc<Executor>,
    repl: Arc<Replication>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let storage = Arc::new(Storage::open(dir.path(), Durability::Normal).unwrap());
    let repl = Replication::start_alone(1, dir.path(), storage.clone()).unwrap();
    let exec = Executor::new(
        storage,
        repl.clone(),
        ExecutorConfig {
            version: "8.0-test".into(),
            globals: vec![],
        },
    );
    Fixture {
        _dir: dir,
        exec,
        repl,
    }
}

/// Polls (bounded) until `n` transactions wait for a row lock.
fn wait_until_waiting(f: &Fixture, n: usize) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while f.exec.locks.waiting() != n {
        assert!(std::time::Instant::now() < deadline, "no lock wait");
        std::thread::yield_now();
    }
}

impl Fixture {
    fn session(&self) -> Session {
        let id = self.exec.connection_id();
        self.exec.session(id, "root", "localhost")
    }
}

fn ok(s: &mut Session, sql: &str) -> Vec<Response> {
    s.query(sql)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{sql}: {e}")))
        .collect()
}

fn rows(s: &mut Session, sql: &str) -> Vec<Vec<Value>> {
    match ok(s, sql).pop() {
        Some(Response::Rows(rs)) => rs.rows,
        other => panic!("{sql}: no rows: {other:?}"),
    }
}

fn err(s: &mut Session, sql: &str) -> ExecError {
    s.query(sql).pop().unwrap().expect_err(sql)
}

#[test]
fn writes_are_captured_then_applied_through_replication() {
    let f = fixture();
    let mut s = f.session();
    ok(&mut s, "CREATE DATABASE d");
    ok(
        &mut s,
        "CREATE TABLE d.t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10))",
    );
    let before = f.repl.applied();
    ok(&mut s, "INSERT INTO d.t (v) VALUES ('a'), ('b')");
    assert_eq!(
        f.repl.applied(),
        before + 1,
        "one write-set per autocommit statement"
    );
    assert_eq!(s.last_insert_id, 1);
    ok(&mut s, "BEGIN");
    ok(&mut s, "UPDATE d.t SET v = 'z' WHERE id = 1");
    assert_eq!(
        f.repl.applied(),
        before + 1,
        "nothing replicated before COMMIT"
    );
    assert_eq!(
        rows(&mut s, "SELECT v FROM d.t WHERE id = 1"),
        vec![vec![Value::Text("z".into())]]
    );
    let mut other = f.session();
    assert_eq!(
        rows(&mut other, "SELECT v FROM d.t WHERE id = 1"),
        vec![vec![Value::Text("a".into())]]
    );
    ok(&mut s, "COMMIT");
    assert_eq!(
        rows(&mut other, "SELECT v FROM d.t WHERE id = 1"),
        vec![vec![Value::Text("z".into())]]
    );
}

#[test]
fn read_only_transactions_keep_one_snapshot() {
    let f = fixture();
    let mut w = f.session();
    ok(
        &mut w,
        "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY); INSERT INTO d.t VALUES (1)",
    );
    let mut r = f.session();
    ok(&mut r, "START TRANSACTION READ ONLY");
    assert_eq!(
        rows(&mut r, "SELECT COUNT(*) FROM d.t"),
        vec![vec![Value::Int(1)]]
    );
    ok(&mut w, "INSERT INTO d.t VALUES (2)");
    assert_eq!(
        rows(&mut r, "SELECT COUNT(*) FROM d.t"),
        vec![vec![Value::Int(1)]],
        "same snapshot"
    );
    assert_eq!(
        err(&mut r, "INSERT INTO d.t VALUES (3)"),
        ExecError::ReadOnlyTransaction
    );
    ok(&mut r, "COMMIT");
    assert_eq!(
        rows(&mut r, "SELECT COUNT(*) FROM d.t"),
        vec![vec![Value::Int(2)]]
    );
}

#[test]
fn same_row_writers_wait_and_deadlocks_are_detected() {
    let f = fixture();
    let mut a = f.session();
    ok(&mut a, "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, v INT); INSERT INTO d.t VALUES (1, 0), (2, 0)");
    let mut b = f.session();
    ok(&mut a, "BEGIN");
    ok(&mut a, "UPDATE d.t SET v = v + 1 WHERE id = 1");
    ok(&mut b, "BEGIN");
    ok(&mut b, "UPDATE d.t SET v = v + 1 WHERE id = 2");
    // b waits for row 1 (held by a) on another thread...
    let b_thread = std::thread::spawn(move || {
        let r = b
            .query("UPDATE d.t SET v = v + 10 WHERE id = 1")
            .pop()
            .unwrap();
        (b, r)
    });
    wait_until_waiting(&f, 1);
    // ...and a asking for row 2 (held by b) closes the cycle: a is the victim.
    assert_eq!(
        err(&mut a, "UPDATE d.t SET v = v + 1 WHERE id = 2"),
        ExecError::Deadlock
    );
    assert!(!a.in_transaction(), "a deadlock rolls the transaction back");
    let (mut b, r) = b_thread.join().unwrap();
    r.unwrap();
    ok(&mut b, "COMMIT");
    assert_eq!(
        rows(&mut a, "SELECT v FROM d.t ORDER BY id"),
        vec![vec![Value::Int(10)], vec![Value::Int(1)]],
        "b re-ran its update on the state after a's rollback"
    );
}

#[test]
fn certification_keys_cover_unique_and_foreign_keys() {
    let f = fixture();
    let mut s = f.session();
    ok(&mut s, "CREATE DATABASE d; USE d");
    ok(
        &mut s,
        "CREATE TABLE p (id INT PRIMARY KEY, email VARCHAR(20), UNIQUE KEY ue (email))",
    );
    ok(
        &mut s,
        "CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id))",
    );
    ok(&mut s, "INSERT INTO p VALUES (1, 'a@x')");
    let exec = &f.exec;
    // Capture a child insert and check its keys.
    ok(&mut s, "BEGIN");
    ok(&mut s, "INSERT INTO c VALUES (10, 1)");
    let changes = s.txn.as_ref().unwrap().changes.clone();
    let k = keys::of(exec, &changes).unwrap();
    assert_eq!(k.exclusive.len(), 1, "the child row");
    assert_eq!(
        k.shared,
        vec![tutti_wsrep::hash_key("d.p", &[&Value::Int(1)])],
        "its parent"
    );
    ok(&mut s, "ROLLBACK");
    ok(&mut s, "BEGIN");
    ok(&mut s, "UPDATE p SET email = 'b@x' WHERE id = 1");
    let changes = s.txn.as_ref().unwrap().changes.clone();
    let k = keys::of(exec, &changes).unwrap();
    assert_eq!(
        k.exclusive.len(),
        3,
        "the row, the unique value it frees and the one it takes"
    );
    ok(&mut s, "ROLLBACK");
}

#[test]
fn tables_without_primary_key_have_an_invisible_key() {
    let f = fixture();
    let mut s = f.session();
    ok(&mut s, "CREATE DATABASE d; USE d");
    ok(
        &mut s,
        "CREATE TABLE log (msg VARCHAR(10), n INT, UNIQUE KEY un (n))",
    );
    ok(&mut s, "INSERT INTO log VALUES ('a', 1), ('a', 2)");
    ok(&mut s, "INSERT INTO log (msg) SELECT msg FROM log");
    assert_eq!(s.last_insert_id, 0, "no client-visible id");
    assert_eq!(
        rows(&mut s, "SELECT * FROM log ORDER BY n"),
        vec![
            vec![Value::Text("a".into()), Value::Null],
            vec![Value::Text("a".into()), Value::Null],
            vec![Value::Text("a".into()), Value::Int(1)],
            vec![Value::Text("a".into()), Value::Int(2)],
        ],
        "SELECT * shows the visible columns only"
    );
    // Certification: the row by its invisible key, and the unique value it takes.
    ok(&mut s, "BEGIN");
    ok(&mut s, "UPDATE log SET n = 3 WHERE n = 2");
    let changes = s.txn.as_ref().unwrap().changes.clone();
    let k = keys::of(&f.exec, &changes).unwrap();
    assert_eq!(k.exclusive.len(), 3, "the row, the value freed and taken");
    ok(&mut s, "COMMIT");
    // Two sessions writing the same row of it: the second waits, then gets a deadlock.
    let mut other = f.session();
    ok(&mut s, "BEGIN");
    ok(&mut s, "UPDATE log SET msg = 'b' WHERE n = 1");
    ok(
        &mut other,
        "USE d; SET SESSION innodb_lock_wait_timeout = 1; BEGIN",
    );
    assert_eq!(
        err(&mut other, "UPDATE log SET msg = 'c' WHERE n = 1"),
        ExecError::LockWaitTimeout
    );
    ok(&mut other, "ROLLBACK");
    ok(&mut s, "COMMIT");
    assert_eq!(
        rows(&mut s, "SELECT msg FROM log WHERE n = 1 FOR UPDATE"),
        vec![vec![Value::Text("b".into())]]
    );
    ok(&mut s, "DELETE FROM log WHERE n IS NULL");
    assert_eq!(
        rows(&mut s, "SELECT count(*) FROM log"),
        vec![vec![Value::Int(2)]]
    );
}

#[test]
fn variables_show_and_prepared_statements() {
    let f = fixture();
    let mut s = f.session();
    ok(&mut s, "SET autocommit = OFF");
    assert!(!s.autocommit());
    assert!(matches!(
        err(&mut s, "SET GLOBAL autocommit_typo = 1"),
        ExecError::Sql(_)
    ));
    assert_eq!(
        err(&mut s, "SET version = 'x'"),
        ExecError::ReadOnlyVariable("version".into())
    );
    ok(
        &mut s,
        "SET autocommit = 1; CREATE DATABASE d; USE d; CREATE TABLE t (id INT PRIMARY KEY, v TEXT)",
    );
    let p = s.prepare("INSERT INTO t VALUES (?, ?)").unwrap();
    assert_eq!(p.params, 2);
    s.execute(p.id, &[Value::Int(1), Value::Text("x".into())])
        .unwrap();
    assert!(matches!(
        s.execute(p.id, &[Value::Int(2)]),
        Err(ExecError::WrongParamCount { .. })
    ));
    let q = s.prepare("SELECT v FROM t WHERE id = ?").unwrap();
    assert_eq!(q.columns.len(), 1);
    match s.execute(q.id, &[Value::Int(1)]).unwrap() {
        Response::Rows(rs) => assert_eq!(rs.rows, vec![vec![Value::Text("x".into())]]),
        other => panic!("{other:?}"),
    }
    let st = rows(&mut s, "SHOW STATUS LIKE 'wsrep_local_state_comment'");
    assert_eq!(
        st,
        vec![vec![
            Value::Text("wsrep_local_state_comment".into()),
            Value::Text("Synced".into())
        ]]
    );
    let cols = rows(&mut s, "DESCRIBE t");
    assert_eq!(cols[0][0], Value::Text("id".into()));
    assert_eq!(cols[0][3], Value::Text("PRI".into()));
    let create = rows(&mut s, "SHOW CREATE TABLE t");
    assert!(create[0][1].to_string().contains("PRIMARY KEY (`id`)"));
}

#[test]
fn table_status_shows_each_table_s_engine_and_collation() {
    let f = fixture();
    let mut s = f.session();
    ok(
        &mut s,
        "SET autocommit = 1; CREATE DATABASE d; USE d; CREATE TABLE a (id INT PRIMARY KEY); \
         CREATE TABLE m (id INT PRIMARY KEY) ENGINE=MyISAM COLLATE utf8mb4_bin; \
         CREATE VIEW v AS SELECT id FROM a",
    );
    let status: Vec<Vec<String>> = rows(&mut s, "SHOW TABLE STATUS")
        .into_iter()
        .map(|r| [0, 1, 5].iter().map(|&i| r[i].to_string()).collect())
        .collect();
    let row = |c: [&str; 3]| c.map(String::from).to_vec();
    assert_eq!(
        status,
        [
            row(["a", "InnoDB", "utf8mb4_general_ci"]),
            row(["m", "MyISAM", "utf8mb4_bin"]),
            row(["v", "NULL", "NULL"]),
        ]
    );
}

#[test]
fn prepared_results_keep_their_shape_until_the_schema_changes() {
    let f = fixture();
    let mut s = f.session();
    ok(
        &mut s,
        "CREATE DATABASE d; USE d; CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5)); \
         INSERT INTO t VALUES (1, 'x')",
    );
    let q = s
        .prepare("SELECT *, id + 0.5 AS h FROM t WHERE id = ?")
        .unwrap();
    let run = |s: &mut Session| match s.execute(q.id, &[Value::Int(1)]).unwrap() {
        Response::Rows(rs) => rs,
        other => panic!("{other:?}"),
    };
    let first = run(&mut s);
    let again = run(&mut s);
    assert_eq!(
        first.columns, again.columns,
        "the cached shape is the described one"
    );
    let names: Vec<&str> = again.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["id", "v", "h"]);
    assert!(
        again.columns[0].table.is_some(),
        "a table column keeps its definition"
    );
    assert_eq!(again.columns[2].kind, crate::ColumnKind::Decimal);
    ok(&mut s, "ALTER TABLE t ADD COLUMN w INT NOT NULL DEFAULT 7");
    let after = run(&mut s);
    let names: Vec<&str> = after.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["id", "v", "w", "h"]);
    assert_eq!(after.columns[2].kind, crate::ColumnKind::Long);
    assert_eq!(after.rows[0][2], Value::Int(7));
}

#[test]
fn function_settings_follow_each_set() {
    let f = fixture();
    let mut s = f.session();
    assert_eq!(rows(&mut s, "SELECT 1/3")[0][0].to_string(), "0.3333");
    ok(&mut s, "SET div_precision_increment = 1");
    assert_eq!(rows(&mut s, "SELECT 1/3")[0][0].to_string(), "0.3");
    ok(&mut s, "SET time_zone = '+02:00', timestamp = 86400");
    assert_eq!(
        rows(&mut s, "SELECT NOW()")[0][0].to_string(),
        "1970-01-02 02:00:00"
    );
    ok(
        &mut s,
        "SET time_zone = DEFAULT, div_precision_increment = DEFAULT",
    );
    assert_eq!(
        rows(&mut s, "SELECT NOW(), 1/3")[0],
        vec![
            Value::Text("1970-01-02 00:00:00".into()),
            Value::Text("0.3333".into())
        ]
    );
}

#[test]
fn an_unknown_function_is_named_in_the_current_database() {
    let f = fixture();
    let mut s = f.session();
    let err = |s: &mut Session, sql: &str| s.query(sql).pop().unwrap().unwrap_err();
    assert_eq!(
        err(&mut s, "SELECT nosuchfn(1)"),
        ExecError::NoSuchFunction("nosuchfn".into())
    );
    ok(&mut s, "CREATE DATABASE d; USE d");
    assert_eq!(
        err(&mut s, "SELECT nosuchfn(1)"),
        ExecError::NoSuchFunction("d.nosuchfn".into())
    );
    assert_eq!(
        s.prepare("SELECT nosuchfn(?)").unwrap_err(),
        ExecError::NoSuchFunction("d.nosuchfn".into())
    );
}
