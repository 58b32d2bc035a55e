package dev.sluice.persistence;

import io.vertx.sqlclient.Tuple;

/**
 * The fence of a single-node server: the database's epoch it claimed ({@link DatabaseOwnership}),
 * checked by {@code sluice_fence}.
 */
public record DatabaseFence(long epoch) implements Fence {
  static final String CALL = "sluice_fence($1)";

  @Override
  public String call() {
    return CALL;
  }

  @Override
  public int parameterCount() {
    return 1;
  }

  @Override
  public Tuple parameters() {
    return Tuple.of(epoch);
  }
}
