package dev.sluice.cluster;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Where calls for each shard go: the node holding its lease as this node last read the leases
 * (null: released, expired or never claimed), and at which epoch. The shard manager writes it each
 * round; a hint from another node redirects a shard until the next read, which alone is
 * authoritative. Read and written from any thread.
 */
public final class RoutingTable {
  private final AtomicReferenceArray<String> owners;
  private final AtomicLongArray epochs;

  RoutingTable(int shards) {
    owners = new AtomicReferenceArray<>(shards);
    epochs = new AtomicLongArray(shards);
  }

  /** The node holding {@code shard}, or null. */
  public String ownerOf(int shard) {
    return owners.get(shard);
  }

  /** The latest epoch of {@code shard} this node read. */
  public long epochOf(int shard) {
    return epochs.get(shard);
  }

  /** The leases as just read: {@code owner} (or null) holds {@code shard} at {@code epoch}. */
  void read(int shard, String owner, long epoch) {
    epochs.set(shard, epoch);
    owners.set(shard, owner);
  }

  /** Another node believes {@code owner} holds {@code shard}: calls go there until the next read. */
  void hint(int shard, String owner) {
    owners.set(shard, owner);
  }
}
