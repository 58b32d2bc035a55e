package dev.sluice.engine;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * How a request on some event loop reaches the shard that owns its queue. The answer's listeners
 * run on the caller's context. Two implementations are kept so the choice stays measured:
 * {@link DirectDispatcher} (context hand-off, the default) and {@link EventBusDispatcher}.
 */
public interface ShardDispatcher {
  <R> Future<R> call(int shard, ShardCall<R> call);

  /**
   * {@link #call}, for a call whose answer hands something out: should a gate close between the
   * call and its answer ({@link GatedDispatcher}), {@code answeredWhileClosed} takes the answer and
   * says what to answer instead. Dispatchers without a gate never use it.
   */
  default <R> Future<R> call(int shard, ShardCall<R> call, UnaryOperator<R> answeredWhileClosed) {
    return call(shard, call);
  }

  int shardCount();

  /** Runs {@code fn} on every shard at once; answers the results in shard order. */
  default <T> Future<List<T>> onEveryShard(Function<Shard, T> fn) {
    List<Future<T>> parts = new ArrayList<>();
    for (int i = 0; i < shardCount(); i++) {
      parts.add(call(i, (s, reply) -> reply.succeed(fn.apply(s))));
    }
    return Future.all(parts).map(all -> parts.stream().map(Future::result).toList());
  }
}
