//! DDL and DML at their place in the total order: a statement naming what another node
//! created (or dropped) just before sees it, even when this node has not applied it yet
//! (the simulated cluster stops stepping as soon as the origin has applied its change).

use tutti_testkit::sql::SqlCluster;

#[test]
fn schema_made_on_one_node_is_there_for_the_next_statement_on_another() {
    let sc = SqlCluster::new(3, 5);
    let mut s: Vec<_> = sc.ids().into_iter().map(|id| sc.session(id)).collect();
    let steps = [
        (0, "CREATE DATABASE app"),
        (1, "CREATE TABLE app.t (id INT PRIMARY KEY, v INT)"),
        (2, "INSERT INTO app.t VALUES (1, 10)"),
        (0, "ALTER TABLE app.t ADD COLUMN w INT NOT NULL DEFAULT 7"),
        (1, "UPDATE app.t SET w = 8 WHERE id = 1"),
        (2, "CREATE INDEX iw ON app.t (w)"),
        (0, "DROP INDEX iw ON app.t"),
        (1, "DROP TABLE app.t"),
        (2, "CREATE TABLE app.t (id INT PRIMARY KEY)"),
        (0, "DROP DATABASE app"),
        (1, "CREATE DATABASE app"),
    ];
    for (node, sql) in steps {
        SqlCluster::run(&mut s[node], sql).unwrap_or_else(|e| panic!("node {node}: {sql}: {e}"));
    }
    // Prepared statements too.
    SqlCluster::run(&mut s[2], "CREATE TABLE app.u (id INT PRIMARY KEY)").unwrap();
    let p = s[0].prepare("INSERT INTO app.u VALUES (?)").unwrap();
    s[0].execute(p.id, &[tutti_wsrep::Value::Int(1)]).unwrap();
    assert!(sc.settle());
    assert!(sc.inconsistent().is_empty());
    for id in sc.ids() {
        assert_eq!(sc.rows(id, "SELECT id FROM app.u").unwrap(), ["Int(1)"]);
    }
}

#[test]
fn a_table_rebuild_replicates_and_the_next_writes_use_the_new_definition() {
    let sc = SqlCluster::new(3, 6);
    let mut s: Vec<_> = sc.ids().into_iter().map(|id| sc.session(id)).collect();
    let steps = [
        (0, "CREATE DATABASE app"),
        (
            1,
            "CREATE TABLE app.t (id INT AUTO_INCREMENT PRIMARY KEY, v INT, KEY (v, id))",
        ),
        (2, "INSERT INTO app.t (v) VALUES (10), (NULL), (30)"),
    ];
    for (node, sql) in steps {
        SqlCluster::run(&mut s[node], sql).unwrap_or_else(|e| panic!("node {node}: {sql}: {e}"));
    }
    // A NULL the new definition refuses (strict mode): an error, nothing changed.
    let alter =
        "ALTER TABLE app.t MODIFY v VARCHAR(5) NOT NULL DEFAULT 'x', ADD w INT NOT NULL FIRST";
    assert!(SqlCluster::run(&mut s[0], alter).is_err());
    // (A write on another node racing the ordered DDL would fail certification, as a
    // Galera TOI aborts it; let every node apply it first.)
    assert!(sc.settle());
    let steps = [
        (1, "UPDATE app.t SET v = 20 WHERE v IS NULL"),
        // Type, nullability, placement, a NOT NULL column without DEFAULT: a rebuild.
        (0, alter),
        (1, "INSERT INTO app.t (v, w) VALUES ('abc', 5)"),
        (2, "UPDATE app.t SET w = w + 1 WHERE v = '30'"),
    ];
    for (node, sql) in steps {
        SqlCluster::run(&mut s[node], sql).unwrap_or_else(|e| panic!("node {node}: {sql}: {e}"));
    }
    assert!(SqlCluster::run(&mut s[1], "INSERT INTO app.t (v, w) VALUES ('abcdef', 1)").is_err());
    SqlCluster::run(&mut s[2], "INSERT INTO app.t (w) VALUES (7)").unwrap();
    assert!(sc.settle());
    assert!(sc.inconsistent().is_empty());
    for id in sc.ids() {
        assert_eq!(
            sc.rows(id, "SELECT w, id, v FROM app.t ORDER BY id")
                .unwrap(),
            [
                "Int(0)|Int(3)|Text(\"10\")",
                "Int(0)|Int(6)|Text(\"20\")",
                "Int(1)|Int(9)|Text(\"30\")",
                "Int(5)|Int(11)|Text(\"abc\")",
                "Int(7)|Int(12)|Text(\"x\")",
            ],
            "node {id}"
        );
    }
}
