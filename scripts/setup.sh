#!/usr/bin/env bash
# Installs what building and testing tutti needs on Debian 12 (idempotent), then builds
# the release binary. System packages: libclang-dev (bindgen for SQLite's session
# extension), mariadb-client (the `mariadb` CLI used by tests and docs), sysbench, and for
# the benchmark suite gnuplot, curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in libclang-dev mariadb-client sysbench gnuplot-nox curl python3; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq || echo "setup: apt-get update failed (continuing)" >&2
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${need[@]}"
fi
command -v cargo >/dev/null || { echo "setup: Rust (cargo) is required: https://rustup.rs" >&2; exit 1; }
cargo build --release --bin tutti
echo "setup: built $(pwd)/target/release/tutti" >&2
