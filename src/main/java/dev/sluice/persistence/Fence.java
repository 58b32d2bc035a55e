package dev.sluice.persistence;

import io.vertx.sqlclient.Tuple;

/**
 * What PostgreSQL checks inside every write, before it may commit: that the writer still owns what
 * it writes for. A single-node server owns the whole database ({@link DatabaseFence}); a cluster
 * node owns virtual shards, each under its own lease ({@link ShardFence}). A refused write fails
 * with SQLSTATE {@link BatchWriter#FENCED} and writes nothing.
 */
public sealed interface Fence permits DatabaseFence, ShardFence {
  /** The call of the fencing function, its parameters numbered from {@code $firstParam}. */
  String call(int firstParam);

  /** How many parameters {@link #call} takes. */
  int parameterCount();

  /** Appends the call's parameters to {@code t}, in {@link #call}'s order; answers {@code t}. */
  Tuple addTo(Tuple t);

  /** A new tuple holding the call's parameters first, for a statement whose fence is called at $1. */
  default Tuple parameters() {
    return addTo(Tuple.tuple());
  }
}
