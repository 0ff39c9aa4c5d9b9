//! The translations run on a real SQLite (the bundled one tutti uses) with tutti's SQL
//! functions, and stand-ins for the clock (`NOW`, `CURDATE`) and `tutti_autoinc`.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use rusqlite::functions::FunctionFlags;
use rusqlite::types::Value as V;
use rusqlite::{params_from_iter, Connection};

use super::schema::SYSBENCH_CREATE;
use super::*;
use tutti_wsrep::Ddl;

const FLAGS: FunctionFlags = FunctionFlags::SQLITE_UTF8;

/// An in-memory database with tutti's functions stubbed: ids come from 1000 upwards.
fn db() -> Connection {
    let c = Connection::open_in_memory().unwrap();
    tutti_storage::register_sql_functions(&c).unwrap();
    let next = Arc::new(AtomicI64::new(1000));
    c.create_scalar_function("tutti_autoinc", 1, FLAGS, move |ctx| {
        let x: Option<i64> = ctx.get(0)?;
        Ok(match x {
            Some(v) if v != 0 => v,
            _ => next.fetch_add(1, Ordering::Relaxed),
        })
    })
    .unwrap();
    c.create_scalar_function("NOW", -1, FLAGS, |_| Ok("2024-01-31 10:00:00".to_string()))
        .unwrap();
    c.create_scalar_function("CURDATE", 0, FLAGS, |_| Ok("2024-01-31".to_string()))
        .unwrap();
    c
}

/// Runs every statement of a request; returns the rows of the last query.
fn run(c: &Connection, env: &TestEnv, sql: &str, params: &[V]) -> Vec<Vec<V>> {
    let mut last = vec![];
    for stmt in translate(sql, env).unwrap_or_else(|e| panic!("{sql}: {e}")) {
        match stmt {
            Stmt::Ddl(DdlStmt {
                ddl: Ddl::Schema { statements, .. },
                ..
            })
            | Stmt::DropTables(DropTables {
                ddl:
                    DdlStmt {
                        ddl: Ddl::Schema { statements, .. },
                        ..
                    },
                ..
            }) => {
                for s in statements {
                    c.execute_batch(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
                }
            }
            Stmt::Ddl(_) | Stmt::Begin { .. } | Stmt::Commit | Stmt::Noop(_) => {}
            Stmt::Query(q) => {
                assert_eq!(q.params, params.len(), "{}", q.sql);
                let mut st = c
                    .prepare(&q.sql)
                    .unwrap_or_else(|e| panic!("{}: {e}", q.sql));
                let n = st.column_count();
                let rows = st.query_map(params_from_iter(params.iter()), |r| {
                    (0..n)
                        .map(|i| r.get::<_, V>(i))
                        .collect::<Result<Vec<_>, _>>()
                });
                last = rows
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap_or_else(|e| panic!("{}: {e}", q.sql));
            }
            other => panic!("{sql}: unexpected {other:?}"),
        }
    }
    last
}

/// Column names SQLite reports for a query.
fn column_names(c: &Connection, env: &TestEnv, sql: &str) -> Vec<String> {
    let Stmt::Query(q) = translate(sql, env).unwrap().remove(0) else {
        panic!()
    };
    let st = c.prepare(&q.sql).unwrap();
    st.column_names().map(str::to_string).collect()
}

fn int(i: i64) -> V {
    V::Integer(i)
}

fn text(s: &str) -> V {
    V::Text(s.into())
}

fn one_value(rows: Vec<Vec<V>>) -> V {
    assert_eq!(rows.len(), 1, "{rows:?}");
    rows.into_iter().next().unwrap().into_iter().next().unwrap()
}

#[test]
fn sysbench_runs_on_sqlite() {
    let c = db();
    let env = TestEnv::new().with_db("app").with_sbtest();
    run(&c, &env, "CREATE DATABASE IF NOT EXISTS app", &[]);
    run(&c, &env, SYSBENCH_CREATE, &[]);
    run(&c, &env, "CREATE INDEX k_1 ON sbtest1(k)", &[]);
    run(
        &c,
        &env,
        "INSERT INTO sbtest1(k, c, pad) VALUES(4993, 'c1', 'p1'),(5012, 'c2', 'p2')",
        &[],
    );
    run(
        &c,
        &env,
        "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)",
        &[V::Null, int(7), text("c3"), text("p3")],
    );
    run(
        &c,
        &env,
        "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)",
        &[int(50), int(8), text("c4"), text("p4")],
    );
    let ids = run(&c, &env, "SELECT id FROM sbtest1 ORDER BY id", &[]);
    assert_eq!(ids, [[int(50)], [int(1000)], [int(1001)], [int(1002)]]);
    // The AUTO_INCREMENT column is the rowid alias.
    assert_eq!(
        one_value(run(
            &c,
            &env,
            "SELECT COUNT(*) FROM sbtest1 WHERE rowid = id",
            &[]
        )),
        int(4)
    );
    assert_eq!(
        run(&c, &env, "SELECT c FROM sbtest1 WHERE id=?", &[int(1001)]),
        [[text("c2")]]
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?",
            &[int(1000), int(1001)]
        )
        .len(),
        2
    );
    assert_eq!(
        one_value(run(
            &c,
            &env,
            "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?",
            &[int(1), int(1001)]
        )),
        // SUM of integers is a DECIMAL, exact past 2^63 - 1.
        text("10013")
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c",
            &[int(1), int(2000)]
        ),
        [[text("c1")], [text("c2")], [text("c3")], [text("c4")]]
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 1 AND 2000 ORDER BY c",
            &[]
        )
        .len(),
        4
    );
    run(&c, &env, "UPDATE sbtest1 SET k=k+1 WHERE id=?", &[int(50)]);
    run(
        &c,
        &env,
        "UPDATE sbtest1 SET c=? WHERE id=?",
        &[text("new"), int(50)],
    );
    assert_eq!(
        run(&c, &env, "SELECT k, c FROM sbtest1 WHERE id=50", &[]),
        [[int(9), text("new")]]
    );
    run(&c, &env, "DELETE FROM sbtest1 WHERE id=?", &[int(50)]);
    run(
        &c,
        &env,
        "BEGIN; DELETE FROM sbtest1 WHERE id=1000; COMMIT",
        &[],
    );
    assert_eq!(
        one_value(run(&c, &env, "SELECT COUNT(*) FROM sbtest1", &[])),
        int(2)
    );
    assert_eq!(
        column_names(
            &c,
            &env,
            "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 1 AND 2"
        ),
        ["SUM(k)"]
    );
    assert_eq!(
        column_names(&c, &env, "select @@version_comment limit 1"),
        ["@@version_comment"]
    );
    assert_eq!(column_names(&c, &env, "SELECT DATABASE()"), ["DATABASE()"]);
    assert_eq!(
        run(&c, &env, "SELECT @@session.tx_isolation", &[]),
        [[text("REPEATABLE-READ")]]
    );
    run(&c, &env, "DROP TABLE IF EXISTS sbtest1", &[]);
    run(&c, &env, "DROP TABLE IF EXISTS sbtest1", &[]);
}

/// `app.t` (id INT PK, a INT, b VARCHAR, d TEXT DEFAULT 'dflt') and `app.u` (AUTO_INCREMENT).
fn tables() -> (Connection, TestEnv) {
    let c = db();
    let env = super::env();
    run(&c, &env, "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), d TEXT DEFAULT 'dflt', KEY ia (a))", &[]);
    run(
        &c,
        &env,
        "CREATE TABLE u (id INT AUTO_INCREMENT PRIMARY KEY, a INT UNIQUE)",
        &[],
    );
    run(
        &c,
        &env,
        "CREATE TABLE other.t (id INT PRIMARY KEY, a INT)",
        &[],
    );
    run(
        &c,
        &env,
        "INSERT INTO t (id, a, b) VALUES (1, 10, 'One'), (2, 20, 'two'), (3, 30, 'Three')",
        &[],
    );
    run(
        &c,
        &env,
        "INSERT INTO other.t VALUES (1, 100), (2, 200)",
        &[],
    );
    (c, env)
}

#[test]
fn writes_run_on_sqlite() {
    let (c, env) = tables();
    run(
        &c,
        &env,
        "INSERT INTO t (id, a) VALUES (1, 11) AS new ON DUPLICATE KEY UPDATE a = new.a + t.a",
        &[],
    );
    run(&c, &env, "INSERT INTO t (id, a) VALUES (2, 5) ON DUPLICATE KEY UPDATE a = VALUES(a), b = CONCAT(b, '!')", &[]);
    run(
        &c,
        &env,
        "INSERT INTO t (id, a) SELECT id, a FROM other.t ON DUPLICATE KEY UPDATE a = VALUES(a) + 1",
        &[],
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT a, b FROM t WHERE id <= 2 ORDER BY id",
            &[]
        ),
        [[int(101), text("One")], [int(201), text("two!")]]
    );
    run(
        &c,
        &env,
        "INSERT IGNORE INTO t (id, a) VALUES (3, 0), (4, 40)",
        &[],
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT a, d FROM t WHERE id >= 3 ORDER BY id",
            &[]
        ),
        [[int(30), text("dflt")], [int(40), text("dflt")]]
    );
    run(&c, &env, "REPLACE INTO t (id, a) VALUES (4, 44)", &[]);
    run(
        &c,
        &env,
        "INSERT INTO t SET id = 5, a = 50, b = DEFAULT",
        &[],
    );
    run(
        &c,
        &env,
        "UPDATE t SET a = a + 1000 WHERE a > 0 ORDER BY id DESC LIMIT 2",
        &[],
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT id, a FROM t WHERE a > 1000 ORDER BY id",
            &[]
        ),
        [[int(4), int(1044)], [int(5), int(1050)]]
    );
    run(
        &c,
        &env,
        "DELETE FROM t WHERE a > ? ORDER BY id LIMIT 1",
        &[int(1000)],
    );
    assert_eq!(
        one_value(run(&c, &env, "SELECT COUNT(*) FROM t", &[])),
        int(4)
    );
    // AUTO_INCREMENT through tutti_autoinc, in every form.
    run(&c, &env, "INSERT INTO u (a) VALUES (1), (2)", &[]);
    run(&c, &env, "INSERT INTO u VALUES (NULL, 3), (7, 4)", &[]);
    run(&c, &env, "INSERT INTO u () VALUES ()", &[]);
    run(
        &c,
        &env,
        "INSERT INTO u (a) SELECT a + 100 FROM t WHERE id = 1",
        &[],
    );
    run(
        &c,
        &env,
        "INSERT INTO u (a) VALUES (1) ON DUPLICATE KEY UPDATE a = a + 10",
        &[],
    );
    assert_eq!(
        run(&c, &env, "SELECT id, a FROM u ORDER BY id", &[]),
        [
            [int(7), int(4)],
            [int(1000), int(11)],
            [int(1001), int(2)],
            [int(1002), int(3)],
            [int(1003), V::Null],
            [int(1004), int(201)]
        ]
    );
    run(&c, &env, "TRUNCATE TABLE u", &[]);
    assert_eq!(
        one_value(run(&c, &env, "SELECT COUNT(*) FROM u", &[])),
        int(0)
    );
}

#[test]
fn strings_compare_in_the_default_collation() {
    let (c, env) = tables();
    let v = |sql: &str| one_value(run(&c, &env, sql, &[]));
    for (sql, want) in [
        ("SELECT 'a' = 'A'", 1),
        ("SELECT 'a' = 'a  '", 1),
        ("SELECT 'é' = 'E'", 1),
        ("SELECT 'a' < 'B'", 1),
        ("SELECT 'a' IN ('B', 'A')", 1),
        ("SELECT 'a' NOT IN ('B', 'A')", 0),
        ("SELECT CONCAT('a', 'b') = 'AB'", 1),
        ("SELECT 'a' = BINARY 'A'", 0),
        ("SELECT 'a' = 'A' COLLATE utf8mb4_bin", 0),
        ("SELECT 'a' COLLATE utf8mb4_bin = 'A'", 0),
        ("SELECT COUNT(*) FROM t WHERE b = 'one  '", 1),
        ("SELECT COUNT(*) FROM t WHERE b = 'ONÉ'", 1),
        ("SELECT COUNT(*) FROM t WHERE UPPER(b) = 'one'", 1),
        ("SELECT COUNT(*) FROM t WHERE 'THREE' = b", 1),
    ] {
        assert_eq!(v(sql), int(want), "{sql}");
    }
}

/// The catalog's definition of `app.t`, with its columns' collations.
fn catalog_sql(c: &Connection) -> String {
    c.query_row(
        "SELECT sql FROM sqlite_master WHERE name = 'app.t'",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

/// MariaDB's answers under `SET NAMES … COLLATE …` and `SET NAMES binary`: literals take
/// the connection's collation, a column keeps its own.
#[test]
fn literals_compare_in_the_connection_collation() {
    let (c, _) = tables();
    let sql = catalog_sql(&c);
    let named = |collation: &str| {
        super::env()
            .with_create_sql("app", "t", sql.clone())
            .with_var("collation_connection", Value::Text(collation.into()))
    };
    let cases: [(&str, &[(&str, i64)]); 3] = [
        (
            "utf8mb4_bin",
            &[
                ("SELECT 'a' = 'A'", 0),
                ("SELECT 'a' = 'a '", 1),
                ("SELECT 'a' LIKE 'A'", 0),
                ("SELECT 'a' IN ('A')", 0),
                ("SELECT 'B' BETWEEN 'a' AND 'c'", 0),
                ("SELECT 'a' IN (SELECT 'A')", 0),
                ("SELECT ('a', 'b') = ('A', 'B')", 0),
                ("SELECT COUNT(*) FROM (SELECT 'a' x UNION SELECT 'A') d", 2),
                ("SELECT COUNT(*) FROM t WHERE b = 'ONE'", 1),
                ("SELECT COUNT(*) FROM t WHERE b LIKE 'ONE'", 1),
                ("SELECT COUNT(*) FROM t WHERE UPPER(b) = 'one'", 1),
            ],
        ),
        (
            "utf8mb4_unicode_ci",
            &[("SELECT 'ß' = 'ss'", 1), ("SELECT 'a' LIKE 'A'", 1)],
        ),
        (
            "binary",
            &[
                ("SELECT 'a' = 'A'", 0),
                ("SELECT 'a' = 'a '", 0),
                ("SELECT 'a' LIKE 'A'", 0),
                ("SELECT 'a' = 'a'", 1),
            ],
        ),
    ];
    for (collation, statements) in cases {
        let env = named(collation);
        for (sql, want) in statements {
            let got = one_value(run(&c, &env, sql, &[]));
            assert_eq!(got, int(*want), "{collation}: {sql}");
        }
    }
}

#[test]
fn queries_run_on_sqlite() {
    let (c, env) = tables();
    let v = |sql: &str| one_value(run(&c, &env, sql, &[]));
    assert_eq!(v("SELECT COUNT(*) FROM t WHERE b = 'ONE'"), int(1)); // general_ci, like MySQL
    assert_eq!(v("SELECT COUNT(*) FROM t WHERE BINARY b = 'ONE'"), int(0));
    assert_eq!(
        v("SELECT COUNT(*) FROM t WHERE BINARY b = 'One' AND a = 10"),
        int(1)
    );
    assert_eq!(v("SELECT 7 DIV 2"), int(3));
    assert_eq!(v("SELECT 7 / 2"), text("3.5000"));
    assert_eq!(v("SELECT 7 MOD 4"), int(3));
    assert_eq!(v("SELECT 5 ^ 3"), int(6));
    assert_eq!(v("SELECT 1 XOR 1"), int(0));
    assert_eq!(v("SELECT NULL <=> NULL"), int(1));
    assert_eq!(v("SELECT 1 = 2 || 2 = 2"), int(1));
    assert_eq!(v("SELECT CAST('12abc' AS SIGNED)"), int(12));
    assert_eq!(v("SELECT CONVERT(12, CHAR)"), text("12"));
    assert_eq!(
        v("SELECT CAST('2024-01-31 10:11:12' AS DATE)"),
        text("2024-01-31")
    );
    assert_eq!(
        v("SELECT DATE '2024-01-31' + INTERVAL 1 MONTH"),
        text("2024-02-29")
    );
    assert_eq!(
        v("SELECT DATE_SUB('2024-03-01 00:00:00', INTERVAL 1 DAY)"),
        text("2024-02-29 00:00:00")
    );
    assert_eq!(
        v("SELECT NOW() - INTERVAL 2 HOUR"),
        text("2024-01-31 08:00:00")
    );
    assert_eq!(v("SELECT CURDATE() + INTERVAL 1 WEEK"), text("2024-02-07"));
    // As MariaDB 10.11 answers them.
    for (sql, want) in [
        (
            "DATE_ADD('1997-12-31 23:59:59', INTERVAL '1:1' MINUTE_SECOND)",
            "1998-01-01 00:01:00",
        ),
        (
            "CAST('2024-01-01 10:00:00.123' AS DATETIME(3)) + INTERVAL 1 DAY",
            "2024-01-02 10:00:00.123",
        ),
        ("CAST('10:00:00' AS TIME) + INTERVAL 1 DAY", "34:00:00"),
        ("SEC_TO_TIME(36000) - INTERVAL '11' HOUR", "-01:00:00"),
        ("ADDDATE('2000-01-01', 31)", "2000-02-01"),
        (
            "SUBDATE('2000-01-01', INTERVAL '1-1' YEAR_MONTH)",
            "1998-12-01",
        ),
        (
            "TIMESTAMPADD(MICROSECOND, 1, '2000-01-01')",
            "2000-01-01 00:00:00.000001",
        ),
    ] {
        assert_eq!(v(&format!("SELECT {sql}")), text(want), "{sql}");
    }
    assert_eq!(
        v("SELECT EXTRACT(DAY_MINUTE FROM '2004-01-15 10:11:12')"),
        int(151011)
    );
    assert_eq!(v("SELECT EXTRACT(QUARTER FROM '2004-05-15')"), int(2));
    assert_eq!(
        v("SELECT GROUP_CONCAT(a ORDER BY a DESC SEPARATOR '-') FROM t"),
        text("30-20-10")
    );
    assert_eq!(
        v("SELECT GROUP_CONCAT(DISTINCT b ORDER BY b) FROM t"),
        text("One,Three,two")
    );
    // hex and bit literals are binary strings: so is the CONCAT
    assert_eq!(
        v(r#"SELECT CONCAT("it's", ' a\\b', 0x41, x'42', b'1000011')"#),
        V::Blob(b"it's a\\bABC".to_vec())
    );
    assert_eq!(v("SELECT TRUE + TRUE"), int(2));
    assert_eq!(v("SELECT EXTRACT(MONTH FROM '2024-05-06')"), int(5));
    assert_eq!(v("SELECT SUBSTRING('abcdef' FROM 2 FOR 3)"), text("bcd"));
    assert_eq!(v("SELECT TRIM(LEADING 'x' FROM 'xxab')"), text("ab"));
    assert_eq!(v("SELECT POSITION('c' IN 'abc')"), int(3));
    assert_eq!(v("SELECT COUNT(*) FROM t WHERE b REGEXP '^T'"), int(2));
    assert_eq!(
        v("SELECT IF(a > 15, 'big', 'small') FROM t WHERE id = 1"),
        text("small")
    );
    assert_eq!(
        v("SELECT SUM(x.a) FROM t JOIN other.t AS x ON t.id = x.id"),
        int(300)
    );
    assert_eq!(v("SELECT MAX(app.t.a) FROM app.t WHERE EXISTS (SELECT 1 FROM other.t o WHERE o.id = t.id)"), int(20));
    assert_eq!(v("WITH big AS (SELECT id FROM t WHERE a > 10) SELECT COUNT(*) FROM big JOIN t ON big.id = t.id"), int(2));
    assert_eq!(v("WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT SUM(i) FROM n"), int(15));
    assert_eq!(
        run(
            &c,
            &env,
            "(SELECT a FROM t ORDER BY a DESC LIMIT 1) UNION (SELECT a FROM other.t) ORDER BY 1",
            &[]
        ),
        [[int(30)], [int(100)], [int(200)]]
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT a FROM t ORDER BY a LIMIT ?, ?",
            &[int(1), int(1)]
        ),
        [[int(20)]]
    );
    assert_eq!(
        run(&c, &env, "SELECT a FROM t WHERE id = 1 FOR UPDATE", &[]),
        [[int(10)]]
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT a FROM t WHERE id = 1 LOCK IN SHARE MODE",
            &[]
        ),
        [[int(10)]]
    );
    assert_eq!(run(&c, &env, "SELECT 1 FROM DUAL", &[]), [[int(1)]]);
    assert_eq!(
        column_names(
            &c,
            &env,
            "SELECT a, t.b, a + 1, 'lit', COUNT(*) AS n, @@max_allowed_packet FROM t"
        ),
        ["a", "b", "a + 1", "lit", "n", "@@max_allowed_packet"]
    );
    // MariaDB's names: the column as written, the expression's text as typed.
    assert_eq!(
        column_names(
            &c,
            &env,
            "SELECT SQL_NO_CACHE A, T.B, count(*), NULLIF(a,  1), a /* c */ +1, (1), (a), \
             /* first */ ( a+1 ), null, true, 'x' 'y', _utf8mb4'z', x'41', - 1, +2, \
             CASE WHEN a THEN (SELECT max(b) FROM t) END FROM t AS T GROUP BY a, T.b"
        ),
        [
            "A",
            "B",
            "count(*)",
            "NULLIF(a,  1)",
            "a /* c */ +1",
            "1",
            "a",
            "/* first */ ( a+1 )",
            "NULL",
            "TRUE",
            "xy",
            "z",
            "x'41'",
            "- 1",
            "2",
            "CASE WHEN a THEN (SELECT max(b) FROM t) END"
        ]
    );
    assert_eq!(
        column_names(&c, &env, "SELECT * FROM (SELECT a+0, max( b ) FROM t) d"),
        ["a+0", "max( b )"]
    );
    run(
        &c,
        &env,
        "CREATE VIEW v AS SELECT id, a * 2 AS twice FROM t",
        &[],
    );
    assert_eq!(v("SELECT SUM(twice) FROM v"), int(120));
    run(&c, &env, "CREATE OR REPLACE VIEW v AS SELECT 1 AS one", &[]);
    assert_eq!(v("SELECT one FROM v"), int(1));
    run(&c, &env, "DROP VIEW v", &[]);
}

#[test]
fn schema_changes_run_on_sqlite() {
    let c = db();
    let env = TestEnv::new().with_db("app");
    run(
        &c,
        &env,
        "CREATE TABLE IF NOT EXISTS p (id INT PRIMARY KEY)",
        &[],
    );
    let big = "CREATE TABLE IF NOT EXISTS t2 (a INT(11) NOT NULL, b VARCHAR(10) COLLATE utf8mb4_bin, \
        c ENUM('x','y') NOT NULL DEFAULT 'x', d JSON, e BOOL DEFAULT TRUE, \
        ts TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, f DECIMAL(10,2) DEFAULT -1.5, \
        g BIGINT UNSIGNED DEFAULT (1 + 1), h SET('p','q'), i TEXT, j BLOB, k DOUBLE, m YEAR, `key` INT, \
        PRIMARY KEY (a), KEY (b), KEY (b, c), UNIQUE KEY uk (d(10)), INDEX idx USING BTREE (e DESC), \
        CONSTRAINT fk FOREIGN KEY (g) REFERENCES p(id) ON DELETE CASCADE, CHECK (g > 0)) \
        ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 AUTO_INCREMENT=5 COMMENT='x' ROW_FORMAT=DYNAMIC";
    run(&c, &env, big, &[]);
    run(&c, &env, big, &[]); // IF NOT EXISTS, indexes included
    run(&c, &env, "INSERT INTO p VALUES (2)", &[]);
    run(
        &c,
        &env,
        "INSERT INTO t2 (a, b, c) VALUES (1, 'B', 'Y')",
        &[],
    );
    let bad = translate("INSERT INTO t2 (a, c) VALUES (2, 'z')", &env).unwrap();
    let Stmt::Query(bad) = &bad[0] else { panic!() };
    assert!(
        c.execute(&bad.sql, []).is_err(),
        "ENUM check must reject 'z'"
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT e, f, g, c = 'y', b = 'b', ts IS NOT NULL FROM t2",
            &[]
        ),
        [[int(1), text("-1.50"), int(2), int(1), int(0), int(1)]]
    );
    let decl: Vec<(String, String)> = c
        .prepare(
            "SELECT name, type FROM pragma_table_info('app.t2') WHERE name IN ('a', 'd', 'e', 'g')",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        decl,
        [
            ("a".into(), "INT".into()),
            ("d".into(), "JSON TEXT".into()),
            ("e".into(), "TINYINT(1)".into()),
            ("g".into(), "BIGINT UNSIGNED".into())
        ]
    );
    let env = env.with_table(
        "app",
        "t2",
        &[("a", "INT"), ("b", "VARCHAR(10)"), ("g", "BIGINT UNSIGNED")],
        &["a"],
        None,
        &[("b", &["b"]), ("b_2", &["b", "c"]), ("uk", &["d"])],
    );
    let env = env.with_create_sql("app", "t2", create_sql(&c, "app.t2"));
    run(
        &c,
        &env,
        "ALTER TABLE t2 ADD COLUMN n INT NOT NULL DEFAULT 0 AFTER a, ADD o VARCHAR(5) FIRST, \
         RENAME COLUMN i TO i2, ADD INDEX io (o), ADD UNIQUE KEY (n, a), ENGINE=InnoDB",
        &[],
    );
    // The rebuild kept the row, placed the columns and renamed i.
    let cols: Vec<String> = c
        .prepare("SELECT name FROM pragma_table_info('app.t2')")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(cols[..4], ["o", "a", "n", "b"]);
    assert!(cols.contains(&"i2".to_string()), "{cols:?}");
    let row: (Option<String>, i64, i64, String) = c
        .query_row(r#"SELECT o, a, n, b FROM "app.t2""#, [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .unwrap();
    assert_eq!(row, (None, 1, 0, "B".to_string()));
    run(&c, &env, "ALTER TABLE t2 DROP COLUMN d", &[]); // drops its index uk first
    let env = TestEnv::new().with_db("app").with_table(
        "app",
        "t2",
        &[("a", "INT"), ("b", "VARCHAR(10)")],
        &["a"],
        None,
        &[("b", &["b"]), ("b_2", &["b", "c"])],
    );
    let env = env.with_create_sql("app", "t2", create_sql(&c, "app.t2"));
    run(&c, &env, "ALTER TABLE t2 CHANGE a a2 INT NOT NULL", &[]);
    run(&c, &env, "CREATE UNIQUE INDEX ux ON t2 (k, m)", &[]);
    run(&c, &env, "RENAME TABLE t2 TO t3", &[]);
    let names: Vec<String> = c
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'app.t3' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        names.contains(&"app.t3.b".to_string()) && names.contains(&"app.t3.b_2".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"app.t2.io".to_string()),
        "indexes unknown to the catalog keep their name: {names:?}"
    );
    run(&c, &env, "TRUNCATE t3", &[]);
    run(&c, &env, "DROP TABLE IF EXISTS t3, p", &[]);
}

/// A table's SQLite definition as the database holds it.
fn create_sql(c: &Connection, table: &str) -> String {
    c.query_row(
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
        [table],
        |r| r.get(0),
    )
    .unwrap()
}

/// The SQLite error a one-query statement fails with when run.
fn run_error(c: &Connection, env: &TestEnv, sql: &str) -> String {
    let q = match translate(sql, env)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .pop()
    {
        Some(Stmt::Query(q)) => q,
        other => panic!("{sql}: unexpected {other:?}"),
    };
    let mut st = c
        .prepare(&q.sql)
        .unwrap_or_else(|e| panic!("{}: {e}", q.sql));
    let e = st.query_row([], |r| r.get::<_, V>(0)).unwrap_err();
    e.to_string()
}

#[test]
fn row_columns_outer_aggregates_and_unsigned_arithmetic_run_on_sqlite() {
    let (c, env) = tables();
    // A value naming the row's columns: one given earlier, or the default.
    run(
        &c,
        &env,
        "INSERT INTO t SET id = 5, a = id * 10, b = CONCAT(d, '!')",
        &[],
    );
    assert_eq!(
        run(&c, &env, "SELECT a, b FROM t WHERE id = 5", &[]),
        [[int(50), text("dflt!")]]
    );
    // An aggregate of the outer query in a subquery's WHERE.
    let outer = "SELECT MAX(a), (SELECT x.b FROM t AS x WHERE x.a = MAX(t.a)) FROM t \
                 WHERE id <= 3 GROUP BY id % 2 ORDER BY 1";
    assert_eq!(
        run(&c, &env, outer, &[]),
        [[int(20), text("two")], [int(30), text("Three")]]
    );
    // Unsigned arithmetic stays unsigned.
    assert_eq!(
        run(&c, &env, "SELECT 9223372036854775808 + 1", &[]),
        [[text("9223372036854775809")]]
    );
    for sql in [
        "SELECT CAST(1 AS UNSIGNED) - 2",
        "SELECT 18446744073709551615 + 1",
    ] {
        let e = run_error(&c, &env, sql);
        assert!(
            e.contains("BIGINT UNSIGNED value is out of range"),
            "{sql}: {e}"
        );
    }
    // A DATETIME compared with a number column reads the number as a datetime.
    run(
        &c,
        &env,
        "CREATE TABLE dt (id INT PRIMARY KEY, d DATETIME, n DOUBLE)",
        &[],
    );
    let columns = [("id", "INT"), ("d", "DATETIME"), ("n", "DOUBLE")];
    let env = env.with_table("app", "dt", &columns, &["id"], None, &[]);
    run(
        &c,
        &env,
        "INSERT INTO dt VALUES (1, '1999-01-01 00:00:00', 990101000000)",
        &[],
    );
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT id FROM dt WHERE d = n AND '99-01-01' BETWEEN d AND d",
            &[]
        ),
        [[int(1)]]
    );
}

#[test]
fn select_list_aliases_reach_subqueries() {
    let (c, env) = tables();
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT 1 AS x, (SELECT x + x) AS y, (SELECT y)",
            &[]
        ),
        [[int(1), int(2), int(2)]]
    );
    run(&c, &env, "INSERT INTO u (a) VALUES (3), (5)", &[]);
    let sql = "SELECT LENGTH(b) AS k, (SELECT x.a + 1 FROM u AS x WHERE x.a = k) FROM t \
               WHERE id = 2";
    assert_eq!(run(&c, &env, sql, &[]), [[int(3), int(4)]]);
}

#[test]
fn ties_joins_dates_and_binary_searches_run_on_sqlite() {
    let (c, env) = tables();
    // GROUP_CONCAT's ties come out in reverse arrival order, as from MariaDB's tree.
    run(
        &c,
        &env,
        "INSERT INTO t (id, a, b) VALUES (4, 10, 'Four')",
        &[],
    );
    assert_eq!(
        run(&c, &env, "SELECT GROUP_CONCAT(b ORDER BY a) FROM t", &[]),
        [[text("Four,One,two,Three")]]
    );
    // `t1, t2 RIGHT JOIN t3`: the comma binds looser, so every t1 row is kept.
    run(&c, &env, "CREATE TABLE r (i INT PRIMARY KEY)", &[]);
    run(&c, &env, "INSERT INTO r VALUES (1), (2)", &[]);
    let comma = "SELECT r.i, x.id, y.id FROM r, t AS x RIGHT JOIN u AS y ON x.id = y.id \
                 ORDER BY r.i, y.id";
    run(&c, &env, "INSERT INTO u (id, a) VALUES (1, 7), (9, 8)", &[]);
    assert_eq!(
        run(&c, &env, comma, &[]),
        [
            [int(1), int(1), int(1)],
            [int(1), V::Null, int(9)],
            [int(2), int(1), int(1)],
            [int(2), V::Null, int(9)]
        ]
    );
    // LEAST/GREATEST of a DATE and strings compare dates.
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT LEAST(CAST('01-01-01' AS DATE), '01-01-02'), \
             GREATEST(CAST('01-01-01' AS DATE), '01-01-02') + 0",
            &[]
        ),
        [[text("2001-01-01"), text("20010102")]]
    );
    // CAST AS DOUBLE(M,D) rounds and clamps.
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT CAST(12.444 AS DOUBLE(5,2)), CAST(1000 AS DOUBLE(5,2))",
            &[]
        ),
        [[V::Real(12.44), V::Real(999.99)]]
    );
    // A _bin collation makes LOCATE, POSITION and FIELD case-sensitive.
    assert_eq!(
        run(
            &c,
            &env,
            "SELECT LOCATE('HE', 'hello' COLLATE utf8mb4_bin), POSITION('b' COLLATE \
             utf8mb4_bin IN 'aBb'), FIELD('b' COLLATE utf8mb4_bin, 'B', 'b'), LOCATE('HE', 'hello')",
            &[]
        ),
        [[int(0), int(3), int(2), int(1)]]
    );
}

#[test]
fn distinct_group_by_and_order_by_of_computed_strings_use_the_default_collation() {
    let (c, env) = tables();
    let env = env.with_create_sql("app", "t", catalog_sql(&c));
    run(
        &c,
        &env,
        "INSERT INTO t (id, a, b) VALUES (4, 40, 'one '), (5, 50, 'ONE')",
        &[],
    );
    let rows = |sql: &str| run(&c, &env, sql, &[]).len();
    // MariaDB's counts: 'One', 'one ' and 'ONE' are one value in utf8mb4_general_ci.
    assert_eq!(rows("SELECT DISTINCT LOWER(b) FROM t"), 3);
    assert_eq!(
        rows("SELECT CONCAT(b, '') FROM t GROUP BY CONCAT(b, '')"),
        3
    );
    assert_eq!(rows("SELECT DISTINCT UPPER(b), a > 20 FROM t"), 4);
    assert_eq!(rows("SELECT DISTINCT BINARY LOWER(b) FROM t"), 4);
    assert_eq!(rows("SELECT DISTINCT CONCAT(a, 'x') FROM t"), 5);
    assert_eq!(rows("SELECT DISTINCT b FROM t"), 3);
    let column = |sql: &str| -> Vec<V> {
        run(&c, &env, sql, &[])
            .into_iter()
            .map(|r| r[0].clone())
            .collect()
    };
    // general_ci sorts 'a' before 'B'; SQLite's bytes would put 'B' first.
    run(&c, &env, "UPDATE t SET b = 'a' WHERE id = 2", &[]);
    run(&c, &env, "UPDATE t SET b = 'B' WHERE id = 3", &[]);
    let ids = [int(2), int(3)];
    assert_eq!(
        column("SELECT id FROM t WHERE id IN (2, 3) ORDER BY CONCAT(b, '')"),
        ids
    );
    assert_eq!(
        column("SELECT id, LOWER(b) AS x FROM t WHERE id IN (2, 3) ORDER BY UPPER(b)"),
        ids
    );
    assert_eq!(
        column("SELECT id, CONCAT(b, '') AS x FROM t WHERE id IN (2, 3) ORDER BY x"),
        ids
    );
    assert_eq!(
        column("SELECT id FROM t WHERE id IN (2, 3) ORDER BY BINARY CONCAT(b, '')"),
        [int(3), int(2)]
    );
}
