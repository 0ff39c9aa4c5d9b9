//! INSERT / REPLACE / UPDATE / DELETE translation, AUTO_INCREMENT, ON DUPLICATE KEY.

use super::*;

fn target(t: &str) -> Option<TableName> {
    Some(TableName::new("app", t))
}

#[test]
fn sysbench_writes() {
    let u = q("UPDATE sbtest1 SET k=k+1 WHERE id=?");
    assert_eq!(
        u.sql,
        r#"UPDATE "app.sbtest1" AS "sbtest1" SET "k" = tutti_changed_to("k", tutti_int_store(tutti_int_op('+', "k", 1), -2147483648, 2147483647, '`app`.`sbtest1`.`k`', 1), 'app.sbtest1') WHERE "id" = ?1"#
    );
    assert_eq!(
        (u.kind, u.params, u.target, u.autoinc),
        (QueryKind::Update, 1, target("sbtest1"), None)
    );
    assert_eq!(
        s("UPDATE sbtest1 SET c=? WHERE id=?"),
        r#"UPDATE "app.sbtest1" AS "sbtest1" SET "c" = tutti_changed_to("c", tutti_str_store(?1, 120, 10, '`app`.`sbtest1`.`c`', 1), 'app.sbtest1') WHERE "id" = ?2"#
    );
    let d = q("DELETE FROM sbtest1 WHERE id=?");
    assert_eq!(
        d.sql,
        r#"DELETE FROM "app.sbtest1" AS "sbtest1" WHERE "id" = ?1"#
    );
    assert_eq!((d.kind, d.target), (QueryKind::Delete, target("sbtest1")));
    let i = q("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)");
    assert_eq!(
        i.sql,
        r#"INSERT INTO "app.sbtest1" AS "sbtest1" ("id", "k", "c", "pad") VALUES (tutti_autoinc(?1), tutti_int_store(?2, -2147483648, 2147483647, '`app`.`sbtest1`.`k`', 1), tutti_str_store(?3, 120, 10, '`app`.`sbtest1`.`c`', 1), tutti_str_store(?4, 60, 10, '`app`.`sbtest1`.`pad`', 1)) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        (i.kind, i.params, i.target, i.autoinc),
        (
            QueryKind::Insert,
            4,
            target("sbtest1"),
            Some(ids(Some(1), false))
        )
    );
    let i = q("INSERT INTO sbtest1(k, c, pad) VALUES(4993, '83468-1', '67847-9'),(5012, '2', '3')");
    assert_eq!(
        i.sql,
        r#"INSERT INTO "app.sbtest1" AS "sbtest1" ("k", "c", "pad", "id") VALUES (4993, '83468-1', '67847-9', tutti_autoinc(NULL)), (5012, '2', '3', tutti_autoinc(NULL)) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(i.autoinc, Some(ids(Some(2), false)));
    assert_eq!(
        s("UPDATE sbtest1 SET k=k+1 WHERE id=5"),
        r#"UPDATE "app.sbtest1" AS "sbtest1" SET "k" = tutti_changed_to("k", tutti_int_store(tutti_int_op('+', "k", 1), -2147483648, 2147483647, '`app`.`sbtest1`.`k`', 1), 'app.sbtest1') WHERE "id" = 5"#
    );
    assert_eq!(
        s("INSERT INTO sbtest1 (id, k, c, pad) VALUES (7, 1, 'c', 'p')"),
        r#"INSERT INTO "app.sbtest1" AS "sbtest1" ("id", "k", "c", "pad") VALUES (tutti_autoinc(7), 1, 'c', 'p') ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
}

/// The ids of an INSERT into a table it does not read.
fn ids(values: Option<u64>, restore: bool) -> InsertIds {
    InsertIds {
        values,
        one_at_a_time: false,
        restore,
    }
}

#[test]
fn autoinc_forms() {
    // No column list: every column in table order, the id is wrapped in place.
    assert_eq!(
        s("INSERT INTO u VALUES (NULL, 5), (0, 6)"),
        r#"INSERT INTO "app.u" AS "u" VALUES (tutti_autoinc(NULL), 5), (tutti_autoinc(0), 6) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    let r = q("REPLACE INTO u (a) VALUES (?)");
    assert_eq!(
        r.sql,
        r#"REPLACE INTO "app.u" AS "u" ("a", "id") VALUES (tutti_int_store(?1, -2147483648, 2147483647, '`app`.`u`.`a`', 1), tutti_autoinc(NULL))"#
    );
    assert_eq!(
        (r.kind, r.autoinc),
        (QueryKind::Replace, Some(ids(Some(1), false)))
    );
    assert_eq!(
        s("INSERT INTO u SET a = 1"),
        r#"INSERT INTO "app.u" AS "u" ("a", "id") VALUES (1, tutti_autoinc(NULL)) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        s("INSERT INTO u () VALUES ()"),
        r#"INSERT INTO "app.u" AS "u" ("id") VALUES (tutti_autoinc(NULL)) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        s("INSERT INTO u VALUES (DEFAULT, 1)"),
        r#"INSERT INTO "app.u" AS "u" VALUES (tutti_autoinc(NULL), 1) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    let sel = q("INSERT INTO u (a) SELECT a FROM t WHERE a > ?");
    assert_eq!(
        sel.sql,
        r#"INSERT INTO "app.u" AS "u" ("a", "id") SELECT *, tutti_autoinc(NULL) FROM (SELECT tutti_int_store("a", -2147483648, 2147483647, '`app`.`u`.`a`', 1) AS "c1" FROM "app.t" AS "t" WHERE "a" > ?1) WHERE 1 ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(sel.autoinc, Some(ids(None, false)));
    // SQLite computes all rows of a SELECT from the table written before inserting them,
    // so a skipped row cannot give its id back.
    let own = q("INSERT IGNORE INTO u (a) SELECT a FROM u").autoinc;
    assert_eq!(own, Some(ids(None, false)));
    // Skipped rows give their id back, when SQLite inserts each row before the next.
    assert_eq!(
        q("INSERT IGNORE INTO u (a) VALUES (1), (2)").autoinc,
        Some(ids(Some(2), true))
    );
    assert_eq!(
        q("INSERT INTO u (a) VALUES (1) ON DUPLICATE KEY UPDATE a = 2").autoinc,
        Some(ids(Some(1), true))
    );
    let sub = q("INSERT IGNORE INTO u (a) VALUES ((SELECT max(a) FROM u))").autoinc;
    assert_eq!(sub.map(|i| i.restore), Some(false));
    let sel = q("INSERT IGNORE INTO u (a) SELECT a FROM t").autoinc;
    assert_eq!(sel, Some(ids(None, true)));
    // The column comes from the SELECT: its value goes through tutti_autoinc by position.
    let sel = q("INSERT INTO u (id, a) SELECT id, a FROM t");
    assert_eq!(
        sel.sql,
        r#"INSERT INTO "app.u" AS "u" ("id", "a") SELECT * FROM (WITH "tutti_ids" ("c1", "c2") AS (SELECT "id", tutti_int_store("a", -2147483648, 2147483647, '`app`.`u`.`a`', 1) AS "c2" FROM "app.t" AS "t") SELECT tutti_autoinc("c1"), "c2" FROM "tutti_ids") WHERE 1 ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(sel.autoinc, Some(ids(None, false)));
    // A MyISAM (Aria, MEMORY) table takes each id as its row is written.
    let u = env().table(&TableName::new("app", "u")).unwrap();
    let myisam = format!(
        r#"{}, CONSTRAINT "tutti:engine MyISAM" CHECK (1))"#,
        u.create_sql.strip_suffix(')').unwrap()
    );
    let e = env().with_create_sql("app", "u", myisam);
    let Ok(Stmt::Query(sel)) =
        translate("INSERT INTO u (a) SELECT a FROM t", &e).map(|mut v| v.remove(0))
    else {
        panic!("not a query")
    };
    assert_eq!(
        sel.autoinc,
        Some(InsertIds {
            one_at_a_time: true,
            ..ids(None, false)
        })
    );
    // Tables without AUTO_INCREMENT, and unknown tables, are left alone.
    assert_eq!(q("INSERT INTO t (id, a) VALUES (1, 2)").autoinc, None);
    let unknown = q("INSERT INTO nope (a) VALUES (1)");
    assert_eq!(
        unknown.sql,
        r#"INSERT INTO "app.nope" AS "nope" ("a") VALUES (1)"#
    );
    assert_eq!(unknown.autoinc, None);
}

#[test]
fn invisible_key_of_tables_without_primary_key() {
    // Always appended, with a node-safe id; no column list means the visible columns.
    for (sql, want) in [
        (
            "INSERT INTO nk VALUES (1, 'x'), (2, 'y')",
            r#"INSERT INTO "app.nk" AS "nk" ("a", "b", "_rowid_") VALUES (1, 'x', tutti_autoinc(NULL)), (2, 'y', tutti_autoinc(NULL))"#,
        ),
        (
            "INSERT INTO nk (b) VALUES ('x')",
            r#"INSERT INTO "app.nk" AS "nk" ("b", "_rowid_") VALUES ('x', tutti_autoinc(NULL))"#,
        ),
        (
            "INSERT INTO nk () VALUES (), ()",
            r#"INSERT INTO "app.nk" AS "nk" ("_rowid_") VALUES (tutti_autoinc(NULL)), (tutti_autoinc(NULL))"#,
        ),
        (
            "REPLACE INTO nk SET a = 1",
            r#"REPLACE INTO "app.nk" AS "nk" ("a", "_rowid_") VALUES (1, tutti_autoinc(NULL))"#,
        ),
    ] {
        let r = q(sql);
        assert_eq!((r.sql.as_str(), r.autoinc.is_some()), (want, true), "{sql}");
    }
    let sel = s("INSERT INTO nk SELECT a, b FROM nk");
    assert!(
        sel.starts_with(r#"INSERT INTO "app.nk" AS "nk" ("a", "b", "_rowid_") SELECT *, tutti_autoinc(NULL) FROM (SELECT "#),
        "{sel}"
    );
    // Locking reads lock its rows by the invisible key.
    let lock = q("SELECT b FROM nk WHERE a = 1 FOR UPDATE")
        .row_lock
        .unwrap();
    assert_eq!(
        lock.keys_sql,
        r#"SELECT "nk"."_rowid_" FROM "app.nk" AS "nk" WHERE "a" = 1"#
    );
}

#[test]
fn insert_variants() {
    assert_eq!(
        s("INSERT IGNORE INTO t (id, a) VALUES (1, 2)"),
        r#"INSERT OR IGNORE INTO "app.t" AS "t" ("id", "a") VALUES (1, 2)"#
    );
    assert_eq!(
        s("INSERT INTO t SET id = 1, t.a = 2"),
        r#"INSERT INTO "app.t" AS "t" ("id", "a") VALUES (1, 2) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        s("INSERT LOW_PRIORITY INTO other.x (a) VALUE (1)"),
        r#"INSERT INTO "other.x" AS "x" ("a") VALUES (1)"#
    );
    // A NOT NULL column without DEFAULT left out: MariaDB's 1364 in strict mode.
    assert_eq!(
        err("INSERT INTO t () VALUES ()"),
        SqlError::NoDefault("id".into())
    );
    assert_eq!(
        err("INSERT INTO t (a) VALUES (1)"),
        SqlError::NoDefault("id".into())
    );
    // MariaDB counts each VALUES row against the column list and the first row (1136).
    assert_eq!(
        err("INSERT INTO t (id, a) VALUES ()"),
        SqlError::ColumnCount(1)
    );
    assert_eq!(
        err("INSERT INTO t (id, a) VALUES (1, 2), (3, 4), (5)"),
        SqlError::ColumnCount(3)
    );
    assert_eq!(
        err("INSERT INTO t VALUES (1, 2), ()"),
        SqlError::ColumnCount(2)
    );
    // Outside strict mode it gets its implicit default (with warning 1364).
    assert_eq!(
        s("INSERT IGNORE INTO t () VALUES ()"),
        r#"INSERT OR IGNORE INTO "app.t" AS "t" ("id") VALUES (tutti_not_null(tutti_int_store(tutti_implicit_default(0, 'id'), -2147483648, 2147483647, '`app`.`t`.`id`', 1, 0), 0, 'id', 1))"#
    );
    assert_eq!(
        s("INSERT INTO t VALUES (1, 2, DEFAULT, DEFAULT)"),
        r#"INSERT INTO "app.t" AS "t" VALUES (1, 2, NULL, 'dflt') ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        s("INSERT INTO t (id, d) VALUES (1, DEFAULT)"),
        r#"INSERT INTO "app.t" AS "t" ("id", "d") VALUES (1, 'dflt') ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        s("UPDATE t SET d = DEFAULT"),
        r#"UPDATE "app.t" AS "t" SET "d" = tutti_changed_to("d", 'dflt', 'app.t')"#
    );
    let r = q("REPLACE INTO t VALUES (1, 2, 'x', 'y')");
    assert_eq!(
        r.sql,
        r#"REPLACE INTO "app.t" AS "t" VALUES (1, 2, 'x', 'y')"#
    );
    assert_eq!(r.kind, QueryKind::Replace);
}

#[test]
fn on_duplicate_key_update() {
    assert_eq!(
        s("INSERT INTO t (id, a) VALUES (1, 2) ON DUPLICATE KEY UPDATE a = VALUES(a), b = b + 1"),
        r#"INSERT INTO "app.t" AS "t" ("id", "a") VALUES (1, 2) ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", "excluded"."a", 'app.t'), "b" = tutti_changed_to("b", tutti_str_store("b" + 1, 65535, 9, '`app`.`t`.`b`', 1), 'app.t')"#
    );
    assert_eq!(
        s("INSERT INTO t (id, a) VALUES (?, ?) AS new ON DUPLICATE KEY UPDATE a = new.a + t.a"),
        r#"INSERT INTO "app.t" AS "t" ("id", "a") VALUES (tutti_int_store(?1, -2147483648, 2147483647, '`app`.`t`.`id`', 1), tutti_int_store(?2, -2147483648, 2147483647, '`app`.`t`.`a`', 1)) ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", tutti_int_store(tutti_int_op('+', "excluded"."a", "t"."a"), -2147483648, 2147483647, '`app`.`t`.`a`', 1), 'app.t')"#
    );
    assert_eq!(
        s("INSERT INTO t (id, a) VALUES (1, 2) AS new (i, x) ON DUPLICATE KEY UPDATE a = x"),
        r#"INSERT INTO "app.t" AS "t" ("id", "a") VALUES (1, 2) ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", "excluded"."a", 'app.t')"#
    );
    assert_eq!(
        s("INSERT INTO t (id, a) SELECT id, a FROM u ON DUPLICATE KEY UPDATE a = VALUES(a)"),
        r#"INSERT INTO "app.t" AS "t" ("id", "a") SELECT tutti_int_store("id", -2147483648, 2147483647, '`app`.`t`.`id`', 1) AS "c1", tutti_int_store("a", -2147483648, 2147483647, '`app`.`t`.`a`', 1) AS "c2" FROM "app.u" AS "u" WHERE 1 ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", "excluded"."a", 'app.t')"#
    );
    assert_eq!(
        s("INSERT INTO t (id, a) SELECT id, a FROM u WHERE a > 1 ON DUPLICATE KEY UPDATE a = 0"),
        r#"INSERT INTO "app.t" AS "t" ("id", "a") SELECT tutti_int_store("id", -2147483648, 2147483647, '`app`.`t`.`id`', 1) AS "c1", tutti_int_store("a", -2147483648, 2147483647, '`app`.`t`.`a`', 1) AS "c2" FROM "app.u" AS "u" WHERE "a" > 1 ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", 0, 'app.t')"#
    );
    assert_eq!(
        s("INSERT INTO t (id) SELECT id FROM u ORDER BY id LIMIT 2 ON DUPLICATE KEY UPDATE a = 0"),
        r#"INSERT INTO "app.t" AS "t" ("id") SELECT * FROM (SELECT tutti_int_store("id", -2147483648, 2147483647, '`app`.`t`.`id`', 1) AS "c1" FROM "app.u" AS "u" ORDER BY "id" LIMIT 2) WHERE 1 ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", 0, 'app.t')"#
    );
    // The SELECT's columns inserted as they are into columns of their type are `excluded`'s.
    let upsert_a = r#"ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", tutti_int_store(tutti_int_op('+', "excluded"."a", "t"."a"), -2147483648, 2147483647, '`app`.`t`.`a`', 1), 'app.t')"#;
    for sql in [
        "INSERT INTO t (id, a) SELECT id, a FROM u ON DUPLICATE KEY UPDATE a = u.a + t.a",
        "INSERT INTO t (id, a) SELECT x.id, x.a FROM u AS x ON DUPLICATE KEY UPDATE a = x.a + t.a",
        "INSERT INTO t (id, a) SELECT * FROM u ON DUPLICATE KEY UPDATE a = u.a + t.a",
    ] {
        assert!(s(sql).ends_with(upsert_a), "{sql}: {}", s(sql));
    }
    // One of another type (INTEGER into INT), one not selected, one in a subquery: left to
    // SQLite, which refuses the name (1054).
    for sql in [
        "INSERT INTO t (id, a) SELECT id, a FROM u ON DUPLICATE KEY UPDATE a = u.id",
        "INSERT INTO t (id) SELECT id FROM u ON DUPLICATE KEY UPDATE a = u.a",
        "INSERT INTO t (id, a) SELECT id, a FROM u ON DUPLICATE KEY UPDATE a = (SELECT u.a)",
    ] {
        assert!(!s(sql).contains(r#""excluded"."a""#), "{sql}: {}", s(sql));
    }
    let up = q("INSERT INTO u (a) VALUES (1) ON DUPLICATE KEY UPDATE a = a + 1");
    assert_eq!(
        up.sql,
        r#"INSERT INTO "app.u" AS "u" ("a", "id") VALUES (1, tutti_autoinc(NULL)) ON CONFLICT DO UPDATE SET "a" = tutti_changed_to("a", tutti_int_store(tutti_int_op('+', "a", 1), -2147483648, 2147483647, '`app`.`u`.`a`', 1), 'app.u')"#
    );
}

#[test]
fn update_and_delete_limits() {
    assert_eq!(
        s("UPDATE t SET a = 1 WHERE b = 'x' ORDER BY id DESC LIMIT 5"),
        r#"UPDATE "app.t" AS "t" SET "a" = tutti_changed_to("a", 1, 'app.t') WHERE rowid IN (SELECT rowid FROM "app.t" AS "t" WHERE "b" = 'x' ORDER BY "id" DESC LIMIT 5)"#
    );
    assert_eq!(
        s("DELETE FROM t WHERE a > ? LIMIT ?"),
        r#"DELETE FROM "app.t" AS "t" WHERE rowid IN (SELECT rowid FROM "app.t" AS "t" WHERE "a" > ?1 LIMIT ?2)"#
    );
    assert_eq!(
        s("DELETE FROM t LIMIT 1"),
        r#"DELETE FROM "app.t" AS "t" WHERE rowid IN (SELECT rowid FROM "app.t" AS "t" LIMIT 1)"#
    );
    assert_eq!(
        s("UPDATE t SET a = 1 ORDER BY id"),
        r#"UPDATE "app.t" AS "t" SET "a" = tutti_changed_to("a", 1, 'app.t')"#
    );
    assert_eq!(
        s("UPDATE LOW_PRIORITY IGNORE t SET t.a = 1 WHERE app.t.id = 2"),
        r#"UPDATE OR IGNORE "app.t" AS "t" SET "a" = 1 WHERE "t"."id" = 2"#
    );
    assert_eq!(
        s("DELETE LOW_PRIORITY QUICK IGNORE FROM t"),
        r#"DELETE FROM "app.t" AS "t""#
    );
    assert_eq!(
        s("UPDATE t SET a = (SELECT MAX(a) FROM u) WHERE id IN (SELECT id FROM other.x)"),
        r#"UPDATE "app.t" AS "t" SET "a" = tutti_changed_to("a", tutti_int_store((SELECT MAX("a") AS "MAX(a)" FROM "app.u" AS "u"), -2147483648, 2147483647, '`app`.`t`.`a`', 1), 'app.t') WHERE "id" IN (SELECT "id" AS "id" FROM "other.x" AS "x")"#
    );
}

#[test]
fn multi_table_writes_name_the_rows_by_rowid() {
    assert_eq!(
        s("UPDATE t, u SET t.a = u.a WHERE t.id = u.id"),
        r#"UPDATE "app.t" AS "tutti_target" SET "a" = "tutti_m"."v0" FROM (SELECT "t"."rowid" AS "tutti_rowid", tutti_int_store("u"."a", -2147483648, 2147483647, '`app`.`t`.`a`', 1) AS "v0" FROM "app.t" AS "t", "app.u" AS "u" WHERE "t"."id" = "u"."id") AS "tutti_m" WHERE "tutti_target".rowid = "tutti_m"."tutti_rowid""#
    );
    assert_eq!(
        s("UPDATE t AS x JOIN u ON x.id = u.id SET b = u.a + 1 ORDER BY u.id LIMIT 2"),
        r#"UPDATE "app.t" AS "tutti_target" SET "b" = "tutti_m"."v0" FROM (SELECT "x"."rowid" AS "tutti_rowid", tutti_str_store(tutti_int_op('+', "u"."a", 1), 65535, 9, '`app`.`t`.`b`', 1) AS "v0" FROM "app.t" AS "x" JOIN "app.u" AS "u" ON "x"."id" = "u"."id" ORDER BY "u"."id" LIMIT 2) AS "tutti_m" WHERE "tutti_target".rowid = "tutti_m"."tutti_rowid""#
    );
    assert_eq!(
        s("DELETE x FROM t AS x JOIN u ON x.id = u.id"),
        r#"DELETE FROM "app.t" WHERE rowid IN (SELECT "tutti_rowid" FROM (SELECT "x"."rowid" AS "tutti_rowid", 1 AS "1" FROM "app.t" AS "x" JOIN "app.u" AS "u" ON "x"."id" = "u"."id"))"#
    );
    assert_eq!(
        s("DELETE FROM t USING t, u WHERE t.id = u.id"),
        r#"DELETE FROM "app.t" WHERE rowid IN (SELECT "tutti_rowid" FROM (SELECT "t"."rowid" AS "tutti_rowid", 1 AS "1" FROM "app.t" AS "t", "app.u" AS "u" WHERE "t"."id" = "u"."id"))"#
    );
}

#[test]
fn writes_of_several_tables_are_refused() {
    assert_eq!(
        err("UPDATE t, u SET t.a = 1, u.a = 2"),
        SqlError::Unsupported("UPDATE of several tables".into())
    );
    assert_eq!(
        err("DELETE t, u FROM t JOIN u ON t.id = u.id"),
        SqlError::Unsupported("DELETE of several tables".into())
    );
    assert_eq!(
        err("UPDATE t, u SET id = 1"),
        SqlError::AmbiguousColumn("id".into())
    );
    assert_eq!(
        err("INSERT INTO mysql.user (a) VALUES (1)"),
        SqlError::Unsupported("mysql".into())
    );
    assert_eq!(
        translate("DELETE FROM t", &TestEnv::new()),
        Err(SqlError::NoDatabaseSelected)
    );
}

#[test]
fn last_insert_id_with_an_argument_sets_it() {
    // The sequence idiom: the new value is returned and becomes LAST_INSERT_ID().
    assert_eq!(
        s("UPDATE t SET a = LAST_INSERT_ID(a + 1)"),
        r#"UPDATE "app.t" AS "t" SET "a" = tutti_changed_to("a", tutti_int_store(tutti_set_var(' last_insert_id', CAST(tutti_int_op('+', "a", 1) AS INTEGER)), -2147483648, 2147483647, '`app`.`t`.`a`', 1), 'app.t')"#
    );
    assert_eq!(
        s("SELECT LAST_INSERT_ID()"),
        "SELECT 42 AS \"LAST_INSERT_ID()\""
    );
}

/// `app.v`: `id AS x, a + 1 AS y` of `app.t` where `a > 1`; `app.agg`: an aggregate of it.
fn view_env() -> TestEnv {
    let view = |env: TestEnv, name: &str, cols: &[(&str, &str)], sql: &str| {
        env.with_table("app", name, cols, &[], None, &[])
            .with_create_sql("app", name, sql.to_string())
    };
    let env = view(
        env(),
        "v",
        &[("x", ""), ("y", "")],
        r#"CREATE VIEW "app.v" AS SELECT "id" AS "x", "a" + 1 AS "y" FROM "app.t" AS "t" WHERE "a" > 1"#,
    );
    let env = view(
        env,
        "plain",
        &[("id", ""), ("a", "")],
        r#"CREATE VIEW "app.plain" AS SELECT "id", "a" FROM "app.t" AS "t""#,
    );
    view(
        env,
        "agg",
        &[("n", "")],
        r#"CREATE VIEW "app.agg" AS SELECT count(1) AS "n" FROM "app.t" AS "t""#,
    )
}

fn in_views(sql: &str) -> Result<String, SqlError> {
    match translate(sql, &view_env())?.pop() {
        Some(Stmt::Query(q)) => Ok(q.sql),
        other => panic!("{sql}: {other:?}"),
    }
}

#[test]
fn writes_through_a_view_reach_its_table() {
    let derived = r#"(SELECT "id" AS "x", "a" + 1 AS "y", "t"."rowid" AS "tutti_rowid" FROM "app.t" AS "t" WHERE "a" > 1) AS "v""#;
    assert_eq!(
        in_views("UPDATE v SET x = 5 WHERE y > 2").unwrap(),
        format!(
            r#"UPDATE "app.t" AS "tutti_target" SET "id" = "tutti_m"."v0" FROM (SELECT "v"."tutti_rowid" AS "tutti_rowid", 5 AS "v0" FROM {derived} WHERE "y" > 2) AS "tutti_m" WHERE "tutti_target".rowid = "tutti_m"."tutti_rowid""#
        )
    );
    assert_eq!(
        in_views("DELETE FROM v WHERE y = 3").unwrap(),
        format!(
            r#"DELETE FROM "app.t" WHERE rowid IN (SELECT "tutti_rowid" FROM (SELECT "v"."tutti_rowid" AS "tutti_rowid", 1 AS "1" FROM {derived} WHERE "y" = 3))"#
        )
    );
    assert_eq!(
        in_views("INSERT INTO plain VALUES (1, 2)").unwrap(),
        r#"INSERT INTO "app.t" AS "t" ("id", "a") VALUES (1, 2) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        in_views("UPDATE v SET y = 1"),
        Err(SqlError::NonUpdatableColumn("y".into()))
    );
    assert_eq!(
        in_views("INSERT INTO v (x) VALUES (1)").unwrap(),
        r#"INSERT INTO "app.t" AS "t" ("id") VALUES (1) ON CONFLICT("id") DO UPDATE SET "id" = tutti_duplicate('PRIMARY', "excluded"."id")"#
    );
    assert_eq!(
        in_views("INSERT INTO v VALUES (1, 2)"),
        Err(SqlError::NonInsertableTable("v".into()))
    );
    assert_eq!(
        in_views("CREATE VIEW w AS SELECT a FROM t WHERE a > 1 WITH LOCAL CHECK OPTION"),
        Err(SqlError::Unsupported("views WITH CHECK OPTION".into()))
    );
    assert_eq!(
        in_views("DELETE FROM agg"),
        Err(SqlError::NonUpdatableTable {
            table: "agg".into(),
            what: "DELETE"
        })
    );
}
