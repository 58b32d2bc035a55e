#!/usr/bin/env bash
# Runs statement variants against the PostgreSQL at 127.0.0.1:$PGPORT, alternated, ROUNDS times:
# each for SECONDS with pgbench (3 clients, the writer's transactions at pg.poolSize 4, prepared),
# reporting pgbench's tps and latency and the statement's mean execution time inside PostgreSQL
# (pg_stat_statements, which must be loaded: the executor's time, without the commit's WAL flush).
# Each variant is DIR/<variant>.sql. AFTER_ROUND, when set, is SQL run after each round.
# usage: pgbench-statements.sh ROUNDS SECONDS DIR variant...   (used by fence-cost.sh, write-cost.sh)
set -euo pipefail
rounds=$1 seconds=$2 dir=$3; shift 3
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
PSQL=("$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -q -v ON_ERROR_STOP=1)
for round in $(seq 1 "$rounds"); do
  for variant in "$@"; do
    "${PSQL[@]}" -c "SELECT pg_stat_statements_reset()" >/dev/null
    out=$("$PGBIN/pgbench" -h 127.0.0.1 -p "$PGPORT" -U postgres -n -M prepared -c 3 -j 1 -T "$seconds" \
      -f "$dir/$variant.sql" postgres 2>/dev/null)
    exec_ms=$("${PSQL[@]}" -At -c "SELECT round(sum(total_exec_time)::numeric / sum(calls), 3) FROM pg_stat_statements
      WHERE query NOT LIKE '%pg_stat_statements%' AND calls > 100")
    echo "round $round $variant: $(echo "$out" | grep -E "^tps|latency average" \
      | sed 's/ (without initial connection time)//' | tr '\n' ' ')executes in $exec_ms ms"
  done
  if [ -n "${AFTER_ROUND:-}" ]; then "${PSQL[@]}" -c "$AFTER_ROUND"; fi
done
