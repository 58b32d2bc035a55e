/**
 * Cluster mode, being built (issue 17; the plan is src/site/markdown/design/cluster.md): several
 * nodes share one PostgreSQL, each virtual shard owned by one node at a time. So far its pure rules:
 * which live member should own each shard, moving the fewest shards from the current owners
 * ({@link dev.sluice.cluster.ShardAssignment}), and whether this node may serve a shard it holds,
 * from the send times of its confirmed renewals ({@link dev.sluice.cluster.ShardLease}); and the
 * join: {@link dev.sluice.cluster.ClusterNode} makes a clustered Vert.x instance of its own, beside
 * the serving one, a Hazelcast member configured by {@link dev.sluice.cluster.HazelcastSettings}
 * and {@link dev.sluice.cluster.EventBusSettings}, and reports who the members are. Nothing here is
 * wired into the server yet. Pure code here takes its inputs (owners, members, times) as arguments.
 */
package dev.sluice.cluster;
