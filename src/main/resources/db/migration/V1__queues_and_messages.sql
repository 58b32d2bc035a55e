-- Sluice durable mode, schema version 1 (src/site/markdown/durability.md, "Tables").
-- Shared tables keyed by queue id, not a table per queue. Messages are inserted on send and deleted
-- on delete; what changes while a message lives (visibility deadline, receive count, receipt
-- number) is updated in place, coalesced per write-behind batch, so the hot table gets at most one
-- update per message per batch. fillfactor leaves room on each page for those updates to stay
-- HOT (no index entries written), which keeps vacuum work proportional to deletes.

-- One row per live queue. id is the queue's random generation: receipt handles are sealed over
-- it, so a handle of a deleted queue never works on a re-created one, restarts included.
CREATE TABLE sluice_queues (
  id               BIGINT PRIMARY KEY,
  name             TEXT   NOT NULL UNIQUE,
  created_at       BIGINT NOT NULL,            -- epoch milliseconds
  modified_at      BIGINT NOT NULL,
  attributes       TEXT   NOT NULL,            -- the settable attributes, canonical JSON object
  tags             TEXT   NOT NULL,            -- JSON object
  last_sequence    BIGINT NOT NULL DEFAULT 0   -- FIFO: the last sequence number handed out
);

-- One row per live message. message_key is the queue-local key receipt handles name. What a
-- message was sent with and never changes (body, message attributes, trace header, sender, group
-- and deduplication ids, dead-letter source) is packed into content (format: MessageContent.java):
-- it is only read back whole, at start-up, and one column costs the writer and the server far less
-- per row than eight. No foreign key to sluice_queues: its check is a lookup and a row lock per
-- inserted message (40% of the insert's cost, measured); the writer deletes a queue's messages with
-- the queue, and recovery joins on live queues.
CREATE TABLE sluice_messages (
  queue_id          BIGINT  NOT NULL,
  message_key       BIGINT  NOT NULL,
  message_id        UUID    NOT NULL,
  sent_at           BIGINT  NOT NULL,          -- epoch ms; retention counts from it
  sequence_number   BIGINT  NOT NULL,          -- FIFO order; 0 on standard queues
  visible_at        BIGINT  NOT NULL,          -- end of delay or of visibility; 0 = visible
  receive_count     INTEGER NOT NULL,
  first_receive_at  BIGINT  NOT NULL,
  receipt_sequence  INTEGER NOT NULL,
  content           BYTEA   NOT NULL,
  PRIMARY KEY (queue_id, message_key)
) WITH (fillfactor = 70);

-- FIFO deduplication history: five minutes per entry, pruned by expiry.
CREATE TABLE sluice_dedup (
  queue_id         BIGINT NOT NULL,
  dedup_key        TEXT   NOT NULL,
  message_id       UUID   NOT NULL,
  sequence_number  BIGINT NOT NULL,
  expires_at       BIGINT NOT NULL,
  PRIMARY KEY (queue_id, dedup_key)
);
CREATE INDEX sluice_dedup_expiry ON sluice_dedup (expires_at);

-- Server-wide secrets and settings, e.g. the receipt-handle HMAC key, so handles survive restarts.
CREATE TABLE sluice_settings (
  name   TEXT  PRIMARY KEY,
  value  BYTEA NOT NULL
);

-- One number per start of a server on this database. Message keys start at run << 40, so a key
-- (and a receipt handle naming it) is never reused by a later run, even for a queue that was
-- empty at the restart. A sequence never hands a value out twice, crashes included.
CREATE SEQUENCE sluice_runs;
