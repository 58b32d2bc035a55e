#!/usr/bin/env bash
# Starts the packaged server in its own JVM, runs the given command with SERVER_PID set, stops it.
# usage: loadtest/scripts/with-server.sh java -jar loadtest/target/sluice-loadtest.jar loop ...
# Server settings pass through the environment (SLUICE_*, JAVA_OPTS).
set -euo pipefail
cd "$(dirname "$0")/../.."
port=${SLUICE_HTTP_PORT:-9324}
export SLUICE_HTTP_PORT=$port
# SERVER_JAVA picks the JVM (a collector comparison runs JDK 17 and 25), SERVER_JAR the build (an
# old and a new build alternate), SERVER_LOG where its output goes.
SERVER_LOG=${SERVER_LOG:-/tmp/sluice-bench.log}
"${SERVER_JAVA:-java}" ${JAVA_OPTS:-} -jar "${SERVER_JAR:-target/sluice.jar}" > "$SERVER_LOG" 2>&1 &
SERVER_PID=$!
export SERVER_PID
trap 'kill $SERVER_PID 2>/dev/null; wait $SERVER_PID 2>/dev/null || true' EXIT
# Ready, not just listening: the port opens before recovery ends.
for _ in $(seq 1 600); do curl -sf -o /dev/null "http://127.0.0.1:$port/health/ready" && break; sleep 0.1; done
echo "== server: ${SERVER_JAVA:-java} ${JAVA_OPTS:-(default flags)}; $(env | grep ^SLUICE_ | sort | tr '\n' ' ')"
"${@//\$SERVER_PID/$SERVER_PID}"
echo "server log problems: $(grep -c -E 'SEVERE|ERROR|blocked' "$SERVER_LOG" || true)"
