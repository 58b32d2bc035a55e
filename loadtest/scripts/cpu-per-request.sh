#!/usr/bin/env bash
# Server CPU per request: runs one wrk scenario against a server that is already running and divides
# the CPU time (user + system) that process used during the run by the requests wrk completed.
# usage: loadtest/scripts/cpu-per-request.sh PID send|send-batch [seconds] [port]
set -euo pipefail
cd "$(dirname "$0")/../.."
pid=$1; scenario=${2:-send}; seconds=${3:-10}; port=${4:-9324}
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
before=$(ticks)
out=$(QUEUE_URL=${QUEUE_URL:-http://127.0.0.1:$port/000000000000/bench} \
  wrk -t2 -c64 -d"${seconds}s" -s "loadtest/wrk/$scenario.lua" "http://127.0.0.1:$port/")
after=$(ticks)
requests=$(echo "$out" | grep -oE "^ +[0-9]+ requests" | awk '{print $1}')
hz=$(getconf CLK_TCK)
echo "$scenario: $(echo "$out" | grep Requests/sec | awk '{print $2}') req/s;" \
  "server CPU $(( (after - before) * 1000000 / hz / requests )) us per request"
