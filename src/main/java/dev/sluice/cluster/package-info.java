/**
 * Cluster mode, being built (issue 17; the plan is src/site/markdown/design/cluster.md): several
 * nodes share one PostgreSQL, each virtual shard owned by one node at a time. So far its pure rules:
 * which live member should own each shard, moving the fewest shards from the current owners
 * ({@link dev.sluice.cluster.ShardAssignment}), and whether this node may serve a shard it holds,
 * from the send times of its confirmed renewals ({@link dev.sluice.cluster.ShardLease}); and the
 * forwarding protocol's frames ({@link dev.sluice.cluster.Frame}), their authenticated codec
 * ({@link dev.sluice.cluster.ForwardCodec}, bodies through {@link dev.sluice.cluster.RecordCodec})
 * and the receiver's anti-replay check ({@link dev.sluice.cluster.FrameAuth}). Nothing here is
 * wired into the server yet. Pure code here takes its inputs (owners, members, times) as arguments.
 */
package dev.sluice.cluster;
