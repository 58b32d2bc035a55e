package dev.sluice.engine;

import io.vertx.core.Completable;

/**
 * Work for one shard, run on that shard's event loop. It answers through {@code reply} exactly
 * once, now or later (a parked receive answers when a message arrives or its deadline passes).
 */
@FunctionalInterface
public interface ShardCall<R> {
  void run(Shard shard, Completable<R> reply);
}
