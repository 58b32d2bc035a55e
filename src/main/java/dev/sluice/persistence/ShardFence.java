package dev.sluice.persistence;

import io.vertx.sqlclient.Tuple;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fence of a cluster node's write: the virtual shards it writes for, each with the epoch of the
 * lease it holds, checked by {@code sluice_shard_fence} in the same statement (schema V7). A batch
 * that mixes shards carries all of their pairs and is refused whole when any of them moved on; the
 * refusal's DETAIL names the stale pairs ({@link #staleIn}). Shards are kept in ascending order,
 * the order the function locks them in.
 */
public final class ShardFence implements Fence {
  private final int[] shards;
  private final long[] epochs;

  private ShardFence(int[] shards, long[] epochs) {
    this.shards = shards;
    this.epochs = epochs;
  }

  /** The fence of the given shards at the given epochs; at least one. */
  public static ShardFence of(Map<Integer, Long> epochByShard) {
    if (epochByShard.isEmpty()) {
      throw new IllegalArgumentException("a shard fence needs at least one shard");
    }
    TreeMap<Integer, Long> sorted = new TreeMap<>(epochByShard);
    int[] shards = new int[sorted.size()];
    long[] epochs = new long[sorted.size()];
    int i = 0;
    for (Map.Entry<Integer, Long> e : sorted.entrySet()) {
      shards[i] = e.getKey();
      epochs[i++] = e.getValue();
    }
    return new ShardFence(shards, epochs);
  }

  /** The fence of one shard. */
  public static ShardFence of(int shard, long epoch) {
    return new ShardFence(new int[] {shard}, new long[] {epoch});
  }

  /**
   * The shards and epochs a refusal's DETAIL ("shard@epoch,...", as {@code sluice_shard_fence}
   * writes it) names, by shard.
   */
  public static Map<Integer, Long> staleIn(String detail) {
    Map<Integer, Long> stale = new TreeMap<>();
    if (detail == null || detail.isEmpty()) {
      return stale;
    }
    for (String pair : detail.split(",")) {
      int at = pair.indexOf('@');
      stale.put(Integer.parseInt(pair.substring(0, at).trim()), Long.parseLong(pair.substring(at + 1).trim()));
    }
    return stale;
  }

  /** The number of shards. */
  public int size() {
    return shards.length;
  }

  public int shard(int i) {
    return shards[i];
  }

  public long epoch(int i) {
    return epochs[i];
  }

  @Override
  public String call(int firstParam) {
    return "sluice_shard_fence($" + firstParam + ", $" + (firstParam + 1) + ")";
  }

  @Override
  public int parameterCount() {
    return 2;
  }

  @Override
  public Tuple addTo(Tuple t) {
    Integer[] s = new Integer[shards.length];
    Long[] e = new Long[epochs.length];
    for (int i = 0; i < shards.length; i++) {
      s[i] = shards[i];
      e[i] = epochs[i];
    }
    return t.addArrayOfInteger(s).addArrayOfLong(e);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardFence f && Arrays.equals(shards, f.shards) && Arrays.equals(epochs, f.epochs);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(shards) + Arrays.hashCode(epochs);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("shards ");
    for (int i = 0; i < shards.length; i++) {
      sb.append(i == 0 ? "" : ",").append(shards[i]).append('@').append(epochs[i]);
    }
    return sb.toString();
  }
}
