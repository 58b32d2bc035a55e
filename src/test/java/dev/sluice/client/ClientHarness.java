package dev.sluice.client;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A {@link SluiceClient} over {@link FakeConnection}s, and the means to act on its event loop and to
 * wait until what was queued there has run.
 */
final class ClientHarness implements AutoCloseable {
  final FakeConnection.Connector connector = new FakeConnection.Connector();
  final SluiceClient client;

  ClientHarness(Vertx vertx) {
    this(vertx, Backoff.exponential(Duration.ofMillis(1), Duration.ofMillis(5)));
  }

  ClientHarness(Vertx vertx, Backoff backoff) {
    this(vertx, backoff, null);
  }

  /** {@code refusing}: every connect fails with it. */
  ClientHarness(Vertx vertx, Backoff backoff, Throwable refusing) {
    connector.refusing = refusing;
    client = new SluiceClient(vertx, false, connector, backoff);
    settle();
  }

  /** Runs {@code action} on the client's event loop and waits for it. */
  <T> T onLoop(Supplier<T> action) {
    if (Vertx.currentContext() == client.context()) {
      return action.get(); // already there: waiting for a task queued behind this one would never end
    }
    CompletableFuture<T> done = new CompletableFuture<>();
    client.context().runOnContext(v -> {
      try {
        done.complete(action.get());
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    });
    try {
      return done.get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  void run(Runnable action) {
    onLoop(() -> {
      action.run();
      return null;
    });
  }

  /** Waits until the tasks queued on the loop, and those they queue in turn, have run. */
  void settle() {
    for (int i = 0; i < 5; i++) {
      run(() -> { });
    }
  }

  /** The connection made last (readable from any thread). */
  FakeConnection connection() {
    return connector.last();
  }

  /** Answers the last subscribe as a demand-credit server does, and waits for what follows. */
  String acceptSubscribe(String id) {
    FakeConnection c = connection();
    run(() -> c.last(ProtocolAddresses.SUBSCRIBE).reply().complete(new JsonObject().put("subscription", id)
        .put("address", ProtocolAddresses.DELIVERY_PREFIX + id).put("prefetch", 10).put("visibilityTimeout", 30)
        .put("credit", "demand")));
    settle();
    return ProtocolAddresses.DELIVERY_PREFIX + id;
  }

  /** Pushes {@code count} messages to {@code address} in one event-loop turn. */
  void push(String address, int count) {
    FakeConnection c = connection();
    run(() -> {
      for (int i = 0; i < count; i++) {
        c.push(address, message("m" + i));
      }
    });
    settle();
  }

  static JsonObject message(String id) {
    return new JsonObject().put("type", "message").put("subscription", "s").put("messageId", id)
        .put("receiptHandle", "rh-" + id).put("body", "body of " + id).put("md5OfBody", "x").put("receiveCount", 1)
        .put("attributes", new JsonObject().put("ApproximateReceiveCount", "1").put("SentTimestamp", "1"));
  }

  /** How {@code uni} fails (within 5 s); an AssertionError if it succeeds. */
  static Throwable failureOf(Uni<?> uni) {
    try {
      uni.await().atMost(Duration.ofSeconds(5));
    } catch (CompletionException e) {
      return e.getCause();
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("succeeded");
  }

  @Override
  public void close() {
    client.close().await().atMost(Duration.ofSeconds(5));
  }
}
