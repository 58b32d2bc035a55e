package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client end to end, made with {@link SluiceClient#connect}, over both transports against a
 * loopback stand-in for the server ({@link LoopbackBridge}): demand decides what is pushed, acks,
 * the README's pattern, a reconnect.
 */
class SluiceClientTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static Vertx vertx;
  private static LoopbackBridge bridge;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    bridge = new LoopbackBridge(vertx).start();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  private static ClientOptions tcp() {
    return ClientOptions.tcp("127.0.0.1", bridge.tcpPort).token("t0ken").vertx(vertx);
  }

  @Test
  void onlyWhatWasRequestedIsPushedOverTcp() throws Exception {
    SluiceClient client = SluiceClient.connect(tcp());
    AssertSubscriber<Delivery> s = client.subscribe("tcp-orders").subscribe().withSubscriber(AssertSubscriber.create(2));
    bridge.offer("tcp-orders", "a", "b", "c");
    s.awaitItems(2, WAIT);
    Thread.sleep(100);
    assertEquals(2, s.getItems().size(), "the third waits for demand");
    for (Delivery d : s.getItems()) {
      d.ack().await().atMost(WAIT);
    }
    s.request(1);
    s.awaitItems(3, WAIT);
    assertEquals(List.of("a", "b", "c"), s.getItems().stream().map(Delivery::body).toList());
    client.close().await().atMost(WAIT);
    s.awaitCompletion(WAIT);
  }

  @Test
  void theReadmePatternAcksEverythingOverTheWebSocket() {
    SluiceClient client = SluiceClient.connect(ClientOptions.webSocket(URI.create("ws://127.0.0.1:" + bridge.httpPort + "/eventbus"))
        .token("t0ken").vertx(vertx));
    AssertSubscriber<String> s = client.subscribe("ws-orders", SubscribeOptions.maxUnacknowledged(10))
        .onItem().transformToUniAndMerge(d -> d.ack().replaceWith(d.body()))
        .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
    bridge.offer("ws-orders", "x", "y", "z");
    s.awaitItems(3, WAIT);
    assertTrue(bridge.acked.size() >= 3);
    client.close().await().atMost(WAIT);
  }

  @Test
  void aLostConnectionIsMadeAgainAndTheSubscriptionResumes() {
    SluiceClient client = SluiceClient.connect(tcp().reconnect(Backoff.exponential(Duration.ofMillis(10), Duration.ofMillis(50))));
    List<String> bodies = new CopyOnWriteArrayList<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    client.listen("tcp-resume", SubscribeOptions.maxUnacknowledged(1), d -> {
      bodies.add(d.body());
      d.ack();
    }, errors::add);
    bridge.offer("tcp-resume", "before");
    await(() -> bodies.size() == 1);
    int subscribes = subscribes();
    bridge.dropConnections();
    await(() -> subscribes() > subscribes);
    bridge.offer("tcp-resume", "after");
    await(() -> bodies.size() == 2);
    assertEquals(List.of("before", "after"), bodies);
    assertTrue(errors.isEmpty(), errors.toString());
    client.close().await().atMost(WAIT);
  }

  @Test
  void aClientThatMadeItsOwnVertxClosesIt() {
    SluiceClient client = SluiceClient.connect(ClientOptions.tcp("127.0.0.1", bridge.tcpPort).token("t0ken"));
    AssertSubscriber<Delivery> s = client.subscribe("own-vertx").subscribe().withSubscriber(AssertSubscriber.create(1));
    bridge.offer("own-vertx", "one");
    s.awaitItems(1, WAIT);
    client.close().await().atMost(WAIT);
    s.awaitCompletion(WAIT);
    // Its Vert.x is closed: a late cancel or request is a no-op (Reactive Streams §3.6, §3.7), not an exception.
    s.request(1);
    s.cancel();
  }

  @Test
  void aPresignedQuerySupplierThatThrowsIsRetriedLikeARefusedConnect() {
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    SluiceClient client = SluiceClient.connect(ClientOptions.webSocket(URI.create("ws://127.0.0.1:" + bridge.httpPort
        + "/eventbus")).token("t0ken").vertx(vertx).reconnect(Backoff.exponential(Duration.ofMillis(10), Duration.ofMillis(50)))
        .presignedQuery(() -> {
          if (calls.getAndIncrement() == 0) {
            throw new IllegalStateException("the signer's credentials are not loaded yet");
          }
          return "X-Amz-Test=1";
        }));
    AssertSubscriber<Delivery> s = client.subscribe("presigned").subscribe().withSubscriber(AssertSubscriber.create(1));
    bridge.offer("presigned", "signed");
    s.awaitItems(1, WAIT);
    assertTrue(calls.get() >= 2, "asked again after it threw");
    client.close().await().atMost(WAIT);
  }

  private static int subscribes() {
    return (int) bridge.requests.stream().filter(f -> ProtocolAddresses.SUBSCRIBE.equals(f.getString("address"))).count();
  }

  private static void await(java.util.function.BooleanSupplier condition) {
    long end = System.currentTimeMillis() + WAIT.toMillis();
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("not within " + WAIT);
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }
}
