-- Sluice durable mode, schema version 3: a queue belongs to an account and lives in a region.
--
-- Queues are keyed by (account, region, name), as in SQS: the same name may exist in several
-- accounts and regions as different queues. Messages and deduplication rows are keyed by queue id
-- (the queue's generation), which stays unique, so only the queues table changes.
--
-- The columns are NULL only for queues stored by an earlier schema: a server that takes the
-- database gives them its default account and region (sqs.accountId, sqs.region) before it
-- recovers them (DurableStore, once it has claimed the database), and every queue it writes has
-- both set.
ALTER TABLE sluice_queues ADD COLUMN account_id TEXT;
ALTER TABLE sluice_queues ADD COLUMN region TEXT;
ALTER TABLE sluice_queues DROP CONSTRAINT sluice_queues_name_key;
ALTER TABLE sluice_queues ADD CONSTRAINT sluice_queues_account_region_name_key UNIQUE (account_id, region, name);
