package dev.sluice.client;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A connection that records what the client sends and lets a test answer, push and drop it, as the
 * bridge would. Used on the client's event loop only, like the real ones.
 */
final class FakeConnection implements Connection {
  /** One frame the client sent: a request when {@code reply} is set, else a fire-and-forget send. */
  record Sent(String address, JsonObject body, Promise<JsonObject> reply) {
    boolean withReply() {
      return reply != null;
    }
  }

  final List<Sent> sent = new ArrayList<>();
  final Map<String, Handler<JsonObject>> registered = new LinkedHashMap<>();
  final List<String> unregistered = new ArrayList<>();
  private Handler<Throwable> closeHandler = e -> {};
  boolean closed;

  @Override
  public Future<JsonObject> request(String address, JsonObject body) {
    Promise<JsonObject> p = Promise.promise();
    if (closed) {
      p.fail(new ConnectionLostException("closed", null));
    }
    sent.add(new Sent(address, body, p));
    return p.future();
  }

  @Override
  public void send(String address, JsonObject body) {
    if (!closed) {
      sent.add(new Sent(address, body, null));
    }
  }

  @Override
  public void register(String address, Handler<JsonObject> handler) {
    registered.put(address, handler);
  }

  @Override
  public void unregister(String address) {
    if (registered.remove(address) != null) {
      unregistered.add(address);
    }
  }

  @Override
  public void closeHandler(Handler<Throwable> handler) {
    closeHandler = handler;
  }

  @Override
  public Future<Void> close() {
    drop(new ConnectionLostException("closed by the client", null));
    return Future.succeededFuture();
  }

  /** The connection is lost: pending requests fail, the client hears of it. */
  void drop(Throwable cause) {
    if (closed) {
      return;
    }
    closed = true;
    registered.clear();
    for (Sent s : sent) {
      if (s.reply() != null) {
        s.reply().tryFail(cause instanceof ConnectionLostException ? cause : new ConnectionLostException("lost", cause));
      }
    }
    closeHandler.handle(cause);
  }

  /** What was sent to {@code address}, in order. */
  List<Sent> to(String address) {
    return sent.stream().filter(s -> s.address().equals(address)).toList();
  }

  Sent last(String address) {
    List<Sent> all = to(address);
    if (all.isEmpty()) {
      throw new AssertionError("nothing sent to " + address + "; sent: " + sent);
    }
    return all.get(all.size() - 1);
  }

  /** The server pushes {@code body} to a registered address. */
  void push(String address, JsonObject body) {
    Handler<JsonObject> h = registered.get(address);
    if (h != null) {
      h.handle(body);
    }
  }

  /** The server refuses the request as the push service does: failure code and "Code: text". */
  static void refuse(Sent s, int status, String codeAndText) {
    s.reply().fail(ErrorMapping.fromReply(status, "RECIPIENT_FAILURE", codeAndText));
  }

  /** Opens fake connections, each one recorded; {@link #refusing} makes the next connects fail. */
  static final class Connector implements Connection.Connector {
    /** Written on the client's loop, read from the test's thread. */
    final List<FakeConnection> made = new java.util.concurrent.CopyOnWriteArrayList<>();
    Throwable refusing;

    @Override
    public Future<Connection> connect() {
      if (refusing != null) {
        return Future.failedFuture(refusing);
      }
      FakeConnection c = new FakeConnection();
      made.add(c);
      return Future.succeededFuture(c);
    }

    @Override
    public Future<Void> close() {
      return Future.succeededFuture();
    }

    FakeConnection last() {
      return made.get(made.size() - 1);
    }
  }
}
