//! SELECT translation: names, client chatter, session values, MySQL syntax.

use super::*;

#[test]
fn sysbench_selects() {
    assert_eq!(
        s("SELECT c FROM sbtest1 WHERE id=?"),
        r#"SELECT "c" FROM "app.sbtest1" AS "sbtest1" WHERE "id" = ?1"#
    );
    assert_eq!(
        s("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?"),
        r#"SELECT "c" FROM "app.sbtest1" AS "sbtest1" WHERE "id" BETWEEN ?1 AND ?2"#
    );
    assert_eq!(
        s("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?"),
        r#"SELECT tutti_dec_sum("k") COLLATE tutti_decimal AS "SUM(k)" FROM "app.sbtest1" AS "sbtest1" WHERE "id" BETWEEN ?1 AND ?2"#
    );
    assert_eq!(
        s("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c"),
        r#"SELECT "c" FROM "app.sbtest1" AS "sbtest1" WHERE "id" BETWEEN ?1 AND ?2 ORDER BY "c""#
    );
    assert_eq!(
        s("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c"),
        r#"SELECT DISTINCT "c" FROM "app.sbtest1" AS "sbtest1" WHERE "id" BETWEEN ?1 AND ?2 ORDER BY "c""#
    );
    // ps-mode disable: literal values.
    let lit = q("SELECT c FROM sbtest1 WHERE id BETWEEN 5 AND 104 ORDER BY c");
    assert_eq!(lit.params, 0);
    assert_eq!(
        lit.sql,
        r#"SELECT "c" FROM "app.sbtest1" AS "sbtest1" WHERE "id" BETWEEN 5 AND 104 ORDER BY "c""#
    );
    let q = q("SELECT c FROM sbtest1 WHERE id=?");
    assert_eq!(
        (q.kind, q.params, q.target, q.autoinc, q.locking, q.volatile),
        (QueryKind::Select, 1, None, None, false, false)
    );
}

#[test]
fn client_connect_chatter() {
    let v = q("select @@version_comment limit 1");
    assert_eq!(v.sql, r#"SELECT 'tutti' AS "@@version_comment" LIMIT 1"#);
    assert!(v.volatile);
    assert_eq!(
        s("SELECT @@max_allowed_packet"),
        r#"SELECT 67108864 AS "@@max_allowed_packet""#
    );
    assert_eq!(s("SELECT DATABASE()"), r#"SELECT 'app' AS "DATABASE()""#);
    assert_eq!(
        s("SELECT @@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS character_set_client"),
        r#"SELECT 3 AS "auto_increment_increment", 'utf8mb4' AS "character_set_client""#
    );
    assert_eq!(
        s("SELECT @@session.tx_isolation, @@global.tx_isolation, @@local.tx_isolation"),
        r#"SELECT 'REPEATABLE-READ' AS "@@session.tx_isolation", 'READ-COMMITTED' AS "@@global.tx_isolation", 'REPEATABLE-READ' AS "@@local.tx_isolation""#
    );
    let none = translate("SELECT DATABASE()", &TestEnv::new()).unwrap();
    assert!(matches!(&none[0], Stmt::Query(q) if q.sql == r#"SELECT NULL AS "DATABASE()""#));
}

#[test]
fn session_functions_and_variables() {
    assert_eq!(
        s("SELECT CURRENT_USER, CURRENT_USER(), USER(), SESSION_USER(), SYSTEM_USER(), SCHEMA()"),
        r#"SELECT 'root@localhost' AS "CURRENT_USER", 'root@localhost' AS "CURRENT_USER()", 'root@localhost' AS "USER()", 'root@localhost' AS "SESSION_USER()", 'root@localhost' AS "SYSTEM_USER()", 'app' AS "SCHEMA()""#
    );
    assert_eq!(
        s("SELECT LAST_INSERT_ID(), CONNECTION_ID(), VERSION(), ROW_COUNT(), FOUND_ROWS()"),
        r#"SELECT 42 AS "LAST_INSERT_ID()", 7 AS "CONNECTION_ID()", '8.0.36-tutti' AS "VERSION()", 1 AS "ROW_COUNT()", 5 AS "FOUND_ROWS()""#
    );
    // With an argument LAST_INSERT_ID sets the session's value, not reads it.
    let q1 = q("SELECT LAST_INSERT_ID(5)");
    assert_eq!(
        q1.sql,
        r#"SELECT tutti_set_var(' last_insert_id', CAST(5 AS INTEGER)) AS "LAST_INSERT_ID(5)""#
    );
    assert!(!q1.volatile);
    // ... and a later LAST_INSERT_ID() of the same statement reads what it set.
    assert_eq!(
        s("SELECT LAST_INSERT_ID(5), LAST_INSERT_ID()"),
        r#"SELECT tutti_set_var(' last_insert_id', CAST(5 AS INTEGER)) AS "LAST_INSERT_ID(5)", tutti_get_var(' last_insert_id', 42) AS "LAST_INSERT_ID()""#
    );
    let env = env().with_user_var("x", Value::Text("it's".into()));
    let v = translate("SELECT @x, @X + 1, @unset FROM t WHERE a = @x", &env).unwrap();
    let Stmt::Query(v) = &v[0] else { panic!() };
    assert_eq!(
        v.sql,
        r#"SELECT 'it''s' AS "@x", 'it''s' + 1 AS "@X + 1", NULL AS "@unset" FROM "app.t" AS "t" WHERE "a" = CAST('it''s' AS NUMERIC)"#
    );
    assert!(v.volatile);
    // In a statement that assigns, reads see earlier rows' assignments.
    let v = translate("SELECT @x := @X + a FROM t", &env).unwrap();
    let Stmt::Query(v) = &v[0] else { panic!() };
    assert_eq!(
        v.sql,
        r#"SELECT tutti_set_var('x', tutti_get_var('x', 'it''s') + "a") AS "@x := @X + a" FROM "app.t" AS "t""#
    );
    // Where SQLite's order or evaluation differs from MySQL's, refused.
    for sql in [
        "SELECT COUNT(*) FROM (SELECT @x := a FROM t) d",
        "SELECT a FROM t, (SELECT @x := 0) r",
        "UPDATE t SET a = (@x := @x + 1) ORDER BY b",
    ] {
        assert!(
            matches!(translate(sql, &env), Err(SqlError::Unsupported(_))),
            "{sql}"
        );
    }
    // Backticks make a column, not a variable.
    assert_eq!(
        s("SELECT `@x` FROM t"),
        r#"SELECT "@x" AS "@x" FROM "app.t" AS "t""#
    );
    assert_eq!(
        err("SELECT @@nope"),
        SqlError::UnknownSystemVariable("nope".into())
    );
    assert_eq!(
        err("SELECT @@global.Nope2"),
        SqlError::UnknownSystemVariable("nope2".into())
    );
}

#[test]
fn names_in_joins_subqueries_and_ctes() {
    assert_eq!(
        s("SELECT t.a, app.t.b, x.a FROM t JOIN other.t AS x ON t.id = x.id"),
        r#"SELECT "t"."a", "t"."b", "x"."a" FROM "app.t" AS "t" JOIN "other.t" AS "x" ON "t"."id" = "x"."id""#
    );
    assert_eq!(
        s("SELECT * FROM t WHERE a IN (SELECT a FROM u) AND EXISTS (SELECT 1 FROM other.v v2 WHERE v2.id = t.id)"),
        r#"SELECT * FROM "app.t" AS "t" WHERE "a" IN (SELECT "a" FROM "app.u" AS "u") AND EXISTS (SELECT 1 AS "1" FROM "other.v" AS "v2" WHERE "v2"."id" = "t"."id")"#
    );
    assert_eq!(
        s("SELECT d.x FROM (SELECT a AS x FROM t) AS d"),
        r#"SELECT "d"."x" FROM (SELECT "a" AS "x" FROM "app.t" AS "t") AS "d""#
    );
    assert_eq!(
        s("WITH c AS (SELECT a FROM t), t AS (SELECT 1 AS a) SELECT * FROM c JOIN t ON c.a = t.a"),
        r#"WITH "c" AS (SELECT "a" FROM "app.t" AS "t"), "t" AS (SELECT 1 AS "a") SELECT * FROM "c" JOIN "t" ON "c"."a" = "t"."a""#
    );
    assert_eq!(
        s("WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n"),
        r#"WITH RECURSIVE "n" ("i") AS (SELECT 1 AS "1" UNION ALL SELECT "i" + 1 AS "i + 1" FROM "n" WHERE "i" < 3) SELECT "i" AS "i" FROM "n""#
    );
    assert_eq!(
        s("SELECT t.*, other.u.* FROM t, other.u"),
        r#"SELECT "t".*, "u".* FROM "app.t" AS "t", "other.u" AS "u""#
    );
    assert_eq!(
        s("SELECT * FROM t USE INDEX (ia) LEFT JOIN u USING (id) STRAIGHT_JOIN other.w ON w.id = t.id"),
        r#"SELECT * FROM "app.t" AS "t" LEFT JOIN "app.u" AS "u" USING("id") INNER JOIN "other.w" AS "w" ON "w"."id" = "t"."id""#
    );
    assert_eq!(
        s("SELECT `select` FROM `order`"),
        r#"SELECT "select" AS "select" FROM "app.order" AS "order""#
    );
    assert_eq!(
        err("SELECT * FROM information_schema.tables"),
        SqlError::Unsupported("information_schema".into())
    );
    assert_eq!(
        err("SELECT * FROM mysql.user"),
        SqlError::Unsupported("mysql".into())
    );
    assert_eq!(
        err("SELECT * FROM t JOIN performance_schema.x"),
        SqlError::Unsupported("performance_schema".into())
    );
    assert_eq!(
        err("SELECT (SELECT 1 FROM sys.y)"),
        SqlError::Unsupported("sys".into())
    );
    let none = translate("SELECT a FROM t", &TestEnv::new());
    assert_eq!(none, Err(SqlError::NoDatabaseSelected));
    assert!(translate("SELECT 1 + 1", &TestEnv::new()).is_ok());
}

#[test]
fn modifiers_locks_and_dual() {
    let v = q(
        "SELECT SQL_NO_CACHE SQL_CALC_FOUND_ROWS HIGH_PRIORITY STRAIGHT_JOIN a FROM t FOR UPDATE",
    );
    assert_eq!(v.sql, r#"SELECT "a" FROM "app.t" AS "t""#);
    assert!(v.locking);
    let v = q("SELECT a FROM t WHERE id = ? LOCK IN SHARE MODE");
    assert_eq!(v.sql, r#"SELECT "a" FROM "app.t" AS "t" WHERE "id" = ?1"#);
    assert!(v.locking);
    assert!(q("SELECT a FROM t FOR SHARE").locking);
    assert!(q("SELECT a FROM t FOR UPDATE NOWAIT").locking);
    assert_eq!(s("SELECT 1 FROM DUAL"), r#"SELECT 1 AS "1""#);
    assert!(matches!(
        one("SELECT a INTO @v FROM t"),
        Ok(Stmt::SelectInto { query, vars, .. }) if query.sql == r#"SELECT "a" FROM "app.t" AS "t""#
            && vars == ["v"]
    ));
    // INTO inside a subquery, or before the end of a UNION: MariaDB's 1064.
    for sql in [
        "SELECT * FROM (SELECT a INTO @v FROM t) x",
        "SELECT a FROM t UNION SELECT a INTO @v FROM t",
        "(SELECT 1 INTO @v) UNION (SELECT 1)",
    ] {
        assert!(matches!(err(sql), SqlError::Syntax(_)), "{sql}");
    }
    assert!(matches!(
        one("SELECT a FROM t UNION SELECT a FROM t INTO @v"),
        Ok(Stmt::SelectInto { .. })
    ));
    assert_eq!(
        s("SELECT a FROM t GROUP BY a WITH ROLLUP"),
        r#"SELECT "a" AS "a" FROM (SELECT "a" AS "a", 0 AS "tutti_r0", "a" AS "tutti_s0" FROM "app.t" AS "t" GROUP BY "a" UNION ALL SELECT NULL AS "a", 1 AS "tutti_r0", NULL AS "tutti_s0" FROM "app.t" AS "t" GROUP BY NULL) AS "tutti_rollup" ORDER BY "tutti_r0", "tutti_s0""#
    );
    assert_eq!(
        err("SELECT a FROM t GROUP BY a WITH ROLLUP ORDER BY a"),
        SqlError::WrongUsage("CUBE/ROLLUP", "ORDER BY")
    );
}

#[test]
fn limits_and_placeholders() {
    let v = q("SELECT a FROM t WHERE b = ? LIMIT ?, ?");
    assert_eq!(
        v.sql,
        r#"SELECT "a" FROM "app.t" AS "t" WHERE "b" = ?1 LIMIT tutti_limit(?2, 0), tutti_limit(?3, 0)"#
    );
    assert_eq!(v.params, 3);
    assert_eq!(
        s("SELECT a FROM t LIMIT 10 OFFSET 5"),
        r#"SELECT "a" FROM "app.t" AS "t" LIMIT 10 OFFSET 5"#
    );
    assert_eq!(
        s("SELECT a FROM t LIMIT 5, 10"),
        r#"SELECT "a" FROM "app.t" AS "t" LIMIT 5, 10"#
    );
    let v = q("SELECT '?', \"?\", a /* ? */ FROM t WHERE a = ? -- ?\n");
    assert_eq!(v.params, 1);
    assert!(v.sql.ends_with(r#"WHERE "a" = ?1"#), "{}", v.sql);
    assert_eq!(s("SELECT ?"), r#"SELECT ?1 AS "?""#);
}

#[test]
fn set_operations() {
    assert_eq!(
        s("SELECT a FROM t UNION DISTINCT SELECT a FROM u UNION ALL SELECT 1"),
        r#"SELECT "a" FROM "app.t" AS "t" UNION SELECT "a" FROM "app.u" AS "u" UNION ALL SELECT 1 AS "1""#
    );
    assert_eq!(
        s("(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT a FROM u) ORDER BY 1"),
        r#"SELECT * FROM (SELECT "a" FROM "app.t" AS "t" ORDER BY "a" LIMIT 1) UNION SELECT "a" FROM "app.u" AS "u" ORDER BY 1"#
    );
    assert_eq!(s("(SELECT a FROM t)"), r#"SELECT "a" FROM "app.t" AS "t""#);
    assert_eq!(
        s("(SELECT a FROM t ORDER BY a LIMIT 2) ORDER BY a DESC"),
        r#"SELECT * FROM (SELECT "a" FROM "app.t" AS "t" ORDER BY "a" LIMIT 2) ORDER BY "a" DESC"#
    );
}

#[test]
fn operators() {
    assert_eq!(
        s("SELECT a || b AS x FROM t"),
        r#"SELECT "a" OR "b" AS "x" FROM "app.t" AS "t""#
    );
    assert_eq!(
        s("SELECT * FROM t WHERE a = 1 || b = 2 && a <> 3"),
        r#"SELECT * FROM "app.t" AS "t" WHERE "a" = 1 OR "b" = 2 AND "a" <> 3"#
    );
    assert_eq!(
        s("SELECT a XOR b AS x"),
        r#"SELECT ("a" <> 0) <> ("b" <> 0) AS "x""#
    );
    assert_eq!(
        s("SELECT a <=> b AS x"),
        r#"SELECT "a" IS NOT DISTINCT FROM "b" AS "x""#
    );
    assert_eq!(
        s("SELECT (a + 1) DIV b AS x"),
        r#"SELECT CAST((("a" + 1) / "b") AS INTEGER) AS "x""#
    );
    assert_eq!(
        s("SELECT 7 / 2 AS x"),
        r#"SELECT tutti_dec_shown(tutti_dec_div(7, 2)) COLLATE tutti_decimal AS "x""#
    );
    // A quotient's held digits reach the next operation; showing it rounds them.
    assert_eq!(
        s("SELECT 1 / 3 * 3 AS x"),
        r#"SELECT tutti_dec_shown(tutti_dec_mul(tutti_dec_div(1, 3), 3)) COLLATE tutti_decimal AS "x""#
    );
    assert_eq!(
        s("SELECT 1 / 3 * 1e0 AS x"),
        r#"SELECT tutti_dec_double(tutti_dec_div(1, 3)) * 1e0 AS "x""#
    );
    assert_eq!(
        s("SELECT 1 / 3 = 0.3333 AS x"),
        r#"SELECT tutti_dec_cmp(tutti_dec_shown(tutti_dec_div(1, 3)) COLLATE tutti_decimal, '0.3333') = 0 AS "x""#
    );
    assert_eq!(s("SELECT 7e0 / 2 AS x"), r#"SELECT 7e0 * 1.0 / 2 AS "x""#);
    assert_eq!(s("SELECT a MOD 3 AS x"), r#"SELECT mod("a", 3) AS "x""#);
    assert_eq!(
        s("SELECT 7.5 % 2 AS x"),
        r#"SELECT tutti_dec_mod('7.5', 2) COLLATE tutti_decimal AS "x""#
    );
    assert_eq!(
        s("SELECT INSERT(a, 2, 1, 'x') AS x"),
        r#"SELECT tutti_insert("a", 2, 1, 'x') AS "x""#
    );
    assert_eq!(
        s("SELECT 5 ^ 3 AS x"),
        r#"SELECT tutti_bitop('^', 5, 3) AS "x""#
    );
    assert_eq!(
        s("SELECT ~a AS x, a << 2 AS y"),
        r#"SELECT tutti_bitop('~', "a", 0) AS "x", tutti_bitop('<<', "a", 2) AS "y""#
    );
    assert_eq!(
        s("SELECT a REGEXP '^x' AS r, a NOT RLIKE 'y' AS n"),
        r#"SELECT "a" REGEXP '^x' AS "r", "a" NOT REGEXP 'y' AS "n""#
    );
    assert_eq!(
        s("SELECT * FROM t WHERE BINARY b = 'X' AND a = 1"),
        r#"SELECT * FROM "app.t" AS "t" WHERE "b" COLLATE BINARY = 'X' AND "a" = 1"#
    );
    assert_eq!(
        s("SELECT BINARY 'x' AS b"),
        r#"SELECT CAST('x' AS BLOB) AS "b""#
    );
    assert_eq!(
        s("SELECT b COLLATE utf8mb4_bin AS c, b COLLATE utf8mb4_general_ci AS d FROM t"),
        r#"SELECT "b" COLLATE tutti_bin AS "c", "b" COLLATE tutti_general_ci AS "d" FROM "app.t" AS "t""#
    );
}

#[test]
fn casts_and_functions() {
    let cases = [
        ("CAST(x AS SIGNED)", "tutti_cast_int(\"x\", 0, 0)"),
        ("CAST(x AS SIGNED INTEGER)", "tutti_cast_int(\"x\", 0, 0)"),
        ("CAST(x AS UNSIGNED)", "tutti_cast_int(\"x\", 1, 0)"),
        ("CAST(1.5 AS UNSIGNED)", "tutti_cast_int('1.5', 1, 1)"),
        ("CAST(x AS CHAR)", "CAST(\"x\" AS TEXT)"),
        ("CAST(x AS CHAR(10))", "tutti_cast_char(\"x\", 10)"),
        ("CAST(x AS BINARY(2))", "tutti_cast_binary(\"x\", 2)"),
        (
            "CAST(x AS DECIMAL(10,2))",
            "tutti_dec_cast(\"x\", 10, 2) COLLATE tutti_decimal",
        ),
        ("CAST(x AS DOUBLE)", "CAST(\"x\" AS REAL)"),
        // a FLOAT result column shows a FLOAT's digits
        (
            "CAST(x AS FLOAT)",
            "tutti_float_value(tutti_float_cast(CAST(\"x\" AS REAL)))",
        ),
        ("CAST(x AS BINARY)", "CAST(\"x\" AS BLOB)"),
        (
            "CAST(x AS DATE)",
            "tutti_cast_temporal(\"x\", 'date', 0, 0)",
        ),
        (
            "CAST(x AS DATETIME(3))",
            "tutti_cast_temporal(\"x\", 'datetime', 3, 0)",
        ),
        (
            "CAST(x AS TIME)",
            "tutti_cast_temporal(\"x\", 'time', 0, 0) COLLATE tutti_time",
        ),
        // compared, MariaDB reads the value loosely (flag 8)
        (
            "CAST(x AS DATE) < '2008-01-01'",
            "tutti_cast_temporal(\"x\", 'date', 0, 8) < tutti_temporal('2008-01-01', 'date', 0, 1)",
        ),
        ("CONVERT(x, SIGNED)", "tutti_cast_int(\"x\", 0, 0)"),
        ("CONVERT(x, CHAR(3))", "tutti_cast_char(\"x\", 3)"),
        ("CONVERT('x' USING utf8mb4)", "'x'"),
        (
            "CONVERT(x USING utf8mb4)",
            "tutti_convert_utf8(\"x\", 'utf8mb4', 0)",
        ),
        ("CONVERT(CHAR(65) USING utf8)", "tutti_convert_utf8(CHAR(65), 'utf8mb3', 1)"),
        (
            "GROUP_CONCAT(x ORDER BY y DESC SEPARATOR '; ')",
            "group_concat(\"x\", '; ' ORDER BY \"y\" DESC, tutti_arrival() DESC)",
        ),
        ("GROUP_CONCAT(x)", "group_concat(\"x\")"),
        (
            "GROUP_CONCAT(DISTINCT x ORDER BY x)",
            "group_concat(DISTINCT \"x\" ORDER BY \"x\", tutti_arrival() DESC)",
        ),
        ("GROUP_CONCAT(x, y)", "group_concat(CONCAT(\"x\", \"y\"))"),
        ("NOW()", "NOW()"),
        ("CURRENT_TIMESTAMP", "NOW()"),
        ("CURRENT_TIMESTAMP(3)", "NOW(3)"),
        ("CURRENT_DATE", "CURDATE()"),
        ("UNIX_TIMESTAMP()", "UNIX_TIMESTAMP()"),
        ("CONCAT(x, 'a')", "CONCAT(\"x\", 'a')"),
        ("IF(x, 1, 2)", "IF(\"x\", 1, 2)"),
        ("EXTRACT(YEAR FROM x)", "tutti_extract('YEAR', \"x\")"),
        (
            "EXTRACT(DAY_HOUR FROM x)",
            "tutti_extract('DAY_HOUR', \"x\")",
        ),
        ("POSITION('a' IN x)", "instr(\"x\", 'a')"),
        ("SUBSTRING(x FROM 2 FOR 3)", "SUBSTRING(\"x\", 2, 3)"),
        ("TRIM(LEADING 'x' FROM y)", "tutti_trim(\"y\", 'x', 'LEADING')"),
        ("TRIM(y)", "trim(\"y\")"),
        (
            "DATE '2020-01-02'",
            "tutti_temporal_literal('2020-01-02', 'date')",
        ),
        (
            "TIME '10:00:00.25'",
            "tutti_temporal_literal('10:00:00.25', 'time') COLLATE tutti_time",
        ),
        (
            "TIME '10:00:00' + INTERVAL 1 DAY",
            "tutti_date_add(tutti_cast_temporal('10:00:00', 'time', 0, 0) COLLATE tutti_time, 1, 'DAY', 'time')",
        ),
        ("x + INTERVAL 1 DAY", "tutti_date_add(\"x\", 1, 'DAY')"),
        ("INTERVAL 1 DAY + x", "tutti_date_add(\"x\", 1, 'DAY')"),
        (
            "x - INTERVAL 90 MINUTE",
            "tutti_date_sub(\"x\", 90, 'MINUTE')",
        ),
        (
            "DATE_SUB(x, INTERVAL 1 YEAR)",
            "tutti_date_sub(\"x\", 1, 'YEAR')",
        ),
        (
            "SUBDATE(x, INTERVAL '1 1' DAY_HOUR)",
            "tutti_date_sub(\"x\", '1 1', 'DAY_HOUR')",
        ),
        ("ADDDATE(x, 3)", "tutti_date_add(\"x\", 3, 'DAY')"),
        ("SUBDATE(x, 3)", "tutti_date_sub(\"x\", 3, 'DAY')"),
        (
            "TIMESTAMPADD(SQL_TSI_DAY, 1, x)",
            "tutti_date_add(\"x\", 1, 'DAY')",
        ),
        (
            "TIMESTAMPDIFF(DAY, x, y)",
            "tutti_timestampdiff('DAY', \"x\", \"y\")",
        ),
        (
            "DATE_ADD(x, INTERVAL 2 SECOND)",
            "tutti_date_add(\"x\", 2, 'SECOND')",
        ),
        (
            "DATE_ADD(x, INTERVAL '1:1' minute_second)",
            "tutti_date_add(\"x\", '1:1', 'MINUTE_SECOND')",
        ),
    ];
    for (mysql, sqlite) in cases {
        let out = s(&format!("SELECT {mysql} AS v"));
        assert_eq!(out, format!("SELECT {sqlite} AS \"v\""), "{mysql}");
    }
    assert_eq!(
        err("SELECT MATCH (a) AGAINST ('x') FROM t"),
        SqlError::Unsupported("MATCH ... AGAINST (full-text search)".into())
    );
    assert!(matches!(
        err("SELECT GROUP_CONCAT(DISTINCT a SEPARATOR ';') FROM t"),
        SqlError::Unsupported(_)
    ));
    // Targets MariaDB's CAST does not take (its DOUBLE(M,D) it does).
    for target in [
        "REAL",
        "DOUBLE PRECISION",
        "DOUBLE(5)",
        "FLOAT(5)",
        "FLOAT(5,2)",
    ] {
        let sql = format!("SELECT CAST(x AS {target})");
        assert!(matches!(err(&sql), SqlError::Syntax(_)), "{sql}");
    }
    assert!(s("SELECT CAST(x AS DOUBLE(5,2))").contains("5, 2"));
    assert!(matches!(
        err("SELECT CAST(x AS DOUBLE(66,2))"),
        SqlError::TooBigPrecision(_)
    ));
}

#[test]
fn literals() {
    assert_eq!(
        s(r#"SELECT "abc" AS a, 'It\'s' AS b, 'a\\b' AS c, 'x\ny' AS d, N'n' AS e, _utf8mb4'u' AS f"#),
        "SELECT 'abc' AS \"a\", 'It''s' AS \"b\", 'a\\b' AS \"c\", 'x\ny' AS \"d\", 'n' AS \"e\", 'u' AS \"f\""
    );
    assert_eq!(
        s("SELECT 0xABCD AS a, x'abcd' AS b, b'0101' AS c, TRUE AS d, FALSE AS e, _binary'ab' AS f"),
        r#"SELECT X'ABCD' AS "a", CAST(X'ABCD' AS BLOB) AS "b", X'05' AS "c", 1 AS "d", 0 AS "e", CAST(X'6162' AS BLOB) AS "f""#
    );
    // Hex and bit literals are numbers in numeric context, x'..' and _binary strings are not.
    assert_eq!(
        s("SELECT 0x41 + 0 AS a, b'11' * 2 AS b, x'41' + 0 AS c, ROUND(0x10) AS d, 0x41 = 'A' AS e"),
        r#"SELECT tutti_int_op('+', 65, 0) AS "a", tutti_int_op('*', 3, 2) AS "b", CAST(X'41' AS BLOB) + 0 AS "c", ROUND(16) AS "d", CAST(X'41' AS TEXT) COLLATE BINARY = 'A' AS "e""#
    );
    // MySQL's column names for literals.
    assert_eq!(
        s("SELECT 'abc', 1, TRUE"),
        r#"SELECT 'abc' AS "abc", 1 AS "1", 1 AS "TRUE""#
    );
}

#[test]
fn scalar_subqueries_that_may_return_several_rows_are_guarded() {
    assert_eq!(
        s("SELECT (SELECT b FROM t WHERE a = 1) AS x"),
        r#"SELECT (SELECT CASE count(1) WHEN 0 THEN NULL WHEN 1 THEN min("tutti_v") ELSE tutti_subquery_rows() END FROM (SELECT "tutti_v" FROM (SELECT "b" AS "tutti_v" FROM "app.t" AS "t" WHERE "a" = 1) LIMIT 2)) AS "x""#
    );
    // One row at most: aggregates without GROUP BY, LIMIT 1, no FROM; and IN / EXISTS.
    for q in [
        "SELECT (SELECT max(b) FROM t) AS x",
        "SELECT (SELECT b FROM t LIMIT 1) AS x",
        "SELECT (SELECT 1) AS x",
        "SELECT a FROM t WHERE a IN (SELECT b FROM t)",
        "SELECT a FROM t WHERE EXISTS (SELECT b FROM t)",
    ] {
        assert!(!s(q).contains("tutti_subquery_rows"), "{q}: {}", s(q));
    }
}

#[test]
fn row_constructor_is_a_row_value() {
    assert_eq!(
        s("SELECT ROW(1, 2) = ROW(1, 2)"),
        r#"SELECT (1, 2) = (1, 2) AS "ROW(1, 2) = ROW(1, 2)""#
    );
    assert_eq!(
        s("SELECT ROW('a', 1) = ROW('A', 1)"),
        r#"SELECT ('a' COLLATE tutti_general_ci, 1) = ('A', 1) AS "ROW('a', 1) = ROW('A', 1)""#
    );
}
