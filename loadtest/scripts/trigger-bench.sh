#!/usr/bin/env bash
# The trigger benchmark (design/triggers.md §4, step 8): the `trigger` scenario for concurrency
# 1, 10 and 100 × BatchSize 1 and 10, each on a fresh server in memory; with `postgres`, concurrency
# 10 × batch 10 once more on a throwaway PostgreSQL (durability commit, fsync on).
# Each run: WARMUP_MESSAGES through a trigger on a queue of their own (a fresh server's JIT would
# otherwise be what the short phases measure); a disabled trigger, its queue filled, the trigger
# enabled (throughput from the first invoke to the last message at the no-op target); then an open
# loop of sends at RATE_FRACTION of that throughput on a second queue (latency from each message's
# intended send time to its arrival at the target).
# One line per run to OUT, every run's whole output to OUT's .log beside it.
# usage: loadtest/scripts/trigger-bench.sh [memory] [postgres]     (default: both)
# settings: OUT (loadtest/results/<date>-<commit>-trigger-bench.txt), CONCURRENCIES ("1 10 100"),
#   BATCHES ("1 10"), MESSAGES_B1 (10000) and MESSAGES_B10 (30000) queued for batch 1 and batch 10
#   (MESSAGES sets both; the design's figure is 200000), WARMUP_MESSAGES (20000), BODY (1024),
#   WARMUP (2) and DURATION (5) seconds of the latency phase, RATE_FRACTION (0.5), MAX_SECONDS (60)
#   for a throughput phase, SLUICE_HTTP_PORT (9324), PGPORT (5596), SLUICE_MANAGEMENT_TOKEN (one
#   made up for the run).
# About 3 minutes on 2 cores with the defaults.
# Needs both jars: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package
set -euo pipefail
cd "$(dirname "$0")/../.."
PHASES=("$@"); [ ${#PHASES[@]} -eq 0 ] && PHASES=(memory postgres)
export OUT=${OUT:-loadtest/results/$(date +%F)-$(git rev-parse --short HEAD)-trigger-bench.txt}
export CONCURRENCIES=${CONCURRENCIES:-1 10 100} BATCHES=${BATCHES:-1 10}
export MESSAGES_B1=${MESSAGES:-${MESSAGES_B1:-10000}} MESSAGES_B10=${MESSAGES:-${MESSAGES_B10:-30000}}
export WARMUP_MESSAGES=${WARMUP_MESSAGES:-20000} BODY=${BODY:-1024}
export WARMUP=${WARMUP:-2} DURATION=${DURATION:-5} RATE_FRACTION=${RATE_FRACTION:-0.5}
export MAX_SECONDS=${MAX_SECONDS:-60} SLUICE_HTTP_PORT=${SLUICE_HTTP_PORT:-9324}
# The server and the load generator read the same variable: the token only lives as long as the run.
export SLUICE_MANAGEMENT_TOKEN=${SLUICE_MANAGEMENT_TOKEN:-trigger-bench-$$}
LOG=${OUT%.txt}.log
export LOG
mkdir -p "$(dirname "$OUT")"
echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) $(nproc) cores, $(java -version 2>&1 | head -1);" \
  "messages $MESSAGES_B1 (batch 1) / $MESSAGES_B10 (batch 10) of $BODY B after $WARMUP_MESSAGES to warm up;" \
  "latency at $RATE_FRACTION of the throughput, ${WARMUP} s warm-up + ${DURATION} s" | tee -a "$OUT"
run() { # concurrency batch
  local messages=$MESSAGES_B10 out rc=0 line
  [ "$2" = 1 ] && messages=$MESSAGES_B1
  out=$(loadtest/scripts/with-server.sh java -jar loadtest/target/sluice-loadtest.jar trigger \
    --url "http://127.0.0.1:$SLUICE_HTTP_PORT" --concurrency "$1" --batch "$2" --messages "$messages" \
    --warmup-messages "$WARMUP_MESSAGES" --body-bytes "$BODY" --warmup "$WARMUP" --duration "$DURATION" --rate-fraction "$RATE_FRACTION" \
    --max-seconds "$MAX_SECONDS" --queue "trig-c$1-b$2" --server-pid '$SERVER_PID' 2>&1) || rc=$?
  { echo "== concurrency $1, batch $2, ${SLUICE_STORAGE:-memory}"; echo "$out"
    # with-server.sh's log of this server, overwritten by the next run: what it complained of.
    grep -E 'SEVERE|ERROR|WARN|blocked' "${SERVER_LOG:-/tmp/sluice-bench.log}" | head -20 | sed 's/^/server log: /' || true; } >> "$LOG"
  # The probe's lines without their label (the line starts with it), joined with " | ".
  line=$(echo "$out" | { grep -E '^(trigger (throughput|latency|last error)|server log problems)' || true; } \
    | sed -E 's/^trigger (throughput|latency): [^:]*: /\1: /' | paste -sd'|' | sed 's/|/ | /g')
  [ "$rc" = 0 ] || line="$line | FAILED (exit $rc): $(echo "$out" | { grep -m1 -E 'Exception|Error' || true; })"
  echo "concurrency $1, batch $2, ${SLUICE_STORAGE:-memory}: $line" | tee -a "$OUT"
}
for phase in "${PHASES[@]}"; do
  case "$phase" in
    memory)
      for c in $CONCURRENCIES; do
        for b in $BATCHES; do run "$c" "$b"; done
      done ;;
    postgres)
      PGPORT=${PGPORT:-5596} SLUICE_DURABILITY=commit loadtest/scripts/with-postgres.sh \
        bash -c "set -euo pipefail; $(declare -f run); run 10 10" ;;
    *) echo "unknown phase $phase" >&2; exit 2 ;;
  esac
done
