-- Sluice durable mode, schema version 9: how a subscription was confirmed. Empty for one confirmed
-- when made (an SQS queue's, by its owner's signed Subscribe); else "pending|confirmed
-- signed|unsigned signed-unsubscribe|any-unsubscribe <token>", for an HTTP/HTTPS subscription that
-- waits for, or was confirmed by, the token its SubscriptionConfirmation carried.

ALTER TABLE sluice_subscriptions ADD COLUMN confirmation TEXT NOT NULL DEFAULT '';
