#!/usr/bin/env bash
# Starts the packaged server in its own JVM, warms it up, then measures one wrk scenario.
# usage: loadtest/scripts/wrk-bench.sh send|send-batch [warmup-seconds] [measure-seconds] [connections]
# Extra server settings pass through the environment (e.g. SLUICE_ENGINE_DISPATCH=eventbus).
set -euo pipefail
cd "$(dirname "$0")/../.."
scenario=${1:-send}; warmup=${2:-30}; measure=${3:-20}; conns=${4:-64}
port=${SLUICE_HTTP_PORT:-9324}
export SLUICE_HTTP_PORT=$port
# SERVER_JAVA picks the JVM (a collector comparison runs JDK 17 and 25), SERVER_JAR the build (an
# old and a new build alternate), SERVER_LOG where its output goes.
SERVER_LOG=${SERVER_LOG:-/tmp/sluice-bench.log}
"${SERVER_JAVA:-java}" ${JAVA_OPTS:-} -jar "${SERVER_JAR:-target/sluice.jar}" > "$SERVER_LOG" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
# Ready, not just listening: the port opens before recovery ends.
for _ in $(seq 1 600); do curl -sf -o /dev/null "http://127.0.0.1:$port/health/ready" && break; sleep 0.1; done
curl -s -X POST -H 'X-Amz-Target: AmazonSQS.CreateQueue' -H 'Content-Type: application/x-amz-json-1.0' \
  -d '{"QueueName":"bench"}' "http://127.0.0.1:$port/" > /dev/null
export QUEUE_URL="http://127.0.0.1:$port/000000000000/bench"
wrk -t2 -c"$conns" -d"${warmup}s" -s "loadtest/wrk/$scenario.lua" "http://127.0.0.1:$port/" > /dev/null
echo "== $scenario: wrk -t2 -c$conns -d${measure}s after ${warmup}s warm-up (server: ${SERVER_JAVA:-java} ${JAVA_OPTS:-(default flags)}; $(env | grep ^SLUICE_ | tr '\n' ' '))"
wrk -t2 -c"$conns" -d"${measure}s" --latency -s "loadtest/wrk/$scenario.lua" "http://127.0.0.1:$port/" | grep -E "Requests/sec|Latency|50%|99%|Non-2xx|Socket errors"
echo "server RSS: $(( $(grep VmRSS /proc/$pid/status | awk '{print $2}') / 1024 )) MB; errors in log: $(grep -c -E 'SEVERE|ERROR|blocked' "$SERVER_LOG" || true)"
