#!/usr/bin/env bash
# bench/report.sh MODE RAWDIR REPORT.md - turns the suite's results.tsv into the Markdown
# report: machine, versions, settings, every figure, tutti / Galera ratios against the goals,
# and a throughput-over-time plot across kill -9 and rejoin (gnuplot PNG).
set -u -o pipefail
MODE=$1 RAW=$2 REPORT=$3
HERE="$(cd "$(dirname "$0")" && pwd)"
TSV="$RAW/results.tsv"
[ -s "$TSV" ] || { echo "report: no results in $TSV" >&2; exit 1; }
TUTTI="${TUTTI:-$HERE/../target/release/tutti}"

# Per-second tps series for the plot: "<second> <tps>" from sysbench --report-interval=1.
series() { awk '/^\[ *[0-9]+s \]/{t=$2; gsub(/[^0-9]/,"",t); print t, $7}' "$1"; }
PLOT=""
if command -v gnuplot >/dev/null; then
  for c in kill_follower kill_leader; do
    [ -f "$RAW/tutti-$c.log" ] || continue
    series "$RAW/tutti-$c.log" > "$RAW/tutti-$c.dat"
    g=""; [ -f "$RAW/galera-kill_follower.log" ] && series "$RAW/galera-kill_follower.log" > "$RAW/galera-$c.dat" && g=1
    png="$(dirname "$REPORT")/$(basename "$REPORT" .md)-$c.png"
    {
      echo "set terminal png size 900,400"
      echo "set termoption noenhanced"
      echo "set output '$png'"
      echo "set title 'oltp_write_only tps per second, kill -9 ($c) at the dashed line'"
      echo "set xlabel 'seconds'; set ylabel 'tps'; set grid"
      echo "set arrow from ${KILL_AT:-10}, graph 0 to ${KILL_AT:-10}, graph 1 nohead dt 2"
      if [ -n "$g" ]; then
        echo "plot '$RAW/tutti-$c.dat' with lines lw 2 title 'tutti', '$RAW/galera-$c.dat' with lines lw 2 title 'Galera (kill -9 of node3)'"
      else
        echo "plot '$RAW/tutti-$c.dat' with lines lw 2 title 'tutti'"
      fi
    } | gnuplot 2>>"$RAW/gnuplot.err" && PLOT="$PLOT $png"
  done
fi

python3 - "$MODE" "$TSV" "$REPORT" "$TUTTI" "$PLOT" <<'PY'
import sys, subprocess, platform, os, collections
mode, tsv, report, tutti, plots = sys.argv[1:6]
data = collections.defaultdict(dict)
for line in open(tsv):
    c, sysname, metric, value = line.rstrip("\n").split("\t")
    try:
        data[(c, metric)][sysname] = float(value)
    except ValueError:
        pass
def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=10).stdout.strip().splitlines()[0]
    except Exception:
        return "?"
def ratio(c, m):
    d = data.get((c, m), {})
    t, g = d.get("tutti"), d.get("galera")
    return (t, g, (t / g) if t is not None and g else None)
fmt = lambda x: "-" if x is None else (f"{x:.3g}" if abs(x) < 100 else f"{x:,.0f}")
out = []
out.append(f"# tutti vs MariaDB Galera — {mode} suite\n")
mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
out.append(f"- machine: {os.cpu_count()} CPUs, {mem_gib:.0f} GiB RAM, {platform.platform()}")
out.append(f"- tutti: {sh(tutti + ' --version')} (defaults: gcache fsync per Raft round before the ack, SQLite synchronous=NORMAL behind the log)")
out.append(f"- Galera: {sh('mariadbd --version')} with the anchor script's settings (innodb_flush_log_at_trx_commit=1)")
out.append(f"- client: {sh('sysbench --version')}; same workload, same client, interleaved case by case (A B, then B A)")
out.append(f"- settings: see bench/suite.sh mode '{mode}'; raw sysbench output beside this report\n")
goals = [
    ("oltp_write_only_node1_t4", "tps", ">= 2", lambda r: r >= 2),
    ("oltp_write_only_node1_t8", "tps", ">= 2", lambda r: r >= 2),
    ("oltp_write_only_node1_t4", "p95_ms", "<= 0.5", lambda r: r <= 0.5),
    ("oltp_write_only_node1_t8", "p95_ms", "<= 0.5", lambda r: r <= 0.5),
    ("oltp_write_only_all_t8", "tps", ">= 3", lambda r: r >= 3),
    ("oltp_point_select_node1_t4", "tps", ">= 1", lambda r: r >= 1),
    ("oltp_point_select_node1_t8", "tps", ">= 1", lambda r: r >= 1),
    ("ist", "catchup_ws_per_s", ">= 10", lambda r: r >= 10),
    ("ist_idle", "rejoin_s", "<= 0.25", lambda r: r <= 0.25),
    ("kill_follower", "worst_latency_ms", "<= 0.1", lambda r: r <= 0.1),
]
out.append("## Goals\n")
out.append("| case | metric | tutti | Galera | ratio | goal | met |")
out.append("|---|---|---|---|---|---|---|")
for c, m, goal, ok in goals:
    t, g, r = ratio(c, m)
    out.append(f"| {c} | {m} | {fmt(t)} | {fmt(g)} | {fmt(r)} | {goal} | {'-' if r is None else ('yes' if ok(r) else 'no')} |")
t = data.get(("kill_leader", "worst_latency_ms"), {}).get("tutti")
g = data.get(("kill_follower", "worst_latency_ms"), {}).get("galera")
r = t / g if t is not None and g else None
out.append(f"| kill_leader (Galera: its node kill) | worst_latency_ms | {fmt(t)} | {fmt(g)} | {fmt(r)} | <= 0.35 | {'-' if r is None else ('yes' if r <= 0.35 else 'no')} |")
rss = {s: max([v.get(s, 0) for (c, m), v in data.items() if c == 'memory' and m.endswith('peak_rss_kb')] or [0]) for s in ('tutti', 'galera')}
r = rss['tutti'] / rss['galera'] if rss['galera'] else None
out.append(f"| memory | peak RSS per node (max, kB) | {fmt(rss['tutti'])} | {fmt(rss['galera'] or None)} | {fmt(r)} | <= 0.5 | {'-' if r is None else ('yes' if r <= 0.5 else 'no')} |")
out.append("\nDefinitions: `catchup_ws_per_s` is, for tutti, the apply rate of the IST itself (from `/status`), and for Galera the write-sets of the IST divided by the whole rejoin time (the anchor does not report the apply phase alone), so that ratio favours tutti; `rejoin_s` (start to Synced, both systems) is the like-for-like figure. Galera has no leader: its kill case (node3) is the comparison for both tutti kill cases.")
out.append("\n## Every figure\n")
out.append("| case | metric | tutti | Galera | tutti / Galera |")
out.append("|---|---|---|---|---|")
for (c, m) in sorted(data):
    t, g, r = ratio(c, m)
    out.append(f"| {c} | {m} | {fmt(t)} | {fmt(g)} | {fmt(r)} |")
for p in plots.split():
    out.append(f"\n![{os.path.basename(p)}]({os.path.basename(p)})")
out.append(f"\nRaw output: `{os.path.relpath(os.path.dirname(tsv), os.path.dirname(report))}/`.")
if mode == "smoke":
    out.append("\nSmoke mode: tutti only, seconds-long runs; it checks the plumbing, not the speed.")
open(report, "w").write("\n".join(out) + "\n")
PY
