//! Statement classes, several statements per request, syntax errors and refusals.

use super::*;

#[test]
fn several_statements_in_order() {
    let v = translate(
        "BEGIN; UPDATE t SET a = ? WHERE id = ?; SELECT ?; COMMIT",
        &env(),
    )
    .unwrap();
    assert_eq!(v.len(), 4);
    assert_eq!(
        v[0],
        Stmt::Begin {
            read_only: false,
            consistent_snapshot: false
        }
    );
    assert!(matches!(&v[1], Stmt::Query(q) if q.params == 2 && q.kind == QueryKind::Update));
    assert!(matches!(&v[2], Stmt::Query(q) if q.params == 1 && q.sql == r#"SELECT ?1 AS "?""#));
    assert_eq!(v[3], Stmt::Commit);
}

#[test]
fn empty_requests_are_noops() {
    assert_eq!(translate(";", &env()).unwrap(), [Stmt::Noop(";".into())]);
    assert_eq!(
        translate("  /* nothing */ ", &env()).unwrap(),
        [Stmt::Noop("/* nothing */".into())]
    );
    assert_eq!(translate("", &env()).unwrap(), [Stmt::Noop(String::new())]);
    assert_eq!(translate("SELECT 1;", &env()).unwrap().len(), 1);
}

#[test]
fn mysql_executable_comments_and_hints() {
    assert_eq!(
        s("SELECT /*+ MAX_EXECUTION_TIME(1000) */ a FROM t"),
        r#"SELECT "a" FROM "app.t" AS "t""#
    );
    assert_eq!(
        one("/*!40101 SET NAMES utf8 */").unwrap(),
        Stmt::Set(vec![SetVar {
            scope: SetScope::Session,
            name: "names".into(),
            value: SetValue::Value(Value::Text("utf8".into())),
        }])
    );
    assert_eq!(s("SELECT 1 # comment"), r#"SELECT 1 AS "1""#);
}

#[test]
fn syntax_errors_read_like_mysql() {
    let prefix = "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near ";
    assert_eq!(
        err("SELECT * FORM t"),
        SqlError::Syntax(format!("{prefix}'FORM t' at line 1"))
    );
    assert_eq!(
        err("SELECT a FROM t\nWHERE a = 1 AND AND b"),
        SqlError::Syntax(format!("{prefix}'b' at line 2"))
    );
    assert_eq!(
        err("SELECT a FROM t WHERE"),
        SqlError::Syntax(format!("{prefix}'' at line 1"))
    );
    assert_eq!(
        err("SELECT 'unterminated"),
        SqlError::Syntax(format!("{prefix}''unterminated' at line 1"))
    );
    let long = format!("SELEC {}", "x".repeat(200));
    match err(&long) {
        SqlError::Syntax(m) => assert!(
            m.contains(&format!("near 'SELEC {}' at line 1", "x".repeat(74))),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
    // The error of a later statement points into that statement.
    match translate("SELECT 1;\nSELECT * FORM t; SELECT 2", &env()) {
        Err(SqlError::Syntax(m)) => assert!(m.ends_with("near 'FORM t' at line 2"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn refused_statements_are_named() {
    let cases = [
        ("LOCK TABLES t WRITE", "LOCK TABLES"),
        ("GRANT ALL ON *.* TO 'a'@'%'", "GRANT"),
        ("REVOKE ALL ON *.* FROM x", "REVOKE"),
        ("CREATE USER 'a'@'%' IDENTIFIED BY 'x'", "CREATE USER"),
        ("DROP USER x", "DROP USER"),
        ("ALTER USER x IDENTIFIED BY 'y'", "ALTER USER"),
        (
            "CREATE PROCEDURE p() BEGIN SELECT 1; END",
            "CREATE PROCEDURE",
        ),
        (
            "CREATE DEFINER=root@localhost FUNCTION f() RETURNS INT RETURN 1",
            "CREATE FUNCTION",
        ),
        (
            "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
            "CREATE TRIGGER",
        ),
        (
            "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1",
            "CREATE EVENT",
        ),
        ("CALL p()", "CALL"),
        ("LOAD DATA INFILE 'x' INTO TABLE t", "LOAD DATA"),
        ("HANDLER t OPEN", "HANDLER"),
        ("CHECK TABLE t", "CHECK TABLE"),
        ("START SLAVE", "START SLAVE"),
        ("EXPLAIN SELECT 1", "EXPLAIN of a statement"),
        ("DESCRIBE SELECT * FROM t", "DESCRIBE of a statement"),
    ];
    for (sql, what) in cases {
        assert_eq!(err(sql), SqlError::Unsupported(what.into()), "{sql}");
    }
}

#[test]
fn show_and_describe_route_to_show() {
    assert_eq!(
        one("DESCRIBE sbtest1").unwrap(),
        Stmt::Show(Show::Columns {
            table: TableName::new("app", "sbtest1"),
            full: false,
            filter: None
        })
    );
    assert_eq!(
        one("SHOW DATABASES").unwrap(),
        Stmt::Show(Show::Databases { filter: None })
    );
}

#[test]
fn character_set_and_collation_names_are_checked() {
    let err = |sql: &str| translate(sql, &env()).unwrap_err();
    let mismatch = |collation: &str, charset: &str| SqlError::CollationCharsetMismatch {
        collation: collation.into(),
        charset: charset.into(),
    };
    assert_eq!(
        err("SELECT 'a' COLLATE nonexist"),
        SqlError::UnknownCollation("nonexist".into())
    );
    assert_eq!(
        err("SELECT b COLLATE latin1_bin FROM t"),
        mismatch("latin1_bin", "utf8mb4")
    );
    assert_eq!(
        err("SELECT _latin1'x' COLLATE utf8mb4_bin"),
        mismatch("utf8mb4_bin", "latin1")
    );
    assert_eq!(
        err("SELECT 1 COLLATE latin1_bin"),
        mismatch("latin1_bin", "utf8mb4")
    );
    for ok in [
        "SELECT b COLLATE utf8mb4_bin FROM t",
        "SELECT 'a' COLLATE 'UTF8MB4_UNICODE_CI'",
        "SELECT NULL COLLATE latin1_bin",
        "SELECT b COLLATE utf8mb3_bin FROM t",
        "SELECT 'a' COLLATE uca1400_ai_ci",
        "SELECT BINARY b = 'X' FROM t",
        "SELECT COUNT(DISTINCT LOWER(b)) FROM t",
    ] {
        translate(ok, &env()).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    assert_eq!(
        err("CREATE TABLE x (id INT PRIMARY KEY, a CHAR(1) CHARACTER SET foo)"),
        SqlError::UnknownCharset("foo".into())
    );
    assert_eq!(
        err("CREATE TABLE x (id INT PRIMARY KEY, a CHAR(1) CHARACTER SET latin1 COLLATE utf8mb4_bin)"),
        mismatch("utf8mb4_bin", "latin1")
    );
    assert_eq!(
        err("CREATE TABLE x (id INT PRIMARY KEY) DEFAULT CHARSET=latin1 COLLATE=utf8mb4_bin"),
        mismatch("utf8mb4_bin", "latin1")
    );
    for ok in [
        "CREATE TABLE x (id INT PRIMARY KEY, a CHAR(1) CHARACTER SET utf8mb4 COLLATE DEFAULT)",
        "CREATE TABLE x (id INT PRIMARY KEY, a CHAR(1) BINARY CHARACTER SET latin1)",
        "SELECT HEX(CAST('a' AS CHAR(2) BINARY))",
    ] {
        translate(ok, &env()).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    let latin1 = env().with_var(
        "collation_connection",
        Value::Text("latin1_swedish_ci".into()),
    );
    let cast = "SELECT HEX(CAST('a' AS CHAR(2) BINARY))";
    translate(cast, &latin1).unwrap_or_else(|e| panic!("{cast}: {e}"));
    assert_eq!(
        translate("SELECT 'a' COLLATE utf8mb4_bin", &latin1).unwrap_err(),
        mismatch("utf8mb4_bin", "latin1")
    );
    // Literals are held in the connection's set: what latin1 lacks becomes `?`.
    let Stmt::Query(q) = &translate(
        "SELECT 'é', 'ж', GROUP_CONCAT(a SEPARATOR 'ж') FROM t",
        &latin1,
    )
    .unwrap()[0] else {
        panic!()
    };
    assert!(
        q.sql.starts_with(r#"SELECT 'é' AS "é", '?' AS "ж", "#),
        "{}",
        q.sql
    );
    assert!(q.sql.contains(r#", '?')"#), "{}", q.sql);
    assert_eq!(
        err("CREATE DATABASE d COLLATE nonexist"),
        SqlError::UnknownCollation("nonexist".into())
    );
    assert_eq!(
        err("SELECT CONVERT('a' USING foo)"),
        SqlError::UnknownCharset("foo".into())
    );
}
