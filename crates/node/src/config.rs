//! The node's one typed configuration: a TOML file, overridden by command-line flags.
//!
//! Every key and its default is defined here and nowhere else; `tutti start --help` and
//! the README describe the same keys. Sizes accept `K`, `M`, `G` suffixes.

use serde::Deserialize;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};

use crate::NodeError;

/// Default MySQL client address.
pub const DEFAULT_MYSQL_LISTEN: &str = "127.0.0.1:3306";
/// Default admin HTTP address.
pub const DEFAULT_ADMIN_LISTEN: &str = "127.0.0.1:9200";
/// Default peer (node-to-node) address, Galera's replication port.
pub const DEFAULT_PEER_LISTEN: &str = "127.0.0.1:4567";
/// Default datadir.
pub const DEFAULT_DATADIR: &str = "tutti-data";

/// A byte size written as a number or with a K/M/G suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size(pub u64);

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Size, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u64),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(Size(n)),
            Raw::S(s) => parse_size(&s).map(Size).map_err(serde::de::Error::custom),
        }
    }
}

/// Parses `123`, `64K`, `16M`, `2G` (powers of 1024).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = match s.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&s[..s.len() - 1], 1u64 << 10),
        Some('M') => (&s[..s.len() - 1], 1 << 20),
        Some('G') => (&s[..s.len() - 1], 1 << 30),
        Some('T') => (&s[..s.len() - 1], 1 << 40),
        _ => (s, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("invalid size '{s}' (expected e.g. 1024, 64K, 16M, 1G)"))
}

/// A MySQL account in the configuration file.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct UserConfig {
    /// User name.
    pub name: String,
    /// Clear-text password ("" = none).
    #[serde(default)]
    pub password: Option<String>,
    /// MySQL password hash (`*` + 40 hex digits), instead of `password`.
    #[serde(default)]
    pub password_hash: Option<String>,
    /// Hosts it may connect from: `localhost`, `%`, addresses, `%` wildcards.
    #[serde(default = "default_hosts")]
    pub hosts: Vec<String>,
}

fn default_hosts() -> Vec<String> {
    vec!["localhost".into()]
}

/// The configuration file as written (every key optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// Node name (`wsrep_node_name`).
    pub name: Option<String>,
    /// Data directory.
    pub datadir: Option<PathBuf>,
    /// MySQL client address.
    pub mysql_listen: Option<String>,
    /// Admin HTTP address.
    pub admin_listen: Option<String>,
    /// Largest client packet.
    pub max_allowed_packet: Option<Size>,
    /// Most concurrent client sessions.
    pub max_connections: Option<usize>,
    /// Log level (error, warn, info, debug, trace) or a tracing filter.
    pub log_level: Option<String>,
    /// Node-to-node (replication) address.
    pub peer_listen: Option<String>,
    /// Peer address the other members dial (like `wsrep_node_address`) when it differs
    /// from `peer_listen`: behind NAT, a port forward or a proxy.
    pub peer_advertise: Option<String>,
    /// Peer addresses of members to join through (like `wsrep_cluster_address`).
    #[serde(default)]
    pub join: Vec<String>,
    /// Initial `wsrep_provider_options` (`gcache.size=...; ...`), changeable online.
    pub provider_options: Option<String>,
    /// Size of one gcache segment file (purging drops whole segments).
    pub gcache_segment_size: Option<Size>,
    /// MySQL accounts (default: root without password, from localhost only).
    #[serde(default)]
    pub users: Vec<UserConfig>,
}

/// Values given on the command line (they win over the file).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--config FILE`.
    pub config: Option<PathBuf>,
    /// `--datadir DIR`.
    pub datadir: Option<PathBuf>,
    /// `--name NAME`.
    pub name: Option<String>,
    /// `--mysql-listen ADDR`.
    pub mysql_listen: Option<String>,
    /// `--admin-listen ADDR`.
    pub admin_listen: Option<String>,
    /// `--log-level LEVEL`.
    pub log_level: Option<String>,
    /// `--peer-listen ADDR`.
    pub peer_listen: Option<String>,
    /// `--peer-advertise ADDR`.
    pub peer_advertise: Option<String>,
    /// `--join HOST:PORT[,...]` (replaces the file's list when given).
    pub join: Vec<String>,
    /// `--bootstrap`.
    pub bootstrap: bool,
    /// `--provider-options 'k=v; ...'`.
    pub provider_options: Option<String>,
}

/// The validated configuration of a node.
#[derive(Clone, Debug)]
pub struct Config {
    /// Node name.
    pub name: String,
    /// Data directory.
    pub datadir: PathBuf,
    /// MySQL client address.
    pub mysql_listen: SocketAddr,
    /// Admin HTTP address.
    pub admin_listen: SocketAddr,
    /// Largest client packet in bytes.
    pub max_allowed_packet: usize,
    /// Most concurrent client sessions.
    pub max_connections: usize,
    /// Log filter.
    pub log_level: String,
    /// Node-to-node address.
    pub peer_listen: SocketAddr,
    /// The peer address other members dial, when not `peer_listen` itself.
    pub peer_advertise: Option<SocketAddr>,
    /// Resolved peer addresses to join through (every address a name resolves to).
    pub join: Vec<SocketAddr>,
    /// Start a new cluster.
    pub bootstrap: bool,
    /// Provider options (retention policy) at startup.
    pub provider: tutti_replication::options::ProviderOptions,
    /// Bytes per gcache segment file.
    pub gcache_segment_size: u64,
    /// MySQL accounts.
    pub users: Vec<UserConfig>,
}

fn resolve(addr: &str, key: &str) -> Result<SocketAddr, NodeError> {
    addr.to_socket_addrs()
        .map_err(|e| NodeError::Config(format!("{key} '{addr}': {e}")))?
        .next()
        .ok_or_else(|| NodeError::Config(format!("{key} '{addr}' resolves to no address")))
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "tutti".into())
}

impl Config {
    /// Reads the file (if any) and applies the overrides.
    pub fn load(o: &Overrides) -> Result<Config, NodeError> {
        let file = match &o.config {
            Some(path) => read_file(path)?,
            None => FileConfig::default(),
        };
        Config::build(file, o)
    }

    /// Merges and validates.
    pub fn build(f: FileConfig, o: &Overrides) -> Result<Config, NodeError> {
        let name = o.name.clone().or(f.name).unwrap_or_else(hostname);
        if name.is_empty() || name.len() > 64 || name.chars().any(|c| c.is_control() || c == '"') {
            return Err(NodeError::Config(format!(
                "name '{name}' must be 1-64 printable characters"
            )));
        }
        let datadir = o
            .datadir
            .clone()
            .or(f.datadir)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATADIR));
        let mysql = o
            .mysql_listen
            .clone()
            .or(f.mysql_listen)
            .unwrap_or_else(|| DEFAULT_MYSQL_LISTEN.into());
        let admin = o
            .admin_listen
            .clone()
            .or(f.admin_listen)
            .unwrap_or_else(|| DEFAULT_ADMIN_LISTEN.into());
        let max_allowed_packet = f.max_allowed_packet.map(|s| s.0).unwrap_or(64 << 20);
        if !(1024..=(1 << 30)).contains(&max_allowed_packet) {
            return Err(NodeError::Config(
                "max_allowed_packet must be between 1K and 1G".into(),
            ));
        }
        let max_connections = f.max_connections.unwrap_or(1000);
        if max_connections == 0 {
            return Err(NodeError::Config(
                "max_connections must be at least 1".into(),
            ));
        }
        for u in &f.users {
            if u.password.is_some() && u.password_hash.is_some() {
                return Err(NodeError::Config(format!(
                    "user '{}': give password or password_hash, not both",
                    u.name
                )));
            }
        }
        let peer = o
            .peer_listen
            .clone()
            .or(f.peer_listen)
            .unwrap_or_else(|| DEFAULT_PEER_LISTEN.into());
        let join_list = if o.join.is_empty() {
            f.join
        } else {
            o.join.clone()
        };
        let mut join = Vec::new();
        for entry in join_list.iter().flat_map(|j| j.split(',')) {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            let addrs: Vec<SocketAddr> = entry
                .to_socket_addrs()
                .map_err(|e| NodeError::Config(format!("join address '{entry}': {e}")))?
                .collect();
            if addrs.is_empty() {
                return Err(NodeError::Config(format!(
                    "join address '{entry}' resolves to no address"
                )));
            }
            join.extend(addrs);
        }
        if o.bootstrap && !join.is_empty() {
            return Err(NodeError::Config(
                "--bootstrap starts a new cluster; it cannot be combined with --join".into(),
            ));
        }
        let mut provider = tutti_replication::options::ProviderOptions::default();
        let options_text = o.provider_options.clone().or(f.provider_options);
        for part in options_text
            .iter()
            .flat_map(|t| t.split(';'))
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                NodeError::Config(format!("provider_options: '{part}' is not key=value"))
            })?;
            provider
                .set(k, v, 0)
                .map_err(|e| NodeError::Config(format!("provider_options: {e}")))?;
        }
        let gcache_segment_size = f.gcache_segment_size.map(|s| s.0).unwrap_or(64 << 20);
        if !((64 << 10)..=(1 << 30)).contains(&gcache_segment_size) {
            return Err(NodeError::Config(
                "gcache_segment_size must be between 64K and 1G".into(),
            ));
        }
        let config = Config {
            name,
            datadir,
            mysql_listen: resolve(&mysql, "mysql_listen")?,
            admin_listen: resolve(&admin, "admin_listen")?,
            max_allowed_packet: max_allowed_packet as usize,
            max_connections,
            log_level: o
                .log_level
                .clone()
                .or(f.log_level)
                .unwrap_or_else(|| "info".into()),
            peer_listen: resolve(&peer, "peer_listen")?,
            peer_advertise: o
                .peer_advertise
                .clone()
                .or(f.peer_advertise)
                .map(|a| resolve(&a, "peer_advertise"))
                .transpose()?,
            join,
            bootstrap: o.bootstrap,
            provider,
            gcache_segment_size,
            users: f.users,
        };
        let ports = [
            ("mysql_listen", config.mysql_listen),
            ("admin_listen", config.admin_listen),
            ("peer_listen", config.peer_listen),
        ];
        for (i, (a, x)) in ports.iter().enumerate() {
            for (b, y) in &ports[i + 1..] {
                if x == y && x.port() != 0 {
                    return Err(NodeError::Config(format!("{a} and {b} must differ")));
                }
            }
        }
        Ok(config)
    }
}

fn read_file(path: &Path) -> Result<FileConfig, NodeError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| NodeError::Config(format!("cannot read {}: {e}", path.display())))?;
    toml::from_str(&text).map_err(|e| {
        let msg = e.message().to_string();
        let line = e.span().map(|s| text[..s.start].lines().count().max(1));
        NodeError::Config(match line {
            Some(l) => format!("{}:{l}: {msg}", path.display()),
            None => format!("{}: {msg}", path.display()),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("lots").is_err());
    }

    #[test]
    fn file_then_flags() {
        let f: FileConfig = toml::from_str(
            "name = 'a'\nmysql_listen = '127.0.0.1:4000'\nmax_allowed_packet = '16M'\n[[users]]\nname = 'app'\npassword = 'x'\nhosts = ['%']\n",
        )
        .unwrap();
        let o = Overrides {
            name: Some("b".into()),
            ..Default::default()
        };
        let c = Config::build(f, &o).unwrap();
        assert_eq!(c.name, "b");
        assert_eq!(c.mysql_listen.port(), 4000);
        assert_eq!(c.max_allowed_packet, 16 << 20);
        assert_eq!(c.users[0].hosts, vec!["%".to_string()]);
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        assert!(
            toml::from_str::<FileConfig>("nmae = 'x'").is_err(),
            "unknown keys are refused"
        );
        let o = Overrides {
            mysql_listen: Some("not an address".into()),
            ..Default::default()
        };
        let e = Config::build(FileConfig::default(), &o)
            .unwrap_err()
            .to_string();
        assert!(e.contains("mysql_listen"), "{e}");
    }
}
