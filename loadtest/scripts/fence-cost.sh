#!/usr/bin/env bash
# What the write fence costs PostgreSQL: the writer's message statement (88 rows inserted, the
# average batch of a 64-user send-batch run) with and without the fence CTE, and the fence on its
# own against SELECT 1. pgbench with 3 clients (the writer's transactions at pg.poolSize 4) on a
# throwaway PostgreSQL with fsync on, the variants alternated; for each run pgbench's throughput
# and latency, and the statement's mean execution time inside PostgreSQL (pg_stat_statements: the
# executor's time, without the commit's WAL flush).
# usage: loadtest/scripts/fence-cost.sh [rounds] [seconds per run]
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../.."
export PGPORT=${PGPORT:-5597}
if [ -z "${SLUICE_PG_URL:-}" ]; then
  # first on a throwaway cluster of its own, with pg_stat_statements loaded
  PG_SETTINGS="-c shared_preload_libraries=pg_stat_statements" exec loadtest/scripts/with-postgres.sh "$self" "$@"
fi
ROUNDS=${1:-4}; SECONDS_PER_RUN=${2:-10}
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
DIR=$(mktemp -d /tmp/sluice-fence-cost.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
PSQL=("$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -q -v ON_ERROR_STOP=1)
for script in src/main/resources/db/migration/V*.sql; do "${PSQL[@]}" -f "$script"; done
"${PSQL[@]}" -c "CREATE EXTENSION pg_stat_statements; CREATE SEQUENCE fence_cost_keys; UPDATE sluice_owner SET epoch = 1"
ROWS="INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number, visible_at,
 receive_count, first_receive_at, receipt_sequence, first_visible_at, content) SELECT 1, nextval('fence_cost_keys'),
 gen_random_uuid(), 0, 0, 0, 0, 0, 0, 0, '\\x000102030405060708090a0b0c0d0e0f'::bytea FROM generate_series(1, 88)"
echo "WITH i AS ($ROWS) SELECT 1;" | tr '\n' ' ' >"$DIR/batch.sql"
echo "WITH f AS (SELECT sluice_fence(1) AS epoch), i AS ($ROWS) SELECT epoch FROM f;" | tr '\n' ' ' >"$DIR/fenced-batch.sql"
echo "SELECT 1;" >"$DIR/select-1.sql"
echo "SELECT sluice_fence(1);" >"$DIR/fence.sql"
chmod a+r "$DIR"/*.sql
loadtest/scripts/pgbench-statements.sh "$ROUNDS" "$SECONDS_PER_RUN" "$DIR" batch fenced-batch select-1 fence
