package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * On a FIFO queue a change of DelaySeconds is retroactive (AWS: Amazon SQS delay queues): messages
 * still delayed are rescheduled, messages already visible stay visible. Rows are not rewritten for
 * it: the queue's row keeps the rule (schema V5), and a restart must apply it to every message it
 * restores or counts, whether it restores them all (paging off, window 0) or keeps them in
 * PostgreSQL (window 2: almost every row is durable-only, read back after the restart).
 */
class FifoDelayRuleRestartIT extends DurableServerIT {

  static TestServer server(int window) {
    return server(Map.of("SLUICE_PG_HEAD_WINDOW_MESSAGES", String.valueOf(window)));
  }

  static String fifo(SqsClient sqs, String name, String delaySeconds) {
    return sqs.createQueue(b -> b.queueName(name).attributesWithStrings(Map.of("FifoQueue", "true",
        "ContentBasedDeduplication", "true", "DelaySeconds", delaySeconds))).queueUrl();
  }

  static void send(SqsClient sqs, String url, String... bodies) {
    for (String body : bodies) {
      sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageGroupId(body.substring(0, 1)));
    }
  }

  static void setDelay(SqsClient sqs, String url, String delaySeconds) {
    sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("DelaySeconds", delaySeconds)));
  }

  @ParameterizedTest(name = "window {0}")
  @ValueSource(ints = {0, 2})
  void delayedMessagesReleasedByADelayOfZeroStayVisibleAfterARestart(int window) throws Exception {
    String name = "released-" + window + ".fifo";
    try (TestServer first = server(window); SqsClient sqs = first.client()) {
      String url = fifo(sqs, name, "60");
      send(sqs, url, "a1", "b1", "a2", "b2", "a3", "b3");
      BacklogIT.awaitCounts(sqs, url, 0, 6);
      setDelay(sqs, url, "0");
      BacklogIT.awaitCounts(sqs, url, 6, 0);
    }
    try (TestServer second = server(window); SqsClient sqs = second.client()) {
      String url = second.queueUrl(name);
      BacklogIT.awaitCounts(sqs, url, 6, 0);
      assertEquals(List.of("a1", "a2", "a3", "b1", "b2", "b3"), receiveAll(sqs, url, 6),
          "all visible at once, each group in order");
      BacklogIT.awaitCounts(sqs, url, 0, 0);
    }
  }

  @ParameterizedTest(name = "window {0}")
  @ValueSource(ints = {0, 2})
  void aDelaySetLaterHoldsBackOnlyTheMessagesSentAfterItAcrossARestart(int window) throws Exception {
    String name = "delayed-later-" + window + ".fifo";
    try (TestServer first = server(window); SqsClient sqs = first.client()) {
      String url = fifo(sqs, name, "0");
      send(sqs, url, "a1", "b1", "a2", "b2", "c1");
      setDelay(sqs, url, "60");
      // Durable-only rows are counted delayed by sent time in buckets of 100 ms, each bucket as a
      // whole: the later sends must not share the change's bucket for the counts to be exact.
      Thread.sleep(200);
      send(sqs, url, "a3", "c2", "d1");
      BacklogIT.awaitCounts(sqs, url, 5, 3);
    }
    try (TestServer second = server(window); SqsClient sqs = second.client()) {
      String url = second.queueUrl(name);
      BacklogIT.awaitCounts(sqs, url, 5, 3);
      assertEquals(List.of("a1", "a2", "b1", "b2", "c1"), receiveAll(sqs, url, 5),
          "the messages sent before the change, and none of those sent after it");
      assertTrue(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()
          .isEmpty(), "the later ones wait out their delay");
      BacklogIT.awaitCounts(sqs, url, 0, 3);
      // Left for the tally check; the next test class's database is its own.
    }
  }

  /**
   * Receives and deletes until {@code count} messages came (a page read may answer a short poll
   * with fewer, so it polls); answers their bodies sorted by group, checking each group's order.
   */
  static List<String> receiveAll(SqsClient sqs, String url, int count) throws Exception {
    List<String> got = new ArrayList<>();
    long deadline = System.currentTimeMillis() + 20_000;
    while (got.size() < count && System.currentTimeMillis() < deadline) {
      for (Message m : sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
          .messages()) {
        got.add(m.body());
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
      }
    }
    for (int i = 1; i < got.size(); i++) {
      for (int j = 0; j < i; j++) {
        String earlier = got.get(j);
        String later = got.get(i);
        assertTrue(earlier.charAt(0) != later.charAt(0) || earlier.compareTo(later) < 0,
            "group order: " + got);
      }
    }
    return got.stream().sorted().toList();
  }
}
