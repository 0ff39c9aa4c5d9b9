//! The MySQL protocol front-end.
//!
//! opensrv-mysql speaks the wire protocol; this crate adds what a server must do on top:
//! authentication against configured users, TCP_NODELAY, a connection limit, packet size
//! limits and explicit errors for commands opensrv would silently accept ([`guard`]),
//! result encoding for SQLite's dynamic types ([`values`]), the connection's character
//! sets ([`charset`]), and the single mapping from
//! executor errors to MySQL error codes ([`errors`]).

pub mod auth;
pub mod charset;
pub mod errors;
pub mod guard;
mod shim;
pub mod values;

pub use auth::{User, Users};
pub use shim::MysqlConfig;

use opensrv_mysql::{AsyncMysqlIntermediary, IntermediaryOptions};
use std::sync::Arc;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tutti_executor::Executor;

/// Accepts clients until `shutdown` turns true.
pub async fn serve(
    listener: TcpListener,
    exec: Arc<Executor>,
    config: Arc<MysqlConfig>,
    mut shutdown: watch::Receiver<bool>,
) {
    let markers = guard::Markers::default();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = shutdown.changed() => return,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let (exec, config, markers, stop) = (
            exec.clone(),
            config.clone(),
            markers.clone(),
            shutdown.clone(),
        );
        // Thread per connection (MySQL's model): the executor runs inline on it.
        let stream = match stream.into_std() {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("connection from {peer}: {e}");
                continue;
            }
        };
        let spawned = std::thread::Builder::new()
            .name(format!("conn-{peer}"))
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_io()
                    .enable_time()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => return tracing::warn!("connection from {peer}: no runtime: {e}"),
                };
                rt.block_on(async move {
                    let Ok(stream) = TcpStream::from_std(stream) else {
                        return;
                    };
                    let mut stop = stop;
                    tokio::select! {
                        r = connection(stream, peer, exec, config, markers) => {
                            if let Err(e) = r {
                                tracing::debug!("connection from {peer} ended: {e}");
                            }
                        }
                        _ = stop.wait_for(|s| *s) => {}
                    }
                });
            });
        if let Err(e) = spawned {
            tracing::warn!("cannot start a thread for {peer}: {e}");
        }
    }
}

async fn connection(
    mut stream: TcpStream,
    peer: std::net::SocketAddr,
    exec: Arc<Executor>,
    config: Arc<MysqlConfig>,
    markers: guard::Markers,
) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    if exec.connected() >= config.max_connections {
        // ER_CON_COUNT_ERROR as the first packet, like MySQL.
        let msg = b"Too many connections";
        let mut p = vec![0xFF, 0x10, 0x04, b'#', b'0', b'8', b'0', b'0', b'4'];
        p.extend(msg);
        let mut packet = (p.len() as u32).to_le_bytes()[..3].to_vec();
        packet.push(0);
        packet.extend(p);
        stream.write_all(&packet).await?;
        return Ok(());
    }
    let (r, w) = stream.into_split();
    let failure = guard::LoginFailure::default();
    let statements = guard::Statements::default();
    let charsets = charset::Charsets::default();
    let r = guard::InputGuard::new(
        r,
        config.max_allowed_packet,
        markers.clone(),
        statements.clone(),
        charsets.clone(),
    );
    let w = guard::OutputGuard::new(w, failure.clone());
    let links = shim::Links {
        markers,
        failure,
        statements,
        charsets,
    };
    let shim = shim::Shim::new(exec, config, peer, links);
    let opts = IntermediaryOptions {
        process_use_statement_on_query: true,
        reject_connection_on_dbname_absence: false,
    };
    AsyncMysqlIntermediary::run_with_options(shim, r, w, &opts).await
}
