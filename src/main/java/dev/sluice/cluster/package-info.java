/**
 * Cluster mode (issue 17; the design is src/site/markdown/design/cluster.md): several nodes share
 * one PostgreSQL, each virtual shard owned by one node at a time under a lease in PostgreSQL.
 *
 * <ul>
 *   <li>Pure rules, inputs passed in: which live member should own each shard, moving the fewest
 *       shards from the current owners ({@link dev.sluice.cluster.ShardAssignment}), and whether
 *       this node may serve a shard it holds, from the send times of its confirmed renewals
 *       ({@link dev.sluice.cluster.ShardLease}).
 *   <li>Joining: {@link dev.sluice.cluster.ClusterNode} makes a clustered Vert.x instance of its
 *       own, beside the serving one, a Hazelcast member configured by
 *       {@link dev.sluice.cluster.HazelcastSettings} and {@link dev.sluice.cluster.EventBusSettings},
 *       and reports who the members are.
 *   <li>Shards: {@link dev.sluice.cluster.ShardManager} renews, claims, loads, hands on and drops
 *       the node's shards by their leases.
 *   <li>Forwarding (not wired yet): the frames ({@link dev.sluice.cluster.Frame}), their
 *       authenticated codec ({@link dev.sluice.cluster.ForwardCodec}, bodies through
 *       {@link dev.sluice.cluster.RecordCodec}) and the receiver's anti-replay check
 *       ({@link dev.sluice.cluster.FrameAuth}).
 * </ul>
 */
package dev.sluice.cluster;
