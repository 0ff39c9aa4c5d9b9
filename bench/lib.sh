# bench/lib.sh - shared helpers for tutti's benchmarks (sourced). The measurements mirror
# ../shared/anchors/galera/bench.sh (same sysbench workloads and knobs) so the two can be
# run one after the other in one session and compared as ratios.
set -u -o pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TUTTI="${TUTTI:-$ROOT/target/release/tutti}"
: "${TUTTI_BASE:=/tmp/tutti-bench}" "${NODES:=3}"
: "${SB_TABLES:=4}" "${SB_TABLE_SIZE:=100000}" "${SB_THREADS:=4}" "${SB_TIME:=30}" "${WRITE_ALL:=1}"
: "${BENCH_OUT:=$ROOT/bench/results/tutti-results.txt}"
LOGDIR="${BENCH_LOGDIR:-$TUTTI_BASE-logs}"
mkdir -p "$LOGDIR" "$(dirname "$BENCH_OUT")"

log()  { echo "[tutti-bench $(date +%H:%M:%S)] $*" >&2; }
die()  { log "ERROR: $*"; exit 1; }
emit() { echo "tutti $*"; echo "$(date -u +%FT%TZ) tutti $*" >> "$BENCH_OUT"; }

# port <node> <mysql|admin|peer>: an address field of cluster.toml.
addr() {
  awk -v n="node$1" -v k="$2" '
    /^name = /{gsub(/"/,"",$3); cur=$3}
    cur==n && $1==k {gsub(/"/,"",$3); print $3; exit}' "$TUTTI_BASE/cluster.toml"
}
port() { addr "$1" mysql | sed 's/.*://'; }
sql()  { mariadb -h127.0.0.1 -P"$(port "$1")" -uroot -N -B -e "$2"; }
var()  { sql "$1" "SHOW STATUS LIKE '$2'" | awk '{print $2}'; }

ensure_cluster() {
  [ -x "$TUTTI" ] || die "build first: cargo build --release"
  if [ -f "$TUTTI_BASE/cluster.toml" ] && "$TUTTI" cluster status --base "$TUTTI_BASE" >/dev/null 2>&1; then
    return
  fi
  "$TUTTI" cluster up --nodes "$NODES" --base "$TUTTI_BASE" --log-level warn >/dev/null || die "cluster up"
}

ensure_data() {  # ensure_data <db> <tables> <table_size>
  local n
  n=$(sql 1 "SELECT COUNT(*) FROM $1.sbtest$2" 2>/dev/null || echo 0)
  [ "$n" = "$3" ] && return
  sql 1 "DROP DATABASE IF EXISTS $1; CREATE DATABASE $1"
  log "preparing $2 x $3 rows in $1"
  sb 1 "$1" "$2" "$3" oltp_write_only prepare --threads=4 > "$LOGDIR/prepare.log" 2>&1 || { tail "$LOGDIR/prepare.log"; die "prepare"; }
}

sb() {  # sb <node|all> <db> <tables> <table_size> <lua test> <command> [extra sysbench args]
  local node=$1 db=$2 tables=$3 size=$4 test=$5 cmd=$6 port host=127.0.0.1 i; shift 6
  if [ "$node" != all ]; then port=$(port "$node"); else
    port=""; host=""
    for i in $(seq 1 "$NODES"); do port="${port:+$port,}$(port "$i")"; host="${host:+$host,}127.0.0.1"; done
  fi
  sysbench "$test" --db-driver=mysql --mysql-host="$host" --mysql-port="$port" \
    --mysql-user=root --mysql-db="$db" --tables="$tables" --table-size="$size" "$@" "$cmd"
}

# The same parser as the Galera anchor's bench.sh.
sbparse() {
  awk '/transactions:/{gsub(/\(/,"",$3); tps=$3}
       /queries:/ && /per sec/{gsub(/\(/,"",$3); qps=$3}
       /ignored errors:/{err=$3}
       /avg:/{avg=$2} /95th percentile:/{p95=$3} /max:/{mx=$2}
       END{printf "tps=%s qps=%s lat_avg_ms=%s lat_p95_ms=%s lat_max_ms=%s errors=%s", tps, qps, avg, p95, mx, err}' "$1"
}
