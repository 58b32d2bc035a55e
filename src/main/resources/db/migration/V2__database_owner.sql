-- Sluice durable mode, schema version 2: which server owns the database, checked by every write.
--
-- The session advisory lock keeps a second server waiting, but a lock can be lost (its connection
-- dropped, its backend terminated) while its server, or a paused process that wakes up later, still
-- believes it holds it. So each server that takes the lock also claims the database: it bumps epoch
-- here and keeps the new value as its fencing token. Every write transaction checks its token with
-- sluice_fence() first; a write of a server whose epoch has moved on is refused by PostgreSQL itself,
-- whatever that server believes.

-- One row. released is true after a clean stop (the writer drained, nothing more will be written);
-- when it is false the next owner waits out the previous owner's lease before serving. holder and
-- acquired_at are for people reading the table.
CREATE TABLE sluice_owner (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  epoch        BIGINT  NOT NULL,
  released     BOOLEAN NOT NULL,
  holder       TEXT,
  acquired_at  BIGINT                          -- epoch milliseconds
);
INSERT INTO sluice_owner (id, epoch, released) VALUES (1, 0, true);

-- Refuses (SQLSTATE SLFEN) unless the database is still at epoch "expected". FOR SHARE holds the
-- row until the calling transaction ends: a claim (SELECT ... FOR UPDATE, then epoch + 1) waits for
-- every write transaction that passed this check, and a check that had to wait for a claim reads
-- the row as the claim left it (READ COMMITTED re-reads an updated row). So once a claim has
-- committed, no write of an older epoch commits after it, and the new owner's recovery sees every
-- write that did.
CREATE FUNCTION sluice_fence(expected BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  current BIGINT;
BEGIN
  SELECT epoch INTO current FROM sluice_owner WHERE id = 1 FOR SHARE;
  IF current IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'Sluice write fenced: the database is at epoch %, this server holds epoch %', current, expected
      USING ERRCODE = 'SLFEN';
  END IF;
  RETURN current;
END
$$;
