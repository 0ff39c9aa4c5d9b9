//! `tutti-jepsen`: runs workloads × nemeses × seeds against a fresh tutti cluster (or the
//! MariaDB Galera anchor) and prints one table row per run; exits 1 if any run found an
//! anomaly. Each run's history, fault log and report are kept under `--out`.

use clap::{Parser, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tutti_jepsen::cluster::{galera::GaleraCluster, tutti::TuttiCluster, Cluster};
use tutti_jepsen::nemesis::{Nemesis, Schedule};
use tutti_jepsen::runner::{run, Plan, Report};
use tutti_jepsen::workload::{
    bank::BankWorkload, list_append::ListAppend, register::Register, set::SetWorkload,
};
use tutti_jepsen::JepsenError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum WorkloadKind {
    ListAppend,
    Register,
    Bank,
    Set,
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Target {
    /// Fresh `tutti` processes on 127.0.0.1 for every run.
    Tutti,
    /// The MariaDB Galera anchor, already running (`cluster.sh init`).
    Galera,
}

/// Jepsen-style history checking of tutti (or MariaDB Galera) under faults.
#[derive(Debug, Parser)]
#[command(name = "tutti-jepsen", version)]
struct Args {
    /// Workloads (comma-separated, or `all`).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    workload: Vec<WorkloadKind>,
    /// Nemeses (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "mix")]
    nemesis: Vec<Nemesis>,
    /// Seconds of client work per run.
    #[arg(long, default_value_t = 60)]
    duration: u64,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Seeds per workload × nemesis (seed, seed+1, ...).
    #[arg(long, default_value_t = 1)]
    seeds: u64,
    /// Nodes (tutti target; `partition-ring` needs 5).
    #[arg(long, default_value_t = 3)]
    nodes: usize,
    /// Clients per node.
    #[arg(long, default_value_t = 2)]
    clients_per_node: usize,
    /// Seconds of quiet before each fault.
    #[arg(long, default_value_t = 5)]
    quiet: u64,
    /// Seconds each fault is held.
    #[arg(long, default_value_t = 8)]
    hold: u64,
    /// A statement every client runs on connecting (repeatable), e.g.
    /// "SET SESSION innodb_snapshot_isolation = OFF".
    #[arg(long)]
    session_sql: Vec<String>,
    /// System under test.
    #[arg(long, value_enum, default_value = "tutti")]
    target: Target,
    /// The tutti binary [default: `tutti` next to this program].
    #[arg(long)]
    tutti: Option<PathBuf>,
    /// The Galera anchor's cluster.sh.
    #[arg(long, default_value = "../shared/anchors/galera/cluster.sh")]
    galera_script: PathBuf,
    /// Where runs are kept [default: target/jepsen/<unix time>].
    #[arg(long)]
    out: Option<PathBuf>,
}

fn workloads(kinds: &[WorkloadKind]) -> Vec<WorkloadKind> {
    if kinds.contains(&WorkloadKind::All) {
        vec![
            WorkloadKind::ListAppend,
            WorkloadKind::Register,
            WorkloadKind::Bank,
            WorkloadKind::Set,
        ]
    } else {
        kinds.to_vec()
    }
}

fn name(k: WorkloadKind) -> String {
    k.to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

fn run_one(
    k: WorkloadKind,
    cluster: &dyn Cluster,
    plan: &Plan,
    out: &Path,
) -> Result<Report, JepsenError> {
    let n = name(k);
    match k {
        WorkloadKind::ListAppend => run(&n, &ListAppend::new(), cluster, plan, out),
        WorkloadKind::Register => run(&n, &Register, cluster, plan, out),
        WorkloadKind::Bank => run(&n, &BankWorkload::default(), cluster, plan, out),
        WorkloadKind::Set => run(&n, &SetWorkload, cluster, plan, out),
        WorkloadKind::All => unreachable!("expanded"),
    }
}

fn row(target: &str, r: &Report) -> String {
    format!(
        "| {target} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {} |",
        r.workload,
        r.nemesis,
        r.seed,
        r.seconds / 60.0,
        r.faults,
        r.ops.ok,
        r.ops.fail,
        r.ops.info,
        r.findings.total(),
        r.findings.summary()
    )
}

fn main() -> ExitCode {
    let args = Args::parse();
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("target/jepsen/{stamp}")));
    let bin = args.tutti.clone().unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(|d| d.join("tutti")))
            .unwrap_or_else(|| PathBuf::from("target/release/tutti"))
    });
    let target = match args.target {
        Target::Tutti => "tutti",
        Target::Galera => "galera",
    };
    let header = "| target | workload | nemesis | seed | minutes | faults | ok | fail | info | anomalies | classes |\n|---|---|---|---|---|---|---|---|---|---|---|";
    println!("{header}");
    let mut rows = vec![header.to_string()];
    let mut dirty = false;
    for k in workloads(&args.workload) {
        for &nemesis in &args.nemesis {
            for seed in args.seed..args.seed + args.seeds {
                let plan = Plan {
                    nemesis,
                    duration: Duration::from_secs(args.duration),
                    seed,
                    clients_per_node: args.clients_per_node,
                    schedule: Schedule {
                        quiet: Duration::from_secs(args.quiet),
                        hold: Duration::from_secs(args.hold),
                    },
                    session_sql: args.session_sql.clone(),
                };
                let dir = out.join(format!("{target}-{}-{}-{seed}", name(k), nemesis.name()));
                let result = match args.target {
                    Target::Tutti => TuttiCluster::launch(&bin, &dir, args.nodes).and_then(|c| {
                        let r = run_one(k, &c, &plan, &dir);
                        c.shutdown();
                        r
                    }),
                    Target::Galera => {
                        GaleraCluster::attach(args.galera_script.clone()).and_then(|c| {
                            let r = run_one(k, &c, &plan, &dir);
                            c.shutdown();
                            r
                        })
                    }
                };
                match result {
                    Ok(r) => {
                        let line = row(target, &r);
                        println!("{line}");
                        for (class, a) in &r.findings.anomalies {
                            for ex in &a.examples {
                                eprintln!("  {class}: {ex}");
                            }
                        }
                        dirty |= !r.findings.is_clean();
                        rows.push(line);
                    }
                    Err(e) => {
                        eprintln!("{} × {} seed {seed}: {e}", name(k), nemesis.name());
                        dirty = true;
                    }
                }
            }
        }
    }
    let _ = std::fs::create_dir_all(&out);
    let _ = std::fs::write(out.join("summary.md"), rows.join("\n") + "\n");
    eprintln!("runs kept in {}", out.display());
    if dirty {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
