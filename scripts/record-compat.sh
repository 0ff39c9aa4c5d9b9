#!/usr/bin/env bash
# Records MariaDB 10.11's answers to crates/node/tests/compat/*.sql into the .result files
# the `compat` test checks tutti against. Needs Debian's mariadb-server (installs it if
# missing); runs a throwaway server on a free local port and stops it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v mariadbd >/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get install -y mariadb-server >/dev/null
fi
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mariadb-install-db --datadir="$dir/data" --auth-root-authentication-method=normal >"$dir/install.log" 2>&1
mariadbd --datadir="$dir/data" --socket="$dir/sock" --port="$port" --bind-address=127.0.0.1 \
    --user="$(id -un)" --pid-file="$dir/pid" >"$dir/log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do
    mariadb -h127.0.0.1 -P"$port" -uroot -e 'SELECT 1' >/dev/null 2>&1 && break
    sleep 0.2
done
TUTTI_COMPAT_RECORD="127.0.0.1:$port" cargo test --release -q -p tutti --test compat
echo "recorded: $(ls crates/node/tests/compat/*.result | wc -l) files"
