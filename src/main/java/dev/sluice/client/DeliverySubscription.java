package dev.sluice.client;

import io.smallrye.mutiny.subscription.MultiSubscriber;
import io.vertx.core.AsyncResult;
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
  /** The connection of the current (or last) server subscription, and its generation. */
  private Connection connection;
  private long generation;
  private String serverId;
  private String address;
  /** Counts subscribe requests: an answer to an older one is not this subscription's. */
  private long subscribes;
  private boolean firstCreditSent;
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
    client.context().runOnContext(v -> {
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
    client.context().runOnContext(v -> {
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
      subscribeOn(c, client.generation());
    }
  }

  void connected(Connection c, long gen) {
    if (state != State.DONE) {
      cancelRetry();
      subscribeOn(c, gen);
    }
  }

  /** The connection closed: its server subscription went with it, and the next starts without grant. */
  void connectionLost() {
    if (state != State.DONE) {
      cancelRetry();
      state = State.IDLE;
      serverId = null;
      address = null;
      window.reset();
    }
  }

  private void subscribeOn(Connection c, long gen) {
    state = State.SUBSCRIBING;
    connection = c;
    generation = gen;
    long mine = ++subscribes;
    boolean isUrl = queue.startsWith("http://") || queue.startsWith("https://");
    JsonObject body = new JsonObject().put(isUrl ? "queueUrl" : "queueName", queue)
        .put("prefetch", window.prefetch()).put("credit", "demand");
    options.visibilityTimeout().ifPresent(d -> body.put("visibilityTimeout", d.getSeconds()));
    options.region().ifPresent(r -> body.put("region", r));
    c.request(ProtocolAddresses.SUBSCRIBE, body).onComplete(answer -> answered(c, mine, answer));
  }

  private void answered(Connection c, long mine, AsyncResult<JsonObject> answer) {
    String id = answer.succeeded() ? answer.result().getString("subscription") : null;
    if (mine != subscribes || state != State.SUBSCRIBING) {
      if (id != null) {
        c.send(ProtocolAddresses.UNSUBSCRIBE, new JsonObject().put("subscription", id)); // nobody wants it now
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
        c.send(ProtocolAddresses.UNSUBSCRIBE, new JsonObject().put("subscription", id));
      }
      fail(new UnsupportedServerException("The server does not support demand credit (sluice.credit): upgrade it"));
      return;
    }
    serverId = id;
    address = answer.result().getString("address");
    failures = 0;
    window.reset();
    firstCreditSent = false;
    state = State.ACTIVE;
    c.register(address, this::pushed);
    flush();
  }

  private void pushed(JsonObject m) {
    if (state != State.ACTIVE) {
      return; // after a cancel: the unsubscribe gives it back
    }
    String type = m.getString("type", "");
    if ("message".equals(type)) {
      if (!window.onPush()) {
        fail(new UnsupportedServerException("The server pushed a message beyond the credit it was granted"));
        return;
      }
      downstream.onItem(new PushedDelivery(this, serverId, generation, queue, m));
      scheduleFlush();
    } else if ("error".equals(type)) {
      // The server ended this subscription (queue deleted, server stopping or paused).
      connection.unregister(address); // lets the server forget it
      serverId = null;
      address = null;
      retryOrFail(ErrorMapping.fromCode(m.getString("code", "Unknown"), 0, m.getString("message", "")));
    }
  }

  /** Sends what the window allows, once per event-loop turn however many requests and pushes it had. */
  private void scheduleFlush() {
    if (!flushScheduled) {
      flushScheduled = true;
      client.context().runOnContext(v -> {
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
    JsonObject body = new JsonObject().put("subscription", serverId).put("credits", credits);
    if (firstCreditSent) {
      connection.send(ProtocolAddresses.CREDIT, body); // a top-up: a correct client's cannot be refused
      return;
    }
    // The first after a subscribe is answered, so that a refusal is seen.
    firstCreditSent = true;
    String id = serverId;
    Connection c = connection;
    c.request(ProtocolAddresses.CREDIT, body).onFailure(e -> {
      if (state == State.ACTIVE && id.equals(serverId) && !(e instanceof ConnectionLostException)) {
        c.send(ProtocolAddresses.UNSUBSCRIBE, new JsonObject().put("subscription", id));
        c.unregister(address);
        serverId = null;
        address = null;
        retryOrFail(e);
      }
    });
  }

  /** Ends the subscription on a terminal failure, else subscribes again after the backoff. */
  private void retryOrFail(Throwable cause) {
    failures++;
    Backoff backoff = client.backoff();
    if (ErrorMapping.isTerminal(cause) || backoff.exhausted(failures)) {
      fail(cause);
      return;
    }
    state = State.IDLE;
    serverId = null;
    address = null;
    window.reset();
    retryTimer = client.vertx().setTimer(backoff.delayMillis(failures), t -> {
      retryTimer = -1;
      Connection now = client.connection();
      if (state == State.IDLE && now != null) {
        subscribeOn(now, client.generation());
      }
    });
  }

  /** Sends {@code request} for {@code d} unless its server subscription is gone. */
  CompletableFuture<Void> settle(PushedDelivery d, String to, JsonObject request) {
    CompletableFuture<Void> outcome = new CompletableFuture<>();
    client.context().runOnContext(v -> {
      if (state != State.ACTIVE || !d.subscriptionId().equals(serverId) || d.generation() != generation) {
        outcome.completeExceptionally(new DeliveryLostException("The delivery's subscription or connection has ended;"
            + " the server gave the message back and will deliver it again"));
        return;
      }
      connection.request(to, request).onComplete(answer -> {
        if (answer.succeeded()) {
          outcome.complete(null);
        } else {
          outcome.completeExceptionally(ErrorMapping.forSettle(answer.cause()));
        }
      });
    });
    return outcome;
  }

  /** The client closed: the subscriber completes (the connection's close gives the messages back). */
  void complete() {
    if (state != State.DONE) {
      cancelRetry();
      state = State.DONE;
      serverId = null;
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
    if (state == State.ACTIVE && serverId != null) {
      connection.send(ProtocolAddresses.UNSUBSCRIBE, new JsonObject().put("subscription", serverId));
      connection.unregister(address);
    }
    state = State.DONE;
    serverId = null;
    address = null;
    client.release(this);
  }

  private void cancelRetry() {
    if (retryTimer >= 0) {
      client.vertx().cancelTimer(retryTimer);
      retryTimer = -1;
    }
  }
}
