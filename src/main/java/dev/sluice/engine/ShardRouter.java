package dev.sluice.engine;

import dev.sluice.api.ShardKey;

/**
 * Which shard owns a queue or a topic: a stable hash of its whole key (account, region and name),
 * the same on every start, so that queues of one name in several accounts or regions spread like
 * any others; a topic lands where a queue of its name would. Stateless.
 */
public final class ShardRouter {
  private final int shards;

  public ShardRouter(int shards) {
    this.shards = shards;
  }

  public int shardOf(ShardKey queue) {
    // String.hashCode is specified, so the hash is the same on every JVM; the murmur3 finaliser
    // spreads its low bits before the modulo.
    int h = (31 * queue.accountId().hashCode() + queue.region().hashCode()) * 31 + queue.name().hashCode();
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return Math.floorMod(h, shards);
  }

  public int shardCount() {
    return shards;
  }
}
