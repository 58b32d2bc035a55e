-- Sluice durable mode, schema version 6: rows that kept the sent time they had in an earlier queue
-- (arrival 1: dead letters, and messages a move handed back) are found by that time, so that their
-- retention, which AWS counts from the original send, and the oldest message's age are read from
-- an index, however long the queue's backlog held only in PostgreSQL. Only such rows are indexed: a
-- send pays nothing for it.
CREATE INDEX sluice_messages_kept ON sluice_messages (queue_id, sent_at) WHERE arrival = 1;
