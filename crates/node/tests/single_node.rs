//! End-to-end: one real `tutti` process, a real MySQL client library and the `mariadb` CLI.

mod harness;

use harness::*;
use mysql::prelude::*;
use mysql::{params, Value as My};
use std::time::Duration;

fn started(test: &str) -> (tempfile::TempDir, NodeProc) {
    let base = temp_base(test);
    let mut n = NodeProc::new(base.path(), "n1");
    n.start();
    (base, n)
}

#[test]
fn types_round_trip_in_text_and_binary_protocols() {
    let (_b, n) = started("types");
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE app").unwrap();
    c.query_drop("USE app").unwrap();
    c.query_drop(
        "CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, i INT, u INT UNSIGNED, b TINYINT(1),
         d DOUBLE, dec1 DECIMAL(10,2), s VARCHAR(50), txt TEXT, bl BLOB, dt DATETIME, dd DATE, n INT NULL,
         e ENUM('x','y')) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
    )
    .unwrap();
    c.query_drop(
        "INSERT INTO t (i, u, b, d, dec1, s, txt, bl, dt, dd, n, e) VALUES
         (-7, 4000000000, 1, 2.5, 12.25, 'héllo \\'quoted\\'', 'long text', x'00FF10', '2024-02-29 13:05:09', '2024-02-29', NULL, 'y')",
    )
    .unwrap();
    assert_eq!(c.last_insert_id(), 1);
    let bytes = vec![0u8, 1, 2, 255];
    c.exec_drop(
        "INSERT INTO t (i, u, b, d, dec1, s, txt, bl, dt, dd, n, e) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (42i64, 7u32, 0i32, -0.125f64, "3.50", "prepared", "t", bytes.clone(), "2001-01-01 00:00:01", "2001-01-01", My::NULL, "x"),
    )
    .unwrap();
    assert_eq!(c.last_insert_id(), 2);
    type Row = (
        i64,
        i64,
        i64,
        f64,
        String,
        String,
        String,
        Vec<u8>,
        My,
        My,
        Option<i64>,
        String,
    );
    let sql = "SELECT i, u, b, d, dec1, s, txt, bl, dt, dd, n, e FROM t ORDER BY id";
    let text: Vec<mysql::Row> = c.query(sql).unwrap();
    let bin: Vec<mysql::Row> = c.exec(sql, ()).unwrap();
    for rows in [text, bin] {
        let r0 = &rows[0];
        assert_eq!(r0.get::<i64, _>(0), Some(-7));
        assert_eq!(r0.get::<i64, _>(1), Some(4_000_000_000));
        assert_eq!(r0.get::<f64, _>(3), Some(2.5));
        assert_eq!(r0.get::<String, _>(5).as_deref(), Some("héllo 'quoted'"));
        assert_eq!(r0.get::<Vec<u8>, _>(7), Some(vec![0, 0xff, 0x10]));
        assert_eq!(r0.get::<Option<i64>, _>(10), Some(None));
        assert_eq!(r0.get::<String, _>(11).as_deref(), Some("y"));
        let r1 = &rows[1];
        assert_eq!(r1.get::<i64, _>(0), Some(42));
        assert_eq!(r1.get::<Vec<u8>, _>(7), Some(bytes.clone()));
        assert_eq!(r1.get::<f64, _>(3), Some(-0.125));
    }
    let dt: String = one(&mut c, "SELECT dt FROM t WHERE id = 1");
    assert_eq!(dt, "2024-02-29 13:05:09");
    let (s, n_null): (String, Option<i64>) = c
        .exec_first("SELECT s, n FROM t WHERE id = ?", (2,))
        .unwrap()
        .unwrap();
    assert_eq!((s.as_str(), n_null), ("prepared", None));
    // Typed rows through the binary protocol decode without conversion errors.
    let typed: Vec<Row> = c.exec(sql, ()).unwrap();
    assert_eq!(typed.len(), 2);
    // Column definitions as MariaDB sends them for table columns: binary strings in the
    // binary character set with the BINARY flag (clients decode them as bytes, not text),
    // text in utf8mb4, numbers in the binary character set without the flag.
    let res = c.query_iter("SELECT i, s, bl, d FROM t").unwrap();
    let defs: Vec<(u16, bool)> = res
        .columns()
        .as_ref()
        .iter()
        .map(|col| {
            let binary = col
                .flags()
                .contains(mysql::consts::ColumnFlags::BINARY_FLAG);
            (col.character_set(), binary)
        })
        .collect();
    drop(res);
    assert_eq!(
        defs,
        vec![(63, false), (45, false), (63, true), (63, false)]
    );
    // A CHECK from ENUM refuses other values.
    assert!(c.query_drop("INSERT INTO t (e) VALUES ('z')").is_err());
}

#[test]
fn transactions_read_their_own_writes_and_roll_back() {
    let (_b, n) = started("txn");
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE bank").unwrap();
    c.query_drop("CREATE TABLE bank.acct (id INT PRIMARY KEY, bal INT NOT NULL)")
        .unwrap();
    c.query_drop("USE bank").unwrap();
    c.query_drop("INSERT INTO acct VALUES (1, 100), (2, 100)")
        .unwrap();
    let mut other = n.conn();
    other.query_drop("USE bank").unwrap();

    c.query_drop("BEGIN").unwrap();
    c.query_drop("UPDATE acct SET bal = bal - 30 WHERE id = 1")
        .unwrap();
    c.query_drop("UPDATE acct SET bal = bal + 30 WHERE id = 2")
        .unwrap();
    assert_eq!(
        one::<i64>(&mut c, "SELECT bal FROM acct WHERE id = 1"),
        70,
        "reads its own writes"
    );
    assert_eq!(
        one::<i64>(&mut other, "SELECT bal FROM acct WHERE id = 1"),
        100,
        "others do not see it yet"
    );
    c.query_drop("ROLLBACK").unwrap();
    assert_eq!(one::<i64>(&mut c, "SELECT SUM(bal) FROM acct"), 200);
    assert_eq!(one::<i64>(&mut c, "SELECT bal FROM acct WHERE id = 1"), 100);

    c.query_drop("START TRANSACTION").unwrap();
    c.query_drop("UPDATE acct SET bal = bal - 30 WHERE id = 1")
        .unwrap();
    c.query_drop("INSERT INTO acct VALUES (3, 30)").unwrap();
    c.query_drop("DELETE FROM acct WHERE id = 2").unwrap();
    c.query_drop("COMMIT").unwrap();
    let all: Vec<(i64, i64)> = other.query("SELECT id, bal FROM acct ORDER BY id").unwrap();
    assert_eq!(all, vec![(1, 70), (3, 30)]);

    // autocommit=0: changes wait for COMMIT.
    c.query_drop("SET autocommit = 0").unwrap();
    c.query_drop("UPDATE acct SET bal = 0 WHERE id = 3")
        .unwrap();
    assert_eq!(
        one::<i64>(&mut other, "SELECT bal FROM acct WHERE id = 3"),
        30
    );
    c.query_drop("COMMIT").unwrap();
    assert_eq!(
        one::<i64>(&mut other, "SELECT bal FROM acct WHERE id = 3"),
        0
    );

    // Two clients writing the same row: the second waits for the first, like InnoDB.
    c.query_drop("SET autocommit = 1").unwrap();
    c.query_drop("BEGIN").unwrap();
    c.query_drop("UPDATE acct SET bal = bal + 1 WHERE id = 1")
        .unwrap();
    let port = n.mysql_port;
    let waiter = std::thread::spawn(move || {
        let mut o = mysql::Conn::new(opts(port)).unwrap();
        o.query_drop("UPDATE bank.acct SET bal = bal + 10 WHERE id = 1")
            .unwrap();
    });
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !waiter.is_finished(),
        "the second writer waits for the row lock"
    );
    c.query_drop("COMMIT").unwrap();
    waiter.join().unwrap();
    assert_eq!(
        one::<i64>(&mut c, "SELECT bal FROM acct WHERE id = 1"),
        81,
        "both increments applied"
    );

    // Different rows never block each other.
    c.query_drop("BEGIN").unwrap();
    c.query_drop("UPDATE acct SET bal = 5 WHERE id = 1")
        .unwrap();
    other
        .query_drop("UPDATE acct SET bal = 6 WHERE id = 3")
        .unwrap();
    c.query_drop("COMMIT").unwrap();
    assert_eq!(one::<i64>(&mut c, "SELECT SUM(bal) FROM acct"), 11);
}

#[test]
fn errors_carry_mysql_codes() {
    let (_b, n) = started("errors");
    let mut c = n.conn();
    assert_eq!(code(c.query_drop("SELEC 1")), 1064);
    assert_eq!(
        code(c.query_drop("SELECT * FROM nope")),
        1046,
        "no database selected"
    );
    assert_eq!(code(c.query_drop("USE nosuchdb")), 1049);
    c.query_drop("CREATE DATABASE d").unwrap();
    assert_eq!(code(c.query_drop("CREATE DATABASE d")), 1007);
    c.query_drop("USE d").unwrap();
    assert_eq!(code(c.query_drop("SELECT * FROM nope")), 1146);
    c.query_drop("CREATE TABLE nopk (a INT)").unwrap();
    c.query_drop("SET GLOBAL innodb_force_primary_key = ON")
        .unwrap();
    assert_eq!(
        code(c.query_drop("CREATE TABLE nopk2 (a INT)")),
        1173,
        "innodb_force_primary_key refuses tables without PRIMARY KEY"
    );
    c.query_drop("SET GLOBAL innodb_force_primary_key = OFF")
        .unwrap();
    c.query_drop("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10) NOT NULL, UNIQUE KEY uv (v))")
        .unwrap();
    assert_eq!(
        code(c.query_drop("CREATE TABLE t (id INT PRIMARY KEY)")),
        1050
    );
    c.query_drop("INSERT INTO t VALUES (1, 'a')").unwrap();
    assert_eq!(code(c.query_drop("INSERT INTO t VALUES (1, 'b')")), 1062);
    assert_eq!(
        code(c.query_drop("INSERT INTO t VALUES (2, 'A')")),
        1062,
        "unique keys compare case-insensitively"
    );
    assert_eq!(code(c.query_drop("INSERT INTO t VALUES (3, NULL)")), 1048);
    assert_eq!(code(c.query_drop("SELECT nosuchcol FROM t")), 1054);
    assert_eq!(code(c.query_drop("SELECT @@nosuchvar")), 1193);
    // MariaDB's codes and texts, never SQLite's.
    let message = |r: Result<(), mysql::Error>| match r {
        Err(mysql::Error::MySqlError(e)) => (e.code, e.message),
        other => panic!("expected a MySQL error, got {other:?}"),
    };
    c.query_drop("CREATE TABLE u (id INT PRIMARY KEY, v VARCHAR(10))")
        .unwrap();
    c.query_drop("INSERT INTO u VALUES (1, 'a'), (2, 'b')")
        .unwrap();
    for (sql, code, text) in [
        (
            "INSERT INTO u VALUES (3)",
            1136,
            "Column count doesn't match value count at row 1",
        ),
        (
            "INSERT INTO u (id, v) VALUES (3)",
            1136,
            "Column count doesn't match value count at row 1",
        ),
        (
            "SELECT id FROM t, u",
            1052,
            "Column 'id' in SELECT is ambiguous",
        ),
        (
            "SELECT nope FROM t",
            1054,
            "Unknown column 'nope' in 'field list'",
        ),
        (
            "SELECT 1 UNION SELECT 1, 2",
            1222,
            "The used SELECT statements have a different number of columns",
        ),
        (
            "SELECT * FROM u WHERE id IN (SELECT id, v FROM u)",
            1241,
            "Operand should contain 1 column(s)",
        ),
        // SQLite would answer with the first row.
        (
            "SELECT (SELECT v FROM u) AS x",
            1242,
            "Subquery returns more than 1 row",
        ),
        (
            "SELECT id FROM u WHERE v = (SELECT v FROM u WHERE id > 0)",
            1242,
            "Subquery returns more than 1 row",
        ),
    ] {
        assert_eq!(
            message(c.query_drop(sql)),
            (code, text.to_string()),
            "{sql}"
        );
    }
    let one_row: Option<String> = c
        .query_first("SELECT (SELECT v FROM u WHERE id = 2) AS x")
        .unwrap();
    assert_eq!(one_row.as_deref(), Some("b"));
    let no_row: Option<Option<String>> = c
        .query_first("SELECT (SELECT v FROM u WHERE id = 9) AS x")
        .unwrap();
    assert_eq!(no_row, Some(None));
    let bad = mysql::OptsBuilder::from_opts(opts(n.mysql_port)).pass(Some("wrong"));
    match mysql::Conn::new(bad) {
        Err(mysql::Error::MySqlError(e)) => {
            assert_eq!(e.code, 1045);
            assert!(
                e.message.contains("Access denied for user 'root'"),
                "{}",
                e.message
            );
        }
        other => panic!("expected access denied, got {:?}", other.map(|_| ())),
    }
    // The connection survives errors.
    assert_eq!(one::<i64>(&mut c, "SELECT COUNT(*) FROM t"), 1);
}

#[test]
fn prepared_statements_and_driver_chatter() {
    let (_b, n) = started("prepared");
    let mut c = n.conn();
    let comment: String = one(&mut c, "select @@version_comment limit 1");
    assert!(comment.contains("tutti"));
    let packet: i64 = one(&mut c, "SELECT @@max_allowed_packet");
    assert_eq!(packet, 64 << 20);
    c.query_drop("SET NAMES utf8mb4").unwrap();
    c.query_drop("SET SESSION sql_mode = 'STRICT_TRANS_TABLES'")
        .unwrap();
    assert_eq!(
        one::<String>(&mut c, "SELECT @@sql_mode"),
        "STRICT_TRANS_TABLES"
    );
    assert_eq!(
        c.query_first::<Option<String>, _>("SELECT DATABASE()")
            .unwrap(),
        Some(None)
    );
    c.query_drop("CREATE DATABASE p").unwrap();
    c.select_db("p").unwrap(); // COM_INIT_DB
    assert_eq!(one::<String>(&mut c, "SELECT DATABASE()"), "p");
    c.query_drop("CREATE TABLE kv (k VARCHAR(20) PRIMARY KEY, v INT)")
        .unwrap();
    let ins = c.prep("INSERT INTO kv (k, v) VALUES (?, ?)").unwrap();
    for i in 0..20 {
        c.exec_drop(&ins, (format!("k{i}"), i)).unwrap();
    }
    c.close(ins).unwrap();
    let sel = c.prep("SELECT v FROM kv WHERE k = :k").unwrap();
    let v: Option<i64> = c.exec_first(&sel, params! { "k" => "k7" }).unwrap();
    assert_eq!(v, Some(7));
    let dbs: Vec<String> = c.query("SHOW DATABASES").unwrap();
    assert!(dbs.contains(&"p".to_string()));
    let tables: Vec<String> = c.query("SHOW TABLES").unwrap();
    assert_eq!(tables, vec!["kv".to_string()]);
    let vars: Vec<(String, String)> = c.query("SHOW VARIABLES LIKE 'max_allowed_packet'").unwrap();
    assert_eq!(
        vars,
        vec![("max_allowed_packet".to_string(), (64 << 20).to_string())]
    );
    let status: Vec<(String, String)> = c.query("SHOW STATUS LIKE 'wsrep%'").unwrap();
    let get = |k: &str| {
        status
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(get("wsrep_local_state_comment"), "Synced");
    assert_eq!(get("wsrep_cluster_size"), "1");
    assert_eq!(get("wsrep_cluster_status"), "Primary");
    assert_eq!(get("wsrep_ready"), "ON");
    assert_eq!(get("wsrep_node_name"), "n1");
    assert!(get("wsrep_last_committed").parse::<u64>().unwrap() >= 22);
    assert_eq!(get("wsrep_cluster_state_uuid").len(), 36);
    let filtered: Vec<(String, String)> = c
        .query("SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_ready')")
        .unwrap();
    assert_eq!(filtered.len(), 2);
    c.reset().unwrap(); // COM_RESET_CONNECTION
    assert_eq!(
        c.query_first::<Option<String>, _>("SELECT DATABASE()")
            .unwrap(),
        Some(Some("p".into()))
    );
}

#[test]
fn mariadb_cli_session() {
    let (_b, n) = started("cli");
    let out = n.mariadb(
        "CREATE DATABASE shop; USE shop;
         CREATE TABLE items (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40), qty INT DEFAULT 0);
         INSERT INTO items (name, qty) VALUES ('apple', 3), ('pear', 5);
         UPDATE items SET qty = qty + 1 WHERE name = 'apple';
         DELETE FROM items WHERE name = 'pear';
         BEGIN; INSERT INTO items (name) VALUES ('fig'); COMMIT;
         SELECT id, name, qty FROM items ORDER BY id;",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "1\tapple\t4\n3\tfig\t0\n"
    );
    let out = n.mariadb("SHOW STATUS LIKE 'wsrep_local_state_comment'");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wsrep_local_state_comment\tSynced\n"
    );
    let out = n.mariadb("SELECT * FROM shop.nope");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ERROR 1146"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn health_status_and_metrics() {
    let (_b, n) = started("admin");
    let (code, body) = n.http_get("/health");
    assert_eq!((code, body.trim()), (200, "tutti node is synced."));
    let (code, body) = n.http_get("/status");
    assert_eq!(code, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["node"]["name"], "n1");
    assert_eq!(v["wsrep"]["wsrep_local_state_comment"], "Synced");
    let (code, body) = n.http_get("/metrics");
    assert_eq!(code, 200);
    assert!(body.contains("tutti_wsrep_last_committed"), "{body}");
}

#[test]
fn bad_input_never_hurts_the_node() {
    let (_b, n) = started("garbage");
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE g").unwrap();
    c.query_drop("CREATE TABLE g.t (id INT PRIMARY KEY)")
        .unwrap();
    c.query_drop("INSERT INTO g.t VALUES (1), (2)").unwrap();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // Random bytes right after connecting, of many lengths.
    for round in 0..40 {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", n.mysql_port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let len = (rnd() % 300) as usize + round;
        let junk: Vec<u8> = (0..len).map(|_| rnd() as u8).collect();
        use std::io::{Read, Write};
        let _ = s.write_all(&junk);
        let mut sink = [0u8; 256];
        let _ = s.read(&mut sink);
    }
    // Random command packets after a valid login.
    for _ in 0..40 {
        let mut raw = RawClient::login(n.mysql_port);
        let len = (rnd() % 64) as usize + 1;
        let junk: Vec<u8> = (0..len).map(|_| rnd() as u8).collect();
        raw.write_packet(0, &junk);
        let _ = raw.read_packet();
    }
    // An unknown command gets an error, never a silent OK.
    let mut raw = RawClient::login(n.mysql_port);
    assert_eq!(
        raw.command_error(&[0x09]),
        Some(1047),
        "COM_STATISTICS is refused explicitly"
    );
    assert_eq!(raw.command_error(&[0xEE, 1, 2]), Some(1047));
    assert_eq!(raw.command_error(b"\x03SELECT 1 FROM nowhere"), Some(1046));
    // A packet over max_allowed_packet: error 1153, connection closed, node fine.
    let mut big = vec![0x03];
    big.extend(std::iter::repeat_n(b'x', (64 << 20) + 10));
    let mut raw = RawClient::login(n.mysql_port);
    raw.write_packet(0, &big[..0xFF_FFFF]);
    let mut rest = &big[0xFF_FFFF..];
    let mut seq = 1u8;
    while !rest.is_empty() {
        let take = rest.len().min(0xFF_FFFF);
        raw.write_packet(seq, &rest[..take]);
        rest = &rest[take..];
        seq += 1;
    }
    let (_, reply) = raw.read_packet().expect("an error packet");
    assert_eq!(u16::from_le_bytes([reply[1], reply[2]]), 1153);
    assert!(raw.read_packet().is_none(), "then the connection is closed");
    // A client that disconnects mid-transaction and mid-query.
    {
        let mut d = n.conn();
        d.query_drop("BEGIN").unwrap();
        d.query_drop("INSERT INTO g.t VALUES (3)").unwrap();
    }
    let mut raw = RawClient::login(n.mysql_port);
    raw.write_packet(0, b"\x03SELECT COUNT(*) FROM g.t a, g.t b, g.t c, g.t d");
    drop(raw);
    // The node still serves and the data is intact.
    let mut c2 = n.conn();
    assert_eq!(one::<i64>(&mut c2, "SELECT COUNT(*) FROM g.t"), 2);
    c2.query_drop("INSERT INTO g.t VALUES (3)").unwrap(); // the abandoned transaction holds no lock
    assert_eq!(one::<i64>(&mut c, "SELECT COUNT(*) FROM g.t"), 3);
}

#[test]
fn command_line_errors_are_one_clear_line() {
    let base = temp_base("cli-errors");
    let run = |args: &[&str]| {
        std::process::Command::new(bin())
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["start", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--bogus"));
    let file = base.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let out = run(&[
        "start",
        "--datadir",
        file.to_str().unwrap(),
        "--mysql-listen",
        "127.0.0.1:0",
        "--admin-listen",
        "127.0.0.1:0",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a directory"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    let dir = base.path().join("d");
    let out = run(&[
        "start",
        "--datadir",
        dir.to_str().unwrap(),
        "--mysql-listen",
        &format!("127.0.0.1:{port}"),
        "--admin-listen",
        "127.0.0.1:0",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot listen on") && err.contains(&port),
        "{err}"
    );
    let help = run(&["start", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in [
        "--config",
        "--datadir",
        "--name",
        "--mysql-listen",
        "--admin-listen",
    ] {
        assert!(help.contains(flag), "start --help explains {flag}");
    }
}

#[test]
fn computed_decimals_are_sent_as_decimals() {
    let (_b, n) = started("decimals");
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE app").unwrap();
    c.query_drop("CREATE TABLE app.p (id INT PRIMARY KEY, m DECIMAL(10,2))")
        .unwrap();
    c.query_drop("INSERT INTO app.p VALUES (1, 1.5), (2, 2.25)")
        .unwrap();
    let sql = "SELECT SUM(m), m * 2 AS x, 1/3, m, AVG(id), COUNT(*) FROM app.p";
    let result = c.query_iter(sql).unwrap();
    let columns = result.columns();
    let types: Vec<mysql::consts::ColumnType> = columns
        .as_ref()
        .iter()
        .map(|col| col.column_type())
        .collect();
    // With MariaDB's scale and length (a driver's scale of the column).
    let shapes: Vec<(u8, u32)> = (columns.as_ref().iter())
        .map(|col| (col.decimals(), col.column_length()))
        .collect();
    drop(result);
    use mysql::consts::ColumnType::{MYSQL_TYPE_LONGLONG, MYSQL_TYPE_NEWDECIMAL};
    assert_eq!(
        types,
        [
            MYSQL_TYPE_NEWDECIMAL,
            MYSQL_TYPE_NEWDECIMAL,
            MYSQL_TYPE_NEWDECIMAL,
            MYSQL_TYPE_NEWDECIMAL,
            MYSQL_TYPE_NEWDECIMAL,
            MYSQL_TYPE_LONGLONG
        ]
    );
    assert_eq!(shapes[..5], [(2, 34), (2, 13), (4, 7), (2, 12), (4, 16)]);
    let row: (String, String, String, String, String, i64) = c.query_first(sql).unwrap().unwrap();
    assert_eq!(
        row,
        (
            "3.75".into(),
            "3.00".into(),
            "0.3333".into(),
            "1.50".into(),
            "1.5000".into(),
            2
        )
    );
}

/// Computed dates and times are sent with their types (drivers return date and time
/// objects, not strings), in the text and the binary protocol, as is STD of a DECIMAL (a
/// DOUBLE of 6 decimals, not a string); FORMAT's text is a string,
/// never a DECIMAL a driver fails to read.
#[test]
fn computed_dates_and_strings_are_sent_with_their_types() {
    let (_b, n) = started("computed_types");
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE app").unwrap();
    c.query_drop(
        "CREATE TABLE app.e (id INT PRIMARY KEY, at DATETIME(3), d DATE, m DECIMAL(10,2))",
    )
    .unwrap();
    c.query_drop("INSERT INTO app.e VALUES (1, '2024-01-02 03:04:05.678', '2024-02-29', 1234.5)")
        .unwrap();
    let sql = "SELECT DATE(at), at + INTERVAL 1 DAY, MAX(d), SEC_TO_TIME(90), FORMAT(m, 2),                FORMAT(1234.5, 1), SUM(id), STD(m) FROM app.e";
    use mysql::consts::ColumnType::*;
    assert_eq!(
        column_types(&mut c, sql),
        [
            (MYSQL_TYPE_DATE, 0),
            (MYSQL_TYPE_DATETIME, 3),
            (MYSQL_TYPE_DATE, 0),
            (MYSQL_TYPE_TIME, 0),
            (MYSQL_TYPE_VAR_STRING, 0),
            (MYSQL_TYPE_VAR_STRING, 0),
            (MYSQL_TYPE_NEWDECIMAL, 0),
            (MYSQL_TYPE_DOUBLE, 6)
        ]
    );
    let text: (
        String,
        String,
        String,
        String,
        String,
        String,
        String,
        String,
    ) = c.query_first(sql).unwrap().unwrap();
    assert_eq!(
        text,
        (
            "2024-01-02".into(),
            "2024-01-03 03:04:05.678".into(),
            "2024-02-29".into(),
            "00:01:30".into(),
            "1,234.50".into(),
            "1,234.5".into(),
            "1".into(),
            "0.000000".into()
        )
    );
    // The binary protocol sends them as dates and times.
    let row: mysql::Row = c.exec_first(sql, ()).unwrap().unwrap();
    assert_eq!(row[0], mysql::Value::Date(2024, 1, 2, 0, 0, 0, 0));
    assert_eq!(row[1], mysql::Value::Date(2024, 1, 3, 3, 4, 5, 678_000));
    assert_eq!(row[3], mysql::Value::Time(false, 0, 0, 1, 30, 0));
    assert_eq!(row[4], mysql::Value::Bytes(b"1,234.50".to_vec()));
    assert_eq!(row[7], mysql::Value::Double(0.0));
    // A view's computed columns go out with the types of their expressions.
    c.query_drop(
        "CREATE VIEW app.v AS SELECT at + INTERVAL 1 DAY AS next, m * 2 AS twice FROM app.e",
    )
    .unwrap();
    assert_eq!(
        column_types(&mut c, "SELECT * FROM app.v"),
        [(MYSQL_TYPE_DATETIME, 3), (MYSQL_TYPE_NEWDECIMAL, 2)]
    );
    let row: mysql::Row = c
        .exec_first("SELECT next, twice FROM app.v", ())
        .unwrap()
        .unwrap();
    assert_eq!(row[0], mysql::Value::Date(2024, 1, 3, 3, 4, 5, 678_000));
    assert_eq!(row[1], mysql::Value::Bytes(b"2469.00".to_vec()));
}

/// The wire type and decimals of each column of `sql`'s result.
fn column_types(c: &mut mysql::Conn, sql: &str) -> Vec<(mysql::consts::ColumnType, u8)> {
    let result = c.query_iter(sql).unwrap();
    let types = result
        .columns()
        .as_ref()
        .iter()
        .map(|col| (col.column_type(), col.decimals()))
        .collect();
    drop(result);
    types
}

/// With CLIENT_FOUND_ROWS (PyMySQL and many ORMs ask for it) an UPDATE counts the rows it
/// matched, and an upsert that sets a row to its current values counts 1; without it, the
/// rows changed.
#[test]
fn client_found_rows_counts_matched_rows() {
    let (_b, n) = started("found-rows");
    let mut plain = n.conn();
    plain.query_drop("CREATE DATABASE app").unwrap();
    plain
        .query_drop("CREATE TABLE app.t (id INT PRIMARY KEY, v INT)")
        .unwrap();
    plain
        .query_drop("INSERT INTO app.t VALUES (1, 1), (2, 2)")
        .unwrap();
    let found = mysql::OptsBuilder::from_opts(opts(n.mysql_port))
        .additional_capabilities(mysql::consts::CapabilityFlags::CLIENT_FOUND_ROWS);
    let mut found = mysql::Conn::new(found).unwrap();
    let upsert = "INSERT INTO app.t VALUES (1, 1) ON DUPLICATE KEY UPDATE v = 1";
    for (c, want) in [(&mut plain, [1, 0, 0]), (&mut found, [2, 1, 1])] {
        c.query_drop("UPDATE app.t SET v = 2").unwrap();
        let update = c.affected_rows();
        c.query_drop("UPDATE app.t SET v = v + 0 WHERE id = 1")
            .unwrap();
        let partial = c.affected_rows();
        c.query_drop("UPDATE app.t SET v = 1 WHERE id = 1").unwrap();
        c.query_drop(upsert).unwrap();
        assert_eq!([update, partial, c.affected_rows()], want);
    }
}

/// A latin1 client (`--default-character-set=latin1`, or `SET NAMES latin1`) sends and reads
/// latin1 bytes, as with MariaDB; bytes that are no UTF-8 from a UTF-8 client get error 1300
/// and the connection goes on (it used to be dropped).
#[test]
fn latin1_clients_and_invalid_utf8() {
    let (_b, n) = started("charsets");
    let mut c = n.conn();
    c.query_drop("CREATE DATABASE app").unwrap();
    c.query_drop("CREATE TABLE app.t (id INT PRIMARY KEY, s VARCHAR(10))")
        .unwrap();
    let latin1 = n.mariadb_bytes(
        &["--default-character-set=latin1"],
        b"INSERT INTO app.t VALUES (1, 'caf\xE9');\n\
          SELECT s, LENGTH(s), LENGTH('\xE9'), HEX('\xE9'), @@character_set_client FROM app.t;\n",
    );
    assert_eq!(
        latin1.stdout,
        b"caf\xE9\t5\t1\tE9\tlatin1\n",
        "{}",
        String::from_utf8_lossy(&latin1.stderr)
    );
    // The UTF-8 client reads the same row as UTF-8; in latin1 its column is labelled so.
    let s: String = c.query_first("SELECT s FROM app.t").unwrap().unwrap();
    assert_eq!(s, "café");
    c.query_drop("SET NAMES latin1").unwrap();
    let r = c.query_iter("SELECT s FROM app.t").unwrap();
    let label = {
        let columns = r.columns();
        let col = &columns.as_ref()[0];
        (col.character_set(), col.column_length())
    };
    assert_eq!(label, (8, 10));
    drop(r);
    let s: Vec<u8> = c.query_first("SELECT s FROM app.t").unwrap().unwrap();
    assert_eq!(s, b"caf\xE9");
    let utf8 = n.mariadb_bytes(&[], b"SELECT 'caf\xE9';\nSELECT 2;\n");
    assert_eq!(utf8.stdout, b"2\n");
    let err = String::from_utf8_lossy(&utf8.stderr);
    assert!(err.contains("ERROR 1300") && err.contains("E927"), "{err}");
}
