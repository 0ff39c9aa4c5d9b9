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
