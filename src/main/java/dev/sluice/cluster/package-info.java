/**
 * Cluster mode, being built (issue 17; the plan is src/site/markdown/design/cluster.md): several
 * nodes share one PostgreSQL, each virtual shard owned by one node at a time. So far the pure rule
 * that says which live member should own each shard, moving the fewest shards from the current
 * owners ({@link dev.sluice.cluster.ShardAssignment}); nothing here is wired into the server yet.
 * Pure code here takes its inputs (owners, members, times) as arguments and imports nothing of
 * Sluice's.
 */
package dev.sluice.cluster;
