//! DDL translation: CREATE/DROP DATABASE, CREATE TABLE, indexes, ALTER, views, RENAME.

use super::*;
use tutti_wsrep::Ddl;

/// The statements of a schema change and the tables it touches.
pub(crate) fn schema(sql: &str) -> (Vec<String>, Vec<TableName>) {
    match one(sql) {
        Ok(
            Stmt::Ddl(DdlStmt {
                ddl: Ddl::Schema { statements, .. },
                tables,
                ..
            })
            | Stmt::DropTables(DropTables {
                ddl:
                    DdlStmt {
                        ddl: Ddl::Schema { statements, .. },
                        tables,
                        ..
                    },
                ..
            }),
        ) => (statements, tables),
        other => panic!("{sql}: {other:?}"),
    }
}

fn stmts(sql: &str) -> Vec<String> {
    schema(sql).0
}

fn app(t: &str) -> TableName {
    TableName::new("app", t)
}

pub(crate) const SYSBENCH_CREATE: &str = "CREATE TABLE sbtest1(\n  id INTEGER NOT NULL AUTO_INCREMENT,\n  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY (id)\n) /*! ENGINE = innodb */";

#[test]
fn sysbench_ddl() {
    let (s, tables) = schema(SYSBENCH_CREATE);
    assert_eq!(
        s,
        [
            r#"CREATE TABLE "app.sbtest1" ("id" INTEGER /*tutti:type INTEGER*/ NOT NULL PRIMARY KEY AUTOINCREMENT, "k" INTEGER NOT NULL DEFAULT '0', "c" CHAR(120) NOT NULL DEFAULT '' COLLATE tutti_general_ci, "pad" CHAR(60) NOT NULL DEFAULT '' COLLATE tutti_general_ci)"#
        ]
    );
    assert_eq!(tables, [app("sbtest1")]);
    match one(SYSBENCH_CREATE).unwrap() {
        Stmt::Ddl(DdlStmt {
            ddl: Ddl::Schema { database, .. },
            ..
        }) => assert_eq!(database, "app"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        stmts("CREATE INDEX k_1 ON sbtest1(k)"),
        [r#"CREATE INDEX "app.sbtest1.k_1" ON "app.sbtest1" ("k")"#]
    );
    assert_eq!(
        schema("DROP TABLE IF EXISTS sbtest1"),
        (
            vec![r#"DROP TABLE IF EXISTS "app.sbtest1""#.to_string()],
            vec![app("sbtest1")]
        )
    );
}

#[test]
fn databases() {
    assert_eq!(
        one(
            "CREATE DATABASE IF NOT EXISTS sbtest CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
        )
        .unwrap(),
        Stmt::Ddl(DdlStmt {
            ddl: Ddl::CreateDatabase {
                name: "sbtest".into(),
                if_not_exists: true,
                collation: Some("utf8mb4_unicode_ci".into()),
            },
            tables: vec![],
            records: crate::DdlRecords::None,
        })
    );
    assert_eq!(
        one("CREATE SCHEMA `d2` DEFAULT CHARSET = utf8").unwrap(),
        Stmt::Ddl(DdlStmt {
            ddl: Ddl::CreateDatabase {
                name: "d2".into(),
                if_not_exists: false,
                collation: Some("utf8mb3_general_ci".into()),
            },
            tables: vec![],
            records: crate::DdlRecords::None,
        })
    );
    assert_eq!(
        one("DROP SCHEMA IF EXISTS d2").unwrap(),
        Stmt::Ddl(DdlStmt {
            ddl: Ddl::DropDatabase {
                name: "d2".into(),
                if_exists: true
            },
            tables: vec![],
            records: crate::DdlRecords::None,
        })
    );
    assert_eq!(
        one("DROP DATABASE sbtest").unwrap(),
        Stmt::Ddl(DdlStmt {
            ddl: Ddl::DropDatabase {
                name: "sbtest".into(),
                if_exists: false
            },
            tables: vec![],
            records: crate::DdlRecords::None,
        })
    );
    assert!(matches!(
        err("CREATE DATABASE `a.b`"),
        SqlError::WrongArguments(_)
    ));
    assert_eq!(
        err("DROP DATABASE mysql"),
        SqlError::Unsupported("mysql".into())
    );
}

#[test]
fn column_types_and_options() {
    let s = stmts(
        "CREATE TABLE IF NOT EXISTS t2 (a INT(11) PRIMARY KEY, b VARCHAR(10) COLLATE utf8mb4_bin, \
         c ENUM('x','y') NOT NULL, d JSON, e BOOL DEFAULT TRUE COMMENT 'flag', \
         ts TIMESTAMP(6) NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), \
         f DECIMAL(10,2) DEFAULT -1.5, g BIGINT(20) UNSIGNED DEFAULT (a + 1), h SET('p','q'), \
         i TEXT CHARACTER SET binary, j TINYINT(1), k DOUBLE PRECISION, l DATETIME DEFAULT NOW(), \
         m VARBINARY(16), n YEAR, o INT(3) ZEROFILL, p BIT(3) DEFAULT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
    );
    assert_eq!(
        s[0],
        r#"CREATE TABLE IF NOT EXISTS "app.t2" ("a" INT NOT NULL, "b" VARCHAR(10) COLLATE tutti_bin, "c" ENUM TEXT NOT NULL COLLATE tutti_general_ci, "d" JSON TEXT COLLATE tutti_general_ci, "e" TINYINT(1) DEFAULT 1, "ts" TIMESTAMP(6) /*tutti:on_update 6*/ DEFAULT (tutti_current_timestamp(6, 6, 1)), "f" DECIMAL TEXT(10,2) DEFAULT '-1.50' COLLATE tutti_decimal, "g" BIGINT UNSIGNED DEFAULT (tutti_int_store("a" + 1, 0, -1, '``.``.`g`', 1)) /*tutti:default 28606160202b203129*/, "h" SET_TEXT COLLATE tutti_general_ci, "i" TEXT, "j" TINYINT(1), "k" DOUBLE, "l" DATETIME DEFAULT (tutti_current_timestamp(0, 0, 0)), "m" VARBINARY TEXT(16), "n" YEAR, "o" INT UNSIGNED(3) /*tutti:zerofill */, "p" BIT(3) DEFAULT NULL, PRIMARY KEY ("a"), CONSTRAINT "c enum" CHECK ("c" IN ('x', 'y') OR "c" = ''), CONSTRAINT "h enum" CHECK (tutti_set_valid("h", 'p', 'q')))"#
    );
    let s = stmts("CREATE TABLE t3 (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, x TEXT) DEFAULT COLLATE utf8mb4_bin");
    assert_eq!(
        s,
        [
            r#"CREATE TABLE "app.t3" ("id" INTEGER /*tutti:type BIGINT UNSIGNED*/ NOT NULL PRIMARY KEY AUTOINCREMENT, "x" TEXT COLLATE tutti_bin, CONSTRAINT "tutti:collate utf8mb4_bin" CHECK (1))"#
        ]
    );
    // A single-byte character set, the column's or the table's default, is marked.
    let s = stmts(
        "CREATE TABLE t6 (id INT PRIMARY KEY, a CHAR(2) CHARACTER SET latin2, \
         b TEXT COLLATE koi8r_bin, c VARCHAR(3), u TEXT CHARSET utf8mb4, n INT) CHARSET=cp1250",
    );
    assert_eq!(
        s[0],
        r#"CREATE TABLE "app.t6" ("id" INT NOT NULL, "a" CHAR(2) /*tutti:charset latin2_general_ci*/ COLLATE tutti_latin2_general_ci, "b" TEXT /*tutti:charset koi8r_bin*/ COLLATE tutti_bin, "c" VARCHAR(3) /*tutti:charset cp1250_general_ci*/ COLLATE tutti_cp1250_general_ci, "u" TEXT COLLATE tutti_general_ci, "n" INT, PRIMARY KEY ("id"))"#
    );
    // An integer primary key without AUTO_INCREMENT must not become the rowid alias.
    let s = stmts("CREATE TABLE t4 (id INTEGER PRIMARY KEY, x INT UNIQUE)");
    assert_eq!(
        s[0],
        r#"CREATE TABLE "app.t4" ("id" INT NOT NULL, "x" INT, PRIMARY KEY ("id"))"#
    );
    assert_eq!(s[1], r#"CREATE UNIQUE INDEX "app.t4.x" ON "app.t4" ("x")"#);
    let s = stmts("CREATE TABLE t5 (a INT, b VARCHAR(3), PRIMARY KEY (b, a))");
    assert_eq!(
        s[0],
        r#"CREATE TABLE "app.t5" ("a" INT NOT NULL, "b" VARCHAR(3) NOT NULL COLLATE tutti_general_ci, PRIMARY KEY ("b", "a"))"#
    );
}

#[test]
fn keys_constraints_and_default_index_names() {
    let (s, tables) = schema(
        "CREATE TABLE other.t6 (a INT NOT NULL, b INT, c VARCHAR(50), d INT, PRIMARY KEY (a), \
         KEY (b), KEY (b, c), UNIQUE KEY uk (c(10)), INDEX idx USING BTREE (d DESC), \
         CONSTRAINT fk FOREIGN KEY (d) REFERENCES p(id) ON DELETE CASCADE ON UPDATE SET NULL, \
         FOREIGN KEY (b) REFERENCES app.q (x), CHECK (b > 0), CONSTRAINT pos CHECK (d >= 0), \
         CONSTRAINT off CHECK (d < 9) NOT ENFORCED)",
    );
    assert_eq!(tables, [TableName::new("other", "t6")]);
    assert_eq!(
        s,
        [
            r#"CREATE TABLE "other.t6" ("a" INT NOT NULL, "b" INT, "c" VARCHAR(50) COLLATE tutti_general_ci, "d" INT, PRIMARY KEY ("a"), CONSTRAINT "fk" FOREIGN KEY ("d") REFERENCES "other.p" ("id") ON DELETE CASCADE ON UPDATE SET NULL DEFERRABLE INITIALLY DEFERRED, FOREIGN KEY ("b") REFERENCES "app.q" ("x") DEFERRABLE INITIALLY DEFERRED, CHECK ("b" > 0), CONSTRAINT "pos" CHECK ("d" >= 0))"#,
            r#"CREATE INDEX "other.t6.b" ON "other.t6" ("b")"#,
            r#"CREATE INDEX "other.t6.b_2" ON "other.t6" ("b", "c")"#,
            r#"CREATE UNIQUE INDEX "other.t6.uk" ON "other.t6" ("c")"#,
            r#"CREATE INDEX "other.t6.idx" ON "other.t6" ("d" DESC)"#,
        ]
    );
    // The FOREIGN KEY's own index is created when no index covers its columns.
    let s = stmts("CREATE TABLE c1 (id INT PRIMARY KEY, pid INT, CONSTRAINT fk_p FOREIGN KEY (pid) REFERENCES p (id))");
    assert_eq!(s[1], r#"CREATE INDEX "app.c1.fk_p" ON "app.c1" ("pid")"#);
    // A parent column that is not a PRIMARY KEY or UNIQUE key (sbtest1.k has a plain index)
    // would make SQLite fail every later write: refused.
    assert!(matches!(
        err("CREATE TABLE c2 (id INT PRIMARY KEY, k INT, FOREIGN KEY (k) REFERENCES sbtest1 (k))"),
        SqlError::Unsupported(m) if m.contains("not a PRIMARY KEY or UNIQUE key")
    ));
    assert_eq!(
        stmts(
            "CREATE TABLE c3 (id INT PRIMARY KEY, s INT, FOREIGN KEY (s) REFERENCES sbtest1 (id))"
        )
        .len(),
        2
    );
    assert!(matches!(
        err("CREATE TABLE d1 (a INT PRIMARY KEY, KEY k (a), KEY k (a))"),
        SqlError::DuplicateKeyName(_)
    ));
    assert!(matches!(
        err("CREATE TABLE d2 (a INT PRIMARY KEY, PRIMARY KEY (a))"),
        SqlError::MultiplePrimaryKey
    ));
}

#[test]
fn storage_engines() {
    // An engine other than InnoDB is recorded (SHOW CREATE TABLE, AUTO_INCREMENT).
    assert_eq!(
        stmts("CREATE TABLE e1 (a INT PRIMARY KEY) ENGINE=MyISAM"),
        [
            r#"CREATE TABLE "app.e1" ("a" INT NOT NULL, PRIMARY KEY ("a"), CONSTRAINT "tutti:engine MyISAM" CHECK (1))"#
        ]
    );
    assert_eq!(
        stmts("CREATE TABLE e1 (a INT PRIMARY KEY) ENGINE=heap"),
        [
            r#"CREATE TABLE "app.e1" ("a" INT NOT NULL, PRIMARY KEY ("a"), CONSTRAINT "tutti:engine MEMORY" CHECK (1))"#
        ]
    );
    assert_eq!(
        stmts("CREATE TABLE e1 (a INT PRIMARY KEY) ENGINE=innodb"),
        [r#"CREATE TABLE "app.e1" ("a" INT NOT NULL, PRIMARY KEY ("a"))"#]
    );
    let s = stmts("ALTER TABLE t ENGINE=Aria");
    assert!(
        s.iter()
            .any(|q| q.contains(r#"CONSTRAINT "tutti:engine Aria" CHECK (1)"#)),
        "{s:?}"
    );
    // MariaDB 10.11 has no XtraDB.
    assert_eq!(
        err("CREATE TABLE e1 (a INT PRIMARY KEY) ENGINE=XtraDB"),
        SqlError::UnknownStorageEngine("XtraDB".into())
    );
    assert_eq!(
        err("CREATE TABLE e1 (a INT PRIMARY KEY) ENGINE=blackhole"),
        SqlError::UnknownStorageEngine("blackhole".into())
    );
    assert!(matches!(
        err("CREATE TABLE e1 (a INT PRIMARY KEY) ENGINE=MERGE UNION=(t)"),
        SqlError::Unsupported(_)
    ));
    assert_eq!(
        err("ALTER TABLE t ENGINE=foo"),
        SqlError::UnknownStorageEngine("foo".into())
    );
}

#[test]
fn tables_without_primary_key() {
    // Keyed by the rowid: no PRIMARY KEY clause, unique keys as usual.
    assert_eq!(
        stmts("CREATE TABLE t7 (a INT, b INT UNIQUE)"),
        [
            "CREATE TABLE \"app.t7\" (\"a\" INT, \"b\" INT)",
            "CREATE UNIQUE INDEX \"app.t7.b\" ON \"app.t7\" (\"b\")"
        ]
    );
    assert!(matches!(
        err("CREATE TABLE t7 (_rowid_ INT)"),
        SqlError::Unsupported(_)
    ));
    // innodb_force_primary_key refuses them.
    let strict = env().with_global("innodb_force_primary_key", Value::Int(1));
    for sql in [
        "CREATE TABLE t7 (a INT, b INT)",
        "CREATE TABLE t7 (a INT UNIQUE)",
    ] {
        assert_eq!(
            translate(sql, &strict),
            Err(SqlError::NoPrimaryKey("app.t7".into()))
        );
    }
}

#[test]
fn primary_key_and_auto_increment_rules() {
    let msg = "AUTO_INCREMENT on a column that is not the single-column integer PRIMARY KEY";
    assert_eq!(
        err("CREATE TABLE t7 (a INT AUTO_INCREMENT, b INT, PRIMARY KEY (a, b))"),
        SqlError::Unsupported(msg.into())
    );
    assert_eq!(
        err("CREATE TABLE t7 (a INT PRIMARY KEY, b INT AUTO_INCREMENT)"),
        SqlError::Unsupported(msg.into())
    );
    assert_eq!(
        err("CREATE TABLE t7 (a VARCHAR(3) AUTO_INCREMENT PRIMARY KEY)"),
        SqlError::Unsupported(msg.into())
    );
    assert_eq!(
        stmts("CREATE TABLE t7 (a MEDIUMINT UNSIGNED AUTO_INCREMENT, PRIMARY KEY (a))")[0],
        r#"CREATE TABLE "app.t7" ("a" INTEGER /*tutti:type MEDIUMINT UNSIGNED*/ NOT NULL PRIMARY KEY AUTOINCREMENT)"#
    );
    assert_eq!(
        err("CREATE TABLE nodb.t (a INT PRIMARY KEY)"),
        SqlError::UnknownDatabase("nodb".into())
    );
    assert_eq!(
        translate("CREATE TABLE t (a INT PRIMARY KEY)", &TestEnv::new()),
        Err(SqlError::NoDatabaseSelected)
    );
}

#[test]
fn refused_create_table_forms() {
    let cases = [
        (
            "CREATE TABLE t7 (a INT PRIMARY KEY) PARTITION BY HASH(a) PARTITIONS 4",
            "partitioned tables",
        ),
        (
            "CREATE TABLE t7 (a INT PRIMARY KEY, b TEXT, FULLTEXT KEY (b))",
            "FULLTEXT indexes",
        ),
        (
            "CREATE TABLE t7 (a INT PRIMARY KEY, b INT GENERATED ALWAYS AS (a + 1) STORED)",
            "generated columns",
        ),
        ("CREATE FULLTEXT INDEX f ON t (b)", "FULLTEXT indexes"),
    ];
    for (sql, what) in cases {
        assert_eq!(err(sql), SqlError::Unsupported(what.into()), "{sql}");
    }
    assert!(matches!(
        err("CREATE TABLE t7 (a INT PRIMARY KEY, g GEOMETRY)"),
        SqlError::Unsupported(_)
    ));
}

#[test]
fn temporary_tables_are_made_in_the_temp_schema() {
    match one("CREATE TEMPORARY TABLE t7 (a INT PRIMARY KEY, b INT, KEY kb (b))") {
        Ok(Stmt::Temporary(TempDdl {
            statements, tables, ..
        })) => {
            assert_eq!(
                statements,
                vec![
                    r#"CREATE TEMP TABLE "app.t7" ("a" INT NOT NULL, "b" INT, PRIMARY KEY ("a"))"#,
                    r#"CREATE INDEX temp."app.t7.kb" ON "app.t7" ("b")"#,
                ]
            );
            assert_eq!(tables, vec![app("t7")]);
        }
        other => panic!("{other:?}"),
    }
    match one("DROP TEMPORARY TABLE IF EXISTS t7") {
        Ok(Stmt::DropTables(d)) => assert!(d.temporary && d.unknown == vec![app("t7")]),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        err("CREATE TEMPORARY TABLE t7 (a INT, FOREIGN KEY (a) REFERENCES t (a))"),
        SqlError::TemporaryForeignKey(_)
    ));
}

#[test]
fn indexes() {
    assert_eq!(
        schema("CREATE UNIQUE INDEX ux ON other.t (a(10), b DESC)"),
        (
            vec![r#"CREATE UNIQUE INDEX "other.t.ux" ON "other.t" ("a", "b" DESC)"#.to_string()],
            vec![TableName::new("other", "t")]
        )
    );
    assert_eq!(stmts("DROP INDEX ia ON t"), [r#"DROP INDEX "app.t.ia""#]);
    assert_eq!(
        stmts("DROP INDEX `IA` ON app.t"),
        [r#"DROP INDEX "app.t.ia""#]
    );
    assert_eq!(
        err("DROP INDEX nope ON t"),
        SqlError::NoSuchIndex("nope".into())
    );
    assert_eq!(
        err("DROP INDEX ia ON nope"),
        SqlError::NoSuchTable("app.nope".into())
    );
    assert_eq!(
        err("DROP INDEX `PRIMARY` ON t"),
        SqlError::NoPrimaryKey("app.t".into())
    );
}

#[test]
fn drop_truncate_rename() {
    assert_eq!(
        schema("DROP TABLE IF EXISTS a, other.b"),
        (
            vec![
                r#"DROP TABLE IF EXISTS "app.a""#.to_string(),
                r#"DROP TABLE IF EXISTS "other.b""#.to_string()
            ],
            vec![app("a"), TableName::new("other", "b")]
        )
    );
    // the tables that exist are dropped, then 1051 names the others
    match one("DROP TABLE t, a, other.b").unwrap() {
        Stmt::DropTables(DropTables {
            ddl:
                DdlStmt {
                    ddl: Ddl::Schema { statements, .. },
                    tables,
                    records: crate::DdlRecords::None,
                },
            unknown,
            if_exists: false,
            views: false,
            ..
        }) => {
            assert_eq!(statements, [r#"DROP TABLE "app.t""#]);
            assert_eq!(tables, [app("t")]);
            assert_eq!(unknown, [app("a"), TableName::new("other", "b")]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(stmts("DROP TABLES t"), [r#"DROP TABLE "app.t""#]);
    assert_eq!(
        schema("TRUNCATE TABLE t"),
        (vec![r#"DELETE FROM "app.t""#.to_string()], vec![app("t")])
    );
    assert_eq!(stmts("TRUNCATE t"), [r#"DELETE FROM "app.t""#]);
    let (s, tables) = schema("RENAME TABLE t TO other.t9, u TO u2");
    assert_eq!(
        s,
        [
            r#"ALTER TABLE "app.t" RENAME TO "other.t9""#,
            r#"DROP INDEX "app.t.ia""#,
            r#"CREATE INDEX "other.t9.ia" ON "other.t9" ("a")"#,
            r#"ALTER TABLE "app.u" RENAME TO "app.u2""#,
        ]
    );
    assert_eq!(
        tables,
        [app("t"), TableName::new("other", "t9"), app("u"), app("u2")]
    );
}

#[test]
fn alter_table() {
    // What SQLite's ALTER does in place stays a list of ALTERs, in MariaDB's order.
    let (s, tables) = schema(
        "ALTER TABLE t ADD COLUMN c INT NOT NULL DEFAULT 0, ADD e VARCHAR(10), \
         DROP COLUMN d, RENAME COLUMN b TO b2, ADD INDEX i2 (b2(5)), ADD UNIQUE KEY (id, a), \
         DROP KEY ia, ENGINE=InnoDB, ADD COLUMN (f INT, g TEXT)",
    );
    assert_eq!(
        s,
        [
            r#"ALTER TABLE "app.t" ADD COLUMN "c" INT NOT NULL DEFAULT 0"#,
            r#"ALTER TABLE "app.t" ADD COLUMN "e" VARCHAR(10) COLLATE tutti_general_ci"#,
            r#"ALTER TABLE "app.t" DROP COLUMN "d""#,
            r#"ALTER TABLE "app.t" RENAME COLUMN "b" TO "b2""#,
            r#"CREATE INDEX "app.t.i2" ON "app.t" ("b2")"#,
            r#"CREATE UNIQUE INDEX "app.t.id" ON "app.t" ("id", "a")"#,
            r#"DROP INDEX "app.t.ia""#,
            r#"ALTER TABLE "app.t" ADD COLUMN "f" INT"#,
            r#"ALTER TABLE "app.t" ADD COLUMN "g" TEXT COLLATE tutti_general_ci"#,
        ]
    );
    assert_eq!(tables, [app("t")]);
    // A placed column, a NOT NULL column without DEFAULT and a changed type rebuild the
    // table: the copy converts, renames and indexes follow it.
    assert_eq!(
        stmts(
            "ALTER TABLE t ADD e VARCHAR(10) FIRST, ADD n INT NOT NULL AFTER a, \
             MODIFY b INT, RENAME COLUMN a TO a2, DROP d"
        ),
        [
            r#"CREATE TABLE "app.t tutti_rebuild" ("e" VARCHAR(10) COLLATE tutti_general_ci, "id" INT NOT NULL, "a" INT, "n" INT NOT NULL, "b" INT, PRIMARY KEY ("id"))"#,
            r#"INSERT INTO "app.t tutti_rebuild" ("id", "a", "n", "b") SELECT "id", "a", 0, tutti_int_store("b", -2147483648, 2147483647, '`app`.`t`.`b`', 1, 2) FROM "app.t""#,
            r#"DROP TABLE "app.t""#,
            "PRAGMA legacy_alter_table = ON",
            r#"ALTER TABLE "app.t tutti_rebuild" RENAME TO "app.t""#,
            "PRAGMA legacy_alter_table = OFF",
            r#"ALTER TABLE "app.t" RENAME COLUMN "a" TO "a2""#,
            r#"CREATE INDEX "app.t.ia" ON "app.t" ("a2")"#,
        ]
    );
    // Dropping an indexed column drops its single-column index first.
    assert_eq!(
        stmts("ALTER TABLE t DROP a"),
        [
            r#"DROP INDEX "app.t.ia""#,
            r#"ALTER TABLE "app.t" DROP COLUMN "a""#
        ]
    );
    assert_eq!(
        stmts("ALTER TABLE t CHANGE a a3 INT"),
        [r#"ALTER TABLE "app.t" RENAME COLUMN "a" TO "a3""#]
    );
    assert_eq!(
        stmts("ALTER TABLE t CHANGE COLUMN id ident INTEGER NOT NULL"),
        [r#"ALTER TABLE "app.t" RENAME COLUMN "id" TO "ident""#]
    );
    assert_eq!(
        stmts("ALTER TABLE u CHANGE id uid INT NOT NULL AUTO_INCREMENT"),
        [r#"ALTER TABLE "app.u" RENAME COLUMN "id" TO "uid""#]
    );
    assert_eq!(
        stmts("ALTER TABLE t RENAME INDEX ia TO ib"),
        [
            r#"DROP INDEX "app.t.ia""#,
            r#"CREATE INDEX "app.t.ib" ON "app.t" ("a")"#
        ]
    );
    let (s, tables) = schema("ALTER TABLE t RENAME TO t9");
    assert_eq!(s[0], r#"ALTER TABLE "app.t" RENAME TO "app.t9""#);
    assert_eq!(tables, [app("t"), app("t9")]);
    // MariaDB's OK packet counts records for every ALTER but a rename and DISABLE KEYS.
    let records = |sql| match one(sql) {
        Ok(Stmt::Ddl(d)) => Some(d.records),
        Ok(Stmt::Unaltered(_)) => Some(crate::DdlRecords::InPlace),
        _ => None,
    };
    assert_eq!(
        records("ALTER TABLE t RENAME TO t9"),
        Some(crate::DdlRecords::None)
    );
    assert_eq!(
        records("ALTER TABLE t ADD COLUMN z INT, RENAME TO t9"),
        Some(crate::DdlRecords::InPlace)
    );
    assert_eq!(
        records("ALTER TABLE t ADD COLUMN z INT"),
        Some(crate::DdlRecords::InPlace)
    );
    assert_eq!(
        records("ALTER TABLE t FORCE"),
        Some(crate::DdlRecords::InPlace)
    );
    assert_eq!(
        records("CREATE INDEX iz ON t (a)"),
        Some(crate::DdlRecords::InPlace)
    );
    assert_eq!(records("ALTER TABLE t DISABLE KEYS"), None);
    assert_eq!(
        one("ALTER TABLE t ENGINE=InnoDB").unwrap(),
        Stmt::Unaltered(app("t"))
    );
    assert_eq!(
        one("ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci, ALGORITHM=INPLACE, LOCK=NONE").unwrap(),
        Stmt::Unaltered(app("t"))
    );
    assert_eq!(
        one("ALTER TABLE t MODIFY a INT").unwrap(),
        Stmt::Unaltered(app("t"))
    );
}

#[test]
fn alter_table_rebuilds() {
    let s = stmts("ALTER TABLE t ALTER COLUMN a SET DEFAULT 1, MODIFY b VARCHAR(3) NOT NULL");
    assert_eq!(
        s[0],
        r#"CREATE TABLE "app.t tutti_rebuild" ("id" INT NOT NULL, "a" INT DEFAULT 1, "b" VARCHAR(3) NOT NULL COLLATE tutti_general_ci, "d" TEXT DEFAULT 'dflt', PRIMARY KEY ("id"))"#
    );
    assert!(s[1].contains("tutti_str_store"), "{}", s[1]);
    // MariaDB reports the rows of a copying ALTER (a type changed), 0 for one in place.
    let copied = |sql| matches!(one(sql), Ok(Stmt::Ddl(DdlStmt { records, .. })) if records == crate::DdlRecords::Copied);
    assert!(copied("ALTER TABLE t MODIFY b VARCHAR(3)"));
    assert!(copied("ALTER TABLE t MODIFY a BIGINT FIRST"));
    assert!(!copied("ALTER TABLE t MODIFY a INT NOT NULL FIRST"));
    assert!(!copied(
        "ALTER TABLE t ALTER COLUMN a SET DEFAULT 1, ADD z INT NOT NULL FIRST"
    ));
    // ADD ... UNIQUE is an index; AUTO_INCREMENT = n sets the counter.
    assert_eq!(
        stmts("ALTER TABLE t ADD COLUMN z INT UNIQUE"),
        [
            r#"ALTER TABLE "app.t" ADD COLUMN "z" INT"#,
            r#"CREATE UNIQUE INDEX "app.t.z" ON "app.t" ("z")"#
        ]
    );
    assert_eq!(stmts("ALTER TABLE u AUTO_INCREMENT = 100").len(), 2);
    assert_eq!(
        one("ALTER TABLE t AUTO_INCREMENT = 100").unwrap(),
        Stmt::Unaltered(app("t"))
    );
    assert_eq!(
        err("ALTER TABLE t DROP COLUMN nope"),
        SqlError::NoSuchColumnToDrop("nope".into())
    );
}

#[test]
fn alter_table_refusals() {
    let u = |w: &str| SqlError::Unsupported(format!("ALTER TABLE ... {w}"));
    assert_eq!(
        err("ALTER TABLE t ADD PRIMARY KEY (a)"),
        SqlError::MultiplePrimaryKey
    );
    assert_eq!(
        err("ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (nope)"),
        SqlError::KeyColumnMissing("nope".into())
    );
    assert_eq!(
        err("ALTER TABLE t ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES p (id)"),
        u("ADD FOREIGN KEY")
    );
    assert_eq!(
        err("ALTER TABLE t ADD COLUMN z INT PRIMARY KEY"),
        u("ADD COLUMN ... PRIMARY KEY")
    );
    assert_eq!(
        err("ALTER TABLE t DROP FOREIGN KEY f"),
        u("DROP FOREIGN KEY")
    );
    assert_eq!(
        err("ALTER TABLE nope MODIFY a INT"),
        SqlError::NoSuchTable("app.nope".into())
    );
    assert_eq!(
        err("ALTER TABLE t DROP INDEX nope"),
        SqlError::NoSuchIndex("nope".into())
    );
    assert_eq!(
        err("ALTER TABLE t ADD FULLTEXT INDEX f (b)"),
        SqlError::Unsupported("FULLTEXT indexes".into())
    );
}

#[test]
fn primary_key_changes_rebuild() {
    let created = stmts("ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (a)");
    assert!(
        created[0].contains(r#""a" INT NOT NULL"#) && created[0].ends_with(r#"PRIMARY KEY ("a"))"#),
        "{created:?}"
    );
    let dropped = stmts("ALTER TABLE t DROP PRIMARY KEY");
    assert!(!dropped[0].contains("PRIMARY KEY"), "{dropped:?}");
}

#[test]
fn create_table_select() {
    let Ok(Stmt::CreateSelect(cs)) =
        one("CREATE TABLE IF NOT EXISTS t7 (id INT PRIMARY KEY, x INT) ENGINE=InnoDB SELECT id, a * 1.5 AS m, 2.50 AS l, b FROM t WHERE a > ?")
    else {
        panic!("not a CREATE TABLE ... SELECT")
    };
    assert_eq!(
        (&cs.table, cs.if_not_exists, cs.select.params),
        (&app("t7"), true, 1)
    );
    assert!(
        cs.select.sql.starts_with("SELECT \"id\", "),
        "{}",
        cs.select.sql
    );
    // Computed DECIMALs and decimal literals are told apart from other columns.
    assert_eq!(cs.decimal, [None, Some(0), Some(2), None]);
    let columns = [
        ("id", "INT"),
        ("m", "DECIMAL(4,1)"),
        ("l", "DECIMAL(3,2)"),
        ("b", "TEXT"),
    ]
    .map(|(n, t)| (n.to_string(), t.to_string()));
    // Defined columns the SELECT does not give come first; the others keep their
    // definition in the SELECT's order.
    assert_eq!(
        cs.create_sql(&columns).unwrap(),
        "CREATE TABLE `app`.`t7` (x INT, id INT PRIMARY KEY, `m` DECIMAL(4,1), `l` DECIMAL(3,2), `b` TEXT) ENGINE = InnoDB"
    );
    assert_eq!(
        cs.insert_sql(&columns.map(|(n, _)| n)),
        "INSERT INTO `app`.`t7` (`id`, `m`, `l`, `b`) SELECT id, a * 1.5 AS m, 2.50 AS l, b FROM t WHERE a > ?"
    );
    // A `*` leaves the types to the declared ones.
    let Ok(Stmt::CreateSelect(cs)) = one("CREATE TABLE t7 SELECT * FROM t") else {
        panic!("not a CREATE TABLE ... SELECT")
    };
    assert!(cs.decimal.is_empty());
}

/// The column types MariaDB 10.11 creates for these expressions (read off its
/// `SHOW CREATE TABLE`), `a` a nullable INT, `id` the INT primary key.
#[test]
fn create_table_select_derives_mariadbs_types() {
    let sql = "CREATE TABLE t8 SELECT id, 1, -1, 00.50, 1e1, 'abc', NULL, id + 1, 12345678 + 1, \
               a * 1.5, id / 2, a DIV 2, id MOD 3, -id, ~id, COUNT(*), SUM(a), AVG(id), MAX(id), \
               CONCAT(id), CAST(id AS CHAR), CAST(id AS UNSIGNED), CAST(1 AS SIGNED), \
               CAST(a AS DECIMAL(5,1)), IFNULL(a, 2.5), COALESCE(a, id), IF(a, b, NULL), \
               CASE WHEN a THEN 1 ELSE 2 END, a = 1, id IS NULL, NOW(3), LENGTH(b), \
               (SELECT 1) FROM t";
    let Ok(Stmt::CreateSelect(cs)) = one(sql) else {
        panic!("not a CREATE TABLE ... SELECT")
    };
    let shown: Vec<String> = cs
        .select
        .result_types
        .iter()
        .map(|t| match t {
            Some(ResultType::Column { column, .. }) => format!("column {}", column.name),
            Some(ResultType::Computed {
                mysql_type,
                not_null,
            }) => format!("{mysql_type}{}", if *not_null { " NOT NULL" } else { "" }),
            None => "?".into(),
        })
        .collect();
    let expected = [
        "column id",
        "int(1) NOT NULL",
        "int(2) NOT NULL",
        "decimal(4,2) NOT NULL",
        "double NOT NULL",
        "varchar(3) NOT NULL",
        "binary(0)",
        "bigint(12) NOT NULL",
        "bigint(10) NOT NULL",
        "decimal(12,1)",
        "decimal(14,4)",
        "bigint(10)",
        "bigint(11)",
        "bigint(12) NOT NULL",
        "bigint(21) unsigned NOT NULL",
        "bigint(21) NOT NULL",
        "decimal(32,0)",
        "decimal(14,4)",
        "int(11)",
        "varchar(11)",
        "varchar(11)",
        "bigint(20) unsigned NOT NULL",
        "int(2) NOT NULL",
        "decimal(5,1)",
        "decimal(11,1) NOT NULL",
        "int(11) NOT NULL",
        "mediumtext",
        "int(2) NOT NULL",
        "int(1)",
        "int(1) NOT NULL",
        "datetime(3) NOT NULL",
        "int(10)",
        "?",
    ];
    assert_eq!(shown, expected);
}

#[test]
fn views() {
    assert_eq!(
        schema("CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1"),
        (
            vec![concat!(
                r#"CREATE VIEW "app.v" /*tutti_view UNDEFINED"#,
                "\u{1f}`root`@`localhost`\u{1f}DEFINER\u{1f}\u{1f}utf8mb4\u{1f}utf8mb4_general_ci\u{1f}",
                r#"SELECT a AS `a`, b AS `b` FROM t WHERE a > 1*/ AS SELECT "a", "b" FROM "app.t" AS "t" WHERE "a" > 1"#
            )
            .to_string()],
            vec![app("v")]
        )
    );
    assert_eq!(
        stmts("CREATE OR REPLACE ALGORITHM=TEMPTABLE DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW other.v (x) AS SELECT COUNT(*) FROM t"),
        [
            r#"DROP VIEW IF EXISTS "other.v""#,
            concat!(
                r#"CREATE VIEW "other.v" /*tutti_view TEMPTABLE"#,
                "\u{1f}`root`@`localhost`\u{1f}DEFINER\u{1f}x\u{1f}utf8mb4\u{1f}utf8mb4_general_ci\u{1f}",
                r#"SELECT COUNT(*) AS `COUNT(*)` FROM t*/ ("x") AS SELECT COUNT(*) AS "COUNT(*)" FROM "app.t" AS "t""#
            )
        ]
    );
    assert_eq!(
        stmts("DROP VIEW IF EXISTS v, w"),
        [
            r#"DROP VIEW IF EXISTS "app.v""#,
            r#"DROP VIEW IF EXISTS "app.w""#
        ]
    );
    assert!(matches!(
        err("CREATE VIEW v AS SELECT @@version_comment"),
        SqlError::Unsupported(_)
    ));
}
