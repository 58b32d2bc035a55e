package dev.sluice.engine;

/**
 * Whether calls made for clients may be served now. Read from any thread on every client call, so
 * it must be cheap. Always open in memory mode; in durable mode closed while this server cannot
 * prove it owns its database (see {@code DurableStore#notServingReason}), and per shard while the
 * shard is loading or being drained ({@link ShardGate}).
 */
@FunctionalInterface
public interface ServingGate {
  /** Why client calls are refused now, or null while they are served. */
  String closedBecause();

  /** Why a new client call on {@code shard} is refused now, or null while it may run. */
  default String closedBecause(int shard) {
    return closedBecause();
  }

  /**
   * Why the answer of a client call on {@code shard}, ready now, must not leave (the shard may be
   * served by another server already), or null. A shard being drained still answers the calls it
   * was running.
   */
  default String answersRefusedBecause(int shard) {
    return closedBecause();
  }

  ServingGate OPEN = () -> null;
}
