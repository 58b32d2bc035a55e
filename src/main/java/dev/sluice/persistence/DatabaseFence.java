package dev.sluice.persistence;

import io.vertx.sqlclient.Tuple;

/**
 * The fence of a single-node server: the database's epoch it claimed ({@link DatabaseOwnership}),
 * checked by {@code sluice_fence}.
 */
public record DatabaseFence(long epoch) implements Fence {
  @Override
  public String call(int firstParam) {
    return "sluice_fence($" + firstParam + ")";
  }

  @Override
  public int parameterCount() {
    return 1;
  }

  @Override
  public Tuple addTo(Tuple t) {
    return t.addLong(epoch);
  }
}
