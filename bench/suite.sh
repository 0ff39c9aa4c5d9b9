#!/usr/bin/env bash
# bench/suite.sh - tutti and MariaDB Galera side by side, in one run.
#
#   bench/suite.sh quick    every case, short runs (under 15 minutes)
#   bench/suite.sh full     every case, 30 s runs
#   bench/suite.sh smoke    tutti only, seconds-long runs: checks the plumbing (CI)
#
# Starts its own 3-node tutti cluster (`tutti cluster up`, free ports) and its own 3-node
# MariaDB Galera cluster (../shared/anchors/galera/cluster.sh, ports 3311-3313), runs the same
# sysbench workloads against both, interleaved case by case (A B, then B A) so machine drift
# hits both, and writes a Markdown report with every raw figure and the ratio tutti / Galera
# to bench/results/report-<stamp>.md (raw sysbench output in bench/results/raw-<stamp>/,
# throughput-over-time plots as PNG). Stops everything it started.
set -u -o pipefail
MODE="${1:-quick}"
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
ANCHOR="${GALERA_ANCHOR:-$ROOT/../shared/anchors/galera}"
STAMP="$(date -u +%Y%m%d-%H%M)"
OUT="${BENCH_RESULTS:-$HERE/results}"
RAW="$OUT/raw-$MODE-$STAMP"
REPORT="$OUT/report-$MODE-$STAMP.md"
mkdir -p "$RAW"
export TUTTI_BASE="${TUTTI_BASE:-/tmp/tutti-suite}" BENCH_LOGDIR="$RAW" BENCH_OUT="$RAW/tutti-lines.txt"
export GALERA_BASE="${GALERA_BASE:-/tmp/galera-suite}" GALERA_BENCH_OUT="$RAW/galera-lines.txt"
case "$MODE" in
  smoke) T=2; THREADS="1 4"; TABLES=2; SIZE=1000; IST_S=2; LOAD_S=6; KILL_AT=2; GALERA=0 ;;
  quick) T=10; THREADS="1 4 8"; TABLES=4; SIZE=20000; IST_S=10; LOAD_S=20; KILL_AT=6; GALERA=1 ;;
  full)  T=30; THREADS="1 4 8"; TABLES=4; SIZE=100000; IST_S=20; LOAD_S=30; KILL_AT=10; GALERA=1 ;;
  *) echo "usage: bench/suite.sh quick|full|smoke" >&2; exit 2 ;;
esac
export NODES=3 SB_TABLES=$TABLES SB_TABLE_SIZE=$SIZE KILL_AT
. "$HERE/lib.sh"
if [ ! -x "$TUTTI" ]; then
  log "building $TUTTI"
  (cd "$ROOT" && cargo build --release --bin tutti) || die "cargo build --release"
fi
[ "$GALERA" = 0 ] || [ -x "$ANCHOR/cluster.sh" ] || die "no Galera anchor at $ANCHOR (set GALERA_ANCHOR)"
G_PORT() { echo $((3310 + $1)); }
gsb() {  # gsb <node|all> <test> <command> [args]: sysbench against Galera
  local node=$1 test=$2 cmd=$3 port host=127.0.0.1 i; shift 3
  if [ "$node" = all ]; then port="$(G_PORT 1),$(G_PORT 2),$(G_PORT 3)"; host="127.0.0.1,127.0.0.1,127.0.0.1"; else port=$(G_PORT "$node"); fi
  sysbench "$test" --db-driver=mysql --mysql-host="$host" --mysql-port="$port" --mysql-user=bench \
    --mysql-password=bench --mysql-db=sbtest --tables="$TABLES" --table-size="$SIZE" "$@" "$cmd"
}
tsb() { local node=$1; shift; sb "$node" sbtest "$TABLES" "$SIZE" "$@"; }
gvar() { "$ANCHOR/cluster.sh" var "$1" "$2"; }

RESULTS="$RAW/results.tsv"   # case \t system \t metric \t value
: > "$RESULTS"
put() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$RESULTS"; }
field() { echo "$2" | tr ' ' '\n' | awk -F= -v k="$1" '$1==k{print $2}'; }

cleanup() {
  "$TUTTI" cluster down --base "$TUTTI_BASE" >/dev/null 2>&1
  [ "$GALERA" = 1 ] && for i in 1 2 3; do "$ANCHOR/cluster.sh" stop "$i" >/dev/null 2>&1; done
}
trap cleanup EXIT

start_systems() {
  log "starting tutti (3 nodes under $TUTTI_BASE)"
  "$TUTTI" cluster down --base "$TUTTI_BASE" >/dev/null 2>&1
  rm -rf "$TUTTI_BASE"
  ensure_cluster
  sql 1 "CREATE DATABASE sbtest"
  tsb 1 oltp_read_write prepare --threads=4 > "$RAW/tutti-prepare.log" 2>&1 || die "tutti prepare"
  if [ "$GALERA" = 1 ]; then
    log "starting MariaDB Galera (3 nodes under $GALERA_BASE)"
    "$ANCHOR/cluster.sh" init > "$RAW/galera-init.log" 2>&1 || die "galera init (see $RAW/galera-init.log)"
    "$ANCHOR/cluster.sh" sql 1 "CREATE DATABASE IF NOT EXISTS sbtest" >/dev/null
    gsb 1 oltp_read_write prepare --threads=4 > "$RAW/galera-prepare.log" 2>&1 || die "galera prepare"
  fi
}

# run_sysbench <case> <node|all> <test> <threads>: both systems, alternating who goes first.
ORDER=0
run_sysbench() {
  local c=$1 node=$2 test=$3 th=$4 sys lf systems="tutti galera"
  [ "$GALERA" = 1 ] || systems="tutti"
  ORDER=$((ORDER + 1)); [ $((ORDER % 2)) = 0 ] && [ "$GALERA" = 1 ] && systems="galera tutti"
  for sys in $systems; do
    lf="$RAW/$sys-$c.log"
    log "$sys $c"
    if [ "$sys" = tutti ]; then
      tsb "$node" "$test" run --threads="$th" --time="$T" --events=0 --report-interval=1 --percentile=95 > "$lf" 2>&1
    else
      gsb "$node" "$test" run --threads="$th" --time="$T" --events=0 --report-interval=1 --percentile=95 > "$lf" 2>&1
    fi
    local p; p=$(sbparse "$lf")
    put "$c" "$sys" tps "$(field tps "$p")"
    put "$c" "$sys" p95_ms "$(field lat_p95_ms "$p")"
    put "$c" "$sys" errors "$(field errors "$p")"
  done
}

# --- rejoin cases ---
t_pid() { awk -v n="node$1" '/^name = /{gsub(/"/,"",$3); cur=$3} cur==n && $1=="pid"{print $3; exit}' "$TUTTI_BASE/cluster.toml"; }
t_stop() { local pid; pid=$(t_pid "$1"); kill -"$2" "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; }
t_leader() { sql 1 "SHOW STATUS LIKE 'wsrep_cluster_leader'" | awk '{print $2}' | tr -d node; }
t_rejoin() {  # t_rejoin <case> <node>: restart, time to Synced, IST rate
  local t0 t1 st; t0=$(date +%s.%N)
  "$TUTTI" cluster up --base "$TUTTI_BASE" --log-level warn >/dev/null || die "tutti restart"
  t1=$(date +%s.%N)
  put "$1" tutti rejoin_s "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')"
  st=$(curl -s "http://$(addr "$2" admin)/status")
  put "$1" tutti catchup_ws_per_s "$(echo "$st" | python3 -c 'import json,sys; t=json.load(sys.stdin)["cluster"]["last_state_transfer"] or {}; print(t.get("write_sets_per_second",0))')"
}
t_ist() {  # t_ist <case> <seconds of writes>
  local c0 c1
  t_stop 3 TERM
  c0=$(var 1 wsrep_last_committed)
  [ "$2" -gt 0 ] && tsb 1 oltp_write_only run --threads=4 --time="$2" --events=0 > "$RAW/tutti-$1-load.log" 2>&1
  c1=$(var 1 wsrep_last_committed)
  put "$1" tutti write_sets "$((c1 - c0))"
  t_rejoin "$1" 3
}
t_kill() {  # t_kill <case> <victim> <load node>
  local spid lf="$RAW/tutti-$1.log"
  tsb "$3" oltp_write_only run --threads=4 --time="$LOAD_S" --events=0 --report-interval=1 \
    --percentile=95 --mysql-ignore-errors=1047,1180,1213 > "$lf" 2>&1 &
  spid=$!
  sleep "$KILL_AT"; t_stop "$2" KILL; wait "$spid"
  put "$1" tutti worst_latency_ms "$(field lat_max_ms "$(sbparse "$lf")")"
  t_rejoin "$1" "$2"
}
g_case() {  # g_case <case> <bench.sh test> [env...]: run one anchor case, record its fields
  local c=$1 t=$2 line; shift 2
  line=$(env "$@" BENCH_LOGDIR="$RAW/galera-$c" BENCH_OUT="$GALERA_BENCH_OUT" SB_TABLES=$TABLES SB_TABLE_SIZE=$SIZE \
    "$ANCHOR/bench.sh" "$t" 2>>"$RAW/galera-bench.err" | tail -1)
  echo "$line" >> "$RAW/galera-$c.txt"
  put "$c" galera rejoin_s "$(field rejoin_s "$line")"
  local ws s; ws=$(field ist_writesets "$line"); s=$(field rejoin_s "$line")
  [ -n "$ws" ] && put "$c" galera write_sets "$ws" && put "$c" galera catchup_ws_per_s "$(awk -v w="$ws" -v s="$s" 'BEGIN{printf "%.0f", (s>0)?w/s:0}')"
  [ "$t" = kill ] && put "$c" galera worst_latency_ms "$(field lat_max_ms "$line")"
  [ -f "$RAW/galera-$c/kill-load.log" ] && cp "$RAW/galera-$c/kill-load.log" "$RAW/galera-$c.log"
}

memory() {  # peak RSS (kB) and datadir bytes per system
  local i pid rss
  for i in 1 2 3; do
    pid=$(t_pid "$i"); rss=$(awk '/VmHWM/{print $2}' "/proc/$pid/status" 2>/dev/null)
    put memory tutti "node${i}_peak_rss_kb" "${rss:-0}"
    put memory tutti "node${i}_datadir_bytes" "$(du -sb "$TUTTI_BASE/node$i" | awk '{print $1}')"
    put memory tutti "node${i}_data_bytes_excl_gcache" "$(du -sb --exclude=gcache "$TUTTI_BASE/node$i" | awk '{print $1}')"
  done
  [ "$GALERA" = 1 ] || return 0
  for i in 1 2 3; do
    pid=$(cat "$GALERA_BASE/node$i/mariadbd.pid" 2>/dev/null)
    rss=$(awk '/VmHWM/{print $2}' "/proc/$pid/status" 2>/dev/null)
    put memory galera "node${i}_peak_rss_kb" "${rss:-0}"
    put memory galera "node${i}_datadir_bytes" "$(du -sb "$GALERA_BASE/node$i" | awk '{print $1}')"
    put memory galera "node${i}_data_bytes_excl_gcache" "$(du -sb --exclude=galera.cache "$GALERA_BASE/node$i" | awk '{print $1}')"
  done
}

start_systems
for th in $THREADS; do
  for test in oltp_write_only oltp_read_write oltp_point_select; do
    run_sysbench "${test}_node1_t$th" 1 "$test" "$th"
  done
done
run_sysbench oltp_write_only_all_t8 all oltp_write_only 8
memory
t_ist ist "$IST_S";              [ "$GALERA" = 1 ] && g_case ist ist IST_WRITE_S="$IST_S"
[ "$GALERA" = 1 ] && g_case ist_idle ist IST_WRITE_S=0; t_ist ist_idle 0
l=$(t_leader); v=3; [ "$l" = 3 ] && v=2
t_kill kill_follower "$v" "$l";  [ "$GALERA" = 1 ] && g_case kill_follower kill KILL_LOAD_S="$LOAD_S" KILL_AT_S="$KILL_AT"
l=$(t_leader); o=1; [ "$l" = 1 ] && o=2
t_kill kill_leader "$l" "$o"

awk -F'\t' '$2=="tutti" && $3=="tps" && ($4=="" || $4+0==0){bad=1} END{exit bad}' "$RESULTS" \
  || die "a tutti sysbench run produced no transactions (see $RAW)"
"$HERE/report.sh" "$MODE" "$RAW" "$REPORT" || die "report"
log "report: $REPORT"
