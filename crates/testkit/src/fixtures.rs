//! Write-set level fixtures for tests on a simulated cluster: a table, write-sets made by
//! running SQL on a node's database (captured, rolled back), waiting for outcomes, and
//! checking that every node holds the same rows.

use crossbeam_channel::Receiver;
use tutti_replication::waiters::Outcome;
use tutti_storage::Session;
use tutti_wsrep::{Action, CertKeys, Ddl, NodeId, WriteSet};

use crate::{Cluster, ELECTION_TICKS, STEPS_PER_TICK};

/// The table the fixtures write.
pub const TABLE: &str = "db.t";
/// Steps in one election timeout.
pub const ELECTION: u64 = ELECTION_TICKS as u64 * STEPS_PER_TICK;

/// A DDL write-set.
pub fn ddl(origin: NodeId, trx: u64, ddl: Ddl) -> WriteSet {
    WriteSet {
        origin,
        trx_id: trx,
        last_seen: 0,
        keys: CertKeys::default(),
        action: Action::Ddl(ddl),
    }
}

/// Creates database `db` and table `db.t(k PK, v)` through node 1.
pub fn schema(c: &mut Cluster) {
    let a = c.submit(
        1,
        ddl(
            1,
            1,
            Ddl::CreateDatabase {
                name: "db".into(),
                if_not_exists: false,
                collation: None,
            },
        ),
    );
    let b = c.submit(
        1,
        ddl(
            1,
            2,
            Ddl::Schema {
                database: "db".into(),
                statements: vec![format!(
                    "CREATE TABLE \"{TABLE}\"(k INTEGER PRIMARY KEY, v INTEGER)"
                )],
            },
        ),
    );
    assert!(wait(c, &a).is_ok() && wait(c, &b).is_ok());
    assert!(c.settle(5000));
}

/// A write-set made on `node`'s current state by running `sql` (captured, rolled back).
pub fn row_ws(c: &Cluster, node: NodeId, trx: u64, key: u64, sql: &str) -> WriteSet {
    let n = c.node(node);
    let w = n.storage().writer();
    w.execute_batch("BEGIN").unwrap();
    let cs;
    {
        let mut s = Session::new(&w).unwrap();
        s.attach(None).unwrap();
        w.execute_batch(sql).unwrap();
        cs = s.changeset().unwrap();
    }
    w.execute_batch("ROLLBACK").unwrap();
    WriteSet {
        origin: node,
        trx_id: trx,
        last_seen: n.applied(),
        keys: CertKeys {
            exclusive: vec![key],
            shared: vec![],
            tables: vec![],
        },
        action: Action::Rows(cs),
    }
}

/// A write-set inserting row `k` (value: the node id) on node `node`.
pub fn insert(c: &Cluster, node: NodeId, trx: u64, k: u64) -> WriteSet {
    row_ws(
        c,
        node,
        trx,
        k,
        &format!("INSERT INTO \"{TABLE}\" VALUES ({k}, {node})"),
    )
}

/// Steps until the outcome arrives (panics after 20 000 steps).
pub fn wait(c: &mut Cluster, rx: &Receiver<Outcome>) -> Outcome {
    for _ in 0..20_000 {
        if let Ok(o) = rx.try_recv() {
            return o;
        }
        c.step();
    }
    panic!("no outcome within 20000 steps");
}

/// Waits until every node has applied the same seqno; asserts they hold the same rows of
/// [`TABLE`] and returns them.
pub fn all_identical(c: &mut Cluster) -> Vec<String> {
    let ids: Vec<NodeId> = c.nodes.keys().copied().collect();
    assert!(
        c.run_until(20_000, |c| {
            let target = ids
                .iter()
                .filter(|id| c.node(**id).is_up())
                .map(|id| c.node(*id).applied())
                .max()
                .unwrap_or(0);
            ids.iter()
                .all(|id| c.caught_up(*id) && c.node(*id).applied() == target)
        }),
        "nodes did not converge"
    );
    let first = c.dump(ids[0], TABLE);
    for id in &ids[1..] {
        assert_eq!(
            c.dump(*id, TABLE),
            first,
            "node {id} differs from node {}",
            ids[0]
        );
    }
    first
}
