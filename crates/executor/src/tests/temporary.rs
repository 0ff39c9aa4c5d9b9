//! Temporary tables: the session's own, never replicated, transactional like InnoDB's.

use super::*;

fn ints(s: &mut Session, sql: &str) -> Vec<i64> {
    rows(s, sql)
        .into_iter()
        .map(|r| match r[0] {
            Value::Int(i) => i,
            ref other => panic!("{sql}: {other:?}"),
        })
        .collect()
}

fn unsupported(e: &ExecError) -> bool {
    matches!(e, ExecError::Sql(tutti_sql::SqlError::Unsupported(_)))
}

#[test]
fn a_temporary_table_is_the_sessions_own_and_never_replicated() {
    let f = fixture();
    let mut s = f.session();
    ok(&mut s, "CREATE DATABASE d; USE d");
    ok(&mut s, "CREATE TABLE t (a INT PRIMARY KEY)");
    ok(
        &mut s,
        "CREATE TABLE r (a INT PRIMARY KEY, name VARCHAR(5))",
    );
    ok(
        &mut s,
        "INSERT INTO t VALUES (1); INSERT INTO r VALUES (7, 'x')",
    );
    let before = f.repl.applied();
    ok(&mut s, "CREATE TEMPORARY TABLE t (a INT, b INT)");
    ok(&mut s, "INSERT INTO t VALUES (7, 8), (9, 10)");
    ok(&mut s, "UPDATE t SET b = b + 1 WHERE a = 7");
    assert_eq!(
        f.repl.applied(),
        before,
        "temporary tables are not replicated"
    );
    assert_eq!(
        ints(&mut s, "SELECT b FROM t ORDER BY a"),
        vec![9, 10],
        "the temporary table hides the table of the same name"
    );
    assert_eq!(
        rows(&mut s, "SELECT r.name FROM t JOIN r USING (a)"),
        vec![vec![Value::Text("x".into())]],
        "joined with a replicated table"
    );
    let mut other = f.session();
    ok(&mut other, "USE d");
    assert_eq!(ints(&mut other, "SELECT a FROM t"), vec![1]);
    assert!(matches!(
        err(&mut other, "DROP TEMPORARY TABLE t"),
        ExecError::DroppedOthers(_)
    ));
    // A replicated table written from a temporary one: the rows are replicated, and the
    // temporary table stays hidden from everyone else.
    ok(&mut s, "INSERT INTO r SELECT a + 100, 'y' FROM t");
    ok(&mut s, "BEGIN; INSERT INTO r VALUES (8, 'z')");
    ok(
        &mut s,
        "UPDATE r SET name = 'w' WHERE a IN (SELECT a + 1 FROM t)",
    );
    ok(&mut s, "COMMIT");
    assert_eq!(f.repl.applied(), before + 2, "both writes replicated");
    assert_eq!(
        ints(
            &mut other,
            "SELECT a FROM r WHERE name = 'y' OR name = 'w' ORDER BY a"
        ),
        vec![8, 107, 109]
    );
    assert_eq!(ints(&mut other, "SELECT a FROM t"), vec![1]);
    assert!(matches!(
        err(&mut s, "CREATE VIEW v AS SELECT * FROM t"),
        ExecError::Sql(tutti_sql::SqlError::ViewOfTemporary(_))
    ));
    ok(&mut s, "DROP TABLE t");
    assert_eq!(
        ints(&mut s, "SELECT a FROM t"),
        vec![1],
        "the table is back"
    );
    assert_eq!(
        f.repl.applied(),
        before + 2,
        "DROP TABLE dropped the temporary t"
    );
    ok(&mut s, "CREATE TEMPORARY TABLE gone (a INT)");
    ok(&mut s, "INSERT INTO gone VALUES (1)");
    drop(s);
    let mut again = f.session();
    assert!(err(&mut again, "SELECT * FROM d.gone")
        .to_string()
        .contains("doesn't exist"));
}

#[test]
fn temporary_tables_follow_the_transaction() {
    let f = fixture();
    let mut s = f.session();
    ok(&mut s, "CREATE DATABASE d; USE d");
    ok(
        &mut s,
        "CREATE TEMPORARY TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5), UNIQUE KEY (v))",
    );
    ok(&mut s, "INSERT INTO t (v) VALUES ('a'), ('b')");
    assert_eq!(s.last_insert_id, 1);
    assert!(matches!(
        err(&mut s, "INSERT INTO t (v) VALUES ('c'), ('a')"),
        ExecError::DuplicateKey(_)
    ));
    assert_eq!(
        ints(&mut s, "SELECT COUNT(*) FROM t"),
        vec![2],
        "a failing statement changes nothing"
    );
    ok(&mut s, "BEGIN");
    ok(&mut s, "INSERT INTO t (v) VALUES ('d')");
    ok(&mut s, "DELETE FROM t WHERE v = 'a'");
    // The failed statement spent ids 3 and 4, as InnoDB's reservation does.
    assert_eq!(ints(&mut s, "SELECT id FROM t ORDER BY id"), vec![2, 5]);
    ok(&mut s, "ROLLBACK");
    assert_eq!(ints(&mut s, "SELECT id FROM t ORDER BY id"), vec![1, 2]);
    ok(
        &mut s,
        "START TRANSACTION; UPDATE t SET v = 'z' WHERE id = 2; COMMIT",
    );
    assert_eq!(
        rows(&mut s, "SELECT v FROM t WHERE id = 2"),
        vec![vec![Value::Text("z".into())]]
    );
    ok(&mut s, "TRUNCATE TABLE t");
    ok(&mut s, "INSERT INTO t (v) VALUES ('q')");
    assert_eq!(
        ints(&mut s, "SELECT id FROM t"),
        vec![1],
        "TRUNCATE starts AUTO_INCREMENT again"
    );
    // In a transaction that changed replicated tables, those changes exist only on the
    // writer: reading them together with a temporary table is refused, not answered wrong.
    ok(&mut s, "CREATE TABLE r (a INT PRIMARY KEY)");
    ok(&mut s, "BEGIN; INSERT INTO r VALUES (1)");
    assert!(unsupported(&err(&mut s, "SELECT * FROM t JOIN r")));
    assert_eq!(ints(&mut s, "SELECT COUNT(*) FROM t"), vec![1]);
    ok(&mut s, "COMMIT");
    assert_eq!(ints(&mut s, "SELECT COUNT(*) FROM t JOIN r"), vec![1]);
}

#[test]
fn temporary_tables_are_made_like_others_and_shown_as_temporary() {
    let f = fixture();
    let mut s = f.session();
    ok(&mut s, "CREATE DATABASE d; USE d");
    ok(
        &mut s,
        "CREATE TABLE src (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5), KEY (v))",
    );
    ok(&mut s, "INSERT INTO src (v) VALUES ('a'), ('b')");
    ok(&mut s, "CREATE TEMPORARY TABLE l LIKE src");
    ok(
        &mut s,
        "CREATE TEMPORARY TABLE c SELECT * FROM src WHERE id > 1",
    );
    ok(&mut s, "CREATE TEMPORARY TABLE c2 SELECT v FROM c");
    ok(&mut s, "ALTER TABLE l ADD COLUMN w INT");
    ok(&mut s, "INSERT INTO l (v, w) VALUES ('x', 5)");
    assert_eq!(ints(&mut s, "SELECT w FROM l"), vec![5]);
    assert_eq!(ints(&mut s, "SELECT id FROM c"), vec![2]);
    assert_eq!(
        rows(&mut s, "SELECT v FROM c2"),
        vec![vec![Value::Text("b".into())]]
    );
    let show = rows(&mut s, "SHOW CREATE TABLE l");
    let Value::Text(ddl) = &show[0][1] else {
        panic!("{show:?}")
    };
    assert!(
        ddl.starts_with("CREATE TEMPORARY TABLE `l` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,")
    );
    assert!(ddl.contains("KEY `v` (`v`)") && ddl.contains("`w` int(11) DEFAULT NULL"));
    assert_eq!(
        rows(&mut s, "SHOW TABLES"),
        vec![vec![Value::Text("src".into())]],
        "SHOW TABLES leaves temporary tables out"
    );
    // a prepared statement follows the temporary table's definition
    let id = s.prepare("SELECT * FROM c").unwrap().id;
    ok(&mut s, "DROP TEMPORARY TABLE c");
    ok(&mut s, "CREATE TEMPORARY TABLE c (x INT, y INT, z INT)");
    match s.execute(id, &[]).unwrap() {
        Response::Rows(rs) => assert_eq!(rs.columns.len(), 3),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        err(
            &mut s,
            "CREATE TEMPORARY TABLE fk (a INT, FOREIGN KEY (a) REFERENCES src (id))"
        ),
        ExecError::Sql(tutti_sql::SqlError::TemporaryForeignKey(_))
    ));
}
