/**
 * Durable mode (issue 4, in progress on this branch): the PostgreSQL side of write-behind
 * persistence.
 *
 * <p>Here: the numbered schema ({@link dev.sluice.persistence.SchemaMigrations},
 * {@code db/migration/V*.sql}), the per-window coalescing of message changes
 * ({@link dev.sluice.persistence.ChangeBatch}), their array-based writing in one idempotent
 * transaction ({@link dev.sluice.persistence.BatchWriter}), and the group-committing writer that
 * rides out outages ({@link dev.sluice.persistence.PersistenceVerticle}). On the model side, queues
 * report every change to a {@link dev.sluice.model.ChangeLog} and, under durability commit, hold a
 * sent message {@code PENDING} until {@link dev.sluice.model.MessageStore#commitPending}.
 *
 * <p>Still to come: an engine ChangeLog that turns a shard call's changes into one submission,
 * answers commit-mode sends when it commits (or ServiceUnavailable after pg.sendTimeoutMillis) and
 * then calls commitPending; queue, dedup and settings rows (the receipt HMAC key); recovery at
 * start-up (queues, messages with deadlines and receive counts, FIFO groups, sequence numbers from
 * the rows, dedup ids) before the port opens; the crash, restart and outage tests; the benchmark;
 * the README's durability contract.
 */
package dev.sluice.persistence;
