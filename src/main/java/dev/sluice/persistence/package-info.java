/**
 * Durable mode ({@code storage: postgres}): the PostgreSQL side of write-behind persistence. The
 * contract it keeps is written down in src/site/markdown/durability.md. Imports {@code api} and
 * {@code config}; the writer's meters are the metrics package's, told of each batch through a
 * {@link dev.sluice.persistence.BatchObserver}.
 *
 * <ul>
 *   <li>The schema: numbered scripts ({@code db/migration/V*.sql}) applied in order at start-up by
 *       {@link dev.sluice.persistence.SchemaMigrations}.
 *   <li>Owning the database: {@link dev.sluice.persistence.DatabaseOwnership} takes the advisory
 *       lock, claims the database (a new epoch in {@code sluice_owner}, this server's fencing
 *       token), confirms it with heartbeats and takes it back after a lost connection; the pure
 *       {@link dev.sluice.persistence.Lease} decides from that whether the server may serve.
 *   <li>Writing: the per-window coalescing of changes ({@link dev.sluice.persistence.ChangeBatch}),
 *       their array-based statements, each carrying the fence that PostgreSQL checks
 *       ({@link dev.sluice.persistence.BatchWriter}, {@link dev.sluice.persistence.Fence}: the
 *       database's epoch, or in cluster mode the epochs of the shards written for), and
 *       the group-committing writer that rides out outages
 *       ({@link dev.sluice.persistence.PersistenceVerticle}).
 *   <li>Cluster mode's shard leases and membership, judged by PostgreSQL's clock
 *       ({@link dev.sluice.persistence.ShardLeaseSql}, schema V7).
 *   <li>{@link dev.sluice.persistence.DurableStore} puts these together at start-up (lock,
 *       migrations, claim, receipt-handle key, run number, writer) and takes them down at a stop.
 * </ul>
 *
 * <p>On the engine side, a shard's changes reach the writer through its {@code DurableChangeLog},
 * recovery reads everything back before the port serves, and the engine's serving gate refuses
 * client calls while this server cannot show it owns the database.
 */
package dev.sluice.persistence;
