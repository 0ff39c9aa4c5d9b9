//! Logging: `tracing` to stderr, filtered by `--log-level` / `RUST_LOG`; panics are logged
//! as errors (a panicking connection task must not go unnoticed, nor crash the node).

use tracing_subscriber::EnvFilter;

/// Installs the subscriber once; `level` is a level or a tracing filter.
pub fn init(level: &str) {
    let filter = std::env::var("RUST_LOG")
        .ok()
        .unwrap_or_else(|| level.to_string());
    let filter = EnvFilter::try_new(&filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
    std::panic::set_hook(Box::new(|info| {
        tracing::error!("internal error (panic): {info}");
    }));
}
