//! Changesets whose rows only fit in the final state: moves, swaps and re-inserts of
//! unique values, with and without foreign-key actions, across schema changes; and a
//! randomized check that whatever commits on one database applies on a copy of it.

use crate::Session;
use rusqlite::Connection;

use super::{apply_changeset, ChangesetConflict};

/// Runs `sql` in a transaction with a session attached; returns the changeset, rolls back.
fn capture(c: &Connection, sql: &str) -> rusqlite::Result<Vec<u8>> {
    c.execute_batch("BEGIN")?;
    let result = (|| {
        let mut s = Session::new(c)?;
        s.attach(None)?;
        c.execute_batch(sql)?;
        s.changeset()
    })();
    c.execute_batch("ROLLBACK")?;
    result
}

fn fk_actions(c: &Connection) -> bool {
    crate::apply::has_fk_actions(c).unwrap()
}

/// Applies in its own transaction, committed only when it applied.
fn apply(c: &Connection, cs: &[u8]) -> Result<(), ChangesetConflict> {
    c.execute_batch("BEGIN").unwrap();
    let r = apply_changeset(c, cs, fk_actions(c));
    c.execute_batch(if r.is_ok() { "COMMIT" } else { "ROLLBACK" })
        .unwrap();
    r
}

fn dump(c: &Connection, table: &str) -> Vec<String> {
    let mut st = c
        .prepare(&format!("SELECT * FROM {table} ORDER BY 1"))
        .unwrap();
    let n = st.column_count();
    st.query_map([], |r| {
        (0..n)
            .map(|i| {
                r.get::<_, rusqlite::types::Value>(i)
                    .map(|v| format!("{v:?}"))
            })
            .collect::<rusqlite::Result<Vec<_>>>()
            .map(|v| v.join("|"))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// Two databases with the same schema and rows.
fn pair(schema: &str) -> (Connection, Connection) {
    let open = || {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch("PRAGMA foreign_keys=ON").unwrap();
        c.execute_batch(schema).unwrap();
        c
    };
    (open(), open())
}

/// Captures `sql` on `a`, applies it to `a` and `b`, and checks both hold the same rows.
fn replicate(a: &Connection, b: &Connection, sql: &str, tables: &[&str]) {
    let cs = capture(a, sql).unwrap();
    apply(a, &cs).unwrap_or_else(|e| panic!("origin: {e} for {sql}"));
    apply(b, &cs).unwrap_or_else(|e| panic!("copy: {e} for {sql}"));
    for t in tables {
        assert_eq!(dump(a, t), dump(b, t), "{t} after {sql}");
    }
}

const USERS: &str =
    "CREATE TABLE u(id INTEGER PRIMARY KEY, email TEXT UNIQUE, n INT NOT NULL DEFAULT 0);
     INSERT INTO u(id, email) VALUES (1, 'a'), (2, 'b'), (3, 'c');";

#[test]
fn replace_moving_a_unique_value_applies() {
    let (a, b) = pair(USERS);
    // REPLACE deletes row 1 (same email) and inserts row 99.
    replicate(&a, &b, "REPLACE INTO u(id, email) VALUES (99, 'a')", &["u"]);
    assert_eq!(dump(&b, "u")[2], "Integer(99)|Text(\"a\")|Integer(0)");
}

#[test]
fn swapping_unique_values_applies() {
    let (a, b) = pair(USERS);
    replicate(
        &a,
        &b,
        "UPDATE u SET email = 'tmp' WHERE id = 1; UPDATE u SET email = 'a' WHERE id = 2;
         UPDATE u SET email = 'b' WHERE id = 1",
        &["u"],
    );
    // A rotation of three values.
    replicate(
        &a,
        &b,
        "UPDATE u SET email = 'tmp' WHERE id = 3; UPDATE u SET email = 'c' WHERE id = 2;
         UPDATE u SET email = 'b' WHERE id = 1; UPDATE u SET email = 'a' WHERE id = 3",
        &["u"],
    );
}

#[test]
fn delete_and_reinsert_under_another_key_applies() {
    let (a, b) = pair(USERS);
    replicate(
        &a,
        &b,
        "DELETE FROM u WHERE email = 'b'; INSERT INTO u(id, email) VALUES (10, 'b')",
        &["u"],
    );
    // Many at once, so the changeset order cannot happen to be the right one.
    replicate(
        &a,
        &b,
        "DELETE FROM u; INSERT INTO u(id, email) VALUES (50, 'a'), (40, 'b'), (30, 'c'), (20, 'd')",
        &["u"],
    );
}

#[test]
fn unique_swaps_with_cascading_foreign_keys_apply() {
    let (a, b) = pair(
        "CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE);
         CREATE TABLE c(id INTEGER PRIMARY KEY, code TEXT REFERENCES p(code)
            ON DELETE CASCADE ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED, tag TEXT UNIQUE);
         INSERT INTO p VALUES (1, 'x'), (2, 'y');
         INSERT INTO c VALUES (10, 'x', 't1'), (11, 'y', 't2'), (12, 'x', 't3');",
    );
    let t = ["p", "c"];
    // Renaming a parent key cascades to its children; swapping two parents' keys too.
    replicate(&a, &b, "UPDATE p SET code = 'z' WHERE id = 1", &t);
    replicate(
        &a,
        &b,
        "UPDATE p SET code = 'tmp' WHERE id = 1; UPDATE p SET code = 'z' WHERE id = 2;
         UPDATE p SET code = 'y' WHERE id = 1",
        &t,
    );
    replicate(
        &a,
        &b,
        "UPDATE c SET tag = 'tmp' WHERE id = 10; UPDATE c SET tag = 't1' WHERE id = 11;
         UPDATE c SET tag = 't2' WHERE id = 10",
        &t,
    );
    // Deleting a parent deletes its children (row 11 and its tag 't1'), and a new child
    // takes that tag.
    replicate(
        &a,
        &b,
        "DELETE FROM p WHERE id = 2; INSERT INTO p VALUES (3, 'w');
         INSERT INTO c VALUES (13, 'w', 't1')",
        &t,
    );
    assert_eq!(dump(&b, "c").len(), 3, "rows 10, 12 and 13");
}

#[test]
fn schema_changes_leave_cached_statements_valid() {
    let (a, b) =
        pair("CREATE TABLE t1(a INTEGER PRIMARY KEY, b INT); INSERT INTO t1 VALUES (1, 1);");
    replicate(&a, &b, "UPDATE t1 SET b = 2 WHERE a = 1", &["t1"]);
    for c in [&a, &b] {
        c.execute_batch("DROP TABLE t1; CREATE TABLE t1(id INTEGER PRIMARY KEY, id2 INT)")
            .unwrap();
    }
    replicate(&a, &b, "INSERT INTO t1 VALUES (1, 0)", &["t1"]);
    for c in [&a, &b] {
        c.execute_batch("ALTER TABLE t1 ADD COLUMN x TEXT").unwrap();
    }
    replicate(
        &a,
        &b,
        "INSERT INTO t1 VALUES (2, 0, 'x'); UPDATE t1 SET x = 'y' WHERE id = 1",
        &["t1"],
    );
    for c in [&a, &b] {
        c.execute_batch("ALTER TABLE t1 DROP COLUMN id2").unwrap();
    }
    replicate(
        &a,
        &b,
        "DELETE FROM t1 WHERE id = 2; INSERT INTO t1 VALUES (3, 'z')",
        &["t1"],
    );
}

#[test]
fn real_divergence_is_still_a_conflict() {
    let (a, b) = pair(USERS);
    // b has a row a does not know about, holding the unique value a's change moves to.
    b.execute_batch("INSERT INTO u(id, email) VALUES (7, 'q')")
        .unwrap();
    let cs = capture(&a, "UPDATE u SET email = 'q' WHERE id = 1").unwrap();
    let e = apply(&b, &cs).unwrap_err();
    assert_eq!(e.to_string(), "unique key conflict on table u");
    assert_eq!(
        dump(&b, "u")[0],
        "Integer(1)|Text(\"a\")|Integer(0)",
        "undone"
    );
    let cs = capture(&a, "INSERT INTO u(id, email) VALUES (7, 'r')").unwrap();
    assert_eq!(
        apply(&b, &cs).unwrap_err().to_string(),
        "row exists conflict on table u"
    );
    let cs = capture(&a, "UPDATE u SET n = 5 WHERE id = 2").unwrap();
    b.execute_batch("UPDATE u SET email = 'bb' WHERE id = 2")
        .unwrap();
    apply(&b, &cs).expect("n is unchanged on b");
    let cs = capture(&a, "DELETE FROM u WHERE id = 2").unwrap();
    assert!(apply(&b, &cs).is_err(), "the row differs (email)");
}

/// A tiny deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// One random statement over two tables with two unique keys each and a cascading
/// foreign key between them.
fn random_statement(r: &mut Rng) -> String {
    let id = r.below(12) + 1;
    let u = r.below(8);
    let v = r.below(8);
    let p = r.below(6) + 1;
    match r.below(9) {
        0 => format!("INSERT OR IGNORE INTO p VALUES ({id}, 'u{u}', {v})"),
        1 => format!("REPLACE INTO p VALUES ({id}, 'u{u}', {v})"),
        2 => format!("UPDATE OR IGNORE p SET u = 'u{u}' WHERE id = {id}"),
        3 => format!(
            "UPDATE OR IGNORE p SET v = {v}, u = 'u{u}' WHERE v = {}",
            r.below(8)
        ),
        4 => format!("DELETE FROM p WHERE id = {id}"),
        5 => format!(
            "UPDATE OR IGNORE p SET id = {} WHERE id = {id}",
            r.below(12) + 1
        ),
        6 => format!("INSERT OR REPLACE INTO c SELECT {id}, id, 'w{u}' FROM p WHERE id = {p}"),
        7 => format!("UPDATE OR IGNORE c SET w = 'w{u}' WHERE id = {id}"),
        _ => format!("DELETE FROM c WHERE w = 'w{u}'"),
    }
}

#[test]
fn random_transactions_apply_on_a_copy() {
    let schema = "CREATE TABLE p(id INTEGER PRIMARY KEY, u TEXT UNIQUE, v INT, UNIQUE(v, u));
         CREATE TABLE c(id INTEGER PRIMARY KEY, p INT REFERENCES p(id) ON DELETE CASCADE
            ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED, w TEXT UNIQUE);";
    for seed in 1..=40u64 {
        let (a, b) = pair(schema);
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for _ in 0..150 {
            let stmts: Vec<String> = (0..r.below(6) + 1)
                .map(|_| random_statement(&mut r))
                .collect();
            let sql = stmts.join(";\n");
            let cs = capture(&a, &sql).unwrap_or_else(|e| panic!("{e}: {sql}"));
            apply(&a, &cs).unwrap_or_else(|e| panic!("seed {seed} origin: {e}\n{sql}"));
            apply(&b, &cs).unwrap_or_else(|e| panic!("seed {seed} copy: {e}\n{sql}"));
        }
        for t in ["p", "c"] {
            assert_eq!(dump(&a, t), dump(&b, t), "seed {seed} table {t}");
        }
    }
}

#[test]
fn tables_without_primary_key_replicate_by_rowid() {
    let (a, b) = pair(
        "CREATE TABLE log(msg TEXT, n INT UNIQUE);
         INSERT INTO log VALUES ('x', 1), ('x', 2), ('y', 3);",
    );
    let rowids = |c: &Connection| -> Vec<String> {
        let mut s = c
            .prepare("SELECT rowid || ':' || msg || ':' || n FROM log ORDER BY rowid")
            .unwrap();
        s.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    // Duplicate rows are told apart by rowid; a unique value moves between rows.
    for sql in [
        "INSERT INTO log VALUES ('x', 4), ('x', 5)",
        "UPDATE log SET msg = 'z' WHERE msg = 'x' AND n < 3",
        "DELETE FROM log WHERE n = 1",
        "UPDATE log SET n = 9 WHERE n = 2; UPDATE log SET n = 2 WHERE n = 3",
    ] {
        replicate(&a, &b, sql, &["log"]);
        assert_eq!(rowids(&a), rowids(&b), "after {sql}");
    }
    assert_eq!(rowids(&b), ["2:z:9", "3:y:2", "4:x:4", "5:x:5"]);
    // A row changed on this node only: the write-set conflicts, nothing applies.
    b.execute_batch("UPDATE log SET msg = 'other' WHERE rowid = 4")
        .unwrap();
    let cs = capture(&a, "DELETE FROM log WHERE rowid = 4").unwrap();
    assert!(apply(&b, &cs).is_err());
}
