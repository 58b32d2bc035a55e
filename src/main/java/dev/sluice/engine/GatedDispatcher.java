package dev.sluice.engine;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import io.vertx.core.Future;
import java.util.function.UnaryOperator;

/**
 * The one place where a call made for a client is refused while this server may not serve: every
 * action the two HTTP protocols and the push service call reaches its shard through here. Refused
 * with the retryable ServiceUnavailable, as during recovery. Checked twice:
 *
 * <ul>
 *   <li>on the shard, before the call runs, so that a refused call changes nothing and hands out
 *       nothing;
 *   <li>when its answer is ready, before it leaves: a call that began while serving and is answered
 *       after serving stopped (a send whose commit outlived the lease, a parked receive woken by a
 *       timer) is refused too, so that no answer of this server follows another server's first.
 *       A send refused that way may have been stored; its client retries (at-least-once, and FIFO
 *       deduplication catches the retry). An answer that hands something out may instead be turned
 *       into a harmless one ({@link #call(int, ShardCall, UnaryOperator)}).
 * </ul>
 *
 * Calls the server makes for itself (recovery, due-time timers, moves between shards, metrics,
 * making messages visible again) use the dispatcher underneath. Stateless.
 */
final class GatedDispatcher implements ShardDispatcher {
  private final ShardDispatcher inner;
  private final ServingGate gate;

  GatedDispatcher(ShardDispatcher inner, ServingGate gate) {
    this.inner = inner;
    this.gate = gate;
  }

  @Override
  public <R> Future<R> call(int shard, ShardCall<R> call) {
    return call(shard, call, null);
  }

  @Override
  public <R> Future<R> call(int shard, ShardCall<R> call, UnaryOperator<R> answeredWhileClosed) {
    return inner.<R>call(shard, (s, reply) -> {
      String closed = gate.closedBecause(shard);
      if (closed != null) {
        reply.fail(refusal(closed));
      } else {
        call.run(s, reply);
      }
    }).compose(answer -> {
      String closed = gate.answersRefusedBecause(shard);
      if (closed == null) {
        return Future.succeededFuture(answer);
      }
      return answeredWhileClosed != null ? Future.succeededFuture(answeredWhileClosed.apply(answer))
          : Future.failedFuture(refusal(closed));
    });
  }

  @Override
  public int shardCount() {
    return inner.shardCount();
  }

  static SqsException refusal(String closedBecause) {
    return new SqsException(ErrorCode.SERVICE_UNAVAILABLE,
        "This server is not serving: " + closedBecause + ". Retry the request.");
  }
}
