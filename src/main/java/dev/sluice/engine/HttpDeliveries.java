package dev.sluice.engine;

import dev.sluice.model.NewMessage;
import dev.sluice.outbound.OutboundHttp;
import dev.sluice.outbound.OutboundRequest;
import dev.sluice.outbound.OutboundResult;
import dev.sluice.topics.DeliveryPolicy;
import dev.sluice.topics.FanOut;
import dev.sluice.topics.SubscriptionState;
import dev.sluice.topics.TopicState;
import io.vertx.core.Vertx;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Delivers to HTTP/HTTPS subscribers (SNS Developer Guide: Fanout to HTTP/S endpoints; Amazon SNS
 * message delivery retries), from the topic's shard loop, where its timers fire too: each request
 * is posted with SNS's headers ({@link OutboundHttp} bounds it per endpoint), a 2xx answer delivers
 * it, a 4xx answer (other than 429) is the endpoint refusing it, not retried; anything else (a 5xx,
 * a 429, a timeout, a failed connection) is retried as the subscription's delivery policy says,
 * throttled to its maxReceivesPerSecond. A notification the policy gives up on, or the endpoint
 * refuses, goes to the subscription's dead-letter queue, else is dropped, as AWS does. A publish is
 * answered without waiting for these: its HTTP deliveries happen after it, as AWS's do.
 *
 * <p>Bounds: at most {@link #MAX_PENDING_PER_SUBSCRIPTION} notifications undecided per subscription,
 * their bodies charged to the server's memory budget; past either, a new one goes straight to the
 * dead-letter queue (or is dropped) and is counted failed. Held in memory only: a restart loses
 * deliveries not yet made (a queue subscriber, whose copies are committed with the publish, keeps
 * every message). A subscription unsubscribed, or whose topic is deleted, is not delivered to again.
 */
final class HttpDeliveries {
  static final int MAX_PENDING_PER_SUBSCRIPTION = 10_000;
  static final String USER_AGENT = "Amazon Simple Notification Service Agent";

  private final Vertx vertx;
  private final OutboundHttp outbound;
  private final TopicDeliveries deadLetters;

  HttpDeliveries(Vertx vertx, OutboundHttp outbound, TopicDeliveries deadLetters) {
    this.vertx = vertx;
    this.outbound = outbound;
    this.deadLetters = deadLetters;
  }

  /** Delivers a publish's notification to its subscriber; on the topic's shard loop. */
  void notify(TopicState topic, FanOut.Notification n) {
    SubscriptionState sub = n.subscription();
    Map<String, String> headers = headers(topic, "Notification", n.messageId(), sub.attributes().raw());
    headers.put("x-amz-sns-subscription-arn", sub.arn());
    start(topic, sub, new OutboundRequest(sub.endpoint(), headers, n.body()), true);
  }

  /** Sends an HTTP/HTTPS subscription the SubscriptionConfirmation {@code body}; on the topic's shard loop. */
  void confirm(TopicState topic, SubscriptionState sub, String messageId, String body) {
    start(topic, sub, new OutboundRequest(sub.endpoint(), headers(topic, "SubscriptionConfirmation", messageId,
        false), body), false);
  }

  private Map<String, String> headers(TopicState topic, String type, String messageId, boolean raw) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("x-amz-sns-message-type", type);
    h.put("x-amz-sns-message-id", messageId);
    h.put("x-amz-sns-topic-arn", topic.arn());
    if (raw) {
      h.put("x-amz-sns-rawdelivery", "true");
    }
    h.put("User-Agent", USER_AGENT);
    return h;
  }

  /**
   * {@code notification}: a publish's notification, counted on the topic and dead-lettered when it
   * fails; else a SubscriptionConfirmation, which is neither (one that never arrives leaves the
   * subscription pending, as at AWS).
   */
  private void start(TopicState topic, SubscriptionState sub, OutboundRequest request, boolean notification) {
    DeliveryPolicy policy = topic.deliveryPolicyOf(sub);
    request.headers().put("Content-Type", policy.headerContentType());
    long bytes = 2L * request.body().length() + 512;
    if (sub.pendingDeliveries() >= MAX_PENDING_PER_SUBSCRIPTION || !topic.hold(bytes)) {
      if (notification) {
        topic.delivered(0, 1);
        deadLetter(topic, sub, request, "Throttled", "The subscription has too many undelivered notifications");
      }
      return;
    }
    sub.pendingDeliveries(1);
    new Attempts(topic, sub, request, policy, notification, bytes).next(0);
  }

  /** One request's attempts: the first, then the policy's retries. */
  private final class Attempts {
    private final TopicState topic;
    private final SubscriptionState sub;
    private final OutboundRequest request;
    private final DeliveryPolicy policy;
    private final boolean notification;
    private final long bytes;

    Attempts(TopicState topic, SubscriptionState sub, OutboundRequest request, DeliveryPolicy policy,
        boolean notification, long bytes) {
      this.topic = topic;
      this.sub = sub;
      this.request = request;
      this.policy = policy;
      this.notification = notification;
      this.bytes = bytes;
    }

    /** Attempt {@code retry} (0: the first), once the throttle lets it leave. */
    void next(int retry) {
      if (sub.ended()) {
        settle(null);
        return;
      }
      long now = System.nanoTime() / 1_000_000;
      long at = sub.reserveSend(now, policy.maxReceivesPerSecond());
      if (at > now) {
        vertx.setTimer(at - now, id -> post(retry));
      } else {
        post(retry);
      }
    }

    private void post(int retry) {
      if (sub.ended()) {
        settle(null);
        return;
      }
      outbound.post(request).onComplete(done -> {
        OutboundResult result = done.result();
        if (result.delivered()) {
          settle(Boolean.TRUE);
        } else if (!result.clientError() && retry < policy.numRetries() && !sub.ended()) {
          long delay = policy.delayMillis(retry + 1, ThreadLocalRandom.current().nextDouble(-1, 1));
          vertx.setTimer(Math.max(1, delay), id -> next(retry + 1));
        } else {
          settle(Boolean.FALSE);
          if (notification && !sub.ended()) {
            deadLetter(topic, sub, request, result.clientError() ? "ClientError" : "EndpointUnavailable",
                "Delivery to " + sub.endpoint() + " failed after " + (retry + 1) + " attempts: " + result.describe());
          }
        }
      });
    }

    /** The delivery is decided: {@code delivered} true or false, or null when its subscription ended. */
    private void settle(Boolean delivered) {
      sub.pendingDeliveries(-1);
      topic.unhold(bytes);
      if (notification && delivered != null) {
        topic.delivered(delivered ? 1 : 0, delivered ? 0 : 1);
      }
    }
  }

  /** A notification not delivered: to the subscription's dead-letter queue, if it has one. */
  private void deadLetter(TopicState topic, SubscriptionState sub, OutboundRequest request, String code,
      String message) {
    deadLetters.deadLetter(topic.key().accountId(), sub.arn(), sub.attributes().deadLetterArn(),
        new NewMessage(request.body(), null, null, null, null, null, FanOut.SENDER_ID, null), code, message);
  }
}
