#!/usr/bin/env bash
# bench/rw.sh - sysbench oltp_read_write on node1 of a local 3-node tutti cluster, with
# prepared statements (--db-ps-mode=auto) and without (disable), reporting throughput and the
# rate of errors sysbench ignores and retries (1213 deadlock/certification, 1020 record changed
# since the read view, 1205 lock wait timeout). Knobs: SB_THREADS="4" SB_TIME=30 SB_TABLES=4
# SB_TABLE_SIZE=100000 TUTTI_BASE=/tmp/tutti-bench. Prints "tutti rw_bench ..." lines (also
# appended to bench/results/tutti-results.txt).
. "$(dirname "$0")/lib.sh"
ensure_cluster
ensure_data sbtest "$SB_TABLES" "$SB_TABLE_SIZE"
for th in $SB_THREADS; do
  for ps in auto disable; do
    lf="$LOGDIR/oltp_read_write-node1-t$th-ps$ps.log"
    log "oltp_read_write node1 threads=$th db-ps-mode=$ps time=${SB_TIME}s"
    sb 1 sbtest "$SB_TABLES" "$SB_TABLE_SIZE" oltp_read_write run --threads="$th" --time="$SB_TIME" \
      --events=0 --percentile=95 --db-ps-mode="$ps" > "$lf" 2>&1 || { tail "$lf"; die "sysbench failed"; }
    emit "rw_bench test=oltp_read_write target=node1 threads=$th ps_mode=$ps time_s=$SB_TIME $(sbparse "$lf")"
  done
done
