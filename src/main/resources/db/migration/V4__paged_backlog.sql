-- Sluice durable mode, schema version 4: what lets a queue's backlog live in PostgreSQL rather than
-- in memory (src/site/markdown/design/paged-backlog.md): each row's place in delivery order, exact
-- counts and the received frontier per queue without counting rows, and purges in a bounded number
-- of statements.

-- A row's place in delivery order, readable without its content: when it first becomes visible
-- (a standard queue delivers in that order; FIFO queues use sequence_number), and how it entered
-- its queue (0 sent, 1 kept the sent time it had elsewhere: a dead letter or a message taken back,
-- 2 redriven by a move task: new, sent then). Neither changes after the insert, so the updates of
-- receives stay HOT with the indexes below.
ALTER TABLE sluice_messages ADD COLUMN first_visible_at BIGINT,
                            ADD COLUMN arrival SMALLINT NOT NULL DEFAULT 0;
-- Rows already stored keep arrival 0: the frontier below covers them all, so they are always
-- loaded whole at start-up, and what arrival decides is only needed for rows that are not.
UPDATE sluice_messages SET first_visible_at =
  CASE WHEN receive_count = 0 AND visible_at > sent_at THEN visible_at ELSE sent_at END;
ALTER TABLE sluice_messages ALTER COLUMN first_visible_at SET NOT NULL;
CREATE INDEX sluice_messages_delivery ON sluice_messages (queue_id, first_visible_at, message_key);
CREATE INDEX sluice_messages_fifo ON sluice_messages (queue_id, sequence_number) WHERE sequence_number > 0;

-- Rows below a queue's purged_below_key were purged: nothing reads them, and the reaper deletes
-- them in chunks (sluice_reaping) instead of one statement holding every other write up.
ALTER TABLE sluice_queues ADD COLUMN purged_below_key BIGINT NOT NULL DEFAULT 0;

-- Exact counts and the received frontier of each queue, kept by the statement that inserts or
-- deletes its rows, so that start-up never counts rows. One row per queue per writer lane (slot):
-- batches written at once use different lanes and never wait on each other's tally row.
-- messages: rows inserted minus rows deleted, summed over the slots. frontier: the highest place
-- in delivery order, (first_visible_at or sequence_number, message_key), of any row ever received.
CREATE TABLE sluice_queue_tallies (
  queue_id        BIGINT   NOT NULL,
  slot            SMALLINT NOT NULL,
  messages        BIGINT   NOT NULL DEFAULT 0,
  frontier_major  BIGINT   NOT NULL DEFAULT -9223372036854775808,
  frontier_minor  BIGINT   NOT NULL DEFAULT -9223372036854775808,
  PRIMARY KEY (queue_id, slot)
);
-- Rows already stored: their count, and a frontier that covers all of them, so the first start
-- after the upgrade loads every row as earlier versions did.
INSERT INTO sluice_queue_tallies (queue_id, slot, messages, frontier_major, frontier_minor)
SELECT q.id, 0, count(m.queue_id),
       COALESCE(max(CASE WHEN q.name LIKE '%.fifo' THEN m.sequence_number ELSE m.first_visible_at END),
                -9223372036854775808),
       9223372036854775807
FROM sluice_queues q LEFT JOIN sluice_messages m ON m.queue_id = q.id GROUP BY q.id, q.name;

-- Queues whose rows the reaper still deletes: rows with message_key below below_key (the largest
-- key for a deleted queue).
CREATE TABLE sluice_reaping (
  queue_id   BIGINT PRIMARY KEY,
  below_key  BIGINT NOT NULL
);
