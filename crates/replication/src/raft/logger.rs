//! raft-rs logs through `slog`; tutti logs through `tracing`. This drain forwards every
//! raft record to `tracing` (target `raft`), once, so there is one log stream and one
//! filter (`--log-level`, `RUST_LOG`). raft-rs's own chatter (elections, role changes,
//! rejected votes) is DEBUG: tutti logs what an operator needs in Galera's words (view
//! changes, members lost and returned); raft-rs errors stay errors.

use slog::{Drain, Level, OwnedKVList, Record, KV};
use std::fmt::Write as _;

struct TracingDrain;

struct Collect(String);

impl slog::Serializer for Collect {
    fn emit_arguments(&mut self, key: slog::Key, val: &std::fmt::Arguments<'_>) -> slog::Result {
        let _ = write!(self.0, " {key}={val}");
        Ok(())
    }
}

impl Drain for TracingDrain {
    type Ok = ();
    type Err = slog::Never;

    fn log(&self, record: &Record<'_>, values: &OwnedKVList) -> Result<(), slog::Never> {
        let mut kv = Collect(String::new());
        let _ = record.kv().serialize(record, &mut kv);
        let _ = values.serialize(record, &mut kv);
        let msg = record.msg();
        match record.level() {
            Level::Critical | Level::Error => tracing::error!(target: "raft", "{msg}{}", kv.0),
            Level::Warning | Level::Info => tracing::debug!(target: "raft", "{msg}{}", kv.0),
            Level::Debug | Level::Trace => tracing::trace!(target: "raft", "{msg}{}", kv.0),
        }
        Ok(())
    }
}

/// The slog logger handed to raft-rs.
pub fn raft_logger() -> slog::Logger {
    slog::Logger::root(TracingDrain.fuse(), slog::o!())
}
