//! Snapshot isolation on one node: read views, 1020 on a row changed after the read view,
//! reads after own writes, locking reads, and the variable that turns it off.

use super::*;

fn counter(f: &Fixture) -> Session {
    let mut s = f.session();
    ok(
        &mut s,
        "CREATE DATABASE d; CREATE TABLE d.c (k INT PRIMARY KEY, v INT); \
         CREATE TABLE d.o (k INT PRIMARY KEY, v INT); \
         INSERT INTO d.c VALUES (1, 0), (2, 0); INSERT INTO d.o VALUES (1, 0)",
    );
    s
}

fn v(s: &mut Session, sql: &str) -> i64 {
    match rows(s, sql).as_slice() {
        [row] => match row[0] {
            Value::Int(i) => i,
            ref other => panic!("{sql}: {other:?}"),
        },
        other => panic!("{sql}: {other:?}"),
    }
}

#[test]
fn a_row_changed_after_the_read_view_cannot_be_written() {
    let f = fixture();
    let mut a = counter(&f);
    let mut b = f.session();
    ok(&mut a, "BEGIN");
    let read = v(&mut a, "SELECT v FROM d.c WHERE k = 1");
    // Another transaction increments the counter after a's read view.
    ok(&mut b, "UPDATE d.c SET v = v + 1 WHERE k = 1");
    assert_eq!(
        err(
            &mut a,
            &format!("UPDATE d.c SET v = {} WHERE k = 1", read + 1)
        ),
        ExecError::RecordChanged("c".into())
    );
    // The statement failed, not the transaction: other rows can still be written.
    assert!(a.in_transaction());
    ok(&mut a, "UPDATE d.c SET v = 5 WHERE k = 2");
    ok(&mut a, "COMMIT");
    assert_eq!(
        v(&mut b, "SELECT v FROM d.c WHERE k = 1"),
        1,
        "no lost update"
    );
    assert_eq!(v(&mut b, "SELECT v FROM d.c WHERE k = 2"), 5);
}

#[test]
fn reads_stay_in_the_read_view_and_see_own_writes() {
    let f = fixture();
    let mut a = counter(&f);
    let mut b = f.session();
    ok(&mut a, "BEGIN");
    assert_eq!(v(&mut a, "SELECT v FROM d.c WHERE k = 1"), 0);
    ok(&mut b, "UPDATE d.c SET v = 7 WHERE k = 1");
    assert_eq!(v(&mut a, "SELECT v FROM d.c WHERE k = 1"), 0, "read view");
    // After a write: its own change, and the read view for a table nobody changed.
    ok(&mut a, "UPDATE d.o SET v = 3 WHERE k = 1");
    assert_eq!(v(&mut a, "SELECT v FROM d.o WHERE k = 1"), 3);
    // A table changed after the read view cannot be read exactly with own writes: 1020,
    // never the newer value.
    assert_eq!(
        err(&mut a, "SELECT v FROM d.c WHERE k = 1"),
        ExecError::RecordChanged("c".into())
    );
    ok(&mut a, "COMMIT");
    // START TRANSACTION WITH CONSISTENT SNAPSHOT: the view starts at once.
    ok(&mut a, "START TRANSACTION WITH CONSISTENT SNAPSHOT");
    ok(&mut b, "UPDATE d.c SET v = 8 WHERE k = 1");
    assert_eq!(v(&mut a, "SELECT v FROM d.c WHERE k = 1"), 7);
    ok(&mut a, "COMMIT");
}

#[test]
fn without_a_read_view_writers_work_on_the_newest_state() {
    let f = fixture();
    let mut a = counter(&f);
    let mut b = f.session();
    // A write-only transaction has no read view: InnoDB's writer, newest state.
    ok(&mut a, "BEGIN");
    ok(&mut b, "UPDATE d.c SET v = v + 1 WHERE k = 1");
    ok(&mut a, "UPDATE d.c SET v = v + 1 WHERE k = 1");
    ok(&mut a, "COMMIT");
    assert_eq!(v(&mut b, "SELECT v FROM d.c WHERE k = 1"), 2);
    // innodb_snapshot_isolation=OFF: the old behaviour (a write after a read succeeds).
    ok(&mut a, "SET SESSION innodb_snapshot_isolation = OFF");
    ok(&mut a, "BEGIN");
    v(&mut a, "SELECT v FROM d.c WHERE k = 1");
    ok(&mut b, "UPDATE d.c SET v = v + 1 WHERE k = 1");
    ok(&mut a, "UPDATE d.c SET v = 100 WHERE k = 1");
    ok(&mut a, "COMMIT");
    assert_eq!(v(&mut b, "SELECT v FROM d.c WHERE k = 1"), 100);
}

#[test]
fn select_for_update_locks_the_rows_it_reads() {
    let f = fixture();
    let mut a = counter(&f);
    let mut b = f.session();
    ok(&mut a, "BEGIN");
    assert_eq!(v(&mut a, "SELECT v FROM d.c WHERE k = 1 FOR UPDATE"), 0);
    // Another writer of the row waits for the lock...
    let b_thread = std::thread::spawn(move || {
        let r = b
            .query("UPDATE d.c SET v = v + 10 WHERE k = 1")
            .pop()
            .unwrap();
        (b, r)
    });
    wait_until_waiting(&f, 1);
    // ...while the holder writes what it computed from its read, and commits.
    ok(&mut a, "UPDATE d.c SET v = 1 WHERE k = 1");
    ok(&mut a, "COMMIT");
    let (mut b, r) = b_thread.join().unwrap();
    r.unwrap();
    assert_eq!(
        v(&mut b, "SELECT v FROM d.c WHERE k = 1"),
        11,
        "no lost update"
    );
    // NOWAIT fails at once; shared locks share; a lock wait times out with 1205.
    ok(&mut a, "BEGIN");
    v(&mut a, "SELECT v FROM d.c WHERE k = 2 LOCK IN SHARE MODE");
    ok(&mut b, "BEGIN");
    v(&mut b, "SELECT v FROM d.c WHERE k = 2 FOR SHARE");
    assert_eq!(
        err(&mut b, "SELECT v FROM d.c WHERE k = 2 FOR UPDATE NOWAIT"),
        ExecError::LockWaitTimeout
    );
    ok(&mut b, "SET SESSION innodb_lock_wait_timeout = 1");
    assert_eq!(
        err(&mut b, "UPDATE d.c SET v = 3 WHERE k = 2"),
        ExecError::LockWaitTimeout
    );
    ok(&mut a, "COMMIT");
    ok(&mut b, "COMMIT");
}

#[test]
fn locking_a_row_changed_after_the_read_view_fails() {
    let f = fixture();
    let mut a = counter(&f);
    let mut b = f.session();
    ok(&mut a, "BEGIN");
    v(&mut a, "SELECT v FROM d.o WHERE k = 1");
    ok(&mut b, "UPDATE d.c SET v = 4 WHERE k = 1");
    assert_eq!(
        err(&mut a, "SELECT v FROM d.c WHERE k = 1 FOR UPDATE"),
        ExecError::RecordChanged("c".into())
    );
    // A row nobody changed can be locked; it is read at its newest state.
    assert_eq!(v(&mut a, "SELECT v FROM d.c WHERE k = 2 FOR UPDATE"), 0);
    ok(&mut a, "ROLLBACK");
}
