#!/usr/bin/env bash
# bench/ab.sh - the same sysbench workloads on two tutti builds, to measure what a change
# costs: bench/ab.sh OLD_BINARY NEW_BINARY. Each round starts a fresh 3-node cluster per
# build and runs oltp_point_select and oltp_read_write (prepared statements) on node1,
# interleaved old new new old so machine drift hits both. Knobs: SB_THREADS=4 SB_TIME=20
# SB_TABLES=2 SB_TABLE_SIZE=10000 ROUNDS=2 NODES=3 (1: a single node)
# AB_TESTS="oltp_point_select oltp_read_write". Prints "tutti ab ..." lines and the mean
# ratio new / old per workload.
set -u -o pipefail
OLD="${1:?usage: bench/ab.sh OLD_BINARY NEW_BINARY}"
NEW="${2:?usage: bench/ab.sh OLD_BINARY NEW_BINARY}"
export SB_THREADS="${SB_THREADS:-4}" SB_TIME="${SB_TIME:-20}" SB_TABLES="${SB_TABLES:-2}"
export SB_TABLE_SIZE="${SB_TABLE_SIZE:-10000}" NODES="${NODES:-3}"
AB_TESTS="${AB_TESTS:-oltp_point_select oltp_read_write}"
ROUNDS="${ROUNDS:-2}"
. "$(dirname "$0")/lib.sh"
results=$(mktemp)
one() {  # one <label> <binary>
  TUTTI="$2" TUTTI_BASE="$(mktemp -d)/ab"
  ensure_cluster
  ensure_data sbtest "$SB_TABLES" "$SB_TABLE_SIZE"
  for test in $AB_TESTS; do
    lf="$LOGDIR/ab-$1-$test.log"
    sb 1 sbtest "$SB_TABLES" "$SB_TABLE_SIZE" "$test" run --threads="$SB_THREADS" \
      --time="$SB_TIME" --events=0 --percentile=95 --db-ps-mode=auto > "$lf" 2>&1 \
      || { tail "$lf"; die "sysbench failed"; }
    line="ab build=$1 test=$test threads=$SB_THREADS time_s=$SB_TIME $(sbparse "$lf")"
    emit "$line"
    echo "$line" >> "$results"
  done
  "$TUTTI" cluster down --base "$TUTTI_BASE" >/dev/null 2>&1
  rm -rf "$(dirname "$TUTTI_BASE")"
}
for _ in $(seq 1 "$ROUNDS"); do
  one old "$OLD"; one new "$NEW"; one new "$NEW"; one old "$OLD"
done
for test in $AB_TESTS; do
  awk -v t="test=$test" '$0 ~ t {
      split($0, f, " "); b=""; tps=0
      for (i in f) { if (f[i] ~ /^build=/) b=substr(f[i], 7); if (f[i] ~ /^tps=/) tps=substr(f[i], 5) }
      s[b]+=tps; n[b]++ }
    END { printf "%s: old %.1f tps, new %.1f tps, new/old %.3f\n", t, s["old"]/n["old"], s["new"]/n["new"], (s["new"]/n["new"])/(s["old"]/n["old"]) }' "$results"
done
rm -f "$results"
