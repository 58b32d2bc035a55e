package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.client.Delivery;
import dev.sluice.client.Listener;
import dev.sluice.client.ReceiptHandleInvalidException;
import dev.sluice.client.SluiceClient;
import dev.sluice.client.SubscribeOptions;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The Java push client (from the client jar) against the packaged server, over both bridges: the
 * subscriber's demand is what the server may push, settling works as SQS's delete and visibility
 * changes do, FIFO order holds per group, cancelling gives messages back at once, and the callback
 * adapter settles as it goes.
 */
class JavaClientIT {
  static final Duration WAIT = Duration.ofSeconds(10);
  static PushClientServer server;
  static final Map<String, SluiceClient> clients = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    server = PushClientServer.start("java-client");
    clients.put("tcp", server.client("tcp"));
    clients.put("websocket", server.client("websocket"));
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      for (SluiceClient c : clients.values()) {
        c.close().await().atMost(WAIT);
      }
    } finally {
      server.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tcp", "websocket"})
  void aSubscriberRequestingOneAtATimeNeverHoldsTwo(String transport) throws Exception {
    String url = server.queue("client-one-" + transport, Map.of());
    server.send(url, "m1", "m2", "m3", "m4");
    AssertSubscriber<Delivery> sub = clients.get(transport)
        .subscribe(url, SubscribeOptions.maxUnacknowledged(10)).subscribe().withSubscriber(AssertSubscriber.create(0));
    Thread.sleep(300);
    assertEquals(0, sub.getItems().size(), "nothing requested, nothing pushed");
    assertEquals(0, server.notVisible(url));
    for (int i = 1; i <= 4; i++) {
      sub.request(1).awaitItems(i, WAIT);
      assertEquals(1, server.notVisible(url), "one requested, one held");
      if (i == 1) {
        Thread.sleep(400);
        assertEquals(1, sub.getItems().size(), "no second message without a second request");
        assertEquals(1, server.notVisible(url));
      }
      sub.getItems().get(i - 1).ack().await().atMost(WAIT);
    }
    assertEquals(List.of("m1", "m2", "m3", "m4"), sub.getItems().stream().map(Delivery::body).sorted().toList());
    assertEquals(0, server.notVisible(url) + server.visible(url), "every message acked, none left");
    sub.cancel();
  }

  @Test
  void aFastSubscriberGetsThePrefetchItAskedForAndNoMore() throws Exception {
    String url = server.queue("client-fast", Map.of());
    for (int i = 0; i < 30; i++) {
      server.send(url, "f" + i);
    }
    AssertSubscriber<Delivery> sub = clients.get("tcp").subscribe(url, SubscribeOptions.maxUnacknowledged(10))
        .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
    sub.awaitItems(10, WAIT);
    Thread.sleep(300);
    assertEquals(10, sub.getItems().size(), "unbounded demand, ten unacknowledged at most");
    assertEquals(10, server.notVisible(url));
    for (int acked = 0; acked < 30; acked++) {
      awaitAtLeast(sub, acked + 1);
      sub.getItems().get(acked).ack().await().atMost(WAIT);
    }
    assertEquals(30, sub.getItems().stream().map(Delivery::body).distinct().count());
    assertEquals(0, server.notVisible(url) + server.visible(url));
    sub.cancel();
  }

  @Test
  void aNackedOrExpiredMessageComesAgainAndALateAckIsRefused() throws Exception {
    String url = server.queue("client-again", Map.of());
    server.send(url, "once");
    AssertSubscriber<Delivery> sub = clients.get("websocket")
        .subscribe(url, SubscribeOptions.maxUnacknowledged(1).visibilityTimeout(Duration.ofSeconds(2)))
        .subscribe().withSubscriber(AssertSubscriber.create(3));
    Delivery first = sub.awaitItems(1, WAIT).getItems().get(0);
    assertEquals(1, first.receiveCount());
    first.nack(Duration.ZERO).await().atMost(WAIT);
    Delivery second = sub.awaitItems(2, WAIT).getItems().get(1);
    assertEquals("once", second.body());
    assertEquals(2, second.receiveCount(), "a nack gives it back at once, received again");
    // Not settled within its 2 s visibility: back in the queue, pushed again.
    Delivery third = sub.awaitItems(3, WAIT).getItems().get(2);
    assertEquals(3, third.receiveCount());
    Throwable late = second.ack().subscribeAsCompletionStage().handle((ok, e) -> e).toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    assertInstanceOf(ReceiptHandleInvalidException.class, late instanceof CompletionException ? late.getCause() : late,
        "an ack after the visibility timeout: " + late);
    third.ack().await().atMost(WAIT);
    assertEquals(0, server.notVisible(url) + server.visible(url));
    sub.cancel();
  }

  @Test
  void fifoGroupsArriveInOrderThroughTheClient() throws Exception {
    String url = server.queue("client-order.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    for (int i = 0; i < 10; i++) {
      for (String group : List.of("a", "b", "c")) {
        int n = i;
        server.sqs.sendMessage(b -> b.queueUrl(url).messageGroupId(group).messageBody(group + "-" + n));
      }
    }
    AssertSubscriber<Delivery> sub = clients.get("tcp").subscribe(url, SubscribeOptions.maxUnacknowledged(3))
        .subscribe().withSubscriber(AssertSubscriber.create(0));
    Map<String, List<Integer>> seen = new HashMap<>();
    for (int i = 1; i <= 30; i++) {
      Delivery d = sub.request(1).awaitItems(i, WAIT).getItems().get(i - 1);
      assertEquals(d.body().substring(0, 1), d.messageGroupId().orElseThrow());
      seen.computeIfAbsent(d.messageGroupId().get(), g -> new ArrayList<>())
          .add(Integer.parseInt(d.body().substring(2)));
      d.ack().await().atMost(WAIT);
    }
    List<Integer> inOrder = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertEquals(Map.of("a", inOrder, "b", inOrder, "c", inOrder), seen);
    sub.cancel();
  }

  @Test
  void cancellingGivesEveryHeldMessageBackAtOnce() throws Exception {
    String url = server.queue("client-cancel", Map.of("VisibilityTimeout", "600"));
    server.send(url, "c1", "c2", "c3", "c4", "c5");
    AssertSubscriber<Delivery> sub = clients.get("websocket").subscribe(url, SubscribeOptions.maxUnacknowledged(10))
        .subscribe().withSubscriber(AssertSubscriber.create(5));
    sub.awaitItems(5, WAIT);
    assertEquals(5, server.notVisible(url));
    long cancelled = System.nanoTime();
    sub.cancel();
    List<Message> again = new ArrayList<>();
    while (again.size() < 5 && System.nanoTime() - cancelled < TimeUnit.SECONDS.toNanos(5)) {
      again.addAll(server.sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
          .messages());
    }
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cancelled);
    assertEquals(List.of("c1", "c2", "c3", "c4", "c5"), again.stream().map(Message::body).sorted().toList());
    assertTrue(tookMillis < 5000, "visible again at once, not after the 600 s visibility: " + tookMillis + " ms");
  }

  @Test
  void theCallbackAdapterReceivesAndSettlesEveryMessage() throws Exception {
    String url = server.queue("client-listen", Map.of());
    for (int i = 0; i < 20; i++) {
      server.send(url, "l" + i);
    }
    Map<String, Integer> counts = new ConcurrentHashMap<>();
    CountDownLatch done = new CountDownLatch(20);
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    Listener listener = clients.get("tcp").listen(url, SubscribeOptions.maxUnacknowledged(4), d -> {
      counts.merge(d.body(), 1, Integer::sum);
      d.ackAsync().thenRun(done::countDown);
    }, errors::add);
    try {
      assertTrue(done.await(10, TimeUnit.SECONDS), "acked " + counts.size() + " of 20");
    } finally {
      listener.close();
    }
    assertEquals(20, counts.size());
    assertTrue(counts.values().stream().allMatch(n -> n == 1), "each once: " + counts);
    assertEquals(List.of(), errors);
    assertEquals(0, server.notVisible(url) + server.visible(url));
  }

  /** Waits until at least {@code n} items came (AssertSubscriber's awaitItems wants exactly n). */
  static void awaitAtLeast(AssertSubscriber<Delivery> sub, int n) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (sub.getItems().size() < n && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(sub.getItems().size() >= n, "got " + sub.getItems().size() + " of " + n);
  }
}
