-- Sluice's transactional outbox (src/site/markdown/outbox.md), for the APPLICATION's PostgreSQL.
--
-- The application INSERTs a row into sluice_outbox in the same transaction as its business change;
-- Sluice relays every committed row to the queue queue_name names (in the account and region of the
-- outbox source) exactly once, then deletes it. A row that can never become a message (no such
-- queue, a body or an attribute SQS refuses) is moved to sluice_outbox_dead with the reason.
--
-- Run it as is, or let Sluice run it at start-up (createTable: true), with the configured table and
-- notify channel in place of sluice_outbox. Every statement leaves existing objects alone.
--
-- Never reset the id sequence: a queue remembers the ids it stored (until the relay tells it they
-- left the outbox), and a new row with a remembered id would be taken for one sent already.

CREATE TABLE IF NOT EXISTS sluice_outbox (
  id bigserial PRIMARY KEY,
  -- The destination queue's name, in the source's account and region.
  queue_name text,
  body text NOT NULL,
  -- As SQS takes them: {"name": {"DataType": "String", "StringValue": "..."}}, or "BinaryValue" in base64.
  message_attributes jsonb,
  delay_seconds integer,
  -- FIFO queues: the group, and the deduplication id (unless the queue deduplicates by content).
  message_group_id text,
  message_deduplication_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Rows refused for good, with why; replay one by INSERTing it into sluice_outbox again.
CREATE TABLE IF NOT EXISTS sluice_outbox_dead (
  id bigint PRIMARY KEY,
  queue_name text,
  body text NOT NULL,
  message_attributes jsonb,
  delay_seconds integer,
  message_group_id text,
  message_deduplication_id text,
  created_at timestamptz NOT NULL,
  error_code text,
  error_message text,
  failed_at timestamptz NOT NULL DEFAULT now()
);

-- sluice:notify (optional) Wakes the relay at once when a transaction that inserted rows commits,
-- instead of at its next poll: one notification per INSERT statement, delivered at COMMIT.
CREATE OR REPLACE FUNCTION sluice_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sluice_outbox', '');
  RETURN NULL;
END
$$;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger
                 WHERE tgname = 'sluice_notify' AND tgrelid = 'sluice_outbox'::regclass) THEN
    CREATE TRIGGER sluice_notify AFTER INSERT ON sluice_outbox
      FOR EACH STATEMENT EXECUTE FUNCTION sluice_outbox_notify();
  END IF;
END
$$;
