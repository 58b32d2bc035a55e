package dev.sluice.engine;

import java.util.List;

/** Queue names a node found for a listing, per shard it answered for. */
public record QueueNames(List<ShardNames> shards) {
  /** One shard's names. */
  public record ShardNames(int shard, List<String> names) {}
}
