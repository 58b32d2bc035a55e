package dev.sluice.client;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;

/**
 * One bridge connection as the client uses it, whatever the transport. Every method is called on the
 * client's event loop, and every handler runs there.
 */
interface Connection {
  /**
   * Sends {@code body} to {@code address} with a reply address. The future fails with the mapped
   * refusal ({@link ErrorMapping}), {@link java.util.concurrent.TimeoutException} when no answer comes
   * within the reply timeout, or the connection's close cause.
   */
  Future<JsonObject> request(String address, JsonObject body);

  /** Sends {@code body} to {@code address} without a reply address: nothing will answer it. */
  void send(String address, JsonObject body);

  /** Registers on {@code address}: the server's pushes to it go to {@code handler} (their bodies). */
  void register(String address, Handler<JsonObject> handler);

  /** Stops listening on {@code address} (on a delivery address, this ends its subscription). */
  void unregister(String address);

  /** Runs {@code handler} once when the connection closes, with why ({@link ConnectionLostException} unless known better). */
  void closeHandler(Handler<Throwable> handler);

  /** Closes the connection; pending requests fail with {@link ConnectionLostException}. */
  Future<Void> close();

  /** Opens connections of one transport to one server. */
  interface Connector {
    /** Called on the client's event loop; the connection's handlers run there. */
    Future<Connection> connect();

    /** Releases what the connector holds (its TCP or WebSocket client). */
    Future<Void> close();
  }
}
