package dev.sluice.engine;

/** Which shard owns a queue: a stable hash of its name, the same on every start. Stateless. */
public final class ShardRouter {
  private final int shards;

  public ShardRouter(int shards) {
    this.shards = shards;
  }

  public int shardOf(String queueName) {
    // Spread String.hashCode's low bits (murmur3 finaliser) before the modulo.
    int h = queueName.hashCode();
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
