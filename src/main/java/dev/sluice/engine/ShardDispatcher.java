package dev.sluice.engine;

import io.vertx.core.Future;

/**
 * How a request on some event loop reaches the shard that owns its queue. The answer's listeners
 * run on the caller's context. Two implementations are kept so the choice stays measured:
 * {@link DirectDispatcher} (context hand-off, the default) and {@link EventBusDispatcher}.
 */
public interface ShardDispatcher {
  <R> Future<R> call(int shard, ShardCall<R> call);

  int shardCount();
}
