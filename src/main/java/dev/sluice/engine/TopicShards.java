package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import io.vertx.core.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * What every SNS action class shares: the owner check before a topic's shard is asked anything
 * ({@link TopicAccess}), and the hand-off to that shard. Cluster mode does not serve topics yet
 * (a topic's calls and listings would have to cross nodes): there every SNS action is refused
 * here. Stateless.
 */
final class TopicShards {
  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final TopicAccess access;
  private final BooleanSupplier clustered;

  TopicShards(ShardDispatcher dispatcher, ShardRouter router, TopicAccess access, BooleanSupplier clustered) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.access = access;
    this.clustered = clustered;
  }

  /** Throws unless {@code c} may do {@code action} to the resource {@code arn} of account {@code owner}. */
  void check(Caller c, String action, String owner, String arn) {
    checkServed();
    access.check(c, action, owner, arn);
  }

  /** Throws unless {@code c}, an unsigned link, is one for {@code action}: what it may do is then the action's to decide. */
  void checkLink(Caller c, String action) {
    checkServed();
    access.checkLink(c, action);
  }

  private void checkServed() {
    if (clustered.getAsBoolean()) {
      throw new SnsException(SnsErrorCode.INVALID_ACTION, "SNS topics are not served in cluster mode yet: this"
          + " node serves the SQS API only.");
    }
  }

  void check(Caller c, String action, TopicKey key) {
    check(c, action, key.accountId(), key.arn());
  }

  /** Runs {@code fn} on the shard of {@code key} and answers what it returns. */
  <R> Future<R> onShard(TopicKey key, Function<Shard, R> fn) {
    return dispatcher.call(router.shardOf(key), (s, reply) -> reply.succeed(fn.apply(s)));
  }

  /**
   * Runs a change on the shard of {@code key}: {@code fn} changes the topic in memory and answers
   * the write that keeps it ({@link TopicWrites}); the change is answered once written.
   */
  <R> Future<R> change(TopicKey key, Function<Shard, Future<R>> fn) {
    return dispatcher.call(router.shardOf(key), (s, reply) -> fn.apply(s).onComplete(reply));
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
