//! A running node: startup as a list of steps, and an explicit, clean shutdown.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tutti_executor::{Executor, ExecutorConfig};
use tutti_mysql::{MysqlConfig, User, Users};
use tutti_replication::raft::Member;
use tutti_replication::{Replication, ReplicationConfig};
use tutti_storage::{Durability, Storage};
use tutti_wsrep::Value;

use crate::datadir::Datadir;
use crate::peer::PeerTransport;
use crate::status::NodeStatus;
use crate::{Config, NodeError};

/// The MySQL version string tutti announces.
pub fn server_version() -> String {
    format!("8.0.36-tutti-{}", env!("CARGO_PKG_VERSION"))
}

/// A started node.
pub struct Node {
    config: Config,
    storage: Arc<Storage>,
    replication: Arc<Replication>,
    executor: Arc<Executor>,
    transport: Arc<PeerTransport>,
    mysql_addr: SocketAddr,
    admin_addr: SocketAddr,
    peer_addr: SocketAddr,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    _datadir: Datadir,
}

async fn bind(addr: SocketAddr, what: &'static str) -> Result<TcpListener, NodeError> {
    TcpListener::bind(addr)
        .await
        .map_err(|e| NodeError::Listen {
            addr: addr.to_string(),
            what,
            reason: e.to_string(),
        })
}

fn users(config: &Config) -> Result<Users, NodeError> {
    let mut out = Vec::new();
    for u in &config.users {
        out.push(match &u.password_hash {
            Some(h) => User::with_hash(&u.name, h, u.hosts.clone()).map_err(NodeError::Config)?,
            None => User::with_password(
                &u.name,
                u.password.as_deref().unwrap_or(""),
                u.hosts.clone(),
            ),
        });
    }
    Ok(Users::new(out))
}

impl Node {
    /// Starts a node: every step in order; on error nothing keeps running.
    pub async fn start(config: Config) -> Result<Node, NodeError> {
        // 1. The datadir, locked, and this node's identity.
        let datadir = Datadir::open(&config.datadir)?;
        let node_id = datadir.node_id()?;
        // 2. Every port first, so a taken port fails fast.
        let mysql_listener = bind(config.mysql_listen, "MySQL clients").await?;
        let admin_listener = bind(config.admin_listen, "admin HTTP").await?;
        let peer_listener =
            std::net::TcpListener::bind(config.peer_listen).map_err(|e| NodeError::Listen {
                addr: config.peer_listen.to_string(),
                what: "peer (replication)",
                reason: e.to_string(),
            })?;
        let local =
            |l: std::io::Result<SocketAddr>| l.map_err(|e| NodeError::Config(e.to_string()));
        let mysql_addr = local(mysql_listener.local_addr())?;
        let admin_addr = local(admin_listener.local_addr())?;
        let peer_addr = local(peer_listener.local_addr())?;
        let advertised = config.peer_advertise.unwrap_or(peer_addr);
        // 3. The database. The replicated log is the durability point (fsynced before an
        //    entry counts as committed), so SQLite need not fsync every batch.
        let storage = Arc::new(Storage::open(datadir.path(), Durability::Normal)?);
        tracing::info!(
            "database at {}: state {}:{}",
            storage.path().display(),
            storage.cluster_uuid(),
            storage.applied()
        );
        // 4. Replication: the peer transport, then Raft (bootstrap, join or restart),
        //    certification and the applier.
        let inbox = tutti_replication::raft::channel();
        let transport = PeerTransport::start(peer_listener, advertised, node_id, inbox.0.clone())
            .map_err(|e| NodeError::Config(format!("peer transport: {e}")))?;
        let replication = Replication::start(
            ReplicationConfig {
                me: Member {
                    id: node_id,
                    name: config.name.clone(),
                    peer_addr: advertised.to_string(),
                    mysql_addr: mysql_addr.to_string(),
                },
                datadir: datadir.path().to_path_buf(),
                bootstrap: config.bootstrap,
                seeds: config.join.iter().map(|a| a.to_string()).collect(),
                cert_window: 100_000,
                commit_timeout: Duration::from_secs(30),
                tick: Duration::from_millis(100),
                election_ticks: 10,
                heartbeat_ticks: 2,
                gcache: tutti_gcache::GcacheOptions {
                    segment_bytes: config.gcache_segment_size,
                    ..Default::default()
                },
                options: config.provider.clone(),
            },
            storage.clone(),
            transport.clone(),
            inbox,
        );
        let replication = match replication {
            Ok(r) => r,
            Err(e) => {
                transport.stop();
                return Err(e.into());
            }
        };
        // 5. The session executor.
        let executor = Executor::new(
            storage.clone(),
            replication.clone(),
            ExecutorConfig {
                version: server_version(),
                globals: vec![
                    (
                        "max_allowed_packet".into(),
                        Value::Int(config.max_allowed_packet as i64),
                    ),
                    (
                        "max_connections".into(),
                        Value::Int(config.max_connections as i64),
                    ),
                    ("port".into(), Value::Int(mysql_addr.port() as i64)),
                    ("hostname".into(), Value::Text(config.name.clone())),
                    (
                        "datadir".into(),
                        Value::Text(config.datadir.display().to_string()),
                    ),
                    ("wsrep_node_name".into(), Value::Text(config.name.clone())),
                    (
                        "wsrep_node_incoming_address".into(),
                        Value::Text(mysql_addr.to_string()),
                    ),
                ],
            },
        );
        // 6. Serve clients and the admin surface.
        let (stop, stopped) = watch::channel(false);
        let mysql_config = Arc::new(MysqlConfig {
            max_allowed_packet: config.max_allowed_packet,
            max_connections: config.max_connections,
            users: users(&config)?,
        });
        let status = Arc::new(NodeStatus {
            config: config.clone(),
            node_id,
            replication: replication.clone(),
            executor: executor.clone(),
            started: Instant::now(),
        });
        let tasks = vec![
            tokio::spawn(tutti_mysql::serve(
                mysql_listener,
                executor.clone(),
                mysql_config,
                stopped.clone(),
            )),
            tokio::spawn(tutti_admin::serve(admin_listener, status, stopped)),
        ];
        let via = if advertised == peer_addr {
            String::new()
        } else {
            format!(" (advertised as {advertised})")
        };
        tracing::info!(
            "node '{}' listening: MySQL on {mysql_addr}, admin on http://{admin_addr}, peers on {peer_addr}{via}",
            config.name
        );
        Ok(Node {
            config,
            storage,
            replication,
            executor,
            transport,
            mysql_addr,
            admin_addr,
            peer_addr,
            stop,
            tasks,
            _datadir: datadir,
        })
    }

    /// The address MySQL clients connect to.
    pub fn mysql_addr(&self) -> SocketAddr {
        self.mysql_addr
    }

    /// The admin HTTP address.
    pub fn admin_addr(&self) -> SocketAddr {
        self.admin_addr
    }

    /// The peer (replication) address.
    pub fn peer_addr(&self) -> SocketAddr {
        self.peer_addr
    }

    /// The executor (for in-process tests).
    pub fn executor(&self) -> &Arc<Executor> {
        &self.executor
    }

    /// Clean shutdown: stop accepting, let running statements finish briefly, leave the
    /// cluster (so the others keep their quorum), drain the applier, close the database.
    pub async fn shutdown(self) {
        tracing::info!("node '{}' shutting down", self.config.name);
        let _ = self.stop.send(true);
        for t in self.tasks {
            let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while self
            .executor
            .stats
            .running
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let replication = self.replication.clone();
        let _ = tokio::task::spawn_blocking(move || {
            replication.leave(Duration::from_secs(10));
            replication.shutdown();
        })
        .await;
        self.transport.stop();
        tracing::info!(
            "node '{}' stopped at seqno {}",
            self.config.name,
            self.storage.applied()
        );
    }
}

/// Runs a node until SIGTERM or SIGINT.
pub async fn run(config: Config) -> Result<(), NodeError> {
    let node = Node::start(config).await?;
    wait_for_signal().await;
    node.shutdown().await;
    Ok(())
}

async fn wait_for_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).expect("install SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("install SIGINT handler");
    tokio::select! {
        _ = term.recv() => tracing::info!("SIGTERM received"),
        _ = int.recv() => tracing::info!("SIGINT received"),
    }
}
