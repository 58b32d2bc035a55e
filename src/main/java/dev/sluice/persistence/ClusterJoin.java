package dev.sluice.persistence;

/**
 * Who a cluster node is when it joins (design page cluster.md, §2.4): its node id (new with every
 * start of a process), the holder people read in {@code sluice_cluster_members}, where its event
 * bus listens, a hash of the settings every node must share, the cluster's shard count and the
 * lease length, which its member row lives by.
 */
public record ClusterJoin(String nodeId, String holder, String address, String configHash, int shards,
    long leaseMillis) {}
