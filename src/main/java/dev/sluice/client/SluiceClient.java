package dev.sluice.client;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A push client of one Sluice server over one bridge connection: {@link #subscribe} a queue as a
 * Mutiny {@code Multi<Delivery>} in which the subscriber's demand decides what the server may push,
 * or {@link #listen} with callbacks. The connection is made in the background and made again, with
 * backoff, whenever it is lost; open subscriptions resume on the new one. Owned by one Vert.x
 * context (its event loop): the connection, the subscriptions and their accounting are touched only
 * there; the public methods may be called from any thread.
 *
 * <pre>{@code
 * SluiceClient client = SluiceClient.connect(ClientOptions.tcp("127.0.0.1", 7000).token(token));
 * client.subscribe("orders", SubscribeOptions.maxUnacknowledged(10))
 *     .onItem().transformToUniAndMerge(d -> { work(d); return d.ack(); })
 *     .subscribe().with(done -> {}, Throwable::printStackTrace);
 * }</pre>
 */
public final class SluiceClient {
  /** Subscriptions one client holds at most: the server's limit per connection. */
  public static final int MAX_SUBSCRIPTIONS = 100;

  private final Vertx vertx;
  private final boolean ownsVertx;
  private final Context context;
  private final Connection.Connector connector;
  private final Backoff backoff;
  private final AtomicReference<CompletableFuture<Void>> closing = new AtomicReference<>();
  // On the event loop only:
  private final Set<DeliverySubscription> subscriptions = new LinkedHashSet<>();
  private Connection connection;
  private boolean closed;
  /** Set when the client gave up (refused credentials, or reconnects exhausted): nothing more is tried. */
  private Throwable failure;
  private int failedConnects;
  private int attempt;
  private long connectedAtMillis;
  private long redial = -1;

  SluiceClient(Vertx vertx, boolean ownsVertx, Connection.Connector connector, Backoff backoff) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.connector = connector;
    this.backoff = backoff;
    this.context = vertx.getOrCreateContext();
    context.runOnContext(v -> dial());
  }

  /**
   * A client of the server {@code options} name. Returns at once: it connects in the background, and
   * subscriptions made before it has are made on the server once it has.
   */
  public static SluiceClient connect(ClientOptions options) {
    Objects.requireNonNull(options, "options");
    boolean owns = options.vertx() == null;
    Vertx vertx = owns ? Vertx.vertx() : options.vertx();
    return new SluiceClient(vertx, owns, options.connector(vertx), options.backoff());
  }

  /** {@link #subscribe(String, SubscribeOptions)} with {@link SubscribeOptions#defaults()}. */
  public Multi<Delivery> subscribe(String queue) {
    return subscribe(queue, SubscribeOptions.defaults());
  }

  /**
   * The messages of {@code queue} (its name, or its URL) as they are pushed. Cold: each subscriber
   * gets its own subscription on the server when it subscribes, and is pushed only what it has
   * requested; it holds at most {@code options.maxUnacknowledged()} messages unacknowledged (a
   * subscriber that requests again before acking may hold that many). Items and failures arrive on
   * the client's event loop: move blocking work elsewhere ({@code emitOn}). The Multi completes when
   * the client closes and fails on a terminal error (unknown queue, refused credentials, access
   * denied, invalid options, more than {@value #MAX_SUBSCRIPTIONS} subscriptions); lost connections
   * and a server stopping are retried with the client's backoff.
   */
  public Multi<Delivery> subscribe(String queue, SubscribeOptions options) {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(options, "options");
    return new DeliveryMulti(this, queue, options);
  }

  /** {@link #listen(String, SubscribeOptions, DeliveryHandler, ErrorHandler, Executor)} on the event loop. */
  public Listener listen(String queue, SubscribeOptions options, DeliveryHandler handler, ErrorHandler onError) {
    return listen(queue, options, handler, onError, null);
  }

  /**
   * Calls {@code handler} with each delivery of {@code queue}, at most
   * {@code options.maxUnacknowledged()} unsettled at once, and {@code onError} if the subscription
   * ends with an error. Handlers run on {@code executor} (on the client's event loop when null, where
   * they must not block).
   */
  public Listener listen(String queue, SubscribeOptions options, DeliveryHandler handler, ErrorHandler onError,
      Executor executor) {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(onError, "onError");
    CallbackListener listener = new CallbackListener(options.maxUnacknowledged(), handler, onError, executor);
    subscribe(queue, options).subscribe(listener);
    return listener;
  }

  /**
   * Completes every open subscription, closes the connection (the server gives back what they held)
   * and the Vert.x instance if the client made it. Starts at once; calling it again gives the same
   * outcome.
   */
  public Uni<Void> close() {
    CompletableFuture<Void> mine = new CompletableFuture<>();
    if (closing.compareAndSet(null, mine)) {
      context.runOnContext(v -> shutDown(mine));
    }
    return Outcomes.uni(closing.get());
  }

  private void shutDown(CompletableFuture<Void> done) {
    closed = true;
    if (redial >= 0) {
      vertx.cancelTimer(redial);
    }
    List<DeliverySubscription> open = List.copyOf(subscriptions);
    subscriptions.clear();
    open.forEach(DeliverySubscription::complete);
    Future<Void> closedConnection = connection != null ? connection.close() : Future.succeededFuture();
    connection = null;
    closedConnection.eventually(connector::close).onComplete(ar -> {
      if (!ownsVertx) {
        done.complete(null);
        return;
      }
      // Vert.x closed from its own event loop would report its end on that loop, which is gone by then:
      // it is closed and awaited from a thread of its own.
      Thread closer = new Thread(() -> {
        try {
          vertx.close().await();
        } finally {
          done.complete(null);
        }
      }, "sluice-client-close");
      closer.setDaemon(true);
      closer.start();
    });
  }

  private void dial() {
    redial = -1;
    if (closed || failure != null) {
      return;
    }
    attempt++;
    Future<Connection> connecting;
    try {
      connecting = connector.connect();
    } catch (RuntimeException e) { // e.g. the user's presigned-query supplier threw: retried like a refused connect
      connecting = Future.failedFuture(e);
    }
    connecting.onComplete(ar -> {
      if (ar.succeeded()) {
        connected(ar.result());
      } else {
        connectFailed(ar.cause());
      }
    });
  }

  private void connected(Connection c) {
    if (closed) {
      c.close();
      return;
    }
    failedConnects = 0;
    connection = c;
    connectedAtMillis = System.currentTimeMillis();
    c.closeHandler(cause -> lost(c, cause));
    for (DeliverySubscription s : List.copyOf(subscriptions)) {
      s.connected(c);
    }
  }

  private void connectFailed(Throwable cause) {
    if (closed) {
      return;
    }
    failedConnects++;
    if (cause instanceof UnauthorizedException || backoff.exhausted(failedConnects)) {
      giveUp(cause);
    } else {
      redial = vertx.setTimer(backoff.delayMillis(attempt), t -> dial());
    }
  }

  private void lost(Connection c, Throwable cause) {
    if (c != connection || closed) {
      return;
    }
    connection = null;
    for (DeliverySubscription s : List.copyOf(subscriptions)) {
      s.connectionLost();
    }
    if (cause instanceof UnauthorizedException) {
      giveUp(cause);
      return;
    }
    if (System.currentTimeMillis() - connectedAtMillis >= backoff.resetAfter().toMillis()) {
      attempt = 0;
    }
    redial = vertx.setTimer(backoff.delayMillis(attempt), t -> dial());
  }

  /** Nothing more will be tried: every subscription fails with {@code cause}, and so will later ones. */
  private void giveUp(Throwable cause) {
    failure = cause;
    for (DeliverySubscription s : List.copyOf(subscriptions)) {
      s.fail(cause);
    }
  }

  /** Takes a place for {@code s}; or why it cannot have one. */
  Throwable admit(DeliverySubscription s) {
    if (closed) {
      return new SluiceClientException("ClientClosed", 0, "The client is closed.");
    }
    if (failure != null) {
      return failure;
    }
    if (subscriptions.size() >= MAX_SUBSCRIPTIONS) {
      return new OverLimitException("OverLimit", 0,
          "A client holds at most " + MAX_SUBSCRIPTIONS + " subscriptions (the server's limit per connection)");
    }
    subscriptions.add(s);
    return null;
  }

  /**
   * Whether {@link #close()} was called (from any thread): the event loop may be gone with its
   * Vert.x instance, so nothing new is queued on it.
   */
  boolean closing() {
    return closing.get() != null;
  }

  void release(DeliverySubscription s) {
    subscriptions.remove(s);
  }

  Context context() {
    return context;
  }

  /**
   * Runs {@code action} on the client's event loop; false, and nothing run, when the Vert.x the
   * client made is closed already (a late cancel or request is then a no-op, as Reactive Streams
   * §3.6 and §3.7 want, instead of a RejectedExecutionException in the caller's hands).
   */
  boolean onLoop(Runnable action) {
    try {
      context.runOnContext(v -> action.run());
      return true;
    } catch (RejectedExecutionException closed) {
      return false;
    }
  }

  Vertx vertx() {
    return vertx;
  }

  Backoff backoff() {
    return backoff;
  }

  /** The open connection, or null between connections. */
  Connection connection() {
    return connection;
  }
}
