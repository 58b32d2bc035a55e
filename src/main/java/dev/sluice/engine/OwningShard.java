package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.QueueKey;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs a call on the shard that owns a queue, given by its key or by a caller's QueueUrl, and
 * answers it: at once, or, for a change, through {@link #durably}, once what it changed is durable.
 * Stateless; shared by every action class.
 */
final class OwningShard {
  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final QueueAccess access;

  OwningShard(ShardDispatcher dispatcher, ShardRouter router, QueueAccess access) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.access = access;
  }

  /**
   * Runs {@code fn} on the shard owning the queue, with the queue, once the caller may do
   * {@code action} to it (else AccessDenied); QueueDoesNotExist when there is none.
   */
  <R> Future<R> onQueue(Caller c, String action, QueueKey key, BiFunction<Shard, QueueState, R> fn) {
    Permit permit = access.permit(c, action);
    return permit.answered(
        dispatcher.call(router.shardOf(key), (s, reply) -> reply.succeed(fn.apply(s, s.queue(key, permit)))));
  }

  /**
   * Only asks whether the caller may do {@code action} to the queue (which need not exist): for a
   * call that must be allowed before it looks at other queues, so that what it would find there is
   * told to nobody who may not make the call.
   */
  Future<Void> allowed(Caller c, String action, QueueKey key) {
    Permit permit = access.permit(c, action);
    return permit.answered(dispatcher.call(router.shardOf(key), (s, reply) -> {
      permit.check(key, s.find(key));
      reply.succeed(null);
    }));
  }

  <R> Future<R> onQueueUrl(Caller c, String action, String queueUrl, BiFunction<Shard, QueueState, R> fn) {
    return onQueue(c, action, QueueUrls.keyOf(c.accountRegion(), queueUrl), fn);
  }

  /**
   * Like {@link #onQueueUrl}, for changes a client must not see acknowledged before they are
   * durable (see {@link #durably}).
   */
  <R> Future<R> onQueueUrlDurably(Caller c, String action, String queueUrl, BiFunction<Shard, QueueState, R> fn) {
    return onQueueDurably(c, action, QueueUrls.keyOf(c.accountRegion(), queueUrl), fn, q -> true);
  }

  /** {@link #onQueueUrlDurably}, waiting only for the queues {@code mustCommit} accepts. */
  <R> Future<R> onQueueUrlDurably(Caller c, String action, String queueUrl, BiFunction<Shard, QueueState, R> fn,
      Predicate<QueueState> mustCommit) {
    return onQueueDurably(c, action, QueueUrls.keyOf(c.accountRegion(), queueUrl), fn, mustCommit);
  }

  /** Like {@link #onQueue}, for a change acknowledged through {@link #durably}. */
  <R> Future<R> onQueueDurably(Caller c, String action, QueueKey key, BiFunction<Shard, QueueState, R> fn) {
    return onQueueDurably(c, action, key, fn, q -> true);
  }

  /**
   * Like {@link #onQueueUrlDurably}, answered once committed whatever the durability (relaxed too):
   * for the outbox relay, which deletes its rows from the application's outbox once answered.
   */
  <R> Future<R> onQueueUrlCommitted(Caller c, String action, String queueUrl, BiFunction<Shard, QueueState, R> fn) {
    QueueKey key = QueueUrls.keyOf(c.accountRegion(), queueUrl);
    Permit permit = access.permit(c, action);
    return permit.answered(dispatcher.call(router.shardOf(key), (s, reply) -> {
      R answer = fn.apply(s, s.queue(key, permit));
      // After earlier writes too: a row answered as sent before may be in one still under way.
      s.commitChangesAfterEarlier().onComplete(committed -> reply.succeed(answer), reply::fail);
    }));
  }

  private <R> Future<R> onQueueDurably(Caller c, String action, QueueKey key, BiFunction<Shard, QueueState, R> fn,
      Predicate<QueueState> mustCommit) {
    Permit permit = access.permit(c, action);
    return permit.answered(
        durably(key, s -> fn.apply(s, s.queue(key, permit)), s -> mustCommit.test(s.queue(key))));
  }

  /**
   * {@link #durably(QueueKey, Function, Predicate)} for a call whose changes always wait, on a queue
   * that need not exist yet (it may create or delete it), once the caller may do {@code action} to it.
   */
  <R> Future<R> durably(Caller c, String action, QueueKey key, Function<Shard, R> fn) {
    Permit permit = access.permit(c, action);
    return permit.answered(durably(key, s -> {
      permit.check(key, s.find(key));
      return fn.apply(s);
    }, s -> true));
  }

  /**
   * Runs {@code fn} on the shard that owns the queue: the one way a change is acknowledged.
   * Under durability commit the answer waits until what the call changed has committed, and fails
   * as a send's does when it cannot (ServiceUnavailable past pg.sendTimeoutMillis, InternalFailure
   * when PostgreSQL refuses it for good); a call that changed nothing waits for what its shard
   * submitted before it, so a retried request is not acknowledged before its first attempt is
   * stored. {@code mustCommit} (asked after {@code fn}) may let a call's changes be written behind.
   * Under relaxed durability, and in memory, it answers at once.
   */
  private <R> Future<R> durably(QueueKey key, Function<Shard, R> fn, Predicate<Shard> mustCommit) {
    return dispatcher.call(router.shardOf(key), (s, reply) -> {
      R answer = fn.apply(s);
      if (!s.answersAfterCommit() || !mustCommit.test(s)) {
        reply.succeed(answer);
        return;
      }
      s.commitChanges().onComplete((committed, failure) -> {
        if (failure == null) {
          reply.succeed(answer);
        } else {
          reply.fail(failure);
        }
      });
    });
  }
}
