package dev.sluice.client;

import io.smallrye.mutiny.subscription.MultiSubscriber;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * One subscriber's subscription to a queue, across connections: it subscribes on the server in demand
 * mode, registers on the answered delivery address, turns the subscriber's requests into credits
 * ({@link CreditWindow}), emits what is pushed, settles deliveries, and subscribes again after a lost
 * connection or a retryable end. Owned by the client's event loop: every field is touched only there,
 * and {@link #request}, {@link #cancel} and settling, called from any thread, hop onto it; so the
 * subscriber's signals come from that loop, one at a time.
 */
final class DeliverySubscription implements Flow.Subscription {
  private enum State { IDLE, SUBSCRIBING, ACTIVE, DONE }

  private final SluiceClient client;
  private final String queue;
  private final SubscribeOptions options;
  private final MultiSubscriber<? super Delivery> downstream;
  private final CreditWindow window;
  private State state = State.IDLE;
  /** The subscription on the server while ACTIVE, else null. */
  private ServerSubscription server;
  /** Counts subscribe requests: an answer to an older one is not this subscription's. */
  private long subscribes;
  private boolean flushScheduled;
  /** Retryable failures in a row (refused subscribes, ended subscriptions). */
  private int failures;
  private long retryTimer = -1;

  DeliverySubscription(SluiceClient client, String queue, SubscribeOptions options,
      MultiSubscriber<? super Delivery> downstream) {
    this.client = client;
    this.queue = queue;
    this.options = options;
    this.downstream = downstream;
    this.window = new CreditWindow(options.maxUnacknowledged());
  }

  @Override
  public void request(long n) {
    client.onLoop(() -> {
      if (state == State.DONE) {
        return;
      }
      if (n <= 0) { // Reactive Streams §3.9
        fail(new IllegalArgumentException("A subscriber must request a positive number of items, not " + n));
        return;
      }
      window.request(n);
      scheduleFlush();
    });
  }

  @Override
  public void cancel() {
    client.onLoop(() -> {
      if (state != State.DONE) {
        release();
      }
    });
  }

  /** After onSubscribe: takes a place on the client and subscribes if it is connected. */
  void start() {
    Throwable refused = client.admit(this);
    if (refused != null) {
      state = State.DONE;
      downstream.onFailure(refused);
      return;
    }
    Connection c = client.connection();
    if (c != null) {
      subscribeOn(c);
    }
  }

  void connected(Connection c) {
    if (state != State.DONE) {
      cancelRetry();
      subscribeOn(c);
    }
  }

  /** The connection closed: its server subscription went with it, and the next starts without grant. */
  void connectionLost() {
    if (state != State.DONE) {
      cancelRetry();
      idle();
    }
  }

  private void idle() {
    state = State.IDLE;
    server = null;
    window.reset();
  }

  private void subscribeOn(Connection c) {
    state = State.SUBSCRIBING;
    server = null;
    long mine = ++subscribes;
    c.request(ProtocolAddresses.SUBSCRIBE, ServerSubscription.request(queue, options))
        .onComplete(answer -> answered(c, mine, answer));
  }

  private void answered(Connection c, long mine, AsyncResult<JsonObject> answer) {
    String id = answer.succeeded() ? answer.result().getString("subscription") : null;
    if (mine != subscribes || state != State.SUBSCRIBING) {
      if (id != null) {
        ServerSubscription.unsubscribe(c, id); // nobody wants it now
      }
      return;
    }
    if (answer.failed()) {
      if (!(answer.cause() instanceof ConnectionLostException)) { // else the reconnect subscribes again
        retryOrFail(answer.cause());
      }
      return;
    }
    if (!"demand".equals(answer.result().getString("credit"))) {
      // An older server: it ignored "credit" and would push in auto mode, whatever was requested.
      if (id != null) {
        ServerSubscription.unsubscribe(c, id);
      }
      fail(new UnsupportedServerException("The server does not support demand credit (sluice.credit): upgrade it"));
      return;
    }
    ServerSubscription s = new ServerSubscription(c, id, answer.result().getString("address"));
    server = s;
    failures = 0;
    window.reset();
    state = State.ACTIVE;
    c.register(s.address, m -> pushed(s, m));
    flush();
  }

  private void pushed(ServerSubscription from, JsonObject m) {
    if (state != State.ACTIVE || from != server) {
      return; // after a cancel: the unsubscribe gives it back
    }
    String type = m.getString("type", "");
    if ("message".equals(type)) {
      PushedDelivery delivery = new PushedDelivery(this, server, queue, m);
      if (!window.onPush()) {
        fail(new UnsupportedServerException("The server pushed a message beyond the credit it was granted"));
        return;
      }
      // Before onItem: a subscriber that throws (Reactive Streams §2.13) must not leave the grant unrenewed.
      scheduleFlush();
      downstream.onItem(delivery);
    } else if ("error".equals(type)) {
      // The server ended this subscription (queue deleted, server stopping or paused).
      server.forget();
      server = null;
      retryOrFail(ErrorMapping.fromCode(m.getString("code", "Unknown"), 0, m.getString("message", "")));
    }
  }

  /** Sends what the window allows, once per event-loop turn however many requests and pushes it had. */
  private void scheduleFlush() {
    if (!flushScheduled) {
      flushScheduled = true;
      client.onLoop(() -> {
        flushScheduled = false;
        flush();
      });
    }
  }

  private void flush() {
    if (state != State.ACTIVE) {
      return;
    }
    int credits = window.topUp();
    if (credits == 0) {
      return;
    }
    ServerSubscription s = server;
    Future<JsonObject> answered = s.credit(credits);
    if (answered != null) {
      answered.onFailure(e -> {
        if (state == State.ACTIVE && s == server && !(e instanceof ConnectionLostException)) {
          s.end();
          server = null;
          retryOrFail(e);
        }
      });
    }
  }

  /** Ends the subscription on a terminal failure, else subscribes again after the backoff. */
  private void retryOrFail(Throwable cause) {
    failures++;
    Backoff backoff = client.backoff();
    if (ErrorMapping.isTerminal(cause) || backoff.exhausted(failures)) {
      fail(cause);
      return;
    }
    idle();
    retryTimer = client.vertx().setTimer(backoff.delayMillis(failures), t -> {
      retryTimer = -1;
      Connection now = client.connection();
      if (state == State.IDLE && now != null) {
        subscribeOn(now);
      }
    });
  }

  /** Sends {@code request} for {@code d} unless the server subscription that pushed it is gone. */
  CompletableFuture<Void> settle(PushedDelivery d, String to, JsonObject request) {
    CompletableFuture<Void> outcome = new CompletableFuture<>();
    if (client.closing()) {
      outcome.completeExceptionally(lost());
      return outcome;
    }
    boolean queued = client.onLoop(() -> {
      if (state != State.ACTIVE || d.server() != server) {
        outcome.completeExceptionally(lost());
        return;
      }
      server.settle(to, request).onComplete(answer -> {
        if (answer.succeeded()) {
          outcome.complete(null);
        } else {
          outcome.completeExceptionally(ErrorMapping.forSettle(answer.cause()));
        }
      });
    });
    if (!queued) {
      outcome.completeExceptionally(lost());
    }
    return outcome;
  }

  private static DeliveryLostException lost() {
    return new DeliveryLostException("The delivery's subscription or connection has ended;"
        + " the server gave the message back and will deliver it again");
  }

  /** The client closed: the subscriber completes (the connection's close gives the messages back). */
  void complete() {
    if (state != State.DONE) {
      cancelRetry();
      state = State.DONE;
      server = null;
      downstream.onCompletion();
    }
  }

  void fail(Throwable cause) {
    if (state != State.DONE) {
      release();
      downstream.onFailure(cause);
    }
  }

  /** Ends the server subscription, if there is one (its unacknowledged messages go back at once). */
  private void release() {
    cancelRetry();
    if (server != null) {
      server.end();
    }
    state = State.DONE;
    server = null;
    client.release(this);
  }

  private void cancelRetry() {
    if (retryTimer >= 0) {
      client.vertx().cancelTimer(retryTimer);
      retryTimer = -1;
    }
  }
}
