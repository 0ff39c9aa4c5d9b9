//! The opensrv-mysql shim: one per connection, driving one executor session.
//!
//! Each connection runs on its own OS thread (with a single-threaded runtime for the
//! protocol), so the synchronous executor is called inline: a statement blocks only its
//! own connection, and a query costs no thread hand-offs. A client that disconnects
//! mid-query drops its session when the statement ends, which rolls its transaction back.

use async_trait::async_trait;
use opensrv_mysql::{
    AsyncMysqlShim, CapabilityFlags, Column, ErrorKind, InitWriter, OkResponse, ParamParser,
    QueryResultWriter, StatementMetaWriter, StatusFlags,
};
use parking_lot::Mutex;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::io::AsyncWrite;
use tutti_executor::{ColumnKind, ExecError, Executor, Response, Session};
use tutti_wsrep::Value;

use crate::auth::Users;
use crate::charset::{Charsets, Results};
use crate::errors::mysql_error;
use crate::guard::{LoginFailure, Marker, Markers, Statements};
use crate::values::{self, Cell};

/// Connection settings shared by all connections.
#[derive(Clone, Debug)]
pub struct MysqlConfig {
    /// Largest packet a client may send (`max_allowed_packet`).
    pub max_allowed_packet: usize,
    /// Most concurrent client sessions (`max_connections`).
    pub max_connections: usize,
    /// Accounts.
    pub users: Users,
}

/// What the shim shares with its connection's packet guards.
pub(crate) struct Links {
    pub markers: Markers,
    pub failure: LoginFailure,
    pub statements: Statements,
    pub charsets: Charsets,
}

pub(crate) struct Shim {
    exec: Arc<Executor>,
    config: Arc<MysqlConfig>,
    markers: Markers,
    charsets: Charsets,
    /// How text results are sent (the session's `character_set_results`).
    results: Results,
    peer: SocketAddr,
    conn_id: u32,
    salt: [u8; 20],
    user: Mutex<Option<String>>,
    failure: LoginFailure,
    statements: Statements,
    /// The client set CLIENT_FOUND_ROWS in its handshake.
    client_found_rows: bool,
    /// In a mutex only to make the shim Sync (opensrv requires it); never contended.
    session: Mutex<Option<Session>>,
    /// Columns of the result being written (opensrv borrows them for the writer's life).
    columns: Vec<Column>,
    prepared: std::collections::HashMap<u32, (Vec<Column>, Vec<Column>)>,
}

fn random_salt() -> [u8; 20] {
    let mut s: [u8; 20] = rand::random();
    for b in s.iter_mut() {
        // Printable, never NUL or '$', as MySQL servers send.
        *b = 0x21 + (*b % 0x5d);
        if *b == b'$' {
            *b += 1;
        }
    }
    s
}

impl Shim {
    pub(crate) fn new(
        exec: Arc<Executor>,
        config: Arc<MysqlConfig>,
        peer: SocketAddr,
        links: Links,
    ) -> Shim {
        let Links {
            markers,
            failure,
            statements,
            charsets,
        } = links;
        Shim {
            conn_id: exec.connection_id(),
            exec,
            config,
            markers,
            charsets,
            results: Results::of(None),
            peer,
            salt: random_salt(),
            user: Mutex::new(None),
            failure,
            statements,
            client_found_rows: false,
            session: Mutex::new(None),
            columns: Vec::new(),
            prepared: Default::default(),
        }
    }

    fn take_session(&mut self) -> Session {
        match self.session.get_mut().take() {
            Some(s) => s,
            None => {
                let user = self.user.lock().clone().unwrap_or_default();
                let mut s = self
                    .exec
                    .session(self.conn_id, &user, &self.peer.ip().to_string());
                s.set_client_found_rows(self.client_found_rows);
                if let Some(charset) = self.charsets.requested() {
                    s.set_names(charset);
                }
                s
            }
        }
    }

    /// Runs `f` on the session, on this connection's own thread.
    async fn blocking<T>(&mut self, f: impl FnOnce(&mut Session) -> T) -> io::Result<T> {
        let mut s = self.take_session();
        let r = f(&mut s);
        let (client, results) = s.connection_charsets();
        self.charsets.set_client(&client);
        self.results = Results::of(results.as_deref());
        *self.session.get_mut() = Some(s);
        Ok(r)
    }

    /// Result columns as they are sent: text labelled with `character_set_results`.
    fn wire_columns(&self, columns: &[tutti_executor::Column]) -> Vec<Column> {
        let mut out: Vec<Column> = columns.iter().map(values::column).collect();
        let Results {
            set,
            label,
            max_bytes,
        } = self.results;
        for c in &mut out {
            if c.charset != values::BINARY {
                // Text lengths are sent in the result set's bytes (utf8mb4's 4 per character),
                // the largest (LONGTEXT's) as it is.
                c.charset = label;
                if max_bytes != 4 && c.column_length != u32::MAX {
                    c.column_length = c.column_length / 4 * max_bytes;
                }
            }
            if let Some(set) = set.filter(|_| !c.column.is_ascii()) {
                c.name_bytes = Some(set.encode(&c.column));
            }
        }
        out
    }

    /// Ends the connection once the reply being written is flushed: the input guard reports
    /// end-of-stream to opensrv (returning an error instead would skip its flush).
    fn close_after_reply(&self, why: &str) {
        tracing::debug!("closing connection from {}: {why}", self.peer);
        self.statements.close();
    }

    fn status(&self) -> StatusFlags {
        let mut f = StatusFlags::empty();
        if let Some(s) = &*self.session.lock() {
            if s.autocommit() {
                f |= StatusFlags::SERVER_STATUS_AUTOCOMMIT;
            }
            if s.in_transaction() {
                f |= StatusFlags::SERVER_STATUS_IN_TRANS;
            }
        } else {
            f |= StatusFlags::SERVER_STATUS_AUTOCOMMIT;
        }
        f
    }

    fn killed(&self) -> bool {
        self.session.lock().as_ref().is_some_and(|s| s.is_killed())
    }

    async fn write<'a, W: AsyncWrite + Send + Unpin>(
        &'a mut self,
        out: Vec<Result<Response, ExecError>>,
        results: QueryResultWriter<'a, W>,
    ) -> io::Result<()> {
        let status = self.status();
        let warnings = self
            .session
            .lock()
            .as_ref()
            .map(|s| s.warning_counts().to_vec())
            .unwrap_or_default();
        let warnings_of = |i: usize| warnings.get(i).copied().unwrap_or(0);
        let n = out.len();
        let mut w = results;
        let mut rows = None;
        for (i, r) in out.into_iter().enumerate() {
            let last = i + 1 == n;
            match r {
                Err(e) => {
                    let (kind, msg) = mysql_error(&e);
                    if let Some(s) = self.session.lock().as_mut() {
                        s.record_error(kind as u16, &msg);
                    }
                    return w.error(kind, msg.as_bytes()).await;
                }
                Ok(Response::Ok {
                    affected_rows,
                    last_insert_id,
                    info,
                }) => {
                    let mut status_flags = status;
                    if !last {
                        status_flags |= StatusFlags::SERVER_MORE_RESULTS_EXISTS;
                    }
                    let ok = OkResponse {
                        affected_rows,
                        last_insert_id,
                        status_flags,
                        info: info.text(warnings_of(i)),
                        warnings: warnings_of(i),
                        ..Default::default()
                    };
                    w = w.complete_one(ok).await?;
                }
                Ok(Response::Rows(rs)) => {
                    // Only the last statement may return rows (the executor refuses others).
                    rows = Some(rs);
                }
            }
        }
        let Some(rs) = rows else {
            return w.no_more_results().await;
        };
        self.columns = self.wire_columns(&rs.columns);
        let mut rw = w.start(&self.columns).await?;
        rw.set_warnings(warnings_of(n - 1));
        for row in &rs.rows {
            for (v, c) in row.iter().zip(&rs.columns) {
                let encoded = self.results.encoded(v);
                let v = encoded.as_ref().unwrap_or(v);
                match (c.kind, v) {
                    // A YEAR shows four digits (0 is 0000), as MariaDB sends it.
                    (ColumnKind::Year, Value::Int(y)) => {
                        rw.write_col(Cell(&Value::Text(format!("{y:04}")), c))?
                    }
                    _ => rw.write_col(Cell(v, c))?,
                }
            }
            rw.end_row().await?;
        }
        rw.finish().await
    }

    async fn marker<'a, W: AsyncWrite + Send + Unpin>(
        &'a mut self,
        m: Marker,
        results: QueryResultWriter<'a, W>,
    ) -> io::Result<()> {
        match m {
            Marker::TooLarge => {
                let msg = format!(
                    "Got a packet bigger than 'max_allowed_packet' bytes ({})",
                    self.config.max_allowed_packet
                );
                self.close_after_reply("packet too large");
                results
                    .error(ErrorKind::ER_NET_PACKET_TOO_LARGE, msg.as_bytes())
                    .await
            }
            Marker::StmtReset | Marker::SetOption => results.completed(OkResponse::default()).await,
            Marker::ResetConnection => {
                let charset = self.charsets.requested();
                self.blocking(|s| {
                    s.reset();
                    if let Some(charset) = charset {
                        s.set_names(charset);
                    }
                })
                .await?;
                results.completed(OkResponse::default()).await
            }
            Marker::InvalidString(hex) => {
                let charset = self.blocking(|s| s.connection_charsets().0).await?;
                let e = ExecError::Sql(tutti_sql::SqlError::InvalidCharacterString(charset, hex));
                let (kind, msg) = mysql_error(&e);
                results.error(kind, msg.as_bytes()).await
            }
            Marker::Unknown(b) => {
                let msg = format!("Unknown command 0x{b:02x}");
                results
                    .error(ErrorKind::ER_UNKNOWN_COM_ERROR, msg.as_bytes())
                    .await
            }
        }
    }
}

#[async_trait]
impl<W: AsyncWrite + Send + Unpin> AsyncMysqlShim<W> for Shim {
    type Error = io::Error;

    fn version(&self) -> String {
        self.exec.version().to_string()
    }

    fn connect_id(&self) -> u32 {
        self.conn_id
    }

    fn on_client_capabilities(&mut self, capabilities: CapabilityFlags) {
        self.client_found_rows = capabilities.contains(CapabilityFlags::CLIENT_FOUND_ROWS);
    }

    fn salt(&self) -> [u8; 20] {
        self.salt
    }

    async fn authenticate(
        &self,
        _plugin: &str,
        username: &[u8],
        salt: &[u8],
        auth_data: &[u8],
    ) -> bool {
        let user = String::from_utf8_lossy(username).into_owned();
        let ok = self
            .config
            .users
            .verify(&user, self.peer.ip(), salt, auth_data);
        if ok {
            *self.user.lock() = Some(user);
        } else {
            tracing::info!("access denied for user '{user}' from {}", self.peer.ip());
            *self.failure.0.lock() =
                Some((user, self.peer.ip().to_string(), !auth_data.is_empty()));
        }
        ok
    }

    async fn on_prepare<'a>(
        &'a mut self,
        query: &'a str,
        info: StatementMetaWriter<'a, W>,
    ) -> io::Result<()> {
        let sql = query.to_string();
        match self.blocking(move |s| s.prepare(&sql)).await? {
            Ok(p) => {
                self.statements.prepared(p.id, p.params);
                let params = vec![values::column(&tutti_executor::Column::text("?")); p.params];
                let cols = self.wire_columns(&p.columns);
                let (params, cols) = &*self.prepared.entry(p.id).or_insert((params, cols));
                info.reply(p.id, params, cols).await
            }
            Err(e) => {
                let (kind, msg) = mysql_error(&e);
                if let Some(s) = self.session.get_mut().as_mut() {
                    s.record_error(kind as u16, &msg);
                }
                info.error(kind, msg.as_bytes()).await
            }
        }
    }

    async fn on_execute<'a>(
        &'a mut self,
        id: u32,
        params: ParamParser<'a>,
        results: QueryResultWriter<'a, W>,
    ) -> io::Result<()> {
        // opensrv's parameter parser panics on malformed packets: contain it.
        let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            params
                .into_iter()
                .map(|p| values::param(p.value.into_inner(), p.coltype))
                .collect::<Vec<Value>>()
        }));
        let Ok(params) = parsed else {
            let msg = b"Malformed COM_STMT_EXECUTE packet";
            self.close_after_reply("malformed execute packet");
            return results.error(ErrorKind::ER_WRONG_ARGUMENTS, msg).await;
        };
        let out = self.blocking(move |s| s.execute(id, &params)).await?;
        if self.killed() {
            self.close_after_reply("connection killed");
        }
        self.write(vec![out], results).await
    }

    async fn on_close<'a>(&'a mut self, stmt: u32)
    where
        W: 'async_trait,
    {
        self.prepared.remove(&stmt);
        if let Some(s) = self.session.get_mut().as_mut() {
            s.close(stmt);
        }
    }

    async fn on_query<'a>(
        &'a mut self,
        query: &'a str,
        results: QueryResultWriter<'a, W>,
    ) -> io::Result<()> {
        if let Some(m) = self.markers.decode(query) {
            return self.marker(m, results).await;
        }
        let sql = query.to_string();
        let out = self.blocking(move |s| s.query(&sql)).await?;
        if self.killed() {
            self.close_after_reply("connection killed");
        }
        self.write(out, results).await
    }

    async fn on_init<'a>(&'a mut self, db: &'a str, w: InitWriter<'a, W>) -> io::Result<()> {
        let db = db.to_string();
        match self.blocking(move |s| s.use_database(&db)).await? {
            Ok(_) => w.ok().await,
            Err(e) => {
                let (kind, msg) = mysql_error(&e);
                w.error(kind, msg.as_bytes()).await
            }
        }
    }
}
