package dev.sluice.persistence;

import io.vertx.sqlclient.Tuple;

/**
 * What PostgreSQL checks inside every write, before it may commit: that the writer still owns what
 * it writes for. A single-node server owns the whole database ({@link DatabaseFence}); a cluster
 * node owns virtual shards, each under its own lease ({@link ShardFence}). A refused write fails
 * with SQLSTATE {@link BatchWriter#FENCED} and writes nothing.
 */
public sealed interface Fence permits DatabaseFence, ShardFence {
  /** The call of the fencing function, its parameters numbered from $1. */
  String call();

  /** How many parameters {@link #call} takes: a statement's own are numbered after them. */
  int parameterCount();

  /** A new tuple holding the call's parameters; the statement appends its own. */
  Tuple parameters();
}
