-- Sluice durable mode, schema version 7: cluster mode, where the queues are spread over virtual
-- shards and each shard has one owner node at a time. PostgreSQL is the source of truth and the
-- fencing authority: a node owns a shard while it holds the shard's lease here, every write it makes
-- for the shard carries the lease's epoch, and sluice_shard_fence() refuses the write once the epoch
-- has moved on, whatever the node believes. A single-node server leaves all of this unused, except
-- that its claim of the database also moves every shard's epoch on (a paused cluster node then
-- cannot write either).

-- One row: the number of virtual shards, fixed at the first cluster start (queues are routed by a
-- hash of their name modulo it, so it cannot change while queues exist).
CREATE TABLE sluice_cluster (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  shards      INTEGER NOT NULL CHECK (shards BETWEEN 1 AND 1024),
  created_at  BIGINT  NOT NULL                 -- epoch milliseconds
);

-- The nodes that have joined, each renewing its row with its leases: a node whose row expired by
-- PostgreSQL's clock is not a member, whatever the cluster manager still believes. node_id changes
-- with every start of a process.
CREATE TABLE sluice_cluster_members (
  node_id      TEXT PRIMARY KEY,
  holder       TEXT NOT NULL,                  -- host and process, for people reading the table
  address      TEXT NOT NULL,                  -- where its event bus listens
  config_hash  TEXT NOT NULL,                  -- of the settings all nodes must share
  started_at   BIGINT NOT NULL,                -- epoch milliseconds
  expires_at   TIMESTAMPTZ NOT NULL            -- PostgreSQL's clock
);

-- One row per virtual shard. Every change of owner moves epoch on: a take-over (claim), a release,
-- and a single-node server's claim of the whole database. owner is NULL once released.
-- run is the sluice_runs value of the current acquisition: the new owner's message keys start above
-- every key the shard ever had. UNIQUE (shard, epoch) makes epoch a key column, so that an update of
-- epoch takes a FOR UPDATE row lock, which waits for the FOR KEY SHARE locks writes hold (see
-- sluice_shard_fence), while a renewal, which changes no key column, takes FOR NO KEY UPDATE and
-- neither waits for writes nor holds them up.
CREATE TABLE sluice_shard_leases (
  shard       INTEGER PRIMARY KEY,
  epoch       BIGINT  NOT NULL,
  owner       TEXT,
  run         BIGINT  NOT NULL DEFAULT 0,
  released    BOOLEAN NOT NULL DEFAULT true,
  renewed_at  TIMESTAMPTZ,
  expires_at  TIMESTAMPTZ,                     -- PostgreSQL's clock; NULL when released
  UNIQUE (shard, epoch)
);

-- A queue's shard is not stored: it is a hash of the queue's account, region and name modulo
-- sluice_cluster.shards, which a node loading shards computes from the queue rows.

-- Refuses (SQLSTATE SLFEN, the shards and epochs that moved on in DETAIL, as "shard@epoch,...")
-- unless every shard is still at the epoch given for it. Locking, which keeps writes and take-overs
-- ordered as sluice_fence does for the whole database:
--  1. a write that passed the check holds FOR KEY SHARE on its shards' rows until its transaction
--     ends;
--  2. a take-over or release updates epoch, a key column, so it takes FOR UPDATE and waits for those
--     writes (its recovery then sees them);
--  3. a check that waited for a take-over locks the row as the take-over left it, and the next
--     statement here (a new snapshot: the function is volatile) sees the new epoch and refuses.
-- Rows are locked in shard order, the order every batch follows, so two writes cannot deadlock.
CREATE FUNCTION sluice_shard_fence(shards INTEGER[], epochs BIGINT[]) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  stale TEXT;
BEGIN
  PERFORM 1 FROM sluice_shard_leases WHERE shard = ANY(shards) ORDER BY shard FOR KEY SHARE;
  SELECT string_agg(e.shard || '@' || e.epoch, ',' ORDER BY e.shard) INTO stale
    FROM unnest(shards, epochs) AS e(shard, epoch)
   WHERE NOT EXISTS (SELECT 1 FROM sluice_shard_leases l WHERE l.shard = e.shard AND l.epoch = e.epoch);
  IF stale IS NOT NULL THEN
    RAISE EXCEPTION 'Sluice write fenced: shards moved on (%)', stale USING ERRCODE = 'SLFEN', DETAIL = stale;
  END IF;
  RETURN cardinality(shards);
END
$$;
