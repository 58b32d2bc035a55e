package dev.sluice.client;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One subscription on the server, made on one connection, and what the client sends about it: its
 * credits, its settles and its end. A new one is made for each (re)subscribe, so a delivery that
 * names an earlier one cannot be settled any more. Used on the client's event loop only.
 */
final class ServerSubscription {
  final Connection connection;
  final String id;
  final String address;
  private boolean credited;

  ServerSubscription(Connection connection, String id, String address) {
    this.connection = connection;
    this.id = id;
    this.address = address;
  }

  /** The body of {@code sluice.subscribe} for {@code queue} (a name, or a URL) in demand mode. */
  static JsonObject request(String queue, SubscribeOptions options) {
    boolean isUrl = queue.startsWith("http://") || queue.startsWith("https://");
    JsonObject body = new JsonObject().put(isUrl ? "queueUrl" : "queueName", queue)
        .put("prefetch", options.maxUnacknowledged()).put("credit", "demand");
    options.visibilityTimeout().ifPresent(d -> body.put("visibilityTimeout", d.getSeconds()));
    options.region().ifPresent(r -> body.put("region", r));
    return body;
  }

  /**
   * Adds {@code credits} to the server's grant. The first after the subscribe is sent with a reply
   * address, so that a refusal is seen: its answer is returned. Later top-ups go without one (a
   * correct client's cannot be refused, and each would cost a reply frame): null.
   */
  Future<JsonObject> credit(int credits) {
    JsonObject body = new JsonObject().put("subscription", id).put("credits", credits);
    if (credited) {
      connection.send(ProtocolAddresses.CREDIT, body);
      return null;
    }
    credited = true;
    return connection.request(ProtocolAddresses.CREDIT, body);
  }

  /** Acks, nacks or extends a message it pushed. */
  Future<JsonObject> settle(String to, JsonObject request) {
    return connection.request(to, request.put("subscription", id));
  }

  /** Ends it: its unacknowledged messages go back to the queue at once, nothing more is pushed. */
  void end() {
    unsubscribe(connection, id);
    connection.unregister(address);
  }

  /** The server ended it already: stops listening, which also lets the server forget it. */
  void forget() {
    connection.unregister(address);
  }

  /** Ends a subscription the client did not take up (answered after a cancel, or by an older server). */
  static void unsubscribe(Connection c, String id) {
    c.send(ProtocolAddresses.UNSUBSCRIBE, new JsonObject().put("subscription", id));
  }
}
