-- Sluice durable mode, schema version 8: SNS topics and their subscriptions. A topic is written
-- whole (its settable attributes and tags as JSON) whenever it changes, by the shard its key routes
-- to, fenced like every write; a subscription likewise. Publishes leave no rows of their own: each
-- copy is a message of its queue, committed before the publish is answered.

CREATE TABLE sluice_topics (
  id          BIGINT  PRIMARY KEY,               -- random generation, as sluice_queues.id
  account_id  TEXT    NOT NULL,
  region      TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  created_at  BIGINT  NOT NULL,                  -- epoch milliseconds
  attributes  TEXT    NOT NULL,                  -- JSON object: the settable attributes and FifoTopic
  tags        TEXT    NOT NULL,                  -- JSON object, in the order the keys were set
  UNIQUE (account_id, region, name)
);

-- No foreign key, as for messages (a lookup and a row lock per insert): a topic's delete deletes
-- its subscriptions in the same statement.
CREATE TABLE sluice_subscriptions (
  topic_id    BIGINT  NOT NULL,
  id          TEXT    NOT NULL,                  -- the subscription ARN's last part
  protocol    TEXT    NOT NULL,
  endpoint    TEXT    NOT NULL,
  owner       TEXT    NOT NULL,                  -- account id
  principal   TEXT    NOT NULL,
  created_at  BIGINT  NOT NULL,
  attributes  TEXT    NOT NULL,                  -- JSON object: the settable attributes
  PRIMARY KEY (topic_id, id)
);
