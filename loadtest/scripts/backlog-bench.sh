#!/usr/bin/env bash
# The "backlog beyond memory" benchmark (issue 16; design page paged-backlog.md, §4 "Benchmark"):
# a server at -Xmx512m on PostgreSQL is filled with MESSAGES messages of 1 KB (SendMessageBatch,
# 32 users), stopped cleanly, started again (exec to /health/ready = 200 timed), and drained by 64
# consumers. The same pass runs first on a BASELINE_MESSAGES backlog, for the fill and drain rates
# to be compared (target: the large backlog at 70% or more of the baseline). Each pass has its own
# throwaway PostgreSQL (with-postgres.sh), so that the baseline's table is not measured with the
# large run's dead rows. The server's VmRSS is sampled once a second for the whole run.
#
# usage: loadtest/scripts/backlog-bench.sh [MESSAGES] [OUTDIR]
#   MESSAGES  default 10000000; OUTDIR default loadtest/results/backlog-<date>
# environment (defaults):
#   BASELINE_MESSAGES (100000; 0 skips the baseline pass), SLUICE_HTTP_PORT (9324), PGPORT (5599),
#   PG_SETTINGS ("-c shared_buffers=1GB -c max_wal_size=8GB"), SERVER_HEAP (-Xmx512m),
#   BODY_BYTES (1024), FILL_USERS (32), DRAIN_USERS (64), WARMUP_MESSAGES (0: none; else a queue
#   of its own is filled and drained with that many after each start, before the measured phase),
#   PHASE_TIMEOUT (3600 s for a fill or a drain), READY_TIMEOUT (600 s for a start); other SLUICE_*
#   variables reach the server.
# needs: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package; PostgreSQL's binaries.
# writes to OUTDIR: summary.txt, rss.csv (t_seconds,rss_kb,pid), phases.csv (phase,start_t,end_t),
#   <pass>-fill.csv and <pass>-drain.csv (t_seconds,msgs_per_s,total), <pass>-{fill,drain}.txt,
#   <pass>-values.txt, <pass>-server.log, bench.log; every t_seconds counts from the run's start.
#   Then the plot: loadtest/scripts/plot-backlog.py OUTDIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
messages=${1:-10000000}
out=${2:-loadtest/results/backlog-$(date +%F)}
baseline=${BASELINE_MESSAGES:-100000}
for jar in target/sluice.jar loadtest/target/sluice-loadtest.jar; do
  [ -f "$jar" ] || { echo "missing $jar: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
BENCH_T0=$(date +%s%3N)
export BENCH_OUT=$out BENCH_T0 SLUICE_HTTP_HOST=127.0.0.1
export SLUICE_HTTP_PORT=${SLUICE_HTTP_PORT:-9324} PGPORT=${PGPORT:-5599}
export PG_SETTINGS=${PG_SETTINGS:-"-c shared_buffers=1GB -c max_wal_size=8GB"}
echo "t_seconds,rss_kb,pid" > "$out/rss.csv"
echo "phase,start_t,end_t" > "$out/phases.csv"
: > "$out/bench.log"
: > "$out/server.pid"
rm -f "$out"/*-values.txt

# The sampler follows whichever server backlog-pass.sh has running (server.pid), across restarts.
touch "$out/.sampling"
(
  while [ -f "$out/.sampling" ]; do
    pid=$(cat "$out/server.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [ -n "$rss" ]; then
      ms=$(( $(date +%s%3N) - BENCH_T0 ))
      printf '%d.%d,%s,%s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$rss" "$pid" >> "$out/rss.csv"
    fi
    sleep 1
  done
) &
sampler=$!
trap 'rm -f "$out/.sampling" "$out/server.pid"; wait $sampler 2>/dev/null || true' EXIT

passes=()
[ "$baseline" -gt 0 ] && passes+=("baseline:$baseline")
passes+=("main:$messages")
for pass in "${passes[@]}"; do
  echo "== pass ${pass%%:*}: ${pass#*:} messages; $(date -Is)" | tee -a "$out/bench.log"
  loadtest/scripts/with-postgres.sh loadtest/scripts/backlog-pass.sh "${pass%%:*}" "${pass#*:}" 2>&1 |
    tee -a "$out/bench.log" || { echo "pass ${pass%%:*} failed: see $out/bench.log" >&2; exit 1; }
done
rm -f "$out/.sampling"
wait $sampler || true

loadtest/scripts/backlog-summary.sh "$out" "BASELINE_MESSAGES=$baseline WARMUP_MESSAGES=${WARMUP_MESSAGES:-0} $0 $*" | tee "$out/summary.txt"
if command -v python3 >/dev/null; then
  python3 loadtest/scripts/plot-backlog.py "$out"
fi
