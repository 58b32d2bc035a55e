-- Sluice durable mode, schema version 10: queue triggers (Lambda-style event source mappings). A
-- trigger is written whole at each change by its queue's shard, fenced like every write, and the
-- change answered once written. What its pollers report (last error, concurrency) is not kept.

CREATE TABLE sluice_triggers (
  id            UUID    PRIMARY KEY,
  owner_account TEXT    NOT NULL,                -- the account the trigger consumes as
  queue_account TEXT    NOT NULL,
  region        TEXT    NOT NULL,
  queue_name    TEXT    NOT NULL,
  settings      TEXT    NOT NULL,                -- JSON object: batching, scaling, target (headers as given), filters
  enabled       BOOLEAN NOT NULL,
  state_reason  TEXT    NOT NULL,                -- Lambda's StateTransitionReason
  origin        TEXT    NOT NULL,                -- 'api', or 'config:<key>' for a trigger of the configuration
  modified_at   BIGINT  NOT NULL                 -- epoch milliseconds
);

CREATE INDEX sluice_triggers_queue ON sluice_triggers (queue_account, region, queue_name);
