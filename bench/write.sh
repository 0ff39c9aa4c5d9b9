#!/usr/bin/env bash
# bench/write.sh - sysbench oltp_write_only and oltp_point_select on node1 of a local 3-node
# tutti cluster, and oltp_write_only spread over all nodes: the same workload as
# `../shared/anchors/galera/bench.sh write`. Knobs: SB_THREADS="4 8" SB_TIME=30 SB_TABLES=4
# SB_TABLE_SIZE=100000 WRITE_ALL=1 TUTTI_BASE=/tmp/tutti-bench. Prints "tutti write_bench ..."
# lines (also appended to bench/results/tutti-results.txt).
. "$(dirname "$0")/lib.sh"
ensure_cluster
ensure_data sbtest "$SB_TABLES" "$SB_TABLE_SIZE"
for th in $SB_THREADS; do
  for test in oltp_write_only oltp_point_select; do
    lf="$LOGDIR/${test}-node1-t$th.log"
    log "$test node1 threads=$th time=${SB_TIME}s"
    sb 1 sbtest "$SB_TABLES" "$SB_TABLE_SIZE" "$test" run --threads="$th" --time="$SB_TIME" \
      --events=0 --report-interval=5 --percentile=95 > "$lf" 2>&1 || { tail "$lf"; die "sysbench failed"; }
    emit "write_bench test=$test target=node1 threads=$th time_s=$SB_TIME tables=$SB_TABLES table_size=$SB_TABLE_SIZE $(sbparse "$lf") cert_failures=$(var 1 wsrep_local_cert_failures)"
  done
  if [ "$WRITE_ALL" = 1 ]; then
    lf="$LOGDIR/oltp_write_only-all-t$th.log"
    log "oltp_write_only all nodes threads=$th"
    sb all sbtest "$SB_TABLES" "$SB_TABLE_SIZE" oltp_write_only run --threads="$th" --time="$SB_TIME" \
      --events=0 --report-interval=5 --percentile=95 > "$lf" 2>&1 || { tail "$lf"; die "sysbench failed"; }
    emit "write_bench test=oltp_write_only target=all_nodes threads=$th time_s=$SB_TIME $(sbparse "$lf")"
  fi
done
