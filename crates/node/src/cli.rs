//! The command line.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

use crate::config::Overrides;

/// tutti: a synchronous multi-master SQL cluster on SQLite and Raft, speaking MySQL.
///
/// Every node holds all the data and takes reads and writes; transactions are certified
/// (first committer wins) and applied on every node in the same order, like Galera.
#[derive(Debug, Parser)]
#[command(name = "tutti", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start a node (runs until SIGTERM or SIGINT, then shuts down cleanly).
    Start(StartArgs),
    /// A local cluster on 127.0.0.1: free ports, datadirs, logs and cluster.toml under one
    /// directory (try `tutti cluster up --base /tmp/tutti`).
    #[command(subcommand)]
    Cluster(ClusterCommand),
    /// The cluster's members, through any node's admin endpoint: list them, or remove one
    /// that is gone for good.
    #[command(subcommand)]
    Member(MemberCommand),
}

/// Where `tutti member` finds a node.
#[derive(Debug, Args, Clone)]
pub struct AdminTarget {
    /// A node's admin address [default: 127.0.0.1:9200].
    #[arg(long, value_name = "HOST:PORT", conflicts_with = "base")]
    pub admin: Option<String>,
    /// The directory of a local cluster made by `tutti cluster up` (any running node).
    #[arg(long, value_name = "DIR")]
    pub base: Option<PathBuf>,
}

/// `tutti member` commands.
#[derive(Debug, Subcommand)]
pub enum MemberCommand {
    /// One row per member: name, id, role (voter or learner), reachable, leader, MySQL
    /// address.
    List {
        #[command(flatten)]
        target: AdminTarget,
    },
    /// Remove a member (by name or hex id) from the cluster, e.g. a node destroyed for
    /// good; quorum is then counted without it. The leader commits the removal with a
    /// majority of the voters. A removed node that comes back rejoins as a learner.
    Remove {
        /// The member's name (wsrep_node_name) or hex id (or a unique prefix of it).
        who: String,
        #[command(flatten)]
        target: AdminTarget,
    },
}

/// `tutti cluster` commands.
#[derive(Debug, Subcommand)]
pub enum ClusterCommand {
    /// Start a new local cluster, or restart the stopped nodes of the one under --base.
    ///
    /// A new cluster gets free ports on 127.0.0.1, datadirs DIR/node1.. and logs
    /// DIR/node1.log..; node1 bootstraps, the others join it one by one, and each must be
    /// synced (GET /health answers 200) within 60 s before the next starts. The nodes run
    /// detached and keep running after this command exits. If DIR/cluster.toml exists, the
    /// nodes that are not running are restarted on their recorded ports from their datadirs
    /// (a restarted node remembers its cluster). Prints how to connect to each node.
    Up {
        /// Number of nodes of a new cluster, 1 to 9 [default: 3]; ignored when DIR already
        /// holds a cluster.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=9))]
        nodes: Option<u8>,
        /// Directory for the datadirs, the logs and cluster.toml (created if missing).
        #[arg(long, value_name = "DIR")]
        base: PathBuf,
        /// Log level of the started nodes (error, warn, info, debug, trace, or a tracing
        /// filter).
        #[arg(long, value_name = "LEVEL", default_value = "info")]
        log_level: String,
    },
    /// Show each node of the cluster under --base.
    ///
    /// One row per node: name, pid, whether the process runs, and from its /status:
    /// wsrep_local_state_comment, wsrep_cluster_status, wsrep_cluster_size,
    /// wsrep_last_committed and wsrep_cluster_leader ("-" if unknown). Exits with 1 if a
    /// node is not running or does not answer.
    Status {
        /// The directory given to `tutti cluster up`.
        #[arg(long, value_name = "DIR")]
        base: PathBuf,
    },
    /// Stop every node of the cluster under --base cleanly; the datadirs are kept.
    ///
    /// Sends SIGTERM to the nodes newest first (nodeN .. node1) and waits up to 30 s for
    /// each to exit before the next: a clean stop leaves the cluster, so the remaining
    /// nodes keep a primary component. `tutti cluster up --base DIR` restarts them.
    Down {
        /// The directory given to `tutti cluster up`.
        #[arg(long, value_name = "DIR")]
        base: PathBuf,
    },
}

/// `tutti start` options; each overrides the same key of the configuration file.
#[derive(Debug, Args, Clone)]
pub struct StartArgs {
    /// TOML configuration file (keys: name, datadir, mysql_listen, admin_listen,
    /// peer_listen, peer_advertise, join, provider_options, gcache_segment_size, max_allowed_packet,
    /// max_connections, log_level, [[users]]).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Data directory (created if missing) [default: ./tutti-data].
    #[arg(long, value_name = "DIR")]
    pub datadir: Option<PathBuf>,
    /// Node name, shown as wsrep_node_name [default: the host name].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Address for MySQL clients [default: 127.0.0.1:3306].
    #[arg(long, value_name = "ADDR")]
    pub mysql_listen: Option<String>,
    /// Address for the admin HTTP endpoints /health, /status, /metrics [default: 127.0.0.1:9200].
    #[arg(long, value_name = "ADDR")]
    pub admin_listen: Option<String>,
    /// Address for node-to-node replication traffic [default: 127.0.0.1:4567].
    #[arg(long, value_name = "ADDR")]
    pub peer_listen: Option<String>,
    /// Peer address the other members dial, when it is not --peer-listen (NAT, a port
    /// forward, a proxy), like wsrep_node_address [default: the --peer-listen address].
    #[arg(long, value_name = "ADDR")]
    pub peer_advertise: Option<String>,
    /// Join an existing cluster through any of these members' peer addresses
    /// (comma-separated or repeated; a name resolving to several addresses counts as
    /// several members), like wsrep_cluster_address. Only needed the first time: a
    /// restarted node remembers its cluster.
    #[arg(long, value_name = "HOST:PORT[,...]")]
    pub join: Vec<String>,
    /// Create a new cluster with this node as its first member (like
    /// --wsrep-new-cluster). Refused on a datadir that already belongs to a cluster. A new
    /// datadir started without --join also bootstraps.
    #[arg(long)]
    pub bootstrap: bool,
    /// Initial wsrep_provider_options, e.g. 'gcache.size=1G; gcache.keep_for_absent_time=8h'
    /// (also changeable online with SET GLOBAL wsrep_provider_options).
    #[arg(long, value_name = "OPTIONS")]
    pub provider_options: Option<String>,
    /// Log level (error, warn, info, debug, trace) or a tracing filter [default: info].
    #[arg(long, value_name = "LEVEL")]
    pub log_level: Option<String>,
}

impl StartArgs {
    /// The flags as configuration overrides.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            config: self.config.clone(),
            datadir: self.datadir.clone(),
            name: self.name.clone(),
            mysql_listen: self.mysql_listen.clone(),
            admin_listen: self.admin_listen.clone(),
            log_level: self.log_level.clone(),
            peer_listen: self.peer_listen.clone(),
            peer_advertise: self.peer_advertise.clone(),
            join: self.join.clone(),
            bootstrap: self.bootstrap,
            provider_options: self.provider_options.clone(),
        }
    }
}
