package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import io.vertx.core.Future;
import java.util.function.Function;

/**
 * What every SNS action class shares: the owner check before a topic's shard is asked anything
 * ({@link TopicAccess}), and the hand-off to that shard. Topics live in memory only so far: on a
 * server that keeps its queues in PostgreSQL every SNS action is refused here, so that no topic,
 * subscription or publish is acknowledged that a restart would lose. Stateless.
 */
final class TopicShards {
  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final TopicAccess access;
  private final boolean durable;

  TopicShards(ShardDispatcher dispatcher, ShardRouter router, TopicAccess access, boolean durable) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.access = access;
    this.durable = durable;
  }

  /** Throws unless {@code c} may do {@code action} to the resource {@code arn} of account {@code owner}. */
  void check(Caller c, String action, String owner, String arn) {
    if (durable) {
      throw new SnsException(SnsErrorCode.INVALID_ACTION, "SNS topics are not kept in PostgreSQL yet: this server"
          + " (storage: postgres) serves the SQS API only. Run with storage: memory for topics.");
    }
    access.check(c, action, owner, arn);
  }

  void check(Caller c, String action, TopicKey key) {
    check(c, action, key.accountId(), key.arn());
  }

  /** Runs {@code fn} on the shard of {@code key} and answers what it returns. */
  <R> Future<R> onShard(TopicKey key, Function<Shard, R> fn) {
    return dispatcher.call(router.shardOf(key), (s, reply) -> reply.succeed(fn.apply(s)));
  }

  /** Runs {@code call} on the shard of {@code key}; it answers when it will. */
  <R> Future<R> call(TopicKey key, ShardCall<R> call) {
    return dispatcher.call(router.shardOf(key), call);
  }

  ShardDispatcher dispatcher() {
    return dispatcher;
  }

  ShardRouter router() {
    return router;
  }
}
