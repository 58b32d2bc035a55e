package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.client.ClientOptions;
import dev.sluice.client.Delivery;
import dev.sluice.client.DeliveryLostException;
import dev.sluice.client.QueueDoesNotExistException;
import dev.sluice.client.SluiceClient;
import dev.sluice.client.SubscribeOptions;
import dev.sluice.client.UnauthorizedException;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Java client (from the client jar) when things go wrong, against the packaged server: a
 * connection cut under it is made again and its subscription resumes with nothing lost, while what
 * it held on the old connection can no longer be settled; a refused token, an unknown queue and a
 * queue deleted under a subscriber end the Multi with a typed error.
 */
class JavaClientFailuresIT {
  static final Duration WAIT = Duration.ofSeconds(10);
  static PushClientServer server;

  @BeforeAll
  static void start() throws Exception {
    server = PushClientServer.start("java-client-failures");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void aListenerGoesOnThroughCutConnectionsAndLosesNothing() throws Exception {
    String url = server.queue("client-cut", Map.of("VisibilityTimeout", "600"));
    for (int i = 0; i < 40; i++) {
      server.send(url, "x" + i);
    }
    try (CuttableProxy proxy = new CuttableProxy(server.tcpPort)) {
      SluiceClient client = SluiceClient.connect(ClientOptions.tcp("127.0.0.1", proxy.port())
          .token(PushClientServer.TOKEN).replyTimeout(WAIT));
      Map<String, Integer> seen = new ConcurrentHashMap<>();
      java.util.concurrent.atomic.AtomicInteger deliveries = new java.util.concurrent.atomic.AtomicInteger();
      CountDownLatch tenSeen = new CountDownLatch(10);
      CountDownLatch allSeen = new CountDownLatch(40);
      List<Throwable> ended = new CopyOnWriteArrayList<>();
      client.listen(url, SubscribeOptions.maxUnacknowledged(5), d -> {
        deliveries.incrementAndGet();
        if (seen.merge(d.body(), 1, Integer::sum) == 1) {
          tenSeen.countDown();
          allSeen.countDown();
        }
        d.ack();
      }, ended::add);
      try {
        assertTrue(tenSeen.await(10, TimeUnit.SECONDS));
        int atCut = deliveries.get();
        proxy.cut();
        // Delivered to again, so connected and subscribed again (a wait on the server's count can miss
        // the moment between the give-back and the new subscription's first receive).
        for (long until = System.nanoTime() + WAIT.toNanos(); deliveries.get() == atCut; Thread.sleep(10)) {
          assertTrue(System.nanoTime() < until, "nothing delivered after the cut");
        }
        proxy.cut(); // twice: the listener goes on after each
        assertTrue(allSeen.await(20, TimeUnit.SECONDS), "seen " + seen.size() + " of 40");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.notVisible(url) + server.visible(url) > 0 && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
      } finally {
        client.close().await().atMost(WAIT);
      }
      assertEquals(0, server.notVisible(url) + server.visible(url), "every message deleted, none lost");
      assertEquals(List.of(), ended, "a lost connection does not end a subscription");
    }
  }

  @Test
  void aSubscriptionResumesByItselfAfterTheConnectionIsCut() throws Exception {
    String url = server.queue("client-resume", Map.of("VisibilityTimeout", "600"));
    server.send(url, "r1", "r2", "r3");
    try (CuttableProxy proxy = new CuttableProxy(server.tcpPort)) {
      SluiceClient client = SluiceClient.connect(ClientOptions.tcp("127.0.0.1", proxy.port())
          .token(PushClientServer.TOKEN).replyTimeout(WAIT));
      try {
        AssertSubscriber<Delivery> sub = client.subscribe(url, SubscribeOptions.maxUnacknowledged(3))
            .subscribe().withSubscriber(AssertSubscriber.create(1));
        Delivery first = sub.awaitItems(1, WAIT).getItems().get(0);
        proxy.cut();
        // Once the server has given it back, the client has seen its connection end too (an ack sent on
        // the dying connection would fail as ConnectionLost instead: its answer is lost, not refused).
        awaitNotVisible(url, 0);
        assertInstanceOf(DeliveryLostException.class,
            unwrap(first.ackAsync().handle((ok, e) -> e).toCompletableFuture().get(10, TimeUnit.SECONDS)));
        sub.request(3).awaitItems(4, WAIT);
        for (Delivery d : sub.getItems().subList(1, 4)) {
          d.ack().await().atMost(WAIT);
        }
        assertEquals(List.of("r1", "r2", "r3"), sub.getItems().subList(1, 4).stream().map(Delivery::body).sorted()
            .toList(), "the message held at the cut comes again, with the other two");
        assertEquals(0, server.notVisible(url) + server.visible(url));
        sub.assertNotTerminated().cancel();
      } finally {
        client.close().await().atMost(WAIT);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tcp", "websocket"})
  void aRefusedTokenFailsTheMultiWithATypedError(String transport) throws Exception {
    String url = server.queue("client-token-" + transport, Map.of());
    ClientOptions wrong = "tcp".equals(transport)
        ? ClientOptions.tcp("127.0.0.1", server.tcpPort).token("not-the-token")
        : ClientOptions.webSocket(URI.create(server.server.endpoint + "/eventbus")).token("not-the-token");
    SluiceClient client = SluiceClient.connect(wrong.replyTimeout(WAIT));
    try {
      AssertSubscriber<Delivery> sub = client.subscribe(url).subscribe().withSubscriber(AssertSubscriber.create(1));
      sub.awaitFailure(WAIT).assertFailedWith(UnauthorizedException.class);
    } finally {
      client.close().await().atMost(WAIT);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tcp", "websocket"})
  void anUnknownOrDeletedQueueFailsTheMultiWithQueueDoesNotExist(String transport) throws Exception {
    SluiceClient client = server.client(transport);
    try {
      client.subscribe("no-such-queue").subscribe().withSubscriber(AssertSubscriber.create(1))
          .awaitFailure(WAIT).assertFailedWith(QueueDoesNotExistException.class);
      String url = server.queue("client-deleted-" + transport, Map.of());
      AssertSubscriber<Delivery> sub = client.subscribe(url).subscribe().withSubscriber(AssertSubscriber.create(1));
      server.send(url, "before");
      sub.awaitItems(1, WAIT);
      server.sqs.deleteQueue(b -> b.queueUrl(url));
      sub.awaitFailure(WAIT).assertFailedWith(QueueDoesNotExistException.class);
    } finally {
      client.close().await().atMost(WAIT);
    }
  }

  private static void awaitNotVisible(String url, int n) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (server.notVisible(url) != n && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(n, server.notVisible(url), "held by the server");
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
