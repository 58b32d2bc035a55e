#!/usr/bin/env bash
# CPU per message in durable mode (durability commit): wrk SendMessageBatch (10 x 100 B, 64
# connections) against a server on a throwaway PostgreSQL (fsync on), 15 s of warm-up, then 20 s
# measured. Reports msgs/s and the CPU time (user + system) per message of the server JVM and of
# PostgreSQL's processes. CPU time moves less than throughput when other work shares the cores.
# usage: loadtest/scripts/durable-cpu.sh [TREE]   (TREE: a checkout with target/sluice.jar, default
# this one, so that two builds can be compared from one place; ports from SLUICE_HTTP_PORT, PGPORT;
# PRE_SQL, when set, is run in the database once the server has started, before the warm-up)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
tree=$(cd "${1:-$here}" && pwd)
export SLUICE_HTTP_PORT=${SLUICE_HTTP_PORT:-9324} PGPORT=${PGPORT:-5599} WRK_SCRIPT="$here/loadtest/wrk/send-batch.lua"
"$tree/loadtest/scripts/with-postgres.sh" "$tree/loadtest/scripts/with-server.sh" bash -c '
  url=http://127.0.0.1:$SLUICE_HTTP_PORT
  curl -sf -o /dev/null -X POST $url/ -H "X-Amz-Target: AmazonSQS.CreateQueue" \
    -H "Content-Type: application/x-amz-json-1.0" -d "{\"QueueName\":\"bench\"}"
  export QUEUE_URL=$url/000000000000/bench
  if [ -n "${PRE_SQL:-}" ]; then psql -h 127.0.0.1 -p "$PGPORT" -U postgres -q -c "$PRE_SQL"; fi
  wrk -t2 -c64 -d15s -s "$WRK_SCRIPT" $url/ >/dev/null
  postmaster=$(pgrep -u postgres -o -f "p $PGPORT ")
  ticks() { for p in "$@"; do [ -r /proc/$p/stat ] && awk "{print \$14 + \$15}" /proc/$p/stat; done | awk "{t += \$1} END {print t + 0}"; }
  pg=$(pgrep -P "$postmaster" | tr "\n" " ")
  server0=$(ticks $SERVER_PID); pg0=$(ticks $postmaster $pg)
  out=$(wrk -t2 -c64 -d20s -s "$WRK_SCRIPT" $url/)
  server1=$(ticks $SERVER_PID); pg1=$(ticks $postmaster $pg)
  messages=$(( $(echo "$out" | grep -oE "^ +[0-9]+ requests" | awk "{print \$1}") * 10 ))
  us() { echo $(( $1 * 1000000 / $(getconf CLK_TCK) / messages )); }
  echo "msgs/s $(( messages / 20 )); CPU per message: server $(us $((server1 - server0))) us," \
    "postgres $(us $((pg1 - pg0))) us; $(echo "$out" | grep -E "Non-2xx" || echo "all 2xx")"
'
