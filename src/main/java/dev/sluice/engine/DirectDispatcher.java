package dev.sluice.engine;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import java.util.List;

/**
 * Hands a call straight to the shard's context and answers through a promise bound to the
 * caller's context (VERTX5-NOTES §6.7 (b)): no serialisation, no reply consumer, no timeout timer
 * per call; a caller already on the shard's event loop runs the call in place. Uses Vert.x
 * internals that are stable on the pinned 5.0.x line.
 */
public final class DirectDispatcher implements ShardDispatcher {
  private final Vertx vertx;
  private final List<ShardVerticle> shards;

  public DirectDispatcher(Vertx vertx, List<ShardVerticle> shards) {
    this.vertx = vertx;
    this.shards = shards;
  }

  @Override
  public <R> Future<R> call(int shard, ShardCall<R> call) {
    ContextInternal caller = (ContextInternal) vertx.getOrCreateContext();
    PromiseInternal<R> reply = caller.promise();
    ShardVerticle owner = shards.get(shard);
    ContextInternal target = (ContextInternal) owner.context();
    if (target.inThread() && !owner.shard().busy()) {
      // The caller shares the shard's event loop: run now, as the shard, with no task hop. Never
      // while a shard call is on the stack (a listener run inline by one), which would re-enter it.
      target.dispatch(() -> owner.shard().run(call, reply));
    } else {
      target.runOnContext(v -> owner.shard().run(call, reply));
    }
    return reply.future();
  }

  @Override
  public int shardCount() {
    return shards.size();
  }
}
