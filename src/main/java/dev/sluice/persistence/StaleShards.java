package dev.sluice.persistence;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A cluster node's writer's memory of the shard epochs PostgreSQL refused: per shard, the highest
 * one (an epoch only grows, so every epoch up to it is stale too) and that refusal, which later
 * submissions of it fail with at once, without a round trip. Owned by the writer's loop.
 */
final class StaleShards {
  private final Map<Integer, Long> staleThrough = new HashMap<>();
  private final Map<Integer, Throwable> because = new HashMap<>();

  /**
   * PostgreSQL refused {@code stale} (shard to epoch) with {@code failure}; answers those it had
   * not refused before (batches written at once may be refused for the same shard).
   */
  Map<Integer, Long> refused(Map<Integer, Long> stale, Throwable failure) {
    Map<Integer, Long> news = new TreeMap<>();
    stale.forEach((shard, epoch) -> {
      if (epoch > staleThrough.getOrDefault(shard, Long.MIN_VALUE)) {
        staleThrough.put(shard, epoch);
        because.put(shard, failure);
        news.put(shard, epoch);
      }
    });
    return news;
  }

  /** The refusal a write fenced by {@code fence} (null: the database's) fails with, or null. */
  Throwable refusalOf(ShardFence fence) {
    if (fence == null || staleThrough.isEmpty()) {
      return null;
    }
    for (int i = 0; i < fence.size(); i++) {
      Long through = staleThrough.get(fence.shard(i));
      if (through != null && fence.epoch(i) <= through) {
        return because.get(fence.shard(i));
      }
    }
    return null;
  }
}
