package dev.sluice.engine;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.model.Ids;
import dev.sluice.model.NewMessage;
import dev.sluice.model.QueueState;
import dev.sluice.topics.FanOut;
import dev.sluice.topics.SubscriptionEndpoints;
import dev.sluice.topics.TopicState;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hands a publish's copies to their queues' shards, in order (hand-offs from one shard to another
 * run in the order they are made, which keeps a FIFO topic's order in each queue), and says when
 * all are decided: stored, and under {@code durability: commit} committed, as a send would be. A
 * copy whose queue is gone goes to its subscription's dead-letter queue (AWS: Amazon SNS
 * dead-letter queues, a client-side error), else is dropped and logged, as AWS drops what it
 * cannot deliver; so is one the queue refuses for good (a body past its MaximumMessageSize). One
 * refused for now (the memory budget) fails the publish with the retryable Throttled, so the
 * publisher tries again (copies already stored may then arrive twice: standard topics deliver at
 * least once). Also stores what HTTP deliveries dead-letter. Stateless.
 */
final class TopicDeliveries {
  private static final System.Logger LOG = System.getLogger(TopicDeliveries.class.getName());

  private final ShardDispatcher dispatcher;
  private final ShardRouter router;

  TopicDeliveries(ShardDispatcher dispatcher, ShardRouter router) {
    this.dispatcher = dispatcher;
    this.router = router;
  }

  /**
   * Completes once every copy of a publish to {@code topic} is stored or dropped, and counts them on
   * the topic (on its shard's loop, where this is called and answered); fails when one must be
   * tried again.
   */
  Future<Void> deliver(TopicState topic, List<FanOut.Copy> copies) {
    if (copies.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Future<Boolean>> stored = new ArrayList<>(copies.size());
    for (FanOut.Copy copy : copies) {
      stored.add(dispatcher.<Boolean>call(router.shardOf(copy.queue()), (s, reply) -> {
        QueueState q = s.find(copy.queue());
        if (q == null) {
          deadLetter(topic.key().accountId(), copy.subscriptionArn(), copy.deadLetterArn(), copy.message(),
              "InvalidParameter", "The queue " + copy.queue().name() + " does not exist")
              .onComplete(dead -> reply.succeed(false));
          return;
        }
        s.admitSends();
        if (copy.relayed() == null) {
          q.send(copy.message(), false, s.now());
        } else {
          q.relayReceipts().admitEpoch(copy.relayed().source(), copy.relayed().epoch());
          q.relayReceipts().relay(copy.relayed().source(), copy.relayed().rowId(), copy.message(), s.now());
        }
        if (s.answersAfterCommit() || copy.relayed() != null) {
          // durability commit: the publish is answered once every copy is committed, as a send is;
          // an outbox row's copies whatever the durability, as the relay then deletes the row.
          (copy.relayed() == null ? s.commitChanges() : s.commitChangesAfterEarlier()).onComplete(
              committed -> reply.succeed(true), uncommitted -> reply.fail(notCommitted(uncommitted)));
        } else {
          reply.succeed(true);
        }
      }).recover(failure -> dropOrRetry(copy, failure)));
    }
    return Future.join(stored).transform(done -> {
      int ok = 0;
      Throwable retry = null;
      for (Future<Boolean> f : stored) {
        if (f.succeeded() && f.result()) {
          ok++;
        } else if (f.failed() && retry == null) {
          retry = f.cause();
        }
      }
      topic.delivered(ok, copies.size() - ok);
      return retry == null ? Future.succeededFuture() : Future.failedFuture(retry);
    });
  }

  /**
   * Stores {@code message}, which subscription {@code subscriptionArn} of a topic of account
   * {@code account} could not be given, in its dead-letter queue {@code deadLetterArn} (null: none,
   * it is dropped), with the attributes AWS adds to a dead letter: RequestID, ErrorCode and
   * ErrorMessage. The queue must be the topic's account's, as AWS requires; a dead-letter queue that
   * is gone or refuses the message drops it. Completes with whether it was stored; never fails.
   */
  Future<Boolean> deadLetter(String account, String subscriptionArn, String deadLetterArn, NewMessage message,
      String errorCode, String errorMessage) {
    QueueKey dlq = deadLetterArn == null ? null : SubscriptionEndpoints.queueArn(deadLetterArn);
    if (dlq == null || !dlq.accountId().equals(account)) {
      LOG.log(System.Logger.Level.DEBUG, () -> "Dropped a message for " + subscriptionArn + " (" + errorMessage
          + "): its subscription has no dead-letter queue of its account");
      return Future.succeededFuture(false);
    }
    Map<String, MessageAttributeValue> attributes =
        message.attributes() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(message.attributes());
    attributes.put("RequestID", MessageAttributeValue.ofString(Ids.uuid()));
    attributes.put("ErrorCode", MessageAttributeValue.ofString(errorCode));
    attributes.put("ErrorMessage", MessageAttributeValue.ofString(errorMessage));
    boolean fifo = dlq.name().endsWith(".fifo");
    NewMessage dead = new NewMessage(message.body(), null, attributes, null,
        fifo ? message.deduplicationId() : null, fifo ? message.groupId() : null, FanOut.SENDER_ID, null);
    return dispatcher.<Boolean>call(router.shardOf(dlq), (s, reply) -> {
      QueueState q = s.find(dlq);
      if (q == null) {
        reply.succeed(false);
        return;
      }
      s.admitSends();
      q.send(dead, false, s.now());
      reply.succeed(true);
    }).recover(failure -> {
      LOG.log(System.Logger.Level.WARNING, "Dropped a dead letter of " + subscriptionArn + ": its dead-letter queue"
          + " refused it: " + failure.getMessage());
      return Future.succeededFuture(false);
    });
  }

  /** A copy stored but not committed fails its publish, whatever kept it from committing. */
  private static SnsException notCommitted(Throwable failure) {
    return failure instanceof SqsException e && e.code() == dev.sluice.api.ErrorCode.SERVICE_UNAVAILABLE
        ? asSns(e) : new SnsException(SnsErrorCode.SERVICE_UNAVAILABLE, "A copy could not be committed; retry.");
  }

  private static Future<Boolean> dropOrRetry(FanOut.Copy copy, Throwable failure) {
    if (failure instanceof SnsException e) {
      return Future.failedFuture(e);
    }
    if (failure instanceof SqsException e && isRetryable(e)) {
      return Future.failedFuture(asSns(e));
    }
    LOG.log(System.Logger.Level.WARNING, "Dropped a copy for " + copy.subscriptionArn() + ": its queue refused it: "
        + failure.getMessage());
    return Future.succeededFuture(false);
  }

  private static boolean isRetryable(SqsException e) {
    return switch (e.code()) {
      case REQUEST_THROTTLED, SERVICE_UNAVAILABLE -> true;
      default -> false;
    };
  }

  /** A failure of a copy as the publisher is told it. */
  static SnsException asSns(Throwable failure) {
    if (failure instanceof SnsException e) {
      return e;
    }
    if (failure instanceof SqsException e && isRetryable(e)) {
      SnsErrorCode code = SnsErrorCode.of(e.code());
      return new SnsException(code, code == SnsErrorCode.THROTTLED
          ? "A subscribed queue is over its memory budget: " + e.getMessage() : e.getMessage());
    }
    return new SnsException(SnsErrorCode.INTERNAL_ERROR, "We encountered an internal error. Please try again.");
  }
}
