#!/usr/bin/env bash
# What the schema of durable queues larger than memory (V4) costs PostgreSQL per sent message: the
# writer's insert of a 150-row batch (a typical batch of a 64-user send-batch run) in three shapes,
# alternated: "v3" (the rows as schema 3 had them: primary key only), "v4" (first_visible_at and
# arrival, the delivery index, RETURNING for the count) and "v4-tallied" (v4 plus the tally and
# frontier upsert of the writer lane, as BatchWriter writes it), and "delayed-only": v4 with the
# delivery index kept only for rows whose first visibility is after their send (delayed ones), an
# alternative where undelayed rows are paged in key order by the primary key. pgbench with 3 clients (the
# writer's lanes at pg.poolSize 4), each client its own lane, on a throwaway PostgreSQL with fsync
# on; for each run tps and the statement's mean execution time (pg_stat_statements).
# usage: loadtest/scripts/write-cost.sh [rounds] [seconds per run]
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../.."
export PGPORT=${PGPORT:-5596}
if [ -z "${SLUICE_PG_URL:-}" ]; then
  # first on a throwaway cluster of its own, with pg_stat_statements loaded
  PG_SETTINGS="-c shared_preload_libraries=pg_stat_statements" exec loadtest/scripts/with-postgres.sh "$self" "$@"
fi
ROUNDS=${1:-3}; SECONDS_PER_RUN=${2:-10}
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
DIR=$(mktemp -d /tmp/sluice-write-cost.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
PORT=$PGPORT
PSQL=("$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -q -v ON_ERROR_STOP=1)
for script in src/main/resources/db/migration/V*.sql; do "${PSQL[@]}" -f "$script"; done
"${PSQL[@]}" -c "CREATE EXTENSION pg_stat_statements; CREATE SEQUENCE write_cost_keys; UPDATE sluice_owner SET epoch = 1;
  INSERT INTO sluice_queues (id, account_id, region, name, created_at, modified_at, attributes, tags)
    VALUES (1, 'a', 'r', 'q', 0, 0, '{}', '{}');
  CREATE TABLE v3_messages (LIKE sluice_messages INCLUDING DEFAULTS, PRIMARY KEY (queue_id, message_key))
    WITH (fillfactor = 70);
  ALTER TABLE v3_messages DROP COLUMN first_visible_at, DROP COLUMN arrival;
  CREATE TABLE delayed_only (LIKE sluice_messages INCLUDING DEFAULTS, PRIMARY KEY (queue_id, message_key))
    WITH (fillfactor = 70);
  CREATE INDEX delayed_only_delivery ON delayed_only (queue_id, first_visible_at, message_key)
    WHERE first_visible_at > sent_at"
CONTENT="'\\x000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f'::bytea"
V3="INSERT INTO v3_messages (queue_id, message_key, message_id, sent_at, sequence_number, visible_at, receive_count,
 first_receive_at, receipt_sequence, content) SELECT 1, k, gen_random_uuid(), k, 0, 0, 0, 0, 0, $CONTENT
 FROM (SELECT nextval('write_cost_keys') k FROM generate_series(1, 150)) s"
V4="INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number, visible_at, receive_count,
 first_receive_at, receipt_sequence, first_visible_at, arrival, content) SELECT 1, k, gen_random_uuid(), k, 0, 0, 0,
 0, 0, k, 0, $CONTENT FROM (SELECT nextval('write_cost_keys') k FROM generate_series(1, 150)) s
 RETURNING queue_id, (xmax = 0) AS fresh"
TALLY="delta AS (SELECT queue_id, sum(1) AS n FROM i WHERE fresh GROUP BY queue_id),
 t AS (INSERT INTO sluice_queue_tallies AS t (queue_id, slot, messages) SELECT queue_id, :client_id, n FROM delta
 ON CONFLICT (queue_id, slot) DO UPDATE SET messages = t.messages + EXCLUDED.messages)"
echo "WITH f AS (SELECT sluice_fence(1) AS epoch), i AS ($V3) SELECT epoch FROM f;" | tr '\n' ' ' >"$DIR/v3.sql"
echo "WITH f AS (SELECT sluice_fence(1) AS epoch), i AS ($V4) SELECT epoch FROM f;" | tr '\n' ' ' >"$DIR/v4.sql"
echo "WITH f AS (SELECT sluice_fence(1) AS epoch), i AS ($V4), $TALLY SELECT epoch FROM f;" | tr '\n' ' ' \
  >"$DIR/v4-tallied.sql"
echo "WITH f AS (SELECT sluice_fence(1) AS epoch), i AS (${V4/sluice_messages/delayed_only}) SELECT epoch FROM f;" \
  | tr '\n' ' ' >"$DIR/delayed-only.sql"
chmod a+r "$DIR"/*.sql
# each round starts from empty tables, so that table size does not favour the first variant
AFTER_ROUND="TRUNCATE v3_messages, sluice_messages, sluice_queue_tallies, delayed_only" \
  loadtest/scripts/pgbench-statements.sh "$ROUNDS" "$SECONDS_PER_RUN" "$DIR" v3 v4 v4-tallied delayed-only
