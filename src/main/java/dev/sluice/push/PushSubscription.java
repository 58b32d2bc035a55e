package dev.sluice.push;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One push subscription of one connection, of a queue ({@link QueueSubscription}) or a topic
 * ({@link TopicSubscription}): its id, the address its messages are pushed to, and what the
 * protocol's requests do to it. Owned by the push service's event loop.
 */
abstract class PushSubscription {
  final String id;
  final String address;
  final String connectionId;

  PushSubscription(String id, String connectionId) {
    this.id = id;
    this.address = PushAddresses.DELIVERY_PREFIX + id;
    this.connectionId = connectionId;
  }

  /** The subscriber has registered on its delivery address: messages may flow. */
  abstract void start();

  /** {@code sluice.ack}: the message {@code request} names is done with. */
  abstract Future<Void> ack(JsonObject request);

  /** {@code sluice.nack}: the message is given back. */
  abstract Future<Void> nack(JsonObject request);

  /** {@code sluice.extend}: the message is kept longer. */
  abstract Future<Void> extend(JsonObject request);

  /** {@code sluice.credit}: a demand subscription may push more; refused by any other. */
  abstract Future<Void> credit(JsonObject request);

  /** Frees what the clock ended by {@code nowMillis}. */
  abstract void expireOverdue(long nowMillis);

  /** Ends the subscription. */
  abstract void close();
}
