package dev.sluice.engine;

import dev.sluice.persistence.DatabaseFence;
import dev.sluice.persistence.Fence;
import dev.sluice.persistence.ShardFence;

/**
 * What one deployment of a shard holds it under, in durable mode: the run its message keys start
 * from ({@code sluice_runs}, so that keys of a later deployment are above every key the shard had)
 * and the fence its writes carry, the database's epoch of a single-node server or, in cluster mode,
 * the epoch of the shard's lease. Immutable.
 */
record ShardTenure(long run, Fence fence) {
  /** Memory mode: nothing is written, and keys start at run 0. */
  static final ShardTenure MEMORY = new ShardTenure(0, null);

  /** A single-node server's: the run it started with, and the epoch it claimed the database at. */
  static ShardTenure ofDatabase(long run, long epoch) {
    return new ShardTenure(run, new DatabaseFence(epoch));
  }

  /** What the writer fences each submission of the shard with: null when the database fence does. */
  ShardFence submissions() {
    return fence instanceof ShardFence shard ? shard : null;
  }
}
