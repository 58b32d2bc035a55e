package dev.sluice.push;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.TopicNotification;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One subscriber's view of one topic: each publish its filter policy accepts is pushed to it as it
 * happens, at most once. At most {@code prefetch} are unacknowledged at once ({@code sluice.ack}
 * with the messageId frees one); those published before the subscriber registered on its address
 * wait for it and count among them. One published while none is free is dropped, and the next
 * one pushed says how many were ({@code dropped}): a subscriber that must see every message
 * subscribes a queue to the topic and pushes from the queue. Owned by the push service's event loop.
 */
final class TopicSubscription extends PushSubscription {
  final int prefetch;
  private final BridgeCaller caller;
  private final QueueEngine engine;
  private final Vertx vertx;
  private final Set<String> inFlight = new LinkedHashSet<>();
  /** Taken before the subscriber registered: pushed once it has. */
  private final List<TopicNotification> waiting = new ArrayList<>();
  /** The topic's ARN, once the topic's shard has taken the listener. */
  private String topicArn;
  private long dropped;
  private boolean started;
  private boolean closed;

  TopicSubscription(String id, String connectionId, BridgeCaller caller, int prefetch, QueueEngine engine,
      Vertx vertx) {
    super(id, connectionId);
    this.caller = caller;
    this.prefetch = prefetch;
    this.engine = engine;
    this.vertx = vertx;
  }

  /** The topic's shard has the listener: {@link #close} removes it there. */
  void listening(String arn) {
    this.topicArn = arn;
    if (closed) {
      engine.sns().pushes().remove(caller, arn, id);
    }
  }

  /** A publish the topic gave this subscriber (on this loop). */
  void offer(TopicNotification n) {
    if (closed) {
      return;
    }
    if (inFlight.size() >= prefetch) {
      dropped++;
      return;
    }
    inFlight.add(n.messageId());
    if (started) {
      vertx.eventBus().send(address, PushMessages.notification(id, n, dropped));
    } else {
      waiting.add(n);
    }
  }

  @Override
  void start() {
    if (!started) {
      started = true;
      waiting.forEach(n -> vertx.eventBus().send(address, PushMessages.notification(id, n, dropped)));
      waiting.clear();
    }
  }

  @Override
  Future<Void> ack(JsonObject request) {
    String messageId = PushParameters.string(request, "messageId");
    if (messageId == null) {
      throw SqsException.missingParameter("messageId");
    }
    if (!inFlight.remove(messageId)) {
      throw new SqsException(ErrorCode.INVALID_PARAMETER_VALUE,
          "The messageId is not one this subscription holds unacknowledged.");
    }
    return Future.succeededFuture();
  }

  @Override
  Future<Void> nack(JsonObject request) {
    throw notForTopics("sluice.nack");
  }

  @Override
  Future<Void> extend(JsonObject request) {
    throw notForTopics("sluice.extend");
  }

  @Override
  Future<Void> credit(JsonObject request) {
    throw notForTopics("sluice.credit");
  }

  private static SqsException notForTopics(String address) {
    return new SqsException(ErrorCode.INVALID_PARAMETER_VALUE, address + " is for queue subscriptions: a topic's"
        + " notifications are pushed once and only acknowledged.");
  }

  @Override
  void expireOverdue(long nowMillis) {
    // Nothing expires: a notification is not given back, so its credit is freed by its ack only.
  }

  @Override
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    inFlight.clear();
    waiting.clear();
    if (topicArn != null) {
      engine.sns().pushes().remove(caller, topicArn, id);
    }
  }
}
