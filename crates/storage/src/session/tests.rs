//! The recorder against SQLite's own session module: the same statements, recorded by
//! each, give the same changes (the order of rows within a table aside).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rusqlite::Connection;

use super::reference::Reference;
use super::{record, Session};

const SCHEMA: &str = r#"
    PRAGMA foreign_keys = ON;
    CREATE TABLE "app.a"(id INTEGER PRIMARY KEY, v TEXT, r REAL, b BLOB);
    CREATE TABLE "app.k"(x TEXT NOT NULL, y INT NOT NULL, v INT, PRIMARY KEY (x, y));
    CREATE TABLE "app.w"(x INT PRIMARY KEY, v TEXT) WITHOUT ROWID;
    CREATE TABLE "app.n"(v INT, w TEXT);
    CREATE TABLE "app.g"(id INTEGER PRIMARY KEY, v INT,
        d INT GENERATED ALWAYS AS (v * 2) VIRTUAL, s INT GENERATED ALWAYS AS (v + 1) STORED);
    CREATE TABLE "app.p"(id INTEGER PRIMARY KEY);
    CREATE TABLE "app.c"(id INTEGER PRIMARY KEY,
        p INT REFERENCES "app.p"(id) ON DELETE CASCADE ON UPDATE CASCADE, v INT);
    CREATE TRIGGER "app.a_log" AFTER INSERT ON "app.a" BEGIN
        INSERT INTO "app.n"(v, w) VALUES (new.id, 'logged');
    END;
    INSERT INTO "app.a" VALUES (1, 'one', 1.5, x'01'), (2, NULL, NULL, NULL), (3, 'three', 0.0, x'');
    INSERT INTO "app.k" VALUES ('a', 1, 10), ('b', 2, 20);
    INSERT INTO "app.w" VALUES (1, 'w1'), (2, 'w2');
    INSERT INTO "app.n"(v, w) VALUES (1, 'n1'), (2, 'n2');
    INSERT INTO "app.g"(id, v) VALUES (1, 1), (2, 2);
    INSERT INTO "app.p" VALUES (1), (2), (3);
    INSERT INTO "app.c" VALUES (1, 1, 0), (2, 2, 0), (3, 3, 0);
"#;

fn db() -> Connection {
    let c = Connection::open_in_memory().unwrap();
    c.execute_batch(SCHEMA).unwrap();
    c
}

/// A random statement over a few keys, so that rows are touched repeatedly.
fn statement(rng: &mut StdRng) -> String {
    let k = rng.random_range(0..6);
    let k2 = rng.random_range(0..6);
    let text = ["NULL", "'x'", "'X'", "'x '", "1", "2.5", "x'00ff'", "''"][rng.random_range(0..8)];
    let real = ["NULL", "1", "1.0", "-0.0", "2.5", "'3'"][rng.random_range(0..6)];
    let x = ["'a'", "'b'", "'c'"][rng.random_range(0..3)];
    match rng.random_range(0..24) {
        0 => format!(r#"INSERT OR REPLACE INTO "app.a" VALUES ({k}, {text}, {real}, {text})"#),
        1 => format!(r#"INSERT OR IGNORE INTO "app.a"(id, v) VALUES ({k}, {text})"#),
        2 => format!(r#"UPDATE "app.a" SET v = {text}, r = {real} WHERE id = {k}"#),
        3 => format!(r#"UPDATE OR IGNORE "app.a" SET id = {k2} WHERE id = {k}"#),
        4 => format!(r#"UPDATE OR REPLACE "app.a" SET id = {k2} WHERE id = {k}"#),
        5 => format!(r#"DELETE FROM "app.a" WHERE id = {k}"#),
        6 => format!(r#"UPDATE "app.a" SET v = v, r = r WHERE id >= {k}"#),
        7 => format!(r#"INSERT OR REPLACE INTO "app.k" VALUES ({x}, {k}, {k2})"#),
        8 => format!(r#"UPDATE OR IGNORE "app.k" SET x = {x}, v = {text} WHERE y = {k}"#),
        9 => format!(r#"DELETE FROM "app.k" WHERE x = {x}"#),
        10 => format!(r#"INSERT OR REPLACE INTO "app.w" VALUES ({k}, {text})"#),
        11 => format!(r#"UPDATE OR IGNORE "app.w" SET x = {k2} WHERE x = {k}"#),
        12 => format!(r#"DELETE FROM "app.w" WHERE x <= {k}"#),
        13 => format!(r#"INSERT INTO "app.n" VALUES ({k}, {text})"#),
        14 => format!(r#"UPDATE "app.n" SET w = {text} WHERE rowid = {k}"#),
        15 => format!(r#"DELETE FROM "app.n" WHERE v = {k}"#),
        16 => format!(r#"INSERT OR REPLACE INTO "app.g"(id, v) VALUES ({k}, {k2})"#),
        17 => format!(r#"UPDATE "app.g" SET v = {k2} WHERE id = {k}"#),
        18 => format!(r#"INSERT OR IGNORE INTO "app.p" VALUES ({k})"#),
        19 => format!(r#"UPDATE OR IGNORE "app.p" SET id = {k2} WHERE id = {k}"#),
        20 => format!(r#"DELETE FROM "app.p" WHERE id = {k}"#),
        21 => format!(r#"INSERT OR IGNORE INTO "app.c" VALUES ({k}, {k2}, {k})"#),
        22 => ["SAVEPOINT s", "RELEASE s"][rng.random_range(0..2)].to_string(),
        _ => "ROLLBACK TO s".to_string(),
    }
}

/// Runs the statements (their failures are part of the test: a failed statement undoes
/// its own changes).
fn run(c: &Connection, statements: &[String]) {
    for s in statements {
        let _ = c.execute_batch(s);
    }
}

/// A changeset as (table header, sorted changes) per table, in order.
fn canonical(cs: &[u8]) -> Vec<(Vec<u8>, Vec<Vec<u8>>)> {
    let mut out: Vec<(Vec<u8>, Vec<Vec<u8>>)> = Vec::new();
    let mut ncol = 0;
    let mut rest = cs;
    while let Some(&b) = rest.first() {
        if b == b'T' {
            let (n, h) = record::varint(&rest[1..]);
            ncol = n as usize;
            let name_end =
                1 + h + ncol + rest[1 + h + ncol..].iter().position(|&c| c == 0).unwrap();
            out.push((rest[..=name_end].to_vec(), Vec::new()));
            rest = &rest[name_end + 1..];
            continue;
        }
        let records = if b == record::UPDATE { 2 } else { 1 };
        let mut len = 2;
        for _ in 0..records * ncol {
            len += record::first_field(&rest[len..]).0;
        }
        out.last_mut().unwrap().1.push(rest[..len].to_vec());
        rest = &rest[len..];
    }
    for t in &mut out {
        t.1.sort();
    }
    out
}

/// The changeset SQLite's session module makes of `statements` (in `schema`, one table
/// or all), rolled back.
fn reference(
    c: &Connection,
    schema: &std::ffi::CStr,
    table: Option<&str>,
    before: &[String],
    statements: &[String],
) -> Vec<u8> {
    c.execute_batch("BEGIN").unwrap();
    run(c, before);
    let cs = {
        let mut s = Reference::new_in(c, schema).unwrap();
        s.attach(table).unwrap();
        run(c, statements);
        s.changeset().unwrap()
    };
    c.execute_batch("ROLLBACK").unwrap();
    cs
}

#[test]
fn records_what_sqlites_session_module_records() {
    let c = db();
    let mut rng = StdRng::seed_from_u64(7);
    let mut nonempty = 0;
    for round in 0..400 {
        let statements: Vec<String> = (0..rng.random_range(1..25))
            .map(|_| statement(&mut rng))
            .collect();
        let expected = reference(&c, c"main", None, &[], &statements);
        c.execute_batch("BEGIN").unwrap();
        let got = {
            let mut s = Session::new(&c).unwrap();
            s.attach(None).unwrap();
            run(&c, &statements);
            s.changeset().unwrap()
        };
        c.execute_batch("ROLLBACK").unwrap();
        assert_eq!(
            canonical(&got),
            canonical(&expected),
            "round {round}: {statements:#?}"
        );
        nonempty += usize::from(!expected.is_empty());
    }
    assert!(nonempty > 300, "{nonempty}");
}

#[test]
fn a_session_inside_another_records_its_own_part() {
    let c = db();
    let mut rng = StdRng::seed_from_u64(11);
    for round in 0..100 {
        let first: Vec<String> = (0..8).map(|_| statement(&mut rng)).collect();
        let second: Vec<String> = (0..8).map(|_| statement(&mut rng)).collect();
        let all: Vec<String> = first.iter().chain(&second).cloned().collect();
        let outer_expected = reference(&c, c"main", None, &[], &all);
        let inner_expected = reference(&c, c"main", Some("app.a"), &first, &second);
        c.execute_batch("BEGIN").unwrap();
        let mut outer = Session::new(&c).unwrap();
        outer.attach(None).unwrap();
        run(&c, &first);
        let inner_got = {
            let mut inner = Session::new(&c).unwrap();
            inner.attach(Some("app.a")).unwrap();
            run(&c, &second);
            inner.changeset().unwrap()
        };
        let outer_got = outer.changeset().unwrap();
        drop(outer);
        c.execute_batch("ROLLBACK").unwrap();
        assert_eq!(
            canonical(&inner_got),
            canonical(&inner_expected),
            "round {round}"
        );
        assert_eq!(
            canonical(&outer_got),
            canonical(&outer_expected),
            "round {round}"
        );
    }
}

#[test]
fn records_temporary_tables_in_their_schema() {
    let c = db();
    c.execute_batch(r#"CREATE TEMP TABLE "app.t"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "app.t" VALUES (1, 'a')"#)
        .unwrap();
    let statements: Vec<String> = [
        r#"INSERT INTO "app.t" VALUES (2, 'b')"#,
        r#"UPDATE "app.t" SET v = 'z' WHERE id = 1"#,
        r#"DELETE FROM "app.a" WHERE id = 1"#,
    ]
    .map(String::from)
    .to_vec();
    for schema in [c"temp", c"main"] {
        let expected = reference(&c, schema, None, &[], &statements);
        c.execute_batch("BEGIN").unwrap();
        let got = {
            let mut s = Session::new_in(&c, schema).unwrap();
            s.attach(None).unwrap();
            run(&c, &statements);
            s.changeset().unwrap()
        };
        c.execute_batch("ROLLBACK").unwrap();
        assert!(!got.is_empty());
        assert_eq!(canonical(&got), canonical(&expected), "{schema:?}");
    }
}

#[test]
fn counts_each_deletion_a_replace_makes() {
    let c = db();
    c.execute_batch("BEGIN").unwrap();
    let mut s = Session::new(&c).unwrap();
    s.attach(None).unwrap();
    // Row 1 put back as it was: a deletion, though the changeset holds nothing for it.
    c.execute_batch(r#"INSERT OR REPLACE INTO "app.a" VALUES (1, 'one', 1.5, x'01')"#)
        .unwrap();
    assert_eq!(s.deletes(), 1);
    // A keyed table without a rowid, then a plain DELETE of two rows.
    c.execute_batch(r#"INSERT OR REPLACE INTO "app.w" VALUES (1, 'w1')"#)
        .unwrap();
    c.execute_batch(r#"DELETE FROM "app.k""#).unwrap();
    assert_eq!(s.deletes(), 4);
    drop(s);
    c.execute_batch("ROLLBACK").unwrap();
}
