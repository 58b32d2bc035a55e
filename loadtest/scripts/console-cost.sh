#!/usr/bin/env bash
# What the console's sampling costs the queues it watches: open loops of SendMessage at a fixed
# rate against a server holding many idle queues (each sampled every tick), with the console on and
# off, alternated. Latency is recorded with coordinated omission corrected (the load generator's
# open-loop schedule), and the server's CPU per request from /proc.
#
# usage: loadtest/scripts/console-cost.sh OUTDIR
# env:   QUEUES (10000 idle queues), RATE (SendMessage requests/s, default 8000), ROUNDS (2),
#        WARMUP (10), DURATION (30), SAMPLE_MILLIS (console.sampleMillis when on; default 1000,
#        five times the default rate, so a difference shows if there is one)
# Build first: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: console-cost.sh OUTDIR}
QUEUES=${QUEUES:-10000}; RATE=${RATE:-8000}; ROUNDS=${ROUNDS:-2}; WARMUP=${WARMUP:-10}; DURATION=${DURATION:-30}
SAMPLE_MILLIS=${SAMPLE_MILLIS:-1000}
LOADGEN=loadtest/target/sluice-loadtest.jar
mkdir -p "$out"
config="$out/idle-queues.yaml"
{ echo "queues:"; for i in $(seq 1 "$QUEUES"); do echo "  - name: idle-$i"; done; } > "$config"

run() { # on|off DIR
  local console=$1 dir=$2
  mkdir -p "$dir"
  SLUICE_CONFIG=$config SLUICE_CONSOLE_ENABLED=$([ "$console" = on ] && echo true || echo false) \
  SLUICE_CONSOLE_SAMPLE_MILLIS=$SAMPLE_MILLIS SERVER_LOG=$dir/server.log \
  JAVA_OPTS="-Xms2g -Xmx2g -XX:MaxGCPauseMillis=10 -XX:+AlwaysPreTouch" \
    loadtest/scripts/with-server.sh java -Xms1g -Xmx1g -jar "$LOADGEN" send --rate "$RATE" \
      --warmup "$WARMUP" --duration "$DURATION" --out "$dir" --server-pid '$SERVER_PID' > "$dir/summary.txt" 2>&1 \
    || echo "run failed: $dir" >&2
  echo "== console $console: $dir"; grep -E 'req/s|CPU per|service time|generator lag' "$dir/summary.txt" || true
}

for round in $(seq 1 "$ROUNDS"); do
  run on "$out/r$round-on"
  run off "$out/r$round-off"
done
