//! The short run of the history-checking suite that `.ci/run` includes: every workload
//! against real tutti processes under a mix of faults (kills, pauses, partitions, delays,
//! churn), each history checked; and a run with snapshot isolation switched off, where the
//! same checker must find the lost updates — so a clean result means something.
//! `TUTTI_JEPSEN_SEED` picks the seed (default 1); the full suite is `tutti-jepsen`.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tutti_jepsen::cluster::tutti::TuttiCluster;
use tutti_jepsen::cluster::Cluster;
use tutti_jepsen::nemesis::{Nemesis, Schedule};
use tutti_jepsen::runner::{run, Plan, Report};
use tutti_jepsen::workload::{
    bank::BankWorkload, list_append::ListAppend, register::Register, set::SetWorkload,
};

/// The `tutti` binary built next to this package's binary.
fn tutti_bin() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_tutti-jepsen")).with_file_name("tutti")
}

/// A directory kept when the test fails (histories for post-mortem), removed otherwise.
fn run_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tutti-jepsen-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn seed() -> u64 {
    std::env::var("TUTTI_JEPSEN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn plan(nemesis: Nemesis, secs: u64, session_sql: Vec<String>) -> Plan {
    Plan {
        nemesis,
        duration: Duration::from_secs(secs),
        seed: seed(),
        clients_per_node: 2,
        schedule: Schedule {
            quiet: Duration::from_secs(2),
            hold: Duration::from_secs(5),
        },
        session_sql,
    }
}

fn assert_clean(r: &Report, dir: &Path) {
    assert!(
        r.findings.is_clean(),
        "{} under {} (seed {}): {:#?}\nhistory in {}",
        r.workload,
        r.nemesis,
        r.seed,
        r.findings.anomalies,
        dir.display()
    );
    assert!(r.faults >= 1, "{}: no fault was injected", r.workload);
    assert!(
        r.ops.ok >= 50,
        "{}: only {} operations succeeded ({:?})",
        r.workload,
        r.ops.ok,
        r.ops
    );
}

#[test]
fn every_workload_stays_clean_under_mixed_faults() {
    let dir = run_dir("mix");
    let cluster = TuttiCluster::launch(&tutti_bin(), &dir, 3).expect("launch");
    let p = plan(Nemesis::Mix, 20, Vec::new());
    let reports = [
        run(
            "list-append",
            &ListAppend::new(),
            &cluster,
            &p,
            &dir.join("la"),
        ),
        run("register", &Register, &cluster, &p, &dir.join("register")),
        run(
            "bank",
            &BankWorkload::default(),
            &cluster,
            &p,
            &dir.join("bank"),
        ),
        run("set", &SetWorkload, &cluster, &p, &dir.join("set")),
    ];
    cluster.shutdown();
    for r in reports {
        assert_clean(&r.expect("run"), &dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_snapshot_isolation_the_checker_finds_lost_updates() {
    let dir = run_dir("teeth");
    let cluster = TuttiCluster::launch(&tutti_bin(), &dir, 3).expect("launch");
    let off = vec!["SET SESSION innodb_snapshot_isolation = OFF".to_string()];
    let r = run(
        "register",
        &Register,
        &cluster,
        &plan(Nemesis::None, 10, off),
        &dir,
    )
    .expect("run");
    cluster.shutdown();
    assert!(
        r.findings.anomalies.contains_key("lost-update"),
        "with snapshot isolation off, read-modify-write loses updates; the checker saw {:?} in {:?}",
        r.findings.anomalies,
        r.ops
    );
    let _ = std::fs::remove_dir_all(&dir);
}
