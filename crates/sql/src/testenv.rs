//! A scriptable [`Env`] for the unit tests.

use std::collections::HashMap;

use crate::{ColumnInfo, Env, IndexInfo, TableInfo, TableName, Value, VarScope};

/// Session and catalog answers for tests.
#[derive(Default)]
pub(crate) struct TestEnv {
    db: Option<String>,
    databases: Vec<String>,
    tables: Vec<TableInfo>,
    user_vars: HashMap<String, Value>,
    globals: HashMap<String, Value>,
    session: HashMap<String, Value>,
}

impl TestEnv {
    /// No current database, databases `app` and `other`, no tables.
    pub fn new() -> Self {
        TestEnv {
            databases: vec!["app".into(), "other".into()],
            ..Default::default()
        }
    }

    /// Sets the current database.
    pub fn with_db(mut self, db: &str) -> Self {
        self.db = Some(db.into());
        self
    }

    /// Sets a user variable.
    pub fn with_user_var(mut self, name: &str, v: Value) -> Self {
        self.user_vars.insert(name.into(), v);
        self
    }

    /// Sets a global system variable.
    pub fn with_global(mut self, name: &str, v: Value) -> Self {
        self.globals.insert(name.into(), v);
        self
    }

    /// Sets a session system variable.
    pub fn with_var(mut self, name: &str, v: Value) -> Self {
        self.session.insert(name.into(), v);
        self
    }

    /// Adds a table: columns as (name, declared type), the primary key columns, the
    /// AUTO_INCREMENT column, and secondary indexes as (MySQL name, columns).
    pub fn with_table(
        mut self,
        db: &str,
        name: &str,
        columns: &[(&str, &str)],
        pk: &[&str],
        autoinc: Option<&str>,
        indexes: &[(&str, &[&str])],
    ) -> Self {
        let tn = TableName::new(db, name);
        let columns: Vec<ColumnInfo> = columns
            .iter()
            .map(|(c, ty)| ColumnInfo {
                name: c.to_string(),
                decl_type: ty.to_string(),
                not_null: pk.contains(c),
                pk: pk
                    .iter()
                    .position(|p| p == c)
                    .map(|p| p as u32 + 1)
                    .unwrap_or(0),
                default: if *c == "d" {
                    Some("'dflt'".into())
                } else {
                    None
                },
                computed: None,
            })
            .collect();
        let indexes: Vec<IndexInfo> = indexes
            .iter()
            .map(|(i, cols)| IndexInfo {
                name: i.to_string(),
                sqlite_name: format!("{db}.{name}.{i}"),
                unique: false,
                columns: cols.iter().map(|c| c.to_string()).collect(),
            })
            .collect();
        // As the catalog loader: the primary key first, named PRIMARY.
        let indexes: Vec<IndexInfo> = (!pk.is_empty())
            .then(|| IndexInfo {
                name: "PRIMARY".into(),
                sqlite_name: String::new(),
                unique: true,
                columns: pk.iter().map(|c| c.to_string()).collect(),
            })
            .into_iter()
            .chain(indexes)
            .collect();
        let create_sql = create_sql(&tn, &columns, pk, autoinc);
        self.tables.push(TableInfo {
            name: tn,
            columns,
            autoinc: autoinc.map(str::to_string),
            indexes,
            create_sql,
            referenced: false,
        });
        self
    }

    /// Replaces a table's SQLite definition with the one a database holds (what the
    /// catalog reads in a running node).
    pub fn with_create_sql(mut self, db: &str, name: &str, sql: String) -> Self {
        let tn = TableName::new(db, name);
        if let Some(t) = self.tables.iter_mut().find(|t| t.name == tn) {
            t.create_sql = sql;
        }
        self
    }

    /// Sets a column's DEFAULT (SQLite text).
    pub fn with_default(mut self, db: &str, table: &str, column: &str, text: &str) -> Self {
        let tn = TableName::new(db, table);
        let t = self.tables.iter_mut().find(|t| t.name == tn);
        if let Some(c) = t.and_then(|t| t.columns.iter_mut().find(|c| c.name == column)) {
            c.default = Some(text.into());
        }
        self
    }

    /// The sysbench table `app.sbtest1`.
    pub fn with_sbtest(self) -> Self {
        self.with_table(
            "app",
            "sbtest1",
            &[
                ("id", "INTEGER"),
                ("k", "INTEGER"),
                ("c", "CHAR(120)"),
                ("pad", "CHAR(60)"),
            ],
            &["id"],
            Some("id"),
            &[("k_1", &["k"])],
        )
    }
}

impl Env for TestEnv {
    fn current_db(&self) -> Option<&str> {
        self.db.as_deref()
    }

    fn system_variable(&self, scope: VarScope, name: &str) -> Option<Value> {
        if let Some(v) = self.globals.get(name).filter(|_| scope == VarScope::Global) {
            return Some(v.clone());
        }
        if let Some(v) = self
            .session
            .get(name)
            .filter(|_| scope == VarScope::Session)
        {
            return Some(v.clone());
        }
        Some(match (scope, name) {
            (_, "version_comment") => Value::Text("tutti".into()),
            (_, "max_allowed_packet") => Value::Int(67108864),
            (_, "group_concat_max_len") => Value::Int(1048576),
            (_, "auto_increment_increment") => Value::Int(3),
            (_, "character_set_client") => Value::Text("utf8mb4".into()),
            (VarScope::Session, "tx_isolation") => Value::Text("REPEATABLE-READ".into()),
            (VarScope::Global, "tx_isolation") => Value::Text("READ-COMMITTED".into()),
            (_, "sql_mode") => Value::Text("STRICT_TRANS_TABLES".into()),
            (_, "wsrep_on") => Value::Int(1),
            (_, "long_query_time") => Value::Real(10.0),
            _ => return None,
        })
    }

    fn user_variable(&self, name: &str) -> crate::UserValue {
        let v = self.user_vars.get(name).cloned();
        crate::UserValue::Plain(v.unwrap_or(Value::Null))
    }

    fn temporal_default(&self, value: &Value, kind: &str, fsp: u32) -> Option<Option<String>> {
        Some(tutti_storage::temporal_default(value, kind, fsp))
    }

    fn session_function(&self, name: &str) -> Option<Value> {
        Some(match name {
            "database" | "schema" => self.db.clone().map(Value::Text).unwrap_or(Value::Null),
            "last_insert_id" => Value::Int(42),
            "connection_id" => Value::Int(7),
            "user" | "current_user" | "session_user" | "system_user" => {
                Value::Text("root@localhost".into())
            }
            "version" => Value::Text("8.0.36-tutti".into()),
            "row_count" => Value::Int(1),
            "found_rows" => Value::Int(5),
            _ => return None,
        })
    }

    fn table(&self, name: &TableName) -> Option<TableInfo> {
        self.tables.iter().find(|t| &t.name == name).cloned()
    }

    fn database_exists(&self, name: &str) -> bool {
        self.databases.iter().any(|d| d == name)
    }
}

/// The SQLite definition tutti would have written for a test table.
fn create_sql(
    table: &TableName,
    columns: &[ColumnInfo],
    pk: &[&str],
    autoinc: Option<&str>,
) -> String {
    let quote = crate::names::quote_str;
    let mut items: Vec<String> = columns
        .iter()
        .map(|c| {
            if autoinc == Some(c.name.as_str()) {
                let declared = match c.decl_type.as_str() {
                    "INTEGER" => "INT",
                    other => other,
                };
                return format!(
                    "{} INTEGER /*{}{declared}*/ NOT NULL PRIMARY KEY AUTOINCREMENT",
                    quote(&c.name),
                    crate::columns::AUTOINC_TYPE_MARK,
                );
            }
            let mut s = format!("{} {}", quote(&c.name), c.decl_type);
            if c.not_null {
                s.push_str(" NOT NULL");
            }
            if let Some(d) = &c.default {
                s.push_str(&format!(" DEFAULT {d}"));
            }
            s
        })
        .collect();
    if autoinc.is_none() && !pk.is_empty() {
        let cols: Vec<String> = pk.iter().map(|c| quote(c)).collect();
        items.push(format!("PRIMARY KEY ({})", cols.join(", ")));
    }
    format!(
        "CREATE TABLE {} ({})",
        quote(&table.sqlite_name()),
        items.join(", ")
    )
}
