-- Sluice durable mode, schema version 5: a FIFO queue's delay rule
-- (src/site/markdown/design/paged-backlog.md, §2.9), kept with the queue's row.
--
-- On a FIFO queue a change of DelaySeconds is retroactive: the messages still delayed are
-- rescheduled from their sent time, those already visible stay visible. Rows are not rewritten for
-- it; a never-received row sent at s is visible at s if s <= delay_released_through (it was visible
-- at some change), else at max(delay_changed_at, s + the current delay). Start-up needs both values
-- before it restores or counts any of the queue's rows, as most of a paged queue's rows are never
-- in memory when its delay changes. The smallest BIGINT means "never changed" (every row is then
-- visible its delay after it was sent); standard queues keep it.
ALTER TABLE sluice_queues
  ADD COLUMN delay_released_through BIGINT NOT NULL DEFAULT -9223372036854775808,
  ADD COLUMN delay_changed_at       BIGINT NOT NULL DEFAULT -9223372036854775808;
