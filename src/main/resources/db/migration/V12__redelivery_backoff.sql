-- Sluice durable mode, schema version 12: redelivery backoff (src/site/markdown/redelivery-backoff.md).
--
-- A queue's policy, a Sluice extension and not an SQS attribute, is kept beside the attributes as
-- canonical JSON {"baseSeconds":n,"maxSeconds":m}; NULL when the queue has none.
--
-- A message whose visibility ran out and that waits out its backoff has visible_at = the end of
-- the wait and in_backoff set, written when the wait starts. A start-up restores it in backoff
-- until then: not drawn again (which would double it) nor taken for a message in flight (which
-- would draw a second wait when that "visibility" runs out, and count it as not visible). Once
-- visible_at has passed the flag means nothing; the next receive clears it. Both columns have
-- constant defaults, so adding them rewrites no rows.
ALTER TABLE sluice_queues ADD COLUMN redelivery_backoff TEXT;
ALTER TABLE sluice_messages ADD COLUMN in_backoff BOOLEAN NOT NULL DEFAULT false;
