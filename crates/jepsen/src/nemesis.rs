//! The nemesis: faults injected into real processes and the real network between them,
//! on a schedule (a quiet spell, then a fault held for a while, then healed), each one
//! recorded in the history with its time.
//!
//! Faults: kill -9 of one node, of the leader, of a majority, of every node at once (a
//! coordinated crash, restarted together); SIGSTOP/SIGCONT of one node or the leader;
//! partitions (random halves, the leader alone, a majority ring where every node sees a
//! majority but no two the same one: five nodes or more); delays on every link; and
//! membership churn (a clean leave with SIGTERM, then a rejoin). `mix` picks one at random
//! each round among those the cluster supports.

use crate::cluster::{wait_healthy, Cluster};
use crate::history::{Clock, NemesisEvent};
use crate::JepsenError;
use parking_lot::Mutex;
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use serde::Serialize;
use std::time::{Duration, Instant};

/// A kind of fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Nemesis {
    /// No faults.
    None,
    /// kill -9 of a random node.
    Kill,
    /// kill -9 of the leader.
    KillLeader,
    /// kill -9 of a majority.
    KillMajority,
    /// kill -9 of every node, restarted together.
    KillAll,
    /// SIGSTOP of a random node.
    Pause,
    /// SIGSTOP of the leader.
    PauseLeader,
    /// The nodes split in two random halves.
    Partition,
    /// The leader cut off from everyone.
    PartitionLeader,
    /// Every node sees a majority, no two the same one (5+ nodes).
    PartitionRing,
    /// 20–250 ms on every link.
    Delay,
    /// A clean leave (SIGTERM) and a rejoin.
    Churn,
    /// A random one of the above each round.
    Mix,
}

impl Nemesis {
    /// Every single kind (not `none` or `mix`).
    pub const FAULTS: [Nemesis; 11] = [
        Nemesis::Kill,
        Nemesis::KillLeader,
        Nemesis::KillMajority,
        Nemesis::KillAll,
        Nemesis::Pause,
        Nemesis::PauseLeader,
        Nemesis::Partition,
        Nemesis::PartitionLeader,
        Nemesis::PartitionRing,
        Nemesis::Delay,
        Nemesis::Churn,
    ];

    /// The name used on the command line.
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }

    /// Whether `cluster` can suffer this fault.
    pub fn supported(self, cluster: &dyn Cluster) -> bool {
        let net = cluster.network().is_some();
        match self {
            Nemesis::Partition | Nemesis::PartitionLeader | Nemesis::Delay => net,
            Nemesis::PartitionRing => net && cluster.size() >= 5,
            Nemesis::KillLeader | Nemesis::PauseLeader => cluster.leader().is_some(),
            _ => true,
        }
    }
}

/// How long faults last and how long the cluster is left alone between them.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Quiet spell before each fault.
    pub quiet: Duration,
    /// How long a fault is held.
    pub hold: Duration,
}

/// A fault in force, with what is needed to heal it.
enum Active {
    Killed(Vec<usize>),
    Paused(Vec<usize>),
    Stopped(Vec<usize>),
    Network,
}

fn names(nodes: &[usize]) -> String {
    nodes
        .iter()
        .map(|i| format!("n{}", i + 1))
        .collect::<Vec<_>>()
        .join(",")
}

fn pick(rng: &mut StdRng, n: usize, count: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    all.shuffle(rng);
    all.truncate(count);
    all.sort();
    all
}

fn leader_or_any(cluster: &dyn Cluster, rng: &mut StdRng) -> usize {
    cluster
        .leader()
        .unwrap_or_else(|| rng.random_range(0..cluster.size()))
}

/// Injects one fault of `kind`; returns it and its description.
fn inject(
    kind: Nemesis,
    cluster: &dyn Cluster,
    rng: &mut StdRng,
) -> Result<(Active, String), JepsenError> {
    let n = cluster.size();
    let net = || {
        cluster
            .network()
            .ok_or_else(|| JepsenError::Setup(format!("{} needs the proxy network", kind.name())))
    };
    Ok(match kind {
        Nemesis::None | Nemesis::Mix => unreachable!("not a single fault"),
        Nemesis::Kill | Nemesis::KillLeader | Nemesis::KillMajority | Nemesis::KillAll => {
            let victims = match kind {
                Nemesis::Kill => pick(rng, n, 1),
                Nemesis::KillLeader => vec![leader_or_any(cluster, rng)],
                Nemesis::KillMajority => pick(rng, n, n / 2 + 1),
                _ => (0..n).collect(),
            };
            for &i in &victims {
                cluster.kill(i)?;
            }
            let what = format!("kill -9 {}", names(&victims));
            (Active::Killed(victims), what)
        }
        Nemesis::Pause | Nemesis::PauseLeader => {
            let i = if kind == Nemesis::Pause {
                rng.random_range(0..n)
            } else {
                leader_or_any(cluster, rng)
            };
            cluster.pause(i)?;
            (Active::Paused(vec![i]), format!("SIGSTOP n{}", i + 1))
        }
        Nemesis::Churn => {
            let i = rng.random_range(0..n);
            cluster.stop(i)?;
            (
                Active::Stopped(vec![i]),
                format!("clean leave of n{}", i + 1),
            )
        }
        Nemesis::Partition => {
            let mut all: Vec<usize> = (0..n).collect();
            all.shuffle(rng);
            let (a, b) = all.split_at(n / 2);
            let groups = vec![a.to_vec(), b.to_vec()];
            net()?.partition(&groups);
            (
                Active::Network,
                format!("partition {} | {}", names(a), names(b)),
            )
        }
        Nemesis::PartitionLeader => {
            let l = leader_or_any(cluster, rng);
            let rest: Vec<usize> = (0..n).filter(|&i| i != l).collect();
            net()?.partition(&[vec![l], rest.clone()]);
            (
                Active::Network,
                format!("partition n{} (leader) | {}", l + 1, names(&rest)),
            )
        }
        Nemesis::PartitionRing => {
            // Each node keeps its two ring neighbours only.
            let mut order: Vec<usize> = (0..n).collect();
            order.shuffle(rng);
            let mut cut = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    let d = (b - a).min(n - (b - a));
                    if d > 1 {
                        cut.push((order[a], order[b]));
                    }
                }
            }
            net()?.cut_pairs(&cut);
            (Active::Network, format!("majority ring {}", names(&order)))
        }
        Nemesis::Delay => {
            net()?.delay(Some((20, 250)));
            (Active::Network, "delay 20-250 ms on every link".into())
        }
    })
}

/// Heals a fault.
fn heal(active: Active, cluster: &dyn Cluster) -> Result<String, JepsenError> {
    Ok(match active {
        Active::Killed(v) | Active::Stopped(v) => {
            for &i in &v {
                cluster.start(i)?;
            }
            format!("restart {}", names(&v))
        }
        Active::Paused(v) => {
            for &i in &v {
                cluster.resume(i)?;
            }
            format!("SIGCONT {}", names(&v))
        }
        Active::Network => {
            if let Some(net) = cluster.network() {
                net.heal();
            }
            "heal network".into()
        }
    })
}

/// Sleeps until `t` or the deadline, whichever is first; false once past the deadline.
fn sleep_until(t: Instant, deadline: Instant) -> bool {
    let until = t.min(deadline);
    let now = Instant::now();
    if until > now {
        std::thread::sleep(until - now);
    }
    Instant::now() < deadline
}

/// Runs faults of `kind` until `deadline`, then leaves the cluster healed (every node
/// started, resumed, reconnected).
pub fn run(
    kind: Nemesis,
    cluster: &dyn Cluster,
    schedule: Schedule,
    rng: &mut StdRng,
    clock: Clock,
    deadline: Instant,
    log: &Mutex<Vec<NemesisEvent>>,
) -> Result<(), JepsenError> {
    let record = |what: String| {
        log.lock().push(NemesisEvent {
            at_us: clock.now_us(),
            what,
        })
    };
    if kind == Nemesis::None {
        return Ok(());
    }
    let choices: Vec<Nemesis> = match kind {
        Nemesis::Mix => Nemesis::FAULTS
            .into_iter()
            .filter(|k| k.supported(cluster))
            .collect(),
        k if k.supported(cluster) => vec![k],
        k => {
            return Err(JepsenError::Setup(format!(
                "nemesis {} is not possible on this cluster",
                k.name()
            )))
        }
    };
    while sleep_until(Instant::now() + schedule.quiet, deadline) {
        let k = *choices.choose(rng).expect("at least one fault");
        let (active, what) = inject(k, cluster, rng)?;
        record(what);
        sleep_until(Instant::now() + schedule.hold, deadline);
        record(heal(active, cluster)?);
        if let Err(e) = wait_healthy(cluster, Duration::from_secs(60)) {
            record(format!("after healing: {e}"));
        }
    }
    Ok(())
}
