//! Logging: `tracing` to stderr, filtered by `--log-level` / `RUST_LOG`, with colours only
//! on a terminal (a log file gets plain text).
//!
//! A panic in any thread ends the process: it is logged as the last line, with the thread
//! and the location, and the process aborts (a non-zero exit status, so a supervisor
//! restarts it). A node with a dead Raft or applier thread would otherwise keep answering
//! 503 forever without saying why.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// Installs the subscriber and the panic hook once; `level` is a level or a tracing filter.
pub fn init(level: &str) {
    let filter = std::env::var("RUST_LOG")
        .ok()
        .unwrap_or_else(|| level.to_string());
    let filter = EnvFilter::try_new(&filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
    std::panic::set_hook(Box::new(|info| {
        let thread = std::thread::current();
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        tracing::error!(
            "internal error (panic) in thread '{}'{at}: {}; the node stops (restart it: it \
             recovers from its datadir)",
            thread.name().unwrap_or("unnamed"),
            what.replace('\n', " ")
        );
        std::process::abort();
    }));
}
