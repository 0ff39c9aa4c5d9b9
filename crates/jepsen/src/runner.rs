//! One run: set up the schema, let clients on every node work while the nemesis strikes,
//! heal, read the final state from every node, check, and write the history and the
//! report into the run's directory.

use crate::check::{same_everywhere, Findings};
use crate::client::{Client, Endpoint};
use crate::cluster::{wait_healthy, Cluster};
use crate::history::{Clock, Event, NemesisEvent, Tally};
use crate::nemesis::{self, Nemesis, Schedule};
use crate::workload::{Unique, Workload};
use crate::JepsenError;
use mysql::prelude::*;
use parking_lot::Mutex;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Fault kind.
    pub nemesis: Nemesis,
    /// How long clients work.
    pub duration: Duration,
    /// Seeds every random choice (operations, victims, partitions).
    pub seed: u64,
    /// Clients per node.
    pub clients_per_node: usize,
    /// Fault timing.
    pub schedule: Schedule,
    /// Statements every client runs on connecting (e.g. to change the isolation).
    pub session_sql: Vec<String>,
}

/// What a run found.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Workload name.
    pub workload: String,
    /// Nemesis name.
    pub nemesis: String,
    /// Seed.
    pub seed: u64,
    /// Seconds of client work.
    pub seconds: f64,
    /// Operation outcomes.
    pub ops: Tally,
    /// Faults injected.
    pub faults: usize,
    /// Anomalies and notes.
    pub findings: Findings,
}

/// How long the cluster may take to heal before the final read.
const RECOVERY: Duration = Duration::from_secs(120);

fn final_reads<W: Workload>(
    w: &W,
    cluster: &dyn Cluster,
    f: &mut Findings,
) -> Vec<(usize, W::Final)> {
    let mut out = Vec::new();
    for i in 0..cluster.size() {
        let deadline = Instant::now() + Duration::from_secs(60);
        let read = |e: &Endpoint| -> Result<W::Final, mysql::Error> {
            let mut c = e.connect()?;
            c.query_drop("SET SESSION wsrep_sync_wait = 1")?;
            w.final_read(&mut c)
        };
        loop {
            match read(&cluster.endpoint(i)) {
                Ok(v) => {
                    out.push((i, v));
                    break;
                }
                Err(e) if Instant::now() > deadline => {
                    f.add("unrecovered-node", || {
                        format!("n{}: final read failed: {e}", i + 1)
                    });
                    break;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(200)),
            }
        }
    }
    out
}

/// Waits (bounded) until every node shows the initial state: clients start on a cluster
/// where the setup is visible everywhere, as a reader with `wsrep_sync_wait = 0` expects.
fn wait_for_setup<W: Workload>(
    w: &W,
    cluster: &dyn Cluster,
    initial: &W::Final,
) -> Result<(), JepsenError> {
    let deadline = Instant::now() + Duration::from_secs(60);
    for i in 0..cluster.size() {
        loop {
            let seen = cluster
                .endpoint(i)
                .connect()
                .and_then(|mut c| w.final_read(&mut c));
            if seen.as_ref().is_ok_and(|s| s == initial) {
                break;
            }
            if Instant::now() > deadline {
                return Err(JepsenError::Cluster(format!(
                    "n{} does not show the initial state: {seen:?}",
                    i + 1
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Ok(())
}

fn write_jsonl<T: Serialize>(path: &Path, items: &[T]) -> Result<(), JepsenError> {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
    for i in items {
        serde_json::to_writer(&mut w, i).map_err(|e| JepsenError::Setup(e.to_string()))?;
        w.write_all(b"\n")?;
    }
    w.flush()?;
    Ok(())
}

/// Runs `w` against `cluster` as `plan` says; history and report go to `out`.
pub fn run<W: Workload>(
    name: &str,
    w: &W,
    cluster: &dyn Cluster,
    plan: &Plan,
    out: &Path,
) -> Result<Report, JepsenError> {
    std::fs::create_dir_all(out)?;
    let mut setup = cluster.endpoint(0).connect()?;
    w.setup(&mut setup)?;
    let initial = w.final_read(&mut setup)?;
    drop(setup);
    wait_for_setup(w, cluster, &initial)?;
    let clock = Clock::start();
    let started = Instant::now();
    let deadline = started + plan.duration;
    let events: Mutex<Vec<Event<W::Op>>> = Mutex::new(Vec::new());
    let faults: Mutex<Vec<NemesisEvent>> = Mutex::new(Vec::new());
    let ids = AtomicU64::new(0);
    let unique = Unique::default();
    let processes = cluster.size() * plan.clients_per_node;
    let nemesis_result = std::thread::scope(|s| {
        for p in 0..processes {
            let (events, ids, unique) = (&events, &ids, &unique);
            let node = p % cluster.size();
            let endpoint = Endpoint {
                init: plan.session_sql.clone(),
                ..cluster.endpoint(node)
            };
            let seed = plan.seed.wrapping_mul(1_000_003).wrapping_add(p as u64);
            s.spawn(move || {
                let mut rng = StdRng::seed_from_u64(seed);
                let mut client = Client::new(endpoint);
                while Instant::now() < deadline {
                    let mut op = w.generate(&mut rng, unique);
                    let id = ids.fetch_add(1, Ordering::Relaxed) + 1;
                    let invoke_us = clock.now_us();
                    let done = w.run(&mut client, &mut op);
                    // A node that is down or not ready refuses at once: pace the retries.
                    let refused = done
                        .error
                        .as_deref()
                        .is_some_and(|e| e.starts_with("connect") || e.contains("ERROR 1047"));
                    events.lock().push(Event {
                        id,
                        process: p,
                        node,
                        invoke_us,
                        complete_us: clock.now_us(),
                        outcome: done.outcome,
                        error: done.error,
                        op,
                    });
                    if refused {
                        std::thread::sleep(Duration::from_millis(50));
                    }
                }
            });
        }
        // Each workload meets its own sequence of faults for the same seed.
        let salt = name
            .bytes()
            .fold(0x6e656d65u64, |h, b| h.rotate_left(5) ^ b as u64);
        let mut rng = StdRng::seed_from_u64(plan.seed ^ salt);
        nemesis::run(
            plan.nemesis,
            cluster,
            plan.schedule,
            &mut rng,
            clock,
            deadline,
            &faults,
        )
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut events = events.into_inner();
    events.sort_by_key(|e| e.id);
    let faults = faults.into_inner();
    nemesis_result?;
    let mut findings = Findings::default();
    if let Err(e) = wait_healthy(cluster, RECOVERY) {
        findings.add("unrecovered-node", || e.to_string());
    }
    let finals = final_reads(w, cluster, &mut findings);
    let checked = w.check(&events, &finals);
    findings.anomalies.extend(checked.anomalies);
    findings.notes.extend(checked.notes);
    same_everywhere("final contents", &finals, &mut findings);
    write_jsonl(&out.join("history.jsonl"), &events)?;
    write_jsonl(&out.join("nemesis.jsonl"), &faults)?;
    let report = Report {
        workload: name.to_string(),
        nemesis: plan.nemesis.name(),
        seed: plan.seed,
        seconds,
        ops: Tally::of(&events),
        faults: faults
            .iter()
            .filter(|e| !e.what.starts_with("after"))
            .count()
            / 2,
        findings,
    };
    std::fs::write(
        out.join("report.json"),
        serde_json::to_string_pretty(&report).map_err(|e| JepsenError::Setup(e.to_string()))?,
    )?;
    Ok(report)
}
