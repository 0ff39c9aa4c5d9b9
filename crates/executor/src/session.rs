//! One client session: its database, variables, transaction and prepared statements, and
//! the dispatch of translated statements.

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tutti_sql::{Env, Query, QueryKind, Stmt, TableInfo, TableName, VarScope};
use tutti_wsrep::Value;

use crate::diagnostics::{self, Diagnostics};
use crate::error::BINARY_EXECUTE;
use crate::result::{Column, Response};
use crate::temporary::TempTables;
use crate::txn::Txn;
use crate::{sqlite, vars, ExecError, Executor, SessionInfo};

/// How long a causal read (`wsrep_sync_wait`) may wait.
pub(crate) const CAUSAL_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// A prepared statement's metadata, as COM_STMT_PREPARE reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct PreparedInfo {
    /// Statement id.
    pub id: u32,
    /// Number of parameters.
    pub params: usize,
    /// Result columns (empty for statements without rows).
    pub columns: Vec<Column>,
}

struct Prepared {
    sql: String,
    params: usize,
    /// The translation and the shape of its results, valid while its key is.
    cached: Option<(CacheKey, Stmt, ShapeSlot)>,
}

/// A prepared SELECT's result shape: set by its first execution, read by the next ones
/// (describing result columns anew each time costs a point select several percent).
pub(crate) type ShapeSlot = Arc<std::sync::OnceLock<Arc<crate::sqlite::Shape>>>;

/// What a prepared statement's translation depends on: the schema epoch, the current
/// database and the session's `sql_mode` (strict or not: values that do not fit are errors
/// or adjusted) and `time_zone`, when the session set them.
struct CacheKey {
    epoch: u64,
    /// The epoch of the session's temporary tables.
    temporary: u64,
    db: Option<String>,
    sql_mode: Option<Value>,
    /// GROUP_CONCAT's limit, written into translations that cut its result.
    group_concat_max_len: Option<Value>,
    /// The session's zone: TIMESTAMP columns are read through it when it is not UTC.
    time_zone: Option<Value>,
}

/// A client session.
pub struct Session {
    pub(crate) exec: Arc<Executor>,
    pub(crate) info: Arc<SessionInfo>,
    pub(crate) db: Option<String>,
    pub(crate) vars: vars::SessionVars,
    pub(crate) user_vars: HashMap<String, tutti_sql::UserValue>,
    pub(crate) txn: Option<Txn>,
    pub(crate) last_insert_id: u64,
    pub(crate) row_count: i64,
    pub(crate) found_rows: u64,
    /// The client asked for CLIENT_FOUND_ROWS: an UPDATE counts the rows it matched.
    pub(crate) client_found_rows: bool,
    prepared: HashMap<u32, Prepared>,
    /// `PREPARE name`: the statement id of each name.
    pub(crate) named: HashMap<String, u32>,
    next_stmt: u32,
    /// The latest statement's warnings, notes and error.
    pub(crate) diag: Diagnostics,
    /// The session's temporary tables (from its first one).
    pub(crate) temp: Option<TempTables>,
    /// The function settings as of (global changes, session changes): every statement
    /// needs them, and they change only with a SET.
    settings: std::cell::Cell<Option<(u64, u64, tutti_storage::FunctionSettings)>>,
    /// The running prepared statement's result shape (taken by its read).
    pub(crate) shape_slot: Option<ShapeSlot>,
}

impl Session {
    pub(crate) fn new(exec: Arc<Executor>, info: Arc<SessionInfo>) -> Session {
        Session {
            exec,
            info,
            db: None,
            vars: vars::SessionVars::default(),
            user_vars: HashMap::new(),
            txn: None,
            last_insert_id: 0,
            row_count: 0,
            found_rows: 0,
            client_found_rows: false,
            prepared: HashMap::new(),
            named: HashMap::new(),
            next_stmt: 1,
            diag: Diagnostics::default(),
            temp: None,
            settings: std::cell::Cell::new(None),
            shape_slot: None,
        }
    }

    /// The connection id.
    pub fn id(&self) -> u32 {
        self.info.id
    }

    /// Whether the client set CLIENT_FOUND_ROWS in its handshake: the affected-row count of
    /// an UPDATE (or an upsert's update) is then the rows matched, not the rows changed.
    pub fn set_client_found_rows(&mut self, on: bool) {
        self.client_found_rows = on;
    }

    /// The current database.
    pub fn database(&self) -> Option<&str> {
        self.db.as_deref()
    }

    /// True inside a transaction (for the server status flags).
    pub fn in_transaction(&self) -> bool {
        self.txn.is_some()
    }

    /// `@@autocommit`.
    pub fn autocommit(&self) -> bool {
        self.var_int("autocommit") != 0
    }

    /// The connection was killed: the front-end must close it.
    pub fn is_killed(&self) -> bool {
        self.info.killed.load(Relaxed)
    }

    /// A variable as this session sees it.
    pub(crate) fn var(&self, name: &str) -> Option<Value> {
        let name = vars::canonical(name);
        match name {
            "auto_increment_offset" => {
                return Some(Value::Int(self.exec.provider.auto_increment().0 as i64))
            }
            "auto_increment_increment" => {
                return Some(Value::Int(self.exec.provider.auto_increment().1 as i64))
            }
            "last_insert_id" => return Some(Value::Int(self.last_insert_id as i64)),
            "warning_count" => return Some(Value::Int(self.diag.warning_count() as i64)),
            "error_count" => return Some(Value::Int(self.diag.error_count() as i64)),
            "timestamp" if self.fixed_clock().is_some() => {
                return self.fixed_clock().map(|us| match us % 1_000_000 {
                    0 => Value::Int(us / 1_000_000),
                    _ => Value::Real(us as f64 / 1e6),
                });
            }
            "timestamp" => {
                let t = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                return Some(Value::Real(t.as_micros() as f64 / 1e6));
            }
            "version" => return Some(Value::Text(self.exec.version().into())),
            "wsrep_provider_options" => return Some(Value::Text(self.exec.provider.options())),
            _ => {}
        }
        self.vars
            .get(name)
            .cloned()
            .or_else(|| self.exec.globals.get(name))
    }

    /// The session settings SQL functions read (see `tutti_storage::FunctionSettings`),
    /// computed again only after a SET.
    fn function_settings(&self) -> tutti_storage::FunctionSettings {
        let changes = (self.exec.globals.changes(), self.vars.changes());
        if let Some((global, session, settings)) = self.settings.get() {
            if (global, session) == changes {
                return settings;
            }
        }
        let settings = self.compute_function_settings();
        self.settings.set(Some((changes.0, changes.1, settings)));
        settings
    }

    fn compute_function_settings(&self) -> tutti_storage::FunctionSettings {
        let small = |name| u32::try_from(self.var_int(name)).unwrap_or(u32::MAX);
        let time_zone = match self.var("time_zone") {
            Some(Value::Text(t)) => tutti_storage::TimeZone::parse(&t),
            _ => None,
        };
        tutti_storage::FunctionSettings {
            div_precision_increment: small("div_precision_increment"),
            default_week_format: small("default_week_format"),
            time_zone: time_zone.unwrap_or(tutti_storage::TimeZone::System),
            fixed_clock: self.fixed_clock(),
        }
    }

    /// `SET timestamp = n`: the session's clock stands at `n` seconds, in microseconds (0
    /// or DEFAULT: it runs).
    fn fixed_clock(&self) -> Option<i64> {
        match self.vars.get("timestamp") {
            Some(Value::Int(n)) if *n > 0 => Some(n * 1_000_000),
            Some(Value::Real(r)) if *r > 0.0 => Some((r * 1e6).round() as i64),
            _ => None,
        }
    }

    pub(crate) fn var_int(&self, name: &str) -> i64 {
        match self.var(name) {
            Some(Value::Int(i)) => i,
            Some(Value::Text(t)) => t.parse().unwrap_or(0),
            _ => 0,
        }
    }

    /// `COM_INIT_DB` / `USE db`.
    pub fn use_database(&mut self, db: &str) -> Result<Response, ExecError> {
        if !self.database_exists(db) {
            return Err(ExecError::UnknownDatabase(db.into()));
        }
        self.db = Some(db.to_string());
        *self.info.db.lock() = self.db.clone();
        self.set_database_vars(db);
        Ok(Response::ok())
    }

    /// `character_set_database` and `collation_database`: database `db`'s defaults, as
    /// MariaDB sets them on USE.
    fn set_database_vars(&mut self, db: &str) {
        let collation = self.database_default_collation(db);
        let charset = tutti_sql::charset_of(&collation).to_string();
        self.vars
            .insert("character_set_database", Value::Text(charset));
        self.vars
            .insert("collation_database", Value::Text(collation));
    }

    /// Database `db`'s default collation (the server's, `utf8mb4_general_ci`, unless it
    /// was given one).
    pub(crate) fn database_default_collation(&self, db: &str) -> String {
        tutti_sql::Env::database_collation(self, db).unwrap_or_else(|| "utf8mb4_general_ci".into())
    }

    /// Runs a text query (one or more statements); stops at the first error, whose result
    /// is last.
    pub fn query(&mut self, sql: &str) -> Vec<Result<Response, ExecError>> {
        self.exec.stats.questions.fetch_add(1, Relaxed);
        let mut req = match tutti_sql::Request::new(sql, self) {
            Ok(r) => r,
            Err(e) => return vec![Err(e.into())],
        };
        let mut out = Vec::with_capacity(req.len());
        self.begin_statement(sql);
        self.diag.start_request();
        let mut rows_before_last = false;
        loop {
            self.diag.next_statement();
            let Some(stmt) = req.next(self) else { break };
            let last = req.is_empty();
            let mut r = self.run_translated(stmt, last, &mut rows_before_last);
            if r.as_ref().is_err_and(ExecError::depends_on_schema) && self.catch_up() {
                if let Some(stmt) = req.again(self) {
                    self.diag.retry();
                    r = self.run_translated(stmt, last, &mut rows_before_last);
                }
            }
            let failed = r.is_err();
            out.push(r);
            if failed || rows_before_last {
                break;
            }
        }
        self.end_statement();
        out
    }

    fn run_translated(
        &mut self,
        stmt: Result<Stmt, tutti_sql::SqlError>,
        last: bool,
        rows_before_last: &mut bool,
    ) -> Result<Response, ExecError> {
        let stmt = stmt?;
        let returns_rows = matches!(
            &stmt,
            Stmt::Show(_)
                | Stmt::Query(Query {
                    kind: QueryKind::Select,
                    ..
                })
        );
        // The protocol layer can send one result set per request, last.
        let refuse = |rows_before_last: &mut bool| {
            *rows_before_last = true;
            let what = "several statements returning rows in one query (send them one by one)";
            Err(ExecError::Sql(tutti_sql::SqlError::Unsupported(
                what.into(),
            )))
        };
        if returns_rows && !last {
            return refuse(rows_before_last);
        }
        match self.run(stmt, &[]) {
            Ok(Response::Rows(_)) if !last => refuse(rows_before_last),
            r => r,
        }
    }

    /// Waits until this node has applied everything the cluster committed so far; false
    /// if that cannot be known. A statement that failed on a schema object runs once more
    /// after it: DDL and DML naming what another node just created (or dropped) then see
    /// it, as they would at their place in the total order.
    fn catch_up(&self) -> bool {
        self.exec.provider.sync_wait(CAUSAL_READ_TIMEOUT).is_ok()
    }

    /// `COM_STMT_PREPARE`.
    pub fn prepare(&mut self, sql: &str) -> Result<PreparedInfo, ExecError> {
        match self.prepare_once(sql) {
            Err(e) if e.depends_on_schema() && self.catch_up() => self.prepare_once(sql),
            r => r,
        }
        .map_err(|e| self.worded(e))
    }

    /// An error as MariaDB words it in this session: a function that does not exist is
    /// named in the current database (`FUNCTION test.f does not exist`).
    fn worded(&self, e: ExecError) -> ExecError {
        match (e, &self.db) {
            (ExecError::NoSuchFunction(f), Some(db)) if !f.contains('.') => {
                ExecError::NoSuchFunction(format!("{db}.{f}"))
            }
            (e, _) => e,
        }
    }

    fn prepare_once(&mut self, sql: &str) -> Result<PreparedInfo, ExecError> {
        let mut stmts = tutti_sql::translate(sql, self)?;
        if stmts.len() != 1 {
            return Err(ExecError::NotPreparable);
        }
        let stmt = stmts.pop().expect("one statement");
        let (params, columns) = match &stmt {
            Stmt::Query(q) => {
                let (_, mut cols) = match &self.temp {
                    Some(temp) if self.touches_temporary(q) => {
                        sqlite::describe(temp.conn(), &q.sql)?
                    }
                    _ => {
                        let reader = self
                            .exec
                            .storage
                            .reader()
                            .map_err(|e| ExecError::Sqlite(e.to_string()))?;
                        sqlite::describe(&reader, &q.sql)?
                    }
                };
                self.describe_table_columns(&mut cols)?;
                (
                    q.params,
                    if q.kind == QueryKind::Select {
                        cols
                    } else {
                        Vec::new()
                    },
                )
            }
            Stmt::SelectInto { query, .. } => (query.params, Vec::new()),
            _ => (0, Vec::new()),
        };
        let id = self.next_stmt;
        self.next_stmt = self.next_stmt.wrapping_add(1).max(1);
        let volatile = matches!(&stmt, Stmt::Query(q) if q.volatile);
        let cached = (!volatile).then(|| (self.cache_key(), stmt, ShapeSlot::default()));
        self.prepared.insert(
            id,
            Prepared {
                sql: sql.to_string(),
                params,
                cached,
            },
        );
        Ok(PreparedInfo {
            id,
            params,
            columns,
        })
    }

    fn cache_key(&self) -> CacheKey {
        CacheKey {
            epoch: self.exec.storage.schema_epoch(),
            temporary: self.temporary_epoch(),
            db: self.db.clone(),
            sql_mode: self.vars.get("sql_mode").cloned(),
            group_concat_max_len: self.vars.get("group_concat_max_len").cloned(),
            time_zone: self.vars.get("time_zone").cloned(),
        }
    }

    /// Whether a cached translation still holds (checked without allocating: every
    /// execution of a prepared statement asks).
    fn still_valid(&self, k: &CacheKey) -> bool {
        k.epoch == self.exec.storage.schema_epoch()
            && k.temporary == self.temporary_epoch()
            && k.db == self.db
            && k.sql_mode.as_ref() == self.vars.get("sql_mode")
            && k.group_concat_max_len.as_ref() == self.vars.get("group_concat_max_len")
            && k.time_zone.as_ref() == self.vars.get("time_zone")
    }

    /// `COM_STMT_EXECUTE`.
    pub fn execute(&mut self, id: u32, params: &[Value]) -> Result<Response, ExecError> {
        self.exec.stats.questions.fetch_add(1, Relaxed);
        match self.execute_once(id, params) {
            Err(e) if e.depends_on_schema() && self.catch_up() => self.execute_once(id, params),
            r => r,
        }
    }

    fn execute_once(&mut self, id: u32, params: &[Value]) -> Result<Response, ExecError> {
        let sql_text = self
            .prepared
            .get(&id)
            .map(|p| p.sql.clone())
            .unwrap_or_default();
        self.begin_statement(&sql_text);
        self.diag.start_request();
        self.diag.next_statement();
        let r = self.run_prepared(id, params, BINARY_EXECUTE);
        self.end_statement();
        r
    }

    /// Runs prepared statement `id` (`command` names the client's command in errors).
    pub(crate) fn run_prepared(
        &mut self,
        id: u32,
        params: &[Value],
        command: &'static str,
    ) -> Result<Response, ExecError> {
        let p = self
            .prepared
            .get(&id)
            .ok_or_else(|| ExecError::UnknownStatement {
                handler: id.to_string(),
                command,
            })?;
        if params.len() != p.params {
            return Err(ExecError::WrongParamCount {
                expected: p.params,
                got: params.len(),
                command,
            });
        }
        let (stmt, slot) = match &p.cached {
            Some((k, stmt, slot)) if self.still_valid(k) => (stmt.clone(), slot.clone()),
            _ => {
                let sql = p.sql.clone();
                let mut stmts = tutti_sql::translate(&sql, self)?;
                if stmts.len() != 1 {
                    return Err(ExecError::NotPreparable);
                }
                let stmt = stmts.pop().expect("one statement");
                let volatile = matches!(&stmt, Stmt::Query(q) if q.volatile);
                let key = self.cache_key();
                let slot = ShapeSlot::default();
                if let Some(p) = self.prepared.get_mut(&id) {
                    p.cached = (!volatile).then(|| (key, stmt.clone(), slot.clone()));
                }
                (stmt, slot)
            }
        };
        // Only a SELECT's one read takes it.
        self.shape_slot =
            matches!(&stmt, Stmt::Query(q) if q.kind == QueryKind::Select).then_some(slot);
        let r = self.run(stmt, params);
        self.shape_slot = None;
        r
    }

    /// `COM_STMT_CLOSE`.
    pub fn close(&mut self, id: u32) {
        self.prepared.remove(&id);
    }

    /// The character set a client's handshake asked for (`SET NAMES charset`, which it is
    /// in MariaDB); tutti knows each name the protocol layer passes.
    pub fn set_names(&mut self, charset: &str) {
        let names = Some(Value::Text(charset.into()));
        if let Err(e) = crate::set::set_system(self, false, "names", names) {
            tracing::warn!("connection {}: character set {charset}: {e}", self.id());
        }
    }

    /// `character_set_client` and `character_set_results` (None: NULL, results as stored).
    pub fn connection_charsets(&self) -> (String, Option<String>) {
        let text = |name| match self.var(name) {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        };
        let client = text("character_set_client").unwrap_or_else(|| "utf8mb4".into());
        (client, text("character_set_results"))
    }

    /// `COM_RESET_CONNECTION`: roll back, forget variables and prepared statements.
    pub fn reset(&mut self) {
        self.rollback();
        self.temp = None;
        tutti_storage::release_all_locks(u64::from(self.info.id));
        self.vars.clear();
        self.user_vars.clear();
        self.prepared.clear();
        self.named.clear();
        self.last_insert_id = 0;
    }

    fn begin_statement(&self, sql: &str) {
        self.exec.stats.running.fetch_add(1, Relaxed);
        let text: String = sql.chars().take(1024).collect();
        *self.info.running.lock() = Some((text, Instant::now()));
    }

    fn end_statement(&self) {
        self.exec.stats.running.fetch_sub(1, Relaxed);
        *self.info.running.lock() = None;
        *self.info.interrupt.lock() = None;
    }

    /// The protocol layer's report of the error the latest statement failed with.
    pub fn record_error(&mut self, code: u16, message: &str) {
        self.diag.error(code, message);
    }

    /// Conditions raised by each statement of the latest request, for their OK packets.
    pub fn warning_counts(&self) -> &[u16] {
        self.diag.per_statement()
    }

    pub(crate) fn run(&mut self, stmt: Stmt, params: &[Value]) -> Result<Response, ExecError> {
        let keeps = diagnostics::keeps(&stmt);
        self.diag.enter();
        let r = self.run_stmt(stmt, params).map_err(|e| self.worded(e));
        self.diag.leave(keeps);
        r
    }

    pub(crate) fn run_stmt(&mut self, stmt: Stmt, params: &[Value]) -> Result<Response, ExecError> {
        tutti_storage::set_function_settings(self.function_settings());
        tutti_storage::set_current_connection(u64::from(self.info.id));
        if self.is_killed() {
            return Err(ExecError::Interrupted);
        }
        let s = &self.exec.stats;
        match stmt {
            Stmt::Query(q) => {
                match q.kind {
                    QueryKind::Select => s.com_select.fetch_add(1, Relaxed),
                    QueryKind::Insert | QueryKind::Upsert | QueryKind::Replace => {
                        s.com_insert.fetch_add(1, Relaxed)
                    }
                    QueryKind::Update => s.com_update.fetch_add(1, Relaxed),
                    QueryKind::Delete => s.com_delete.fetch_add(1, Relaxed),
                };
                let r = if q.kind.is_write() {
                    self.write(&q, params)
                } else {
                    self.read(&q, params)
                };
                let mut r = r;
                self.take_assignments(&mut r);
                r
            }
            Stmt::Ddl(d) => {
                self.note_databases(&d.ddl);
                let database = self.database_change(&d.ddl);
                let mut r = self.ddl(d);
                if let (Ok(Response::Ok { affected_rows, .. }), Some((name, count, dropped))) =
                    (&mut r, database)
                {
                    *affected_rows = count;
                    // Dropping the current database leaves the session without one
                    // (`DATABASE()` is NULL); altering it changes the session's view of it.
                    if self.db.as_deref() == Some(name.as_str()) {
                        if dropped {
                            self.db = None;
                        } else {
                            self.set_database_vars(&name);
                        }
                    }
                }
                r
            }
            Stmt::DropTables(d) => self.drop_tables(d),
            Stmt::CreateSelect(cs) => self.create_select(cs, params),
            Stmt::CreateLike {
                table,
                source,
                if_not_exists,
                temporary,
            } => self.create_like(table, source, if_not_exists, temporary),
            Stmt::Temporary(d) => self.temporary_ddl(d),
            Stmt::Begin {
                read_only,
                consistent_snapshot,
            } => {
                self.commit()?;
                self.begin(read_only);
                if consistent_snapshot {
                    self.start_read_view()?;
                }
                Ok(Response::ok())
            }
            Stmt::Commit => {
                s.com_commit.fetch_add(1, Relaxed);
                self.commit().map(|_| Response::ok())
            }
            Stmt::Rollback => {
                s.com_rollback.fetch_add(1, Relaxed);
                self.rollback();
                Ok(Response::ok())
            }
            Stmt::Use(db) => self.use_database(&db),
            Stmt::Set(vars) => crate::set::run(self, vars),
            Stmt::SetStatement { vars, sql } => crate::set::run_with(self, vars, &sql),
            Stmt::Show(show) => crate::show::run(self, show),
            Stmt::Kill { id, query_only } => self.kill(id, query_only),
            Stmt::Prepare { name, text } => self.prepare_named(name, text),
            Stmt::Execute { name, using } => self.execute_named(&name, using),
            Stmt::ExecuteImmediate { text, using } => self.execute_immediate(text, using),
            Stmt::Deallocate(name) => self.deallocate(&name),
            Stmt::Do(select) => {
                let id = self.prepare(&select)?.id;
                let r = self.run_prepared(id, params, "DO");
                self.close(id);
                r.map(|_| Response::ok())
            }
            Stmt::SelectInto {
                query,
                vars,
                deprecated_place,
            } => self.select_into(&query, &vars, deprecated_place, params),
            Stmt::Flush(_) | Stmt::Noop(_) => Ok(Response::ok()),
            Stmt::Unaltered(t) => self.unaltered(&t),
            Stmt::Noted { notes, stmt } => {
                for n in notes {
                    let level = match n.warning {
                        true => tutti_storage::Level::Warning,
                        false => tutti_storage::Level::Note,
                    };
                    tutti_storage::raise(level, n.code, n.message);
                }
                self.run_stmt(*stmt, params)
            }
        }
    }

    /// What CREATE, ALTER or DROP DATABASE changes: the database, the rows MariaDB reports
    /// affected (1 for a database created or altered; the tables and views dropped with
    /// one) and whether it is dropped.
    fn database_change(&self, ddl: &tutti_wsrep::Ddl) -> Option<(String, u64, bool)> {
        match ddl {
            tutti_wsrep::Ddl::CreateDatabase { name, .. } => {
                let created = !self.database_exists(name);
                Some((name.clone(), created as u64, false))
            }
            tutti_wsrep::Ddl::DropDatabase { name, .. } => {
                let tables = self.exec.catalog.tables_of(&self.exec.storage, name);
                let count = tables.map_or(0, |t| t.len() as u64);
                Some((name.clone(), count, true))
            }
            tutti_wsrep::Ddl::AlterDatabase { name, .. } => Some((name.clone(), 1, false)),
            _ => None,
        }
    }

    /// Notes `CREATE DATABASE IF NOT EXISTS` of a database that exists (1007) and `DROP
    /// DATABASE IF EXISTS` of one that does not (1008), as MariaDB does.
    fn note_databases(&self, ddl: &tutti_wsrep::Ddl) {
        use tutti_storage::{raise, Level::Note};
        match ddl {
            tutti_wsrep::Ddl::CreateDatabase {
                name,
                if_not_exists: true,
                ..
            } if self.database_exists(name) => raise(
                Note,
                1007,
                format!("Can't create database '{name}'; database exists"),
            ),
            tutti_wsrep::Ddl::DropDatabase {
                name,
                if_exists: true,
            } if !self.database_exists(name) => raise(
                Note,
                1008,
                format!("Can't drop database '{name}'; database doesn't exist"),
            ),
            _ => {}
        }
    }

    /// Takes what the statement assigned (see tutti_storage's `variables`): `@v := x` into
    /// the user variables, `LAST_INSERT_ID(x)` into the session's last insert id and the OK
    /// packet's insert id.
    pub(crate) fn take_assignments(&mut self, r: &mut Result<Response, ExecError>) {
        for a in tutti_storage::take_assigned() {
            if a.name != tutti_sql::LAST_INSERT_ID_VAR {
                let v = match a.value {
                    Value::Text(d) if a.decimal => tutti_sql::UserValue::Decimal(d),
                    v => tutti_sql::UserValue::Plain(v),
                };
                self.user_vars.insert(a.name, v);
                continue;
            }
            let id = match a.value {
                Value::Int(i) => i as u64,
                _ => 0,
            };
            self.last_insert_id = id;
            if let Ok(Response::Ok { last_insert_id, .. }) = r {
                *last_insert_id = id;
            }
        }
    }

    /// `DROP TABLE|VIEW` naming what does not exist or is of the other kind: drops the
    /// others, then fails naming the missing ones (1051, or 4092 for views), or notes them
    /// with `IF EXISTS`. An object another node created meanwhile fails it with a schema
    /// error first, so that the statement is translated once more after this node caught
    /// up.
    fn drop_tables(&mut self, d: tutti_sql::DropTables) -> Result<Response, ExecError> {
        use tutti_storage::{raise, Level};
        let joined = |list: &[TableName]| {
            let names: Vec<String> = list.iter().map(|t| t.to_string()).collect();
            names.join(",")
        };
        let (unknown, views) = (joined(&d.unknown), d.views);
        if !d.if_exists
            && !d.temporary
            && self.catch_up()
            && d.unknown
                .iter()
                .filter(|t| !d.wrong_kind.contains(t))
                .any(|t| Env::table(self, t).is_some())
        {
            return Err(ExecError::UnknownTable(unknown));
        }
        if views {
            for t in &d.wrong_kind {
                raise(Level::Warning, 1347, format!("'{t}' is not of type 'VIEW'"));
            }
        } else if let Some(view) = d.wrong_kind.first() {
            if !d.if_exists {
                return Err(ExecError::IsView(view.to_string()));
            }
            raise(Level::Note, 1965, format!("'{view}' is a view"));
        }
        if matches!(&d.ddl.ddl, tutti_wsrep::Ddl::Schema { statements, .. } if !statements.is_empty())
        {
            self.ddl(d.ddl)?;
        }
        match (d.unknown.is_empty(), d.if_exists, views) {
            (true, _, _) => Ok(Response::ok()),
            (false, true, false) => {
                raise(Level::Note, 1051, format!("Unknown table '{unknown}'"));
                Ok(Response::ok())
            }
            (false, true, true) => {
                raise(Level::Note, 4092, format!("Unknown VIEW: '{unknown}'"));
                Ok(Response::ok())
            }
            (false, false, false) => Err(ExecError::DroppedOthers(unknown)),
            (false, false, true) => Err(ExecError::UnknownView(unknown)),
        }
    }

    /// Fails unless the node may serve; reads pass with `wsrep_dirty_reads`.
    pub(crate) fn check_ready(&self, reading: bool) -> Result<(), ExecError> {
        match self.exec.provider.check_ready() {
            Ok(()) => Ok(()),
            Err(_) if reading && self.var_int("wsrep_dirty_reads") != 0 => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Waits for causal consistency when `wsrep_sync_wait` has `bit` set.
    pub(crate) fn sync_wait(&self, bit: i64) -> Result<(), ExecError> {
        if self.var_int("wsrep_sync_wait") & bit != 0 {
            self.exec
                .provider
                .sync_wait(CAUSAL_READ_TIMEOUT)
                .map_err(|e| match e {
                    tutti_wsrep::ReplicateError::Unknown(_) => ExecError::LockWaitTimeout,
                    other => other.into(),
                })?;
        }
        Ok(())
    }

    fn kill(&mut self, id: u64, query_only: bool) -> Result<Response, ExecError> {
        let info = u32::try_from(id)
            .ok()
            .and_then(|i| self.exec.session_info(i))
            .ok_or(ExecError::NoSuchThread(id))?;
        if !query_only {
            info.killed.store(true, Relaxed);
        }
        if let Some(h) = info.interrupt.lock().as_ref() {
            h.interrupt();
        }
        if info.id == self.info.id && !query_only {
            return Err(ExecError::Interrupted);
        }
        Ok(Response::ok())
    }

    fn database_exists(&self, name: &str) -> bool {
        self.exec
            .storage
            .databases()
            .map(|d| d.iter().any(|x| x.eq_ignore_ascii_case(name)))
            .unwrap_or(false)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.rollback();
        tutti_storage::release_all_locks(u64::from(self.info.id));
        self.exec.unregister(self.info.id);
    }
}

impl Env for Session {
    fn current_db(&self) -> Option<&str> {
        self.db.as_deref()
    }

    fn system_variable(&self, scope: VarScope, name: &str) -> Option<Value> {
        let name = name.to_ascii_lowercase();
        vars::def(vars::canonical(&name))?;
        match scope {
            VarScope::Global => match vars::canonical(&name) {
                "version"
                | "wsrep_provider_options"
                | "auto_increment_offset"
                | "auto_increment_increment" => self.var(&name),
                n => self.exec.globals.get(n),
            },
            VarScope::Session => self.var(&name),
        }
    }

    fn user_variable(&self, name: &str) -> tutti_sql::UserValue {
        self.user_vars
            .get(&name.to_ascii_lowercase())
            .cloned()
            .unwrap_or(tutti_sql::UserValue::Plain(Value::Null))
    }

    fn session_function(&self, name: &str) -> Option<Value> {
        Some(match name {
            "database" | "schema" => self.db.clone().map(Value::Text).unwrap_or(Value::Null),
            "last_insert_id" => Value::Int(self.last_insert_id as i64),
            "connection_id" => Value::Int(self.info.id as i64),
            "user" | "session_user" | "system_user" | "current_user" => {
                // a loopback client is `localhost`, as MariaDB names it
                let host = match self.info.host.as_str() {
                    "127.0.0.1" | "::1" => "localhost",
                    host => host,
                };
                Value::Text(format!("{}@{host}", self.info.user))
            }
            "version" => Value::Text(self.exec.version().into()),
            "row_count" => Value::Int(self.row_count),
            "found_rows" => Value::Int(self.found_rows as i64),
            _ => return None,
        })
    }

    fn table(&self, name: &TableName) -> Option<TableInfo> {
        if let Some(t) = self.temporary(name) {
            return Some(t.info.clone());
        }
        self.exec
            .catalog
            .table(&self.exec.storage, &name.sqlite_name())
            .ok()
            .flatten()
            .map(|m| m.info.clone())
    }

    fn database_exists(&self, name: &str) -> bool {
        Session::database_exists(self, name)
    }

    fn database_collation(&self, name: &str) -> Option<String> {
        self.exec.storage.database_collation(name).ok().flatten()
    }

    fn is_temporary(&self, name: &TableName) -> bool {
        self.temporary(name).is_some()
    }

    fn temporal_default(&self, value: &Value, kind: &str, fsp: u32) -> Option<Option<String>> {
        Some(tutti_storage::temporal_default(value, kind, fsp))
    }
}
