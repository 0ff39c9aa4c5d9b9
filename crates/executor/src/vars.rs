//! System variables: MySQL's and Galera's names, scopes, defaults and validation.
//!
//! Global values live in [`Globals`]; a session starts with none of its own and reads
//! through to the global value until it sets one. Some values are computed (version,
//! `auto_increment_*` from the provider, `wsrep_provider_options`).

use parking_lot::RwLock;
use std::collections::HashMap;
use tutti_wsrep::Value;

use crate::ExecError;

/// Where a variable may be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Only `SET GLOBAL` (or read-only).
    Global,
    /// Only per session.
    Session,
    /// Both.
    Both,
}

/// The value type, for validation and display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// ON/OFF, shown as ON/OFF by SHOW VARIABLES and 1/0 by SELECT @@.
    Bool,
    /// An unsigned integer.
    Int,
    /// A non-negative number with a fraction (`timestamp`).
    Real,
    /// Free text.
    Text,
}

/// One known variable.
#[derive(Clone, Copy, Debug)]
pub struct VarDef {
    /// Lower-case name.
    pub name: &'static str,
    /// Where it can be set.
    pub scope: Scope,
    /// Its type.
    pub kind: Kind,
    /// Can never be set.
    pub read_only: bool,
    /// Default (text form; computed variables have a placeholder).
    pub default: &'static str,
}

const fn v(
    name: &'static str,
    scope: Scope,
    kind: Kind,
    read_only: bool,
    default: &'static str,
) -> VarDef {
    VarDef {
        name,
        scope,
        kind,
        read_only,
        default,
    }
}

use Kind::*;
use Scope::*;

/// Every variable tutti knows, sorted by name.
pub static VARS: &[VarDef] = &[
    v("auto_increment_increment", Both, Int, true, "1"),
    v("auto_increment_offset", Both, Int, true, "1"),
    v("autocommit", Both, Bool, false, "1"),
    v("binlog_format", Both, Text, false, "ROW"),
    v("character_set_client", Both, Text, false, "utf8mb4"),
    v("character_set_connection", Both, Text, false, "utf8mb4"),
    v("character_set_database", Both, Text, false, "utf8mb4"),
    v("character_set_results", Both, Text, false, "utf8mb4"),
    v("character_set_server", Both, Text, false, "utf8mb4"),
    v("character_set_system", Global, Text, true, "utf8mb3"),
    v(
        "collation_connection",
        Both,
        Text,
        false,
        "utf8mb4_general_ci",
    ),
    v(
        "collation_database",
        Both,
        Text,
        false,
        "utf8mb4_general_ci",
    ),
    v("collation_server", Both, Text, false, "utf8mb4_general_ci"),
    v("connect_timeout", Global, Int, false, "10"),
    v("datadir", Global, Text, true, ""),
    v("default_storage_engine", Both, Text, false, "InnoDB"),
    v("default_week_format", Both, Int, false, "0"),
    v("div_precision_increment", Both, Int, false, "4"),
    v("error_count", Session, Int, true, "0"),
    v("foreign_key_checks", Both, Bool, false, "1"),
    v("group_concat_max_len", Both, Int, false, "1048576"),
    v("have_ssl", Global, Text, true, "DISABLED"),
    v("hostname", Global, Text, true, ""),
    v("identity", Session, Int, false, "0"),
    v("init_connect", Global, Text, false, ""),
    v("innodb_force_primary_key", Global, Bool, false, "0"),
    v("innodb_lock_wait_timeout", Both, Int, false, "50"),
    v("innodb_snapshot_isolation", Both, Bool, false, "1"),
    v("interactive_timeout", Both, Int, false, "28800"),
    v("last_insert_id", Session, Int, false, "0"),
    v("lc_time_names", Both, Text, true, "en_US"),
    v("license", Global, Text, true, "Apache-2.0"),
    v("lock_wait_timeout", Both, Int, false, "86400"),
    v("log_bin", Global, Bool, true, "0"),
    v("long_query_time", Both, Text, false, "10.000000"),
    v("lower_case_table_names", Global, Int, true, "0"),
    v("max_allowed_packet", Global, Int, false, "67108864"),
    v("max_connections", Global, Int, false, "1000"),
    v("max_execution_time", Both, Int, false, "0"),
    // Settable; tutti compares whole values, an order MariaDB's prefix order allows.
    v("max_sort_length", Both, Int, false, "1024"),
    v("net_buffer_length", Both, Int, false, "16384"),
    v("net_read_timeout", Both, Int, false, "30"),
    v("net_write_timeout", Both, Int, false, "60"),
    v("note_verbosity", Both, Text, false, "basic,explain"),
    v("performance_schema", Global, Bool, true, "0"),
    v("port", Global, Int, true, "3306"),
    v("protocol_version", Global, Int, true, "10"),
    v("query_cache_size", Global, Int, false, "0"),
    v("query_cache_type", Both, Text, false, "OFF"),
    v("read_only", Global, Bool, false, "0"),
    v("server_id", Global, Int, false, "1"),
    v("session_track_schema", Both, Bool, false, "1"),
    v(
        "session_track_system_variables",
        Both,
        Text,
        false,
        "autocommit",
    ),
    v("session_track_transaction_info", Both, Text, false, "OFF"),
    v("skip_name_resolve", Global, Bool, true, "1"),
    v("socket", Global, Text, true, ""),
    v("sql_auto_is_null", Both, Bool, false, "0"),
    v("sql_buffer_result", Both, Bool, false, "0"),
    v(
        "sql_mode",
        Both,
        Text,
        false,
        "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION",
    ),
    v("sql_quote_show_create", Both, Bool, false, "1"),
    v("sql_safe_updates", Both, Bool, false, "0"),
    v("sql_select_limit", Both, Int, false, "18446744073709551615"),
    // Only asks the mysql client to show warnings.
    v("sql_warnings", Both, Bool, false, "0"),
    v("storage_engine", Both, Text, false, "InnoDB"),
    v("system_time_zone", Global, Text, true, "UTC"),
    v("time_zone", Both, Text, false, "SYSTEM"),
    v("timestamp", Session, Real, false, "0"),
    v(
        "transaction_isolation",
        Both,
        Text,
        false,
        "REPEATABLE-READ",
    ),
    v("transaction_read_only", Both, Bool, false, "0"),
    v("tx_isolation", Both, Text, false, "REPEATABLE-READ"),
    v("tx_read_only", Both, Bool, false, "0"),
    v("unique_checks", Both, Bool, false, "1"),
    v("version", Global, Text, true, ""),
    v(
        "version_comment",
        Global,
        Text,
        true,
        "tutti: synchronous multi-master SQLite cluster",
    ),
    v("version_compile_machine", Global, Text, true, "x86_64"),
    v("version_compile_os", Global, Text, true, "Linux"),
    v("wait_timeout", Both, Int, false, "28800"),
    v("warning_count", Session, Int, true, "0"),
    v("wsrep_auto_increment_control", Global, Bool, true, "1"),
    v("wsrep_cluster_address", Global, Text, true, ""),
    v("wsrep_cluster_name", Global, Text, true, "tutti"),
    v("wsrep_desync", Global, Bool, false, "0"),
    v("wsrep_dirty_reads", Both, Bool, false, "0"),
    v("wsrep_node_address", Global, Text, true, ""),
    v("wsrep_node_incoming_address", Global, Text, true, ""),
    v("wsrep_node_name", Global, Text, true, ""),
    v("wsrep_on", Both, Bool, true, "1"),
    v("wsrep_provider", Global, Text, true, "tutti"),
    v("wsrep_provider_options", Global, Text, false, ""),
    v("wsrep_sst_donor", Global, Text, false, ""),
    v("wsrep_sync_wait", Both, Int, false, "0"),
];

/// Looks a variable up by (lower-case) name; `tx_*` are aliases of `transaction_*`.
pub fn def(name: &str) -> Option<&'static VarDef> {
    VARS.binary_search_by(|d| d.name.cmp(name))
        .ok()
        .map(|i| &VARS[i])
}

/// The canonical name of a variable that has an alias.
pub fn canonical(name: &str) -> &str {
    match name {
        "tx_isolation" => "transaction_isolation",
        "tx_read_only" => "transaction_read_only",
        "storage_engine" => "default_storage_engine",
        "identity" => "last_insert_id",
        other => other,
    }
}

/// Parses a value for a variable, checking its kind.
pub fn parse(d: &VarDef, value: &Value) -> Result<Value, ExecError> {
    let bad = || ExecError::WrongValueForVar(d.name.into(), value.to_string());
    match d.kind {
        Bool => match value {
            Value::Int(0) => Ok(Value::Int(0)),
            Value::Int(1) => Ok(Value::Int(1)),
            Value::Text(t) => match t.to_ascii_uppercase().as_str() {
                "ON" | "TRUE" | "1" => Ok(Value::Int(1)),
                "OFF" | "FALSE" | "0" => Ok(Value::Int(0)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        },
        Int => match value {
            Value::Int(i) if *i >= 0 => Ok(Value::Int(*i)),
            Value::Real(r) if *r >= 0.0 => Ok(Value::Int(*r as i64)),
            Value::Text(t) => t
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|i| *i >= 0)
                .map(Value::Int)
                .ok_or_else(bad),
            _ => Err(bad()),
        },
        Real => match value {
            Value::Int(i) if *i >= 0 => Ok(Value::Real(*i as f64)),
            Value::Real(r) if *r >= 0.0 => Ok(Value::Real(*r)),
            Value::Text(t) => t
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|r| *r >= 0.0)
                .map(Value::Real)
                .ok_or_else(bad),
            _ => Err(bad()),
        },
        Text => match value {
            Value::Null => Ok(Value::Text(String::new())),
            v => Ok(Value::Text(v.to_string())),
        },
    }
}

/// How SHOW VARIABLES prints a value.
pub fn display(d: &VarDef, value: &Value) -> String {
    match (d.kind, value) {
        (Bool, Value::Int(0)) => "OFF".into(),
        (Bool, Value::Int(_)) => "ON".into(),
        (_, v) => v.to_string(),
    }
}

/// The default of a variable as a value.
pub fn default_value(d: &VarDef) -> Value {
    match d.kind {
        Bool | Int => d
            .default
            .parse::<i64>()
            .map(Value::Int)
            .unwrap_or_else(|_| Value::Text(d.default.into())),
        Real => d
            .default
            .parse::<f64>()
            .map(Value::Real)
            .unwrap_or_else(|_| Value::Text(d.default.into())),
        Text => Value::Text(d.default.into()),
    }
}

/// Server-wide values.
#[derive(Default)]
pub struct Globals {
    values: RwLock<HashMap<&'static str, Value>>,
    /// How many times a value was set: what is derived from them is recomputed when it moves.
    changes: std::sync::atomic::AtomicU64,
}

impl Globals {
    /// Globals with defaults overridden by `initial` (name → value).
    pub fn new(initial: &[(&str, Value)]) -> Globals {
        let g = Globals::default();
        {
            let mut m = g.values.write();
            for d in VARS {
                m.insert(d.name, default_value(d));
            }
            for (name, value) in initial {
                if let Some(d) = def(name) {
                    m.insert(d.name, value.clone());
                }
            }
        }
        g
    }

    /// The global value.
    pub fn get(&self, name: &str) -> Option<Value> {
        self.values.read().get(name).cloned()
    }

    /// Sets the global value (validated by the caller).
    pub fn set(&self, d: &'static VarDef, value: Value) {
        self.values.write().insert(d.name, value);
        self.changes
            .fetch_add(1, std::sync::atomic::Ordering::Release);
    }

    /// How many times a global value was set.
    pub fn changes(&self) -> u64 {
        self.changes.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// A session's own values (what `SET [SESSION]` gave it), with a count of their changes
/// so that what is derived from them can be cached.
#[derive(Default)]
pub struct SessionVars {
    values: HashMap<&'static str, Value>,
    changes: u64,
}

impl SessionVars {
    /// The session's value, if it set one.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }

    pub fn insert(&mut self, name: &'static str, value: Value) {
        self.changes += 1;
        self.values.insert(name, value);
    }

    pub fn remove(&mut self, name: &str) {
        self.changes += 1;
        self.values.remove(name);
    }

    pub fn clear(&mut self) {
        self.changes += 1;
        self.values.clear();
    }

    /// How many times the session's values changed.
    pub fn changes(&self) -> u64 {
        self.changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_values_validate() {
        assert!(
            VARS.windows(2).all(|w| w[0].name < w[1].name),
            "VARS must stay sorted"
        );
        let ac = def("autocommit").unwrap();
        assert_eq!(
            parse(ac, &Value::Text("off".into())).unwrap(),
            Value::Int(0)
        );
        assert!(parse(ac, &Value::Text("maybe".into())).is_err());
        assert_eq!(display(ac, &Value::Int(1)), "ON");
        let n = def("wait_timeout").unwrap();
        assert_eq!(parse(n, &Value::Text("10".into())).unwrap(), Value::Int(10));
        assert!(parse(n, &Value::Int(-1)).is_err());
        assert_eq!(canonical("tx_isolation"), "transaction_isolation");
    }
}
