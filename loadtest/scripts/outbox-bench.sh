#!/usr/bin/env bash
# The outbox relay benchmark (src/site/markdown/outbox.md): an application commits rows into the
# outbox table of its own PostgreSQL, Sluice's relay moves them into a durable queue (storage
# postgres, durability commit, on a second PostgreSQL), consumers receive and delete.
#
# latency: for each MODE × RATE, a fresh server and the `outbox` scenario's latency phase: an open
#   loop of commits for WARMUP + DURATION seconds, each row's body carrying its intended commit
#   time; latency from that time to a consumer's receive (p50/p99/p99.9/max), rows relayed a second,
#   outbox rows left. Modes: notify (the relay LISTENs on `sluice_outbox` and polls every
#   NOTIFY_POLL_MILLIS as a fallback) and poll (no LISTEN, a poll every POLL_MILLIS). Polling is
#   given 100 ms by default, the interval an operator wanting low latency without NOTIFY would set:
#   at the relay's 1,000 ms a poller's latency is its interval's half by construction and the
#   comparison says nothing (POLL_MILLIS=1000 shows it); the price of a short interval is its
#   rounds on the application's database, which the line's "relay wake-ups" (notify and poll a
#   second, from the admin API) show.
# drain: DRAIN_ROWS committed in one transaction to the outbox of a server in notify mode, no
#   consumer; the time until the outbox is empty and the queue holds exactly DRAIN_ROWS, rows/s and
#   the server's RSS once a second, the live heap after a full GC before, half-way and after.
#
# Two throwaway PostgreSQL servers (with-postgres.sh, fsync on): the application's on APP_PGPORT
# and Sluice's store on PGPORT, as in a deployment where the relay reads another service's
# database, so neither's WAL and fsyncs are the other's. Every server runs with SERVER_HEAP.
#
# usage: loadtest/scripts/outbox-bench.sh [latency] [drain]      (default: both)
# settings (defaults): OUT (loadtest/results/<date>-<commit>-outbox-bench.txt), MODES ("notify poll"),
#   RATES ("1000:1 10000:10": rows/s and rows per commit; one row per commit at 1,000/s, the common
#   case of an event per business transaction; ten at 10,000/s, as 10,000 single-row commits a second
#   with fsync measure the application's database on 2 cores, not the relay), WARMUP (10),
#   DURATION (60), CONSUMERS (32), BODY (100), BATCH_SIZE (100, the relay's batchSize),
#   POLL_MILLIS (100), NOTIFY_POLL_MILLIS (1000), DRAIN_ROWS (1000000), DRAIN_MAX_SECONDS (3600),
#   SERVER_HEAP (-Xmx512m), SLUICE_HTTP_PORT (9324), APP_PGPORT (5611), PGPORT (5612),
#   PG_SETTINGS ("-c shared_buffers=256MB -c max_wal_size=4GB", both servers), APP_PG_SETTINGS
#   (PG_SETTINGS and synchronous_commit off: the application's), STORE_PG_SETTINGS (PG_SETTINGS).
# About 9 minutes on 2 cores with the defaults (4 × 71 s of latency runs, the drain's fill and relay).
# writes: OUT (one line per run), OUT's .log (every run's output, the servers' complaints), the
#   histograms of each latency run in OUT's -runs/<mode>-<rate>/ (latency.hgrm from the intended
#   commit, service.hgrm from the commit's acknowledgement, lag.hgrm the application's own commit,
#   per-second.csv), the drain's CSV in OUT's -drain.csv and its plot in OUT's -drain.svg.
# needs: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package; PostgreSQL's binaries.
set -euo pipefail
cd "$(dirname "$0")/../.."
self=$PWD/loadtest/scripts/$(basename "$0") # run again inside each PostgreSQL
export OUT=${OUT:-loadtest/results/$(date +%F)-$(git rev-parse --short HEAD)-outbox-bench.txt}
export LOG=${OUT%.txt}.log
export MODES=${MODES:-notify poll} RATES=${RATES:-1000:1 10000:10}
export WARMUP=${WARMUP:-10} DURATION=${DURATION:-60} CONSUMERS=${CONSUMERS:-32} BODY=${BODY:-100}
export BATCH_SIZE=${BATCH_SIZE:-100} POLL_MILLIS=${POLL_MILLIS:-100} NOTIFY_POLL_MILLIS=${NOTIFY_POLL_MILLIS:-1000}
export DRAIN_ROWS=${DRAIN_ROWS:-1000000} DRAIN_MAX_SECONDS=${DRAIN_MAX_SECONDS:-3600}
export SERVER_HEAP=${SERVER_HEAP:--Xmx512m} SLUICE_HTTP_PORT=${SLUICE_HTTP_PORT:-9324}
export APP_PGPORT=${APP_PGPORT:-5611} STORE_PGPORT=${STORE_PGPORT:-${PGPORT:-5612}}
export PG_SETTINGS=${PG_SETTINGS:-"-c shared_buffers=256MB -c max_wal_size=4GB"}
# The application's commits are not what is measured: without synchronous_commit, 1,000 single-row
# commits a second fit beside the store's fsyncs on one disk (with it, the application fell seconds
# behind its schedule and the runs were invalid). Sluice's store keeps fsync and synchronous commit.
export STORE_PG_SETTINGS=${STORE_PG_SETTINGS:-$PG_SETTINGS}
export APP_PG_SETTINGS=${APP_PG_SETTINGS:-"$PG_SETTINGS -c synchronous_commit=off"}
PHASES=("$@"); [ ${#PHASES[@]} -eq 0 ] && PHASES=(latency drain)

case "${OUTBOX_BENCH_STAGE:-}" in
  "") # the header, then the application's PostgreSQL around the rest
    for jar in target/sluice.jar loadtest/target/sluice-loadtest.jar; do
      [ -f "$jar" ] || { echo "missing $jar: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package" >&2; exit 2; }
    done
    mkdir -p "$(dirname "$OUT")"
    echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) $(nproc) cores, $(java -version 2>&1 | head -1);" \
      "modes $MODES (poll every $POLL_MILLIS ms; notify's fallback poll $NOTIFY_POLL_MILLIS ms), rates $RATES" \
      "(rows/s:rows per commit), ${WARMUP} s warm-up + ${DURATION} s, $CONSUMERS consumers, $BODY B bodies," \
      "batchSize $BATCH_SIZE, drain of $DRAIN_ROWS rows; server $SERVER_HEAP, storage postgres, durability commit;" \
      "application database: $APP_PG_SETTINGS; store: $STORE_PG_SETTINGS" | tee -a "$OUT"
    PG_SETTINGS=$APP_PG_SETTINGS PGPORT=$APP_PGPORT OUTBOX_BENCH_STAGE=app exec loadtest/scripts/with-postgres.sh \
      "$self" "$@" ;;
  app) # the application's database is up: its URL kept, Sluice's own store around the runs
    export OUTBOX_APP_URL=$SLUICE_PG_URL
    PG_SETTINGS=$STORE_PG_SETTINGS PGPORT=$STORE_PGPORT OUTBOX_BENCH_STAGE=store exec \
      loadtest/scripts/with-postgres.sh "$self" "$@" ;;
  store) ;; # both databases up: the runs below
  *) echo "unknown OUTBOX_BENCH_STAGE $OUTBOX_BENCH_STAGE" >&2; exit 2 ;;
esac

export SLUICE_DURABILITY=commit JAVA_OPTS="$SERVER_HEAP" SERVER_LOG=${SERVER_LOG:-/tmp/sluice-outbox-bench.log}
runs=${OUT%.txt}-runs
mkdir -p "$runs"

# The relay's configuration (keys of src/site/markdown/outbox.md): one source, the application's
# database (its url takes no user: that is the key user; with-postgres.sh trusts local connections).
source_json() { # mode
  local poll=$NOTIFY_POLL_MILLIS channel=sluice_outbox
  [ "$1" = poll ] && { poll=$POLL_MILLIS; channel=""; }
  printf '[{"name":"bench","url":"postgresql://127.0.0.1:%d/postgres","user":"postgres","createTable":true,"batchSize":%d,"pollIntervalMillis":%d,"notifyChannel":"%s"}]' \
    "$APP_PGPORT" "$BATCH_SIZE" "$poll" "$channel"
}

# One server, one probe run; its summary line (the probe's lines without their label) to OUT.
probe() { # label mode probe-options...
  local label=$1 mode=$2 out rc=0 line
  shift 2
  out=$(SLUICE_OUTBOX_SOURCES=$(source_json "$mode") loadtest/scripts/with-server.sh \
    java -jar loadtest/target/sluice-loadtest.jar outbox --url "http://127.0.0.1:$SLUICE_HTTP_PORT" \
    --app-url "$OUTBOX_APP_URL" --body-bytes "$BODY" --server-pid '$SERVER_PID' "$@" 2>&1) || rc=$?
  { echo "== $label"; echo "$out"
    grep -E 'SEVERE|ERROR|WARN|blocked' "$SERVER_LOG" | head -20 | sed 's/^/server log: /' || true; } >> "$LOG"
  line=$(echo "$out" | { grep -E '^outbox (latency|drain): ' || true; } \
    | sed -E 's/^outbox (latency|drain): //' | paste -sd'|' | sed 's/|/ | /g')
  [ "$rc" = 0 ] || line="$line | FAILED (exit $rc): $(echo "$out" | { grep -m1 -E 'Exception|Error' || true; })"
  echo "$label: $line" | tee -a "$OUT"
}

for phase in "${PHASES[@]}"; do
  case "$phase" in
    latency)
      for mode in $MODES; do
        for r in $RATES; do
          rate=${r%%:*} per_commit=${r#*:}
          probe "$mode, $rate rows/s in commits of $per_commit" "$mode" --phase latency --rate "$rate" \
            --rows-per-commit "$per_commit" --warmup "$WARMUP" --duration "$DURATION" --consumers "$CONSUMERS" \
            --out "$runs/$mode-$rate"
        done
      done ;;
    drain)
      csv=${OUT%.txt}-drain.csv
      probe "drain of $DRAIN_ROWS rows, notify" notify --phase drain --prefill "$DRAIN_ROWS" --csv "$csv" \
        --max-seconds "$DRAIN_MAX_SECONDS"
      [ -s "$csv" ] || continue # the drain failed before its first second
      # plot-backlog.py's layout (rss.csv, <pass>-drain.csv, phases.csv, summary.txt's title) from the CSV.
      plot=$(mktemp -d /tmp/outbox-drain-plot.XXXXXX)
      awk -F, 'NR > 1 && $6 >= 0 { print $1 "," $6 ",1" } BEGIN { print "t_seconds,rss_kb,pid" }' "$csv" > "$plot/rss.csv"
      awk -F, 'NR > 1 { print $1 "," $3 "," $2 } BEGIN { print "t_seconds,msgs_per_s,total" }' "$csv" > "$plot/main-drain.csv"
      awk -F, 'NR > 1 { last = $1 } END { print "phase,start_t,end_t"; print "drain," 0 "," last }' "$csv" > "$plot/phases.csv"
      echo "Outbox drain of $DRAIN_ROWS rows (rows relayed/s, server RSS), $(date +%F), commit $(git rev-parse --short HEAD)" > "$plot/summary.txt"
      python3 loadtest/scripts/plot-backlog.py "$plot" "${OUT%.txt}-drain.svg" || true
      rm -rf "$plot" ;;
    *) echo "unknown phase $phase" >&2; exit 2 ;;
  esac
done
