//! Provider options: what `SET GLOBAL wsrep_provider_options='k=v; ...'` changes online and
//! `SELECT @@wsrep_provider_options` shows, with Galera's names where Galera has them.
//!
//! - `gcache.size`: bytes of history kept for any purpose (default 128M, as Galera).
//! - `gcache.freeze_purge_at_seqno`: `-1` (off), a seqno, or `now` (the last committed
//!   seqno): keep every entry from there on until set back to -1 (as PXC 5.7.20+).
//! - `gcache.keep_for_absent_size` / `gcache.keep_for_absent_time`: extra disk and time
//!   granted to members that are away (left cleanly or unreachable), so that a node returning
//!   within that budget always gets IST without anyone freezing anything.
//! - `evs.inactive_timeout`: how long a member may stay unreachable before the leader
//!   removes it from the configuration (Galera's name and default, `PT15S`). Long enough
//!   that a node restarted after a crash, or a network blip, keeps its seat (no membership
//!   change at all); short enough that a node that is really gone soon stops counting
//!   towards quorum, so the cluster survives a further failure, as Galera's primary
//!   component does. Accepts `PT15S`, `15s`, `1m`, or seconds.
//!
//! Values are validated on set; a bad value is an error naming the option, and nothing
//! changes.

use tutti_wsrep::Seqno;

/// The options in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderOptions {
    /// `gcache.size` in bytes.
    pub gcache_size: u64,
    /// `gcache.freeze_purge_at_seqno` (None = -1).
    pub freeze_at: Option<Seqno>,
    /// `gcache.keep_for_absent_size` in bytes.
    pub keep_for_absent_size: u64,
    /// `gcache.keep_for_absent_time` in seconds.
    pub keep_for_absent_time_s: u64,
    /// `wsrep_desync`: this node may fall behind (shown as Donor/Desynced).
    pub desync: bool,
    /// `evs.inactive_timeout` in milliseconds.
    pub inactive_timeout_ms: u64,
}

impl Default for ProviderOptions {
    fn default() -> Self {
        ProviderOptions {
            gcache_size: 128 << 20,
            freeze_at: None,
            keep_for_absent_size: 1 << 30,
            keep_for_absent_time_s: 4 * 3600,
            desync: false,
            inactive_timeout_ms: 15_000,
        }
    }
}

fn parse_size(v: &str) -> Result<u64, String> {
    let v = v.trim();
    let (num, mult) = match v.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&v[..v.len() - 1], 1u64 << 10),
        Some('M') => (&v[..v.len() - 1], 1 << 20),
        Some('G') => (&v[..v.len() - 1], 1 << 30),
        Some('T') => (&v[..v.len() - 1], 1 << 40),
        _ => (v, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("invalid size '{v}' (e.g. 1024, 64K, 128M, 2G)"))
}

fn parse_duration_s(v: &str) -> Result<u64, String> {
    let v = v.trim();
    // ISO 8601, as Galera writes its timeouts: PT15S, PT1M, PT1H30M.
    if let Some(rest) = v.strip_prefix("PT").or_else(|| v.strip_prefix("pt")) {
        return parse_iso_time(rest).ok_or_else(|| format!("invalid duration '{v}'"));
    }
    let (num, mult) = match v.chars().last() {
        Some('s') => (&v[..v.len() - 1], 1),
        Some('m') => (&v[..v.len() - 1], 60),
        Some('h') => (&v[..v.len() - 1], 3600),
        Some('d') => (&v[..v.len() - 1], 86400),
        _ => (v, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("invalid duration '{v}' (seconds, or e.g. 90s, 30m, 4h, 2d)"))
}

fn parse_iso_time(rest: &str) -> Option<u64> {
    let mut total = 0u64;
    let mut num = String::new();
    for c in rest.chars() {
        match c.to_ascii_uppercase() {
            '0'..='9' => num.push(c),
            u @ ('H' | 'M' | 'S') => {
                let n: u64 = num.parse().ok()?;
                num.clear();
                let unit = match u {
                    'H' => 3600,
                    'M' => 60,
                    _ => 1,
                };
                total = total.checked_add(n.checked_mul(unit)?)?;
            }
            _ => return None,
        }
    }
    (num.is_empty() && !rest.is_empty()).then_some(total)
}

impl ProviderOptions {
    /// Sets one option; `last_committed` resolves `freeze_purge_at_seqno=now`.
    pub fn set(&mut self, key: &str, value: &str, last_committed: Seqno) -> Result<(), String> {
        let value = value.trim().trim_matches('\'').trim_matches('"');
        match key.trim() {
            "gcache.size" => self.gcache_size = parse_size(value)?,
            "gcache.freeze_purge_at_seqno" => {
                self.freeze_at = match value {
                    "-1" => None,
                    "now" => Some(last_committed),
                    v => Some(v.parse::<u64>().map_err(|_| {
                        format!("invalid value '{v}' (expected -1, a seqno, or now)")
                    })?),
                }
            }
            "gcache.keep_for_absent_size" => self.keep_for_absent_size = parse_size(value)?,
            "gcache.keep_for_absent_time" => self.keep_for_absent_time_s = parse_duration_s(value)?,
            "wsrep_desync" => self.desync = matches!(value, "ON" | "on" | "1" | "true"),
            "pc.bootstrap" => {
                return Err("pc.bootstrap is an action, not a setting: run SET GLOBAL \
                     wsrep_provider_options='pc.bootstrap=YES' on the running node"
                    .into())
            }
            "evs.inactive_timeout" => {
                let s = parse_duration_s(value)?;
                if s == 0 {
                    return Err("evs.inactive_timeout must be at least 1 second".into());
                }
                self.inactive_timeout_ms = s * 1000;
            }
            other => {
                return Err(format!(
                    "unknown provider option '{other}' (known: gcache.size, \
                     gcache.freeze_purge_at_seqno, gcache.keep_for_absent_size, \
                     gcache.keep_for_absent_time, evs.inactive_timeout, pc.bootstrap)"
                ))
            }
        }
        Ok(())
    }

    /// `@@wsrep_provider_options`.
    pub fn render(&self) -> String {
        format!(
            "gcache.size = {}; gcache.freeze_purge_at_seqno = {}; \
             gcache.keep_for_absent_size = {}; gcache.keep_for_absent_time = {}s; \
             evs.inactive_timeout = PT{}S",
            self.gcache_size,
            self.freeze_at
                .map(|s| s.to_string())
                .unwrap_or_else(|| "-1".into()),
            self.keep_for_absent_size,
            self.keep_for_absent_time_s,
            self.inactive_timeout_ms / 1000
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_render_and_refuse_bad_values() {
        let mut o = ProviderOptions::default();
        o.set("gcache.size", "16M", 0).unwrap();
        assert_eq!(o.gcache_size, 16 << 20);
        o.set("gcache.freeze_purge_at_seqno", "now", 42).unwrap();
        assert_eq!(o.freeze_at, Some(42));
        o.set("gcache.freeze_purge_at_seqno", "7", 42).unwrap();
        assert_eq!(o.freeze_at, Some(7));
        o.set("gcache.freeze_purge_at_seqno", "-1", 42).unwrap();
        assert_eq!(o.freeze_at, None);
        o.set("gcache.keep_for_absent_time", "30m", 0).unwrap();
        assert_eq!(o.keep_for_absent_time_s, 1800);
        assert!(o.render().contains("gcache.size = 16777216"));
        o.set("evs.inactive_timeout", "PT1M30S", 0).unwrap();
        assert_eq!(o.inactive_timeout_ms, 90_000);
        o.set("evs.inactive_timeout", "20s", 0).unwrap();
        assert_eq!(o.inactive_timeout_ms, 20_000);
        assert!(o.render().contains("evs.inactive_timeout = PT20S"));
        assert!(o.set("evs.inactive_timeout", "PT", 0).is_err());
        assert!(o.set("evs.inactive_timeout", "0", 0).is_err());
        let before = o.clone();
        assert!(o.set("gcache.size", "lots", 0).is_err());
        assert!(o.set("gcache.freeze_purge_at_seqno", "soon", 0).is_err());
        assert!(o.set("gcs.nope", "1", 0).unwrap_err().contains("gcs.nope"));
        assert_eq!(o, before);
    }
}
