#!/usr/bin/env bash
# One pass of the backlog benchmark, run by backlog-bench.sh inside with-postgres.sh (which exports
# SLUICE_STORAGE, SLUICE_PG_URL and PGPORT): starts the server itself, so that its exec-to-ready
# time and its PID are known; fills NAME's backlog; records what PostgreSQL holds and how many rows
# each transaction carried; stops the server cleanly and starts it again, timing exec to
# /health/ready = 200 with the backlog in the database; drains; stops it again.
# usage (from backlog-bench.sh): with-postgres.sh backlog-pass.sh NAME MESSAGES
# needs: BENCH_OUT, BENCH_T0 (epoch ms of the run's time axis), SLUICE_HTTP_PORT, and optionally
# SERVER_HEAP, BODY_BYTES, FILL_USERS, DRAIN_USERS, WARMUP_MESSAGES, PHASE_TIMEOUT, READY_TIMEOUT
# (see backlog-bench.sh).
# Writes BENCH_OUT/NAME-{fill.csv,fill.txt,drain.csv,drain.txt,server.log,values.txt} and appends to
# phases.csv; keeps BENCH_OUT/server.pid naming the running server for the RSS sampler.
set -euo pipefail
cd "$(dirname "$0")/../.."
name=$1 messages=$2 out=$BENCH_OUT
url=http://127.0.0.1:$SLUICE_HTTP_PORT
phase_timeout=${PHASE_TIMEOUT:-3600}
values=$out/$name-values.txt
: > "$values"
server_pid=

now_t() { local ms=$(( $(date +%s%3N) - BENCH_T0 )); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }
value() { echo "$1=$2" >> "$values"; echo "[$name] $1=$2"; }
sql() { psql -h 127.0.0.1 -p "$PGPORT" -U postgres -At -F ' ' -c "$1"; }
loadtest() { # LABEL SCENARIO OPTIONS...: output to NAME-LABEL.csv and NAME-LABEL.txt
  timeout $((phase_timeout + 120)) java -jar loadtest/target/sluice-loadtest.jar "$2" --url "$url" \
    --csv "$out/$name-$1.csv" --t0-epoch-ms "$BENCH_T0" --max-seconds "$phase_timeout" "${@:3}" | tee "$out/$name-$1.txt"
}
# With WARMUP_MESSAGES, fills and drains a queue of its own after each start, so that the measured
# phases do not pay for the JIT's warm-up: that would weigh far more on a 100,000-message baseline's
# few seconds than on a 10M run, and flatter the comparison.
warm_up() {
  [ "${WARMUP_MESSAGES:-0}" -gt 0 ] || return 0
  local start
  start=$(now_t)
  loadtest warmup-fill fill --queue warmup --messages "$WARMUP_MESSAGES" --body-bytes "${BODY_BYTES:-1024}" \
    --users "${FILL_USERS:-32}" > /dev/null
  loadtest warmup-drain drain --queue warmup --users "${DRAIN_USERS:-64}" > /dev/null
  echo "$name-warmup,$start,$(now_t)" >> "$out/phases.csv"
}
summary() { sed -n "s/.*summary: .*\b$2=\([^ ]*\).*/\1/p" "$out/$name-$1.txt"; }

# Starts the server and waits for readiness, polling every 50 ms; sets server_pid and ready_ms.
start_server() {
  local t0 deadline
  t0=$(date +%s%N)
  deadline=$(( $(date +%s) + ${READY_TIMEOUT:-600} ))
  java ${SERVER_HEAP:--Xmx512m} -jar target/sluice.jar >> "$out/$name-server.log" 2>&1 &
  server_pid=$!
  echo "$server_pid" > "$out/server.pid"
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/health/ready")" = 200 ]; do
    kill -0 "$server_pid" 2>/dev/null || { echo "[$name] the server exited before it was ready" >&2; exit 1; }
    [ "$(date +%s)" -lt "$deadline" ] || { echo "[$name] the server was not ready in time" >&2; exit 1; }
    sleep 0.05
  done
  ready_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# SIGTERM, as an orchestrator would stop it; KILL only past two minutes. Sets stop_ms and stop_code.
stop_server() {
  local t0
  t0=$(date +%s%N)
  kill -TERM "$server_pid"
  for _ in $(seq 1 1200); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$server_pid" 2>/dev/null && kill -KILL "$server_pid"
  stop_code=0
  wait "$server_pid" || stop_code=$?
  stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  server_pid=
  : > "$out/server.pid"
}
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; : > "$out/server.pid"' EXIT

sizes() { # after PHASE: the table (heap and TOAST), its indexes, and its rows by the statistics
  read -r table indexes live <<< "$(sql "SELECT pg_table_size('sluice_messages'), pg_indexes_size('sluice_messages'),
      (SELECT n_live_tup FROM pg_stat_user_tables WHERE relname = 'sluice_messages')")"
  value "table_bytes_after_$1" "$table"
  value "index_bytes_after_$1" "$indexes"
  value "live_rows_after_$1" "$live"
}
queue_count() {
  curl -sf -X POST "$url/" -H "X-Amz-Target: AmazonSQS.GetQueueAttributes" \
    -H "Content-Type: application/x-amz-json-1.0" \
    -d "{\"QueueUrl\":\"$url/000000000000/backlog\",\"AttributeNames\":[\"ApproximateNumberOfMessages\"]}" |
    sed -n 's/.*"ApproximateNumberOfMessages":"\([0-9]*\)".*/\1/p'
}

value messages "$messages"
start=$(now_t); start_server; echo "$name-start,$start,$(now_t)" >> "$out/phases.csv"
value ready_ms_empty "$ready_ms"
warm_up

# Fill. The counters are read again after the server has stopped: its connections have closed by
# then, so PostgreSQL has folded their statistics in, and every acknowledged write has committed.
read -r xact0 ins0 <<< "$(sql "SELECT xact_commit, tup_inserted FROM pg_stat_database WHERE datname = 'postgres'")"
start=$(now_t)
loadtest fill fill --queue backlog --messages "$messages" --body-bytes "${BODY_BYTES:-1024}" --batch 10 \
  --users "${FILL_USERS:-32}"
echo "$name-fill,$start,$(now_t)" >> "$out/phases.csv"
for key in msgs_per_s seconds throttled_retries unavailable_retries entries_resent; do
  value "fill_$key" "$(summary fill "$key")"
done
start=$(now_t); stop_server; echo "$name-stop,$start,$(now_t)" >> "$out/phases.csv"
value stop_ms_after_fill "$stop_ms"
value stop_code_after_fill "$stop_code"
read -r xact1 ins1 <<< "$(sql "SELECT xact_commit, tup_inserted FROM pg_stat_database WHERE datname = 'postgres'")"
value fill_transactions $((xact1 - xact0))
value fill_rows_inserted $((ins1 - ins0))
value fill_rows_per_transaction "$(awk -v r=$((ins1 - ins0)) -v x=$((xact1 - xact0)) 'BEGIN {printf "%.1f", x ? r / x : 0}')"
sizes fill

# Restart with the backlog in the database: exec to ready.
start=$(now_t); start_server; echo "$name-restart,$start,$(now_t)" >> "$out/phases.csv"
value ready_ms "$ready_ms"
value visible_after_restart "$(queue_count)"
warm_up

start=$(now_t)
loadtest drain drain --queue backlog --users "${DRAIN_USERS:-64}"
echo "$name-drain,$start,$(now_t)" >> "$out/phases.csv"
for key in msgs_per_s seconds received duplicates delete_failures throttled_retries unavailable_retries; do
  value "drain_$key" "$(summary drain "$key")"
done
start=$(now_t); stop_server; echo "$name-stop,$start,$(now_t)" >> "$out/phases.csv"
value stop_code_after_drain "$stop_code"
sizes drain
value server_log_problems "$(grep -c -E 'SEVERE|ERROR|OutOfMemoryError|mismatch' "$out/$name-server.log" || true)"
value server_log_warnings "$(grep -c WARNING "$out/$name-server.log" || true)"
