package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * A queue's redelivery backoff seen by an SDK client and through the console's admin API: a
 * predefined queue with a backoff, its message received and abandoned (visibility 1 s) until it
 * moves to its dead-letter queue, the gaps between its receives within the policy's bounds and
 * longer than the visibility alone, Delayed counting it while it waits, the policy no attribute.
 */
class RedeliveryBackoffIT {
  static final String QUEUES = """
      queues:
        - name: jobs-dlq
        - name: jobs
          deadLetterQueue: jobs-dlq
          maxReceiveCount: 4
          redeliveryBackoff: {baseSeconds: 1, maxSeconds: 4}
        - name: plain
      """;
  static final String PATH = "/console/api/queues/000000000000/us-east-1/";

  @TempDir Path dir;

  @Test
  void abandonedMessagesComeBackLaterAndLaterThenMoveToTheDeadLetterQueue() throws Exception {
    Path conf = dir.resolve("sluice.yaml");
    Files.writeString(conf, QUEUES);
    try (TestServer s = TestServer.start(Map.of("SLUICE_CONFIG", conf.toString())); SqsClient sqs = s.client()) {
      String url = s.queueUrl("jobs");
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("flaky"));
      // Each re-visibility V is only seen between two polls: after the last poll that found the
      // message hidden began, before the first that found it visible ended. The receive R that hid
      // it happened during its call. So V - R >= 1 s and V - R <= 1 s + ceiling can be checked
      // from those instants whatever a slow poll (a metrics scrape, a loaded machine) costs.
      long waitedAtLeast = 0;
      boolean sawDelayed = false;
      boolean sawGauge = false;
      long calledAt = System.nanoTime();
      Message m = receive(sqs, url);
      long answeredAt = System.nanoTime();
      for (int n = 1; n <= 3; n++) {
        long lastHidden = answeredAt;
        long firstVisible;
        while (true) {
          long pollAt = System.nanoTime();
          Map<String, String> a = counts(sqs, url);
          if (a.get("ApproximateNumberOfMessages").equals("1")) {
            firstVisible = System.nanoTime();
            break;
          }
          lastHidden = pollAt;
          boolean waiting = a.get("ApproximateNumberOfMessagesDelayed").equals("1")
              && a.get("ApproximateNumberOfMessagesNotVisible").equals("0");
          sawDelayed |= waiting;
          if (waiting && !sawGauge) {
            // The metrics sample the shards at each scrape: the message may come back meanwhile.
            sawGauge = Double.valueOf(1.0).equals(MetricsIT.value(MetricsIT.scrape(s),
                "sluice_queue_messages_backoff" + MetricsIT.queue("jobs")));
          }
          Thread.sleep(50);
        }
        long ceiling = Math.min(4, 1L << (n - 1)) * 1000;
        long atMost = (firstVisible - calledAt) / 1_000_000;
        long atLeast = (lastHidden - answeredAt) / 1_000_000;
        assertTrue(atMost >= 1_000, "receive " + n + ": visible again after " + atMost + " ms, before its visibility ran out");
        // 250 ms for the shard's timer, which fires at the due time or just after.
        assertTrue(atLeast <= 1_000 + ceiling + 250, "receive " + n + ": still hidden " + atLeast + " ms after it");
        waitedAtLeast += Math.max(0, atLeast - 1_000);
        calledAt = System.nanoTime();
        m = receive(sqs, url);
        answeredAt = System.nanoTime();
        assertEquals(Integer.toString(n + 1), m.attributesAsStrings().get("ApproximateReceiveCount"));
      }
      assertTrue(sawDelayed, "Delayed counted the message while it waited out its backoff");
      assertTrue(sawGauge, "sluice_queue_messages_backoff counted it");
      assertEquals(0.0, MetricsIT.value(MetricsIT.scrape(s), "sluice_queue_messages_backoff" + MetricsIT.queue("plain")));
      // Waits drawn from 0..1, 0..2 and 0..4 s: together longer than nothing, but for a draw of
      // all three near 0 (a chance of a few in a thousand).
      assertTrue(waitedAtLeast > 200, "waited at least " + waitedAtLeast + " ms beyond the visibility timeouts");
      // Received maxReceiveCount (4) times: no wait, the next receive moves it to the DLQ.
      Thread.sleep(1_100);
      assertEquals(List.of(), sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(1)).messages());
      Message dead = sqs.receiveMessage(b -> b.queueUrl(s.queueUrl("jobs-dlq")).waitTimeSeconds(5)
          .messageSystemAttributeNamesWithStrings("All")).messages().get(0);
      assertEquals("flaky", dead.body());
      assertEquals("5", dead.attributesAsStrings().get("ApproximateReceiveCount"));
    }
  }

  @Test
  void thePolicyIsNoAttributeAndTheAdminApiReadsSetsAndRemovesIt() throws Exception {
    Path conf = dir.resolve("sluice.yaml");
    Files.writeString(conf, QUEUES);
    try (TestServer s = TestServer.start(Map.of("SLUICE_CONFIG", conf.toString())); SqsClient sqs = s.client()) {
      String url = s.queueUrl("jobs");
      Map<String, String> all = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.ALL))
          .attributesAsStrings();
      assertTrue(all.keySet().stream().noneMatch(k -> k.toLowerCase().contains("backoff")), all.toString());
      assertThrows(SqsException.class, () -> sqs.setQueueAttributes(b -> b.queueUrl(url)
          .attributesWithStrings(Map.of("RedeliveryBackoff", "{\"baseSeconds\":1,\"maxSeconds\":2}"))));

      int port = s.sluice.port();
      assertEquals(new JsonObject().put("baseSeconds", 1).put("maxSeconds", 4), ok(get(port, "jobs")));
      assertEquals(new JsonObject().putNull("baseSeconds").putNull("maxSeconds"), ok(get(port, "plain")));
      RawHttp.Response set = put(port, "plain", "{\"baseSeconds\":5,\"maxSeconds\":300}");
      assertEquals(new JsonObject().put("baseSeconds", 5).put("maxSeconds", 300), ok(set));
      assertEquals(new JsonObject().put("baseSeconds", 5).put("maxSeconds", 300), ok(get(port, "plain")));
      for (String bad : List.of("{\"baseSeconds\":0,\"maxSeconds\":5}", "{\"baseSeconds\":5,\"maxSeconds\":4}",
          "{\"baseSeconds\":5,\"maxSeconds\":43201}", "{\"baseSeconds\":5}", "{\"baseSeconds\":1.5,\"maxSeconds\":9}",
          "{\"baseSeconds\":1,\"maxSeconds\":9,\"jitter\":1}", "not json", "[1,2]")) {
        RawHttp.Response r = put(port, "plain", bad);
        assertEquals(400, r.status(), bad + " -> " + r.body());
        assertTrue(new JsonObject(r.body()).getString("__type").contains("InvalidParameterValue"), r.body());
      }
      assertEquals(new JsonObject().put("baseSeconds", 5).put("maxSeconds", 300), ok(get(port, "plain")));
      RawHttp.Response removed = ConsoleHttp.send(port, "DELETE", PATH + "plain/redelivery-backoff", null,
          ConsoleHttp.CONSOLE);
      assertEquals(new JsonObject().putNull("baseSeconds").putNull("maxSeconds"), ok(removed));
      assertEquals(new JsonObject().putNull("baseSeconds").putNull("maxSeconds"), ok(get(port, "plain")));
      RawHttp.Response missing = get(port, "nowhere");
      assertEquals(404, missing.status(), missing.body());
      assertTrue(new JsonObject(missing.body()).getString("__type").contains("NotFound"), missing.body());
      assertEquals(404, put(port, "nowhere", "{\"baseSeconds\":5,\"maxSeconds\":300}").status());
      RawHttp.Response unguarded = ConsoleHttp.send(port, "PUT", PATH + "plain/redelivery-backoff",
          "{\"baseSeconds\":5,\"maxSeconds\":300}", "Content-Type: application/json");
      assertEquals(403, unguarded.status(), "the console's header is required: " + unguarded.body());
    }
  }

  static Message receive(SqsClient sqs, String url) {
    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(1)
        .messageSystemAttributeNamesWithStrings("All")).messages();
    assertEquals(1, got.size());
    return got.get(0);
  }

  static Map<String, String> counts(SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributesAsStrings();
  }

  static RawHttp.Response get(int port, String queue) throws Exception {
    return ConsoleHttp.get(port, PATH + queue + "/redelivery-backoff", ConsoleHttp.CONSOLE);
  }

  static RawHttp.Response put(int port, String queue, String body) throws Exception {
    return ConsoleHttp.send(port, "PUT", PATH + queue + "/redelivery-backoff", body, ConsoleHttp.CONSOLE,
        "Content-Type: application/json");
  }

  static JsonObject ok(RawHttp.Response r) {
    assertEquals(200, r.status(), r.body());
    return new JsonObject(r.body());
  }
}
