//! `tutti member list|remove`: the cluster's members, through any node's admin endpoint
//! (`GET /members`, `DELETE /members/{name}`).
//!
//! The address is `--admin HOST:PORT`, or `--base DIR` for a local cluster made by `tutti
//! cluster up` (the first of its nodes that answers). Removing a member is for a node that
//! is gone for good: the leader commits the removal with a majority of the voters, and the
//! remaining members count quorum without it. A removed node that comes back is told so
//! and rejoins as a learner.

use serde_json::Value as Json;
use std::io::Write;
use std::path::Path;

use crate::http;
use crate::local_cluster::LocalCluster;

/// Where to reach an admin endpoint: an address, or a local cluster's base directory.
pub fn admin_address(admin: Option<&str>, base: Option<&Path>) -> Result<String, String> {
    if let Some(a) = admin {
        return Ok(a.to_string());
    }
    let Some(base) = base else {
        return Ok("127.0.0.1:9200".into());
    };
    let c = LocalCluster::load(base)?;
    c.nodes
        .iter()
        .find(|n| http::get(&n.admin, "/health").is_some())
        .map(|n| n.admin.clone())
        .ok_or_else(|| format!("no node of the cluster under {} answers", base.display()))
}

fn say(line: impl std::fmt::Display) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// Prints one row per member; false if the node cannot be reached.
pub fn list(admin: &str) -> Result<bool, String> {
    let (code, body) =
        http::get(admin, "/members").ok_or_else(|| format!("no answer from {admin}"))?;
    if code != 200 {
        return Err(format!("{admin}: HTTP {code}: {}", body.trim()));
    }
    let mut members: Vec<Json> =
        serde_json::from_str(&body).map_err(|e| format!("{admin}: bad answer: {e}"))?;
    members.sort_by_key(|m| m["name"].as_str().unwrap_or_default().to_string());
    say(format!(
        "{:<12} {:<16} {:<8} {:<10} {:<7} {}",
        "NAME", "ID", "ROLE", "REACHABLE", "LEADER", "MYSQL"
    ));
    for m in &members {
        let s = |k: &str| m[k].as_str().unwrap_or("-").to_string();
        let yes = |k: &str| {
            if m[k].as_bool() == Some(true) {
                "yes"
            } else {
                "no"
            }
        };
        say(format!(
            "{:<12} {:<16} {:<8} {:<10} {:<7} {}",
            s("name"),
            s("id"),
            s("role"),
            yes("alive"),
            yes("leader"),
            s("mysql")
        ));
    }
    Ok(true)
}

/// Asks the cluster to remove a member; false when it refused (the reason is printed).
pub fn remove(admin: &str, who: &str) -> Result<bool, String> {
    let path = format!("/members/{}", encode(who));
    let (code, body) =
        http::request(admin, "DELETE", &path).ok_or_else(|| format!("no answer from {admin}"))?;
    match code {
        200 => {
            say(body.trim());
            Ok(true)
        }
        _ => Err(format!("member remove refused: {}", body.trim())),
    }
}

/// Percent-encodes a path segment.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
