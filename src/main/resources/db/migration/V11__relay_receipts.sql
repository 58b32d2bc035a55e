-- Sluice durable mode, schema version 11: receipts of outbox rows relayed (src/site/markdown/outbox.md).
-- A queue stores a relayed row's message and its receipt in the same commit, so a row the relay
-- sends again after a crash is answered with its first message and stored nothing. The relay
-- forgets a receipt once the row has left its outbox; the queue's deletion drops its receipts.

CREATE TABLE sluice_relay_receipts (
  queue_id    BIGINT NOT NULL,
  source      TEXT   NOT NULL,                   -- the outbox source's name in the configuration
  row_id      BIGINT NOT NULL,                   -- the row's id in its outbox table
  message_id  UUID   NOT NULL,
  PRIMARY KEY (queue_id, source, row_id)
);
