#!/usr/bin/env bash
# The SNS fan-out benchmark (issue 18): one topic with 1, 10 and 100 subscribed queues, publishes of
# BODY bytes by USERS closed-loop publishers for SECONDS_PER_RUN seconds (after 3 s of warm-up), each
# configuration on a fresh server: enveloped (signed) and raw, without a filter and with a filter
# passing half; in memory, then with PostgreSQL (durability commit, fsync on).
# Each line of the output file is one run: subscribers, delivery, filter, storage, then the load
# generator's publishes/s, copies delivered/s and latency; the cost per extra subscriber is the
# slope of these over the subscriber count (see loadtest/RESULTS.md).
# usage: loadtest/scripts/topic-fanout.sh [memory] [postgres]
# settings: OUT (loadtest/results/<date>-<commit>-topic-fanout.txt), SECONDS_PER_RUN (10), USERS (32), BODY (1024)
# Needs both jars: mvn -q -DskipTests package && mvn -q install:install-file@sluice-client && mvn -q -f loadtest/pom.xml package
set -euo pipefail
cd "$(dirname "$0")/../.."
PHASES=("$@"); [ ${#PHASES[@]} -eq 0 ] && PHASES=(memory postgres)
OUT=${OUT:-loadtest/results/$(date +%F)-$(git rev-parse --short HEAD)-topic-fanout.txt}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}; USERS=${USERS:-32}; BODY=${BODY:-1024}
mkdir -p "$(dirname "$OUT")"
echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) $(nproc) cores, $(java -version 2>&1 | head -1)" | tee -a "$OUT"
run() { # subscribers raw filter
  local line
  line=$(loadtest/scripts/with-server.sh java -jar loadtest/target/sluice-loadtest.jar publish \
    --subscribers "$1" --raw "$2" --filter "$3" --body-bytes "$BODY" --users "$USERS" \
    --warmup 3 --duration "$SECONDS_PER_RUN" --queue "fan$1" | grep '^Publish to')
  echo "$1 subscribers, $([ "$2" = true ] && echo raw || echo enveloped), filter $3, ${SLUICE_STORAGE:-memory}: $line" \
    | tee -a "$OUT"
}
for phase in "${PHASES[@]}"; do
  case "$phase" in
    memory)
      for n in 1 10 100; do
        for raw in false true; do run "$n" "$raw" none; done
        run "$n" false half
      done ;;
    postgres)
      # A fresh database for each run: a server's restart would recover the previous run's backlog.
      for n in 1 10 100; do
        for shape in "false none" "true none" "false half"; do
          PGPORT=5597 loadtest/scripts/with-postgres.sh bash -c "$(declare -f run); BODY=$BODY USERS=$USERS \
            SECONDS_PER_RUN=$SECONDS_PER_RUN OUT=$OUT run $n $shape"
        done
      done ;;
    *) echo "unknown phase $phase" >&2; exit 2 ;;
  esac
done
