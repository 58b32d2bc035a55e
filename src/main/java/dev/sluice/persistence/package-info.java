/**
 * Durable mode (issue 4, in progress on this branch): the PostgreSQL side of write-behind
 * persistence. What is here: the numbered schema ({@link dev.sluice.persistence.SchemaMigrations},
 * {@code db/migration/V*.sql}), the per-window coalescing of message changes
 * ({@link dev.sluice.persistence.ChangeBatch}) and their array-based writing in one transaction
 * ({@link dev.sluice.persistence.BatchWriter}). Still to come: the storage configuration, the
 * PersistenceVerticle batching the shards' events by count and time, commit-mode sends (answered and
 * receivable only after their batch commits), queue/dedup/settings rows, recovery at start-up, and
 * outage handling.
 */
package dev.sluice.persistence;
