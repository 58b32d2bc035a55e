package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Messages on the slab end to end (design/tails.md step 2): the packaged jar with a 256 MiB heap
 * and Netty's paranoid leak detection takes 210,000 messages of random sizes (1 B to 256 KiB, some
 * with attributes) through send, receive and delete, a purge, a DeleteQueue, a dead-letter queue
 * and a move task back; then its content slabs hold no live byte and its memory budget nothing, as
 * its metrics say, and its log has no leak report (the slab is not Netty's: the detector keeps the
 * HTTP path honest) and no warning.
 */
@Isolated
class SlabBacklogIT {
  static final int SENDERS = 8;
  static final int CONSUMERS = 8;
  /** One message in this many is large (up to 256 KiB), sent on its own; the rest up to 1 KiB, in batches. */
  static final int LARGE_ONE_IN = 500;

  @Test
  void everyPathAMessageTakesLeavesTheSlabEmpty() throws Exception {
    try (PackagedServer server = PackagedServer.start("slab-backlog-", Map.of("SLUICE_MANAGEMENT_TOKEN", "off",
        "JAVA_TOOL_OPTIONS", "-Xmx256m -Dio.netty.leakDetection.level=paranoid"));
        SqsClient sqs = server.sqs("AKID", "secret")) {
      String dead = sqs.createQueue(b -> b.queueName("dead")).queueUrl();
      String deadArn = arn(sqs, dead);
      String main = sqs.createQueue(b -> b.queueName("main").attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
          "{\"deadLetterTargetArn\":\"" + deadArn + "\",\"maxReceiveCount\":\"1\"}"))).queueUrl();
      AtomicLong sent = new AtomicLong();

      // Send, receive, delete: in rounds, so the backlog stays within the default budget (half the heap).
      for (int round = 0; round < 4; round++) {
        send(server, main, round * 30_000, 30_000, sent);
        assertEquals(30_000, drain(server, main));
      }
      // A purge, and a DeleteQueue, of queues holding 40,000 messages each.
      String purged = sqs.createQueue(b -> b.queueName("purged")).queueUrl();
      send(server, purged, 0, 40_000, sent);
      String held = scrape(server.endpoint);
      assertTrue(MetricsIT.value(held, "sluice_memory_slab_live_bytes") > 40_000 * 8,
          "a backlog's contents are in the slabs: " + MetricsIT.value(held, "sluice_memory_slab_live_bytes"));
      assertTrue(MetricsIT.value(held, "sluice_memory_slab_allocated_bytes")
          >= MetricsIT.value(held, "sluice_memory_slab_live_bytes"));
      sqs.purgeQueue(b -> b.queueUrl(purged));
      String dropped = sqs.createQueue(b -> b.queueName("dropped")).queueUrl();
      send(server, dropped, 0, 40_000, sent);
      sqs.deleteQueue(b -> b.queueUrl(dropped));
      // Dead letters: each received twice with no visibility goes over its count of 1 and moves.
      send(server, main, 0, 10_000, sent);
      for (int guard = 0; count(sqs, main) > 0; guard++) {
        assertTrue(guard < 10_000, "messages left in main: " + count(sqs, main));
        sqs.receiveMessage(b -> b.queueUrl(main).maxNumberOfMessages(10).visibilityTimeout(0));
      }
      assertEquals(10_000, count(sqs, dead));
      // ...and a move task redrives them to their source, where they are deleted.
      sqs.startMessageMoveTask(b -> b.sourceArn(deadArn));
      for (long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2); count(sqs, dead) > 0; Thread.sleep(100)) {
        assertTrue(System.nanoTime() < until, "the move task did not finish");
      }
      assertEquals(10_000, drain(server, main));
      assertEquals(210_000, sent.get());

      String metrics = "";
      for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); System.nanoTime() < until; Thread.sleep(200)) {
        metrics = scrape(server.endpoint);
        if (Double.valueOf(0).equals(MetricsIT.value(metrics, "sluice_memory_slab_live_bytes"))
            && Double.valueOf(0).equals(MetricsIT.value(metrics, "sluice_memory_budget_used_bytes"))) {
          break;
        }
      }
      assertEquals(0.0, MetricsIT.value(metrics, "sluice_memory_slab_live_bytes"), "slab live bytes");
      assertEquals(0.0, MetricsIT.value(metrics, "sluice_memory_budget_used_bytes"), "budget used");
      assertTrue(MetricsIT.value(metrics, "sluice_memory_slab_allocated_bytes") != null, "the allocated gauge");
      assertEquals(List.of(), leaks(server));
    }
  }

  /** Sends {@code n} messages of random sizes from several threads: small ones in batches, large ones alone. */
  static void send(PackagedServer server, String url, int seed, int n, AtomicLong sent) throws Exception {
    AtomicInteger next = new AtomicInteger();
    run(SENDERS, t -> {
      Random random = new Random(seed + t);
      try (SqsClient sqs = server.sqs("AKID", "secret")) {
        int start;
        while ((start = next.getAndAdd(10)) < n) {
          List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
          for (int i = start; i < Math.min(start + 10, n); i++) {
            if (random.nextInt(LARGE_ONE_IN) == 0) {
              String big = body(random, 1 + random.nextInt(256 * 1024));
              sqs.sendMessage(b -> b.queueUrl(url).messageBody(big));
            } else {
              String id = "e" + entries.size();
              SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder().id(id)
                  .messageBody(body(random, 1 + random.nextInt(1024)));
              if (random.nextBoolean()) {
                e.messageAttributes(Map.of("kind", MessageAttributeValue.builder().dataType("String")
                    .stringValue("k" + random.nextInt(100)).build()));
              }
              entries.add(e.build());
            }
            sent.incrementAndGet();
          }
          if (!entries.isEmpty()) {
            assertEquals(entries.size(), sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries)).successful().size());
          }
        }
      }
    });
  }

  /** Receives and deletes until the queue is empty; answers how many were deleted. */
  static int drain(PackagedServer server, String url) throws Exception {
    AtomicInteger deleted = new AtomicInteger();
    run(CONSUMERS, t -> {
      try (SqsClient sqs = server.sqs("AKID", "secret")) {
        for (int empty = 0; empty < 2; ) {
          List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
              .visibilityTimeout(600)).messages();
          if (got.isEmpty()) {
            empty++;
            continue;
          }
          empty = 0;
          List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
          for (Message m : got) {
            entries.add(DeleteMessageBatchRequestEntry.builder().id("d" + entries.size())
                .receiptHandle(m.receiptHandle()).build());
          }
          deleted.addAndGet(sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(entries)).successful().size());
        }
      }
    });
    return deleted.get();
  }

  interface Worker {
    void run(int thread) throws Exception;
  }

  static void run(int threads, Worker worker) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          worker.run(thread);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(10, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static String body(Random random, int length) {
    char[] c = new char[length];
    for (int i = 0; i < length; i++) {
      c[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(c);
  }

  static String arn(SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributes().get(QueueAttributeName.QUEUE_ARN);
  }

  static long count(SqsClient sqs, String url) {
    Map<QueueAttributeName, String> a = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
    return a.values().stream().mapToLong(Long::parseLong).sum();
  }

  static String scrape(URI endpoint) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint.resolve("/metrics"))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return r.body();
  }

  /** The lines of the server's log where Netty's detector reported a leak. */
  static List<String> leaks(PackagedServer server) throws Exception {
    return Files.readAllLines(server.log()).stream().filter(l -> l.contains("LEAK:")).toList();
  }
}
