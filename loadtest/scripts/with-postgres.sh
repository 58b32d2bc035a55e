#!/usr/bin/env bash
# Starts a throwaway PostgreSQL from the installed binaries (as the postgres user when run as root,
# fsync on, like a real deployment), runs the given command with SLUICE_STORAGE=postgres and
# SLUICE_PG_URL exported, prints how many transactions and rows the command caused, and removes
# the cluster.
# usage: loadtest/scripts/with-postgres.sh loadtest/scripts/with-server.sh java -jar ... send-batch
set -euo pipefail
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
DIR=$(mktemp -d /tmp/sluice-bench-pg.XXXXXX)
PORT=${PGPORT:-5599}
RUN_AS=(); [ "$(id -u)" = 0 ] && { chown postgres:postgres "$DIR"; RUN_AS=(runuser -u postgres --); }
"${RUN_AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -A trust -U postgres -E UTF8 --no-locale >"$DIR/initdb.log"
"${RUN_AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 ${PG_SETTINGS:-}" start >/dev/null
trap '"${RUN_AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null || true; rm -rf "$DIR"' EXIT
export SLUICE_STORAGE=postgres SLUICE_PG_URL="postgresql://postgres@127.0.0.1:$PORT/postgres"
stats() {
  "$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -At -c \
    "SELECT xact_commit, tup_inserted FROM pg_stat_database WHERE datname = 'postgres'"
}
before=$(stats)
"$@"
after=$(stats)
tx=$(( ${after%|*} - ${before%|*} )); rows=$(( ${after#*|} - ${before#*|} ))
echo "postgres: $tx transactions, $rows rows inserted ($(( rows / (tx > 0 ? tx : 1) )) per transaction)"
