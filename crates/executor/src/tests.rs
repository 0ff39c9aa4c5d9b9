//! Executor tests (through the real SQL front-end, storage and single-node replication).
