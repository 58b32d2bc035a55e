#!/usr/bin/env bash
# The issue-4 comparison: memory vs durability commit vs relaxed on the same machine and load,
# one run each of a closed-loop batched send, the end-to-end loop, and an open loop at 20,000
# msgs/s. Needs both jars (see loadtest/README.md). About ten minutes.
set -uo pipefail
cd "$(dirname "$0")/../.."
LG="java -jar loadtest/target/sluice-loadtest.jar"
run() { # label mode scenario-args...
  local label=$1 mode=$2; shift 2
  echo "### $label ($mode)"
  case $mode in
    memory) timeout 200 loadtest/scripts/with-server.sh $LG "$@" ;;
    commit) timeout 200 loadtest/scripts/with-postgres.sh loadtest/scripts/with-server.sh $LG "$@" ;;
    relaxed) SLUICE_DURABILITY=relaxed timeout 200 loadtest/scripts/with-postgres.sh loadtest/scripts/with-server.sh $LG "$@" ;;
  esac 2>&1 | grep -E "^Send|^send|postgres:|server log"
}
for m in memory commit relaxed; do run send-batch-64 $m send-batch --users 64 --warmup 30 --duration 20; done
for m in memory commit relaxed; do run loop-64 $m loop --users 64 --warmup 30 --duration 20; done
for m in memory commit relaxed; do run rate-2000 $m send-batch --rate 2000 --warmup 30 --duration 20; done
