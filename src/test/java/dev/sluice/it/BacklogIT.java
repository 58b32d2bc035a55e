package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Durable queues larger than memory (issue 16, design step 4): with a head window of 50 messages
 * and a small memory budget, a standard queue holds hundreds of thousands of messages, almost all of
 * them in PostgreSQL only, counted exactly, and drains each exactly once through page reads; and
 * a restart in the middle of the drain is ready at once and loses or repeats nothing.
 */
@Isolated
class BacklogIT extends DurableServerIT {
  /**
   * The figure: thousands of page reads through a window of 50 (2,000 here), about 40 times
   * what the budget holds (about 35 s of the suite on 2 cores).
   */
  static final int MESSAGES = 100_000;
  static final int CONSUMERS = 16;
  static final int SENDERS = 8;

  /** Far more than a window's worth, far less than the backlog's (a message holds a few hundred bytes). */
  static final String BUDGET_BYTES = "1000000";

  static TestServer pagedServer(int window) {
    return server(Map.of("SLUICE_PG_HEAD_WINDOW_MESSAGES", String.valueOf(window),
        "SLUICE_ENGINE_MEMORY_BUDGET_BYTES", BUDGET_BYTES));
  }

  @Test
  void aBacklogFarBeyondTheWindowDrainsExactlyOnceWithExactCounts() throws Exception {
    try (TestServer server = pagedServer(50); SqsClient sqs = server.client()) {
      String url = sqs.createQueue(b -> b.queueName("paged")).queueUrl();
      long start = System.nanoTime();
      send(server, url, 0, MESSAGES);
      long sent = System.nanoTime();
      assertCounts(sqs, url, MESSAGES, 0);
      assertHeldOnlyAWindow(server, 50);
      Map<String, Integer> received = new ConcurrentHashMap<>();
      drain(server, url, received, () -> received.size() >= MESSAGES);
      System.out.printf("BacklogIT: %d messages sent in %d ms, drained in %d ms%n", MESSAGES,
          (sent - start) / 1_000_000, (System.nanoTime() - sent) / 1_000_000);
      assertExactlyOnce(received, MESSAGES);
      assertCounts(sqs, url, 0, 0);
      awaitWritesCaughtUp(server);
      assertEquals(0, duplicateRows(server), "no page read brought back a row already in memory");
      assertEquals(0.0, MetricsIT.value(MetricsIT.scrape(server), "sluice_backlog_duplicate_rows"));
    }
  }

  /** Sends bodies m-{from}..m-{to - 1} in batches of 10, from several threads at once. */
  static void send(TestServer server, String url, int from, int to) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(SENDERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      AtomicInteger next = new AtomicInteger(from);
      for (int t = 0; t < SENDERS; t++) {
        done.add(pool.submit(() -> {
          try (SqsClient sqs = server.client()) {
            int start;
            while ((start = next.getAndAdd(10)) < to) {
              List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
              for (int i = start; i < Math.min(start + 10, to); i++) {
                entries.add(SendMessageBatchRequestEntry.builder().id("e" + (i - start)).messageBody("m-" + i).build());
              }
              assertEquals(entries.size(), sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries))
                  .successful().size());
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Receives and deletes with {@link #CONSUMERS} threads until {@code enough}; every body received
   * is counted in {@code received}. A message is deleted before its consumer receives again, and
   * hidden long enough never to come back by itself.
   */
  static void drain(TestServer server, String url, Map<String, Integer> received, BooleanSupplier enough)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CONSUMERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < CONSUMERS; t++) {
        done.add(pool.submit(() -> {
          try (SqsClient sqs = server.client()) {
            while (!enough.getAsBoolean()) {
              List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
                  .visibilityTimeout(600)).messages();
              if (got.isEmpty()) {
                continue;
              }
              List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
              for (Message m : got) {
                entries.add(DeleteMessageBatchRequestEntry.builder().id("d" + entries.size())
                    .receiptHandle(m.receiptHandle()).build());
              }
              assertEquals(got.size(), sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(entries))
                  .successful().size());
              // Counted once deleted: a count reached means those messages are gone for good.
              got.forEach(m -> received.merge(m.body(), 1, Integer::sum));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Deletes are written behind: on two cores shared with the consumers, PostgreSQL falls seconds
   * behind a drain this size, more than a stop's grace period waits for.
   */
  static void awaitWritesCaughtUp(TestServer server) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    Double pending;
    while ((pending = MetricsIT.value(MetricsIT.scrape(server), "sluice_persistence_pending")) == null || pending > 0) {
      assertTrue(System.currentTimeMillis() < deadline, "the writer catches up with the drain");
      Thread.sleep(200);
    }
  }

  static void assertExactlyOnce(Map<String, Integer> received, int messages) {
    assertEquals(messages, received.size(), "every message was received");
    for (int i = 0; i < messages; i++) {
      assertEquals(1, received.getOrDefault("m-" + i, 0), "m-" + i + " received once");
    }
  }

  /**
   * GetQueueAttributes at rest says exactly what the queue holds. Durable-only rows are counted
   * visible up to one bucket (100 ms) after they become so, hence the short wait.
   */
  static void assertCounts(SqsClient sqs, String url, int visible, int inflight) throws Exception {
    long deadline = System.currentTimeMillis() + 2_000;
    Map<String, String> counts;
    do {
      Thread.sleep(150);
      counts = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("ApproximateNumberOfMessages",
          "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed")).attributesAsStrings();
    } while (!counts.get("ApproximateNumberOfMessages").equals(String.valueOf(visible))
        && System.currentTimeMillis() < deadline);
    assertEquals(Map.of("ApproximateNumberOfMessages", String.valueOf(visible),
        "ApproximateNumberOfMessagesNotVisible", String.valueOf(inflight), "ApproximateNumberOfMessagesDelayed", "0"),
        counts);
  }

  /**
   * Paging is what holds the backlog: memory holds about a window of messages, far less than the
   * backlog would take (the budget alone would have refused it).
   */
  static void assertHeldOnlyAWindow(TestServer server, int window) {
    long used = server.sluice.engine().memoryBudget().usedBytes();
    assertTrue(used < window * 2_000L, used + " bytes held for a window of " + window + " messages");
  }

  /**
   * A window of 300, so that pages of more than 100 rows come (decoded off the shard's loop). The
   * restarted server loads only the rows up to the persisted frontier: the rest of 12,000 messages
   * stay in PostgreSQL, counted from the tallies, and are read back as the drain goes on.
   */
  @Test
  void aRestartMidDrainIsReadyAtOnceWithExactCountsAndTheDrainFinishesExactlyOnce() throws Exception {
    int messages = 20_000;
    Map<String, Integer> received = new ConcurrentHashMap<>();
    try (TestServer first = pagedServer(300); SqsClient sqs = first.client()) {
      String url = sqs.createQueue(b -> b.queueName("paged-restart")).queueUrl();
      send(first, url, 0, messages);
      drain(first, url, received, () -> received.size() >= messages * 2 / 5);
      // A clean stop writes everything first: the deletes of a fast drain, written behind, may be
      // several seconds behind (more than the 5 s a test server's stop allows by default).
      first.stop(30_000);
    }
    int deleted = received.size();
    long start = System.nanoTime();
    try (TestServer second = pagedServer(300); SqsClient sqs = second.client()) {
      long startMillis = (System.nanoTime() - start) / 1_000_000;
      System.out.printf("BacklogIT: restarted with %d messages left in %d ms%n", messages - deleted, startMillis);
      assertTrue(startMillis < 5_000, "ready in " + startMillis + " ms");
      String url = second.queueUrl("paged-restart");
      assertHeldOnlyAWindow(second, 300);
      assertCounts(sqs, url, messages - deleted, 0);
      drain(second, url, received, () -> received.size() >= messages);
      assertExactlyOnce(received, messages);
      assertCounts(sqs, url, 0, 0);
      assertEquals(0, duplicateRows(second));
    }
  }

  /**
   * Delayed messages held only in PostgreSQL across a restart: start-up counts them from a histogram
   * of the rows not yet visible after the frontier, and they become visible when due.
   */
  @Test
  void delayedMessagesBeyondTheWindowAreCountedAfterARestartAndDeliveredWhenDue() throws Exception {
    String url;
    try (TestServer first = pagedServer(20); SqsClient sqs = first.client()) {
      url = sqs.createQueue(b -> b.queueName("paged-delayed")).queueUrl();
      send(first, url, 0, 300);
      for (int i = 0; i < 200; i += 10) {
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int j = i; j < i + 10; j++) {
          entries.add(SendMessageBatchRequestEntry.builder().id("d" + (j - i)).messageBody("d-" + j).delaySeconds(6)
              .build());
        }
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries));
      }
      awaitCounts(sqs, url, 300, 200);
    }
    try (TestServer second = pagedServer(20); SqsClient sqs = second.client()) {
      awaitCounts(sqs, url, 300, 200);
      awaitCounts(sqs, url, 500, 0); // once the delay has passed
      Map<String, Integer> received = new ConcurrentHashMap<>();
      drain(second, url, received, () -> received.size() >= 500);
      assertEquals(500, received.size());
      assertTrue(received.values().stream().allMatch(n -> n == 1), "each delivered once");
      assertTrue(received.keySet().containsAll(List.of("d-0", "d-199", "m-0", "m-299")));
      assertEquals(0, duplicateRows(second));
    }
  }

  /**
   * FIFO (design step 6): a queue's resident part is a prefix of its sequence order, its groups
   * continue in PostgreSQL. 20,000 messages of about 1 KB in 50 groups, through a window of 50,
   * with a budget of 8 MB: far less than the backlog's bodies (20 MB), room for its deduplication
   * ids (charged whatever the budget, 5 minutes of sends). Drained by 16 consumers, each group in
   * order and every message once, with a restart at 40% that reads none of the backlog.
   */
  @Test
  void aFifoBacklogFarBeyondTheWindowDrainsInGroupOrderExactlyOnceAcrossARestart() throws Exception {
    int messages = 20_000;
    Map<String, String> settings = Map.of("SLUICE_PG_HEAD_WINDOW_MESSAGES", "50",
        "SLUICE_ENGINE_MEMORY_BUDGET_BYTES", "8000000");
    FifoTraffic traffic = new FifoTraffic(50, 1_000);
    try (TestServer first = server(settings); SqsClient sqs = first.client()) {
      String url = sqs.createQueue(b -> b.queueName("paged-backlog.fifo")
          .attributesWithStrings(Map.of("FifoQueue", "true"))).queueUrl();
      long start = System.nanoTime();
      traffic.send(first, url, 0, messages);
      long sent = System.nanoTime();
      assertCounts(sqs, url, messages, 0);
      long used = first.sluice.engine().memoryBudget().usedBytes();
      assertTrue(used < messages * 1_000L / 4, used + " bytes held for a backlog of " + messages * 1_000L);
      traffic.drain(first, url, () -> traffic.deleted.get() >= messages * 2 / 5);
      System.out.printf("BacklogIT: %d FIFO messages sent in %d ms, %d drained in %d ms%n", messages,
          (sent - start) / 1_000_000, traffic.deleted.get(), (System.nanoTime() - sent) / 1_000_000);
    }
    int left = messages - traffic.deleted.get();
    long start = System.nanoTime();
    try (TestServer second = server(settings); SqsClient sqs = second.client()) {
      long startMillis = (System.nanoTime() - start) / 1_000_000;
      System.out.printf("BacklogIT: restarted with %d FIFO messages left in %d ms%n", left, startMillis);
      assertTrue(startMillis < 5_000, "ready in " + startMillis + " ms");
      String url = second.queueUrl("paged-backlog.fifo");
      assertCounts(sqs, url, left, 0);
      traffic.drain(second, url, () -> traffic.deleted.get() >= messages);
      traffic.assertExactlyOnceInGroupOrder(messages);
      assertCounts(sqs, url, 0, 0);
      assertEquals(0, duplicateRows(second), "no page read brought back a row already in memory");
    }
  }

  /** Waits (up to 20 s) until the visible and delayed counts are these; the last counts otherwise. */
  static void awaitCounts(SqsClient sqs, String url, int visible, int delayed) throws Exception {
    long deadline = System.currentTimeMillis() + 20_000;
    Map<String, String> counts;
    Map<String, String> expected = Map.of("ApproximateNumberOfMessages", String.valueOf(visible),
        "ApproximateNumberOfMessagesDelayed", String.valueOf(delayed));
    do {
      counts = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("ApproximateNumberOfMessages",
          "ApproximateNumberOfMessagesDelayed")).attributesAsStrings();
      if (counts.equals(expected)) {
        return;
      }
      Thread.sleep(100);
    } while (System.currentTimeMillis() < deadline);
    assertEquals(expected, counts);
  }

  static long duplicateRows(TestServer server) throws Exception {
    return server.sluice.engine().sample().await(5, TimeUnit.SECONDS).backlogDuplicateRows();
  }
}
