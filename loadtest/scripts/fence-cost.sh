#!/usr/bin/env bash
# What the write fence costs PostgreSQL: the writer's message statement (88 rows inserted, the
# average batch of a 64-user send-batch run) with and without the fence CTE, and the fence on its
# own against SELECT 1. Then cluster mode's per-shard fence (schema V7): the same statement fenced
# by sluice_shard_fence over 1, 8 and 32 of 64 shards (a batch carries the shards of its messages),
# and that fence alone over 8. pgbench with 3 clients (the writer's transactions at pg.poolSize 4) on a
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
"${PSQL[@]}" -c "CREATE EXTENSION pg_stat_statements; CREATE SEQUENCE fence_cost_keys; UPDATE sluice_owner SET epoch = 1;
  INSERT INTO sluice_shard_leases (shard, epoch, owner, released) SELECT s, 1, 'node', false FROM generate_series(0, 63) s"
ROWS="INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number, visible_at,
 receive_count, first_receive_at, receipt_sequence, first_visible_at, content) SELECT 1, nextval('fence_cost_keys'),
 gen_random_uuid(), 0, 0, 0, 0, 0, 0, 0, '\\x000102030405060708090a0b0c0d0e0f'::bytea FROM generate_series(1, 88)"
echo "WITH i AS ($ROWS) SELECT 1;" | tr '\n' ' ' >"$DIR/batch.sql"
echo "WITH f AS (SELECT sluice_fence(1) AS epoch), i AS ($ROWS) SELECT epoch FROM f;" | tr '\n' ' ' >"$DIR/fenced-batch.sql"
echo "SELECT 1;" >"$DIR/select-1.sql"
echo "SELECT sluice_fence(1);" >"$DIR/fence.sql"
# shards 0..k-1, each at epoch 1, as BatchWriter binds a ShardFence
shard_fence() {
  echo "sluice_shard_fence(ARRAY[$(seq -s, 0 $(($1 - 1)))]::int[], ARRAY[$(seq -s, 1 "$1" | sed "s/[0-9]*/1/g")]::bigint[])"
}
for k in 1 8 32; do
  echo "WITH f AS (SELECT $(shard_fence $k) AS epoch), i AS ($ROWS) SELECT epoch FROM f;" | tr '\n' ' ' \
    >"$DIR/shard-fenced-batch-$k.sql"
done
echo "SELECT $(shard_fence 8);" >"$DIR/shard-fence-8.sql"
chmod a+r "$DIR"/*.sql
loadtest/scripts/pgbench-statements.sh "$ROUNDS" "$SECONDS_PER_RUN" "$DIR" batch fenced-batch select-1 fence \
  shard-fenced-batch-1 shard-fenced-batch-8 shard-fenced-batch-32 shard-fence-8
