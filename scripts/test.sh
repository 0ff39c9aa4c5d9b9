#!/usr/bin/env bash
# The whole test suite: formatting, lints, unit, in-process cluster and end-to-end tests
# (real binaries on 127.0.0.1, driven with the mysql crate, the mariadb CLI and sysbench).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -q -- -D warnings
# Release profile: the same build setup.sh just made, so the suite compiles the stack once.
cargo test --workspace --release -q -- --test-threads 2
# The benchmark suite's plumbing (tutti only, seconds-long runs; not a speed test).
BENCH_RESULTS="$(mktemp -d)" TUTTI_BASE="$(mktemp -d)/cluster" bench/suite.sh smoke
