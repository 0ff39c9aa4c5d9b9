#!/usr/bin/env bash
# bench/rejoin.sh - how a node comes back, mirroring `../shared/anchors/galera/bench.sh ist kill`:
#   ist         stop node3 cleanly, write IST_WRITE_S s of oltp_write_only on node1, start node3:
#               seconds to Synced, write-sets missed, catch-up apply rate (from /status)
#   ist_idle    the same with no writes while node3 is away
#   kill        kill -9 node3 at KILL_AT_S of a KILL_LOAD_S s load on node1, restart it after
#               the load: rejoin time, and the survivors' worst commit latency during the kill
#   kill_leader the same, killing the Raft leader while the load runs on another node
# Knobs as in the anchor: IST_WRITE_S=20 KILL_LOAD_S=30 KILL_AT_S=10 SB_THREADS=4.
. "$(dirname "$0")/lib.sh"
: "${IST_WRITE_S:=20}" "${KILL_LOAD_S:=30}" "${KILL_AT_S:=10}"
now() { date +%s.%N; }
dt()  { awk -v a="$2" -v b="$1" 'BEGIN{printf "%.2f", a-b}'; }
pid_of() { awk -v n="node$1" '/^name = /{gsub(/"/,"",$3); cur=$3} cur==n && $1=="pid"{print $3; exit}' "$TUTTI_BASE/cluster.toml"; }
admin_of() { addr "$1" admin; }
stop_node() {  # stop_node N TERM|KILL
  local pid; pid=$(pid_of "$1"); kill -"$2" "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
}
rejoin() {  # rejoin N -> "rejoin_s=.. transfer=ist entries=.. catchup_ws_per_s=.."
  local t0 t1 st; t0=$(now)
  "$TUTTI" cluster up --base "$TUTTI_BASE" --log-level warn >/dev/null || die "restart node$1"
  t1=$(now)
  st=$(curl -s "http://$(admin_of "$1")/status")
  echo "rejoin_s=$(dt "$t0" "$t1") $(echo "$st" | python3 -c '
import json,sys
t=json.load(sys.stdin)["cluster"]["last_state_transfer"] or {}
print("transfer=%s seqnos=%s..%s ist_s=%s catchup_ws_per_s=%s" % (t.get("kind","none"), t.get("from_seqno"), t.get("to_seqno"), t.get("seconds"), t.get("write_sets_per_second")))')"
}
leader() { sql 1 "SHOW STATUS LIKE 'wsrep_cluster_leader'" | awk '{print $2}' | tr -d node; }

test_ist() {  # test_ist <seconds of writes>
  local c0 c1 lf="$LOGDIR/ist-load.log" r
  stop_node 3 TERM
  c0=$(var 1 wsrep_last_committed)
  : > "$lf"
  [ "$1" -gt 0 ] && sb 1 sbtest "$SB_TABLES" "$SB_TABLE_SIZE" oltp_write_only run --threads="${SB_THREADS%% *}" --time="$1" --events=0 > "$lf" 2>&1
  c1=$(var 1 wsrep_last_committed)
  r=$(rejoin 3)
  emit "ist_rejoin $r writes_during_downtime=$((c1 - c0)) downtime_write_s=$1"
}

test_kill() {  # test_kill <victim> <load node>
  local lf="$LOGDIR/kill-load.log" c0 ck c1 spid r
  c0=$(var "$2" wsrep_last_committed)
  sb "$2" sbtest "$SB_TABLES" "$SB_TABLE_SIZE" oltp_write_only run --threads="${SB_THREADS%% *}" --time="$KILL_LOAD_S" \
    --events=0 --report-interval=1 --mysql-ignore-errors=1047,1180,1213 > "$lf" 2>&1 &
  spid=$!
  sleep "$KILL_AT_S"
  stop_node "$1" KILL
  ck=$(var "$2" wsrep_last_committed)
  wait "$spid"
  c1=$(var "$2" wsrep_last_committed)
  r=$(rejoin "$1")
  emit "kill9_rejoin victim=node$1 load_on=node$2 $r writes_after_kill=$((c1 - ck)) writes_during_load=$((c1 - c0)) $(sbparse "$lf")"
}

ensure_cluster
ensure_data sbtest "$SB_TABLES" "$SB_TABLE_SIZE"
for t in "${@:-ist ist_idle kill kill_leader}"; do
  for x in $t; do
    case "$x" in
      ist) test_ist "$IST_WRITE_S" ;;
      ist_idle) test_ist 0 ;;
      kill) l=$(leader); v=3; [ "$l" = 3 ] && v=2; test_kill "$v" "$l" ;;
      kill_leader) l=$(leader); o=1; [ "$l" = 1 ] && o=2; test_kill "$l" "$o" ;;
      *) die "unknown test $x" ;;
    esac
  done
done
