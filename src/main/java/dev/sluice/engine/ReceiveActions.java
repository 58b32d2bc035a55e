package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.QueueKey;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import dev.sluice.model.AttributeSelection;
import dev.sluice.model.MessageValidation;
import dev.sluice.model.QueueState;
import dev.sluice.model.ReceiveSpec;
import dev.sluice.model.Waiter;
import io.vertx.core.Future;
import java.util.List;

/**
 * ReceiveMessage: a receive that finds nothing and may wait is parked in its queue as a waiter,
 * completed by a send, a delay or visibility expiry, its deadline, or dropped when the caller goes.
 * There is no polling loop anywhere.
 */
public final class ReceiveActions {
  static final ReceiveMessage.Response EMPTY = new ReceiveMessage.Response(List.of());
  /**
   * The longest a short poll waits for a page of its queue's visible messages already being read
   * from PostgreSQL; a page takes milliseconds, so this bounds only a database that stalls.
   */
  static final long SHORT_POLL_PAGE_WAIT_MILLIS = 1_000;

  private final ShardDispatcher dispatcher;
  /** For giving messages back: the server's own work, done whether or not it serves. */
  private final ShardDispatcher internal;
  private final ShardRouter router;
  private final QueueAccess access;

  ReceiveActions(ShardDispatcher dispatcher, ShardDispatcher internal, ShardRouter router, QueueAccess access) {
    this.dispatcher = dispatcher;
    this.internal = internal;
    this.router = router;
    this.access = access;
  }

  public Future<ReceiveMessage.Response> receiveMessage(Caller c, ReceiveMessage.Request r, CallerGone gone) {
    int max = r.maxNumberOfMessages() == null ? 1 : r.maxNumberOfMessages();
    if (max < 1 || max > Limits.MAX_MESSAGES_PER_RECEIVE) {
      throw SqsException.invalidValue(max, "MaxNumberOfMessages", "Must be between 1 and 10, if provided.");
    }
    Integer wait = r.waitTimeSeconds();
    if (wait != null && (wait < 0 || wait > Limits.WAIT_SECONDS_MAX)) {
      throw SqsException.invalidValue(wait, "WaitTimeSeconds", "Must be >= 0 and <= 20, if provided.");
    }
    Integer visibility = r.visibilityTimeout();
    if (visibility != null && (visibility < 0 || visibility > Limits.VISIBILITY_SECONDS_MAX)) {
      throw SqsException.invalidValue(
          visibility, "VisibilityTimeout", "Must be >= 0 and <= " + Limits.VISIBILITY_SECONDS_MAX + ", if provided.");
    }
    String attemptId = r.receiveRequestAttemptId();
    if (attemptId != null) {
      MessageValidation.checkGroupOrDedupId(attemptId, "ReceiveRequestAttemptId");
    }
    AttributeSelection selection =
        AttributeSelection.of(r.attributeNames(), r.messageSystemAttributeNames(), r.messageAttributeNames());
    QueueKey key = QueueUrls.keyOf(c.accountRegion(), r.queueUrl());
    int shard = router.shardOf(key);
    Permit permit = access.permit(c, "ReceiveMessage");
    Future<ReceiveMessage.Response> answer = permit.answered(dispatcher.call(shard, (s, reply) -> {
      QueueState q = s.queue(key, permit);
      long now = s.now();
      // The attempt id matters to FIFO queues only; standard queues ignore it (the SQS FIFO queues guide).
      ReceiveSpec spec = new ReceiveSpec(
          max, visibility != null ? visibility : q.attributes().visibilitySeconds(), selection,
          q.attributes().fifo() ? attemptId : null);
      List<ReceiveMessage.Message> got = q.receive(spec, now);
      if (!got.isEmpty()) {
        answer(s, q, got, reply);
        return;
      }
      // An absent WaitTimeSeconds means the queue's ReceiveMessageWaitTimeSeconds (the SQS short and long polling
      // guide).
      int waitSeconds = wait != null ? wait : q.attributes().waitSeconds();
      long deadline = now + waitSeconds * 1000L;
      if (waitSeconds == 0 || s.stopping()) {
        // Standard queues answer OverLimit at the in-flight cap; FIFO queues just return nothing (the SQS
        // visibility timeout guide).
        if (q.inflightLimitReached() && !q.attributes().fifo()) {
          throw new SqsException(ErrorCode.OVER_LIMIT, "The maximum number of in flight messages is reached.");
        }
        if (s.stopping() || !q.shortPollMayWaitForPage()) {
          reply.succeed(EMPTY);
          return;
        }
        // The queue's visible messages are being read back from PostgreSQL (after a restart, or
        // when its head ran out): the short poll waits for that page, briefly, rather than answer
        // nothing while the queue counts them.
        deadline = now + SHORT_POLL_PAGE_WAIT_MILLIS;
      }
      Waiter w = new Waiter(spec, gone::isFired, messages -> answer(s, q, messages, reply));
      q.park(w, deadline);
      gone.onFire(() -> s.later(() -> q.cancel(w)));
    }, response -> {
      // Answered after the server stopped serving (a parked receive when serving paused, or one
      // that raced the lease): what it took becomes visible again at once, and the poll ends with
      // nothing, as a wait that ran out would.
      if (!response.messages().isEmpty()) {
        release(shard, key, response.messages());
      }
      return EMPTY;
    }));
    // Runs on the caller's loop just before the answer is written: if the connection closed in
    // the meantime nobody will read these messages, so they become visible again at once.
    return answer.map(response -> {
      if (gone.isFired() && !response.messages().isEmpty()) {
        release(shard, key, response.messages());
      }
      return response;
    });
  }

  /**
   * Answers received messages. A cluster node answers a FIFO queue's only once their receive has
   * committed (design page cluster.md, §2.16): a receive written behind and lost with its node would
   * let the next owner hand the messages to a second consumer while the first still holds them,
   * breaking the one-at-a-time of a message group. Failing to commit, it answers as the commit does
   * (the messages come back after their visibility timeout).
   */
  private static void answer(Shard s, QueueState q, List<ReceiveMessage.Message> messages,
      io.vertx.core.Completable<ReceiveMessage.Response> reply) {
    if (!q.attributes().fifo() || !s.receivesAnsweredAfterCommit()) {
      reply.succeed(new ReceiveMessage.Response(messages));
      return;
    }
    s.commitChanges().map(new ReceiveMessage.Response(messages)).onComplete(reply);
  }

  /**
   * The queue's VisibilityTimeout, for a push subscriber about to consume it: asked as
   * ReceiveMessage, the one permission consuming needs.
   */
  public Future<Integer> visibilityTimeout(Caller c, String queueUrl) {
    QueueKey key = QueueUrls.keyOf(c.accountRegion(), queueUrl);
    Permit permit = access.permit(c, "ReceiveMessage");
    return permit.answered(dispatcher.call(router.shardOf(key),
        (s, reply) -> reply.succeed(s.queue(key, permit).attributes().visibilitySeconds())));
  }

  private void release(int shard, QueueKey key, List<ReceiveMessage.Message> messages) {
    giveBack(shard, key, messages.stream().map(ReceiveMessage.Message::receiptHandle).toList());
  }

  /**
   * Makes received messages visible again at once, whether or not the server serves: for a push
   * subscription that ends with messages unacknowledged. Handles that no longer name a message in
   * flight (deleted, changed, queue gone) are skipped.
   */
  public Future<Void> giveBack(Caller c, String queueUrl, List<String> receiptHandles) {
    QueueKey key = QueueUrls.keyOf(c.accountRegion(), queueUrl);
    return giveBack(router.shardOf(key), key, receiptHandles);
  }

  private Future<Void> giveBack(int shard, QueueKey key, List<String> receiptHandles) {
    return internal.call(shard, (s, reply) -> {
      QueueState q = s.find(key);
      for (String handle : q == null ? List.<String>of() : receiptHandles) {
        try {
          q.changeVisibility(handle, 0, s.now());
        } catch (SqsException alreadyDeletedOrChanged) {
          // nothing to give back
        }
      }
      reply.succeed(null);
    });
  }
}
