package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A durable server restarted while a message waits out its redelivery backoff: the policy comes
 * back with its queue, and the message comes back still waiting, until the very moment drawn before
 * the restart (the console's peek shows it), counted as delayed and not as in flight. With the whole
 * backlog in memory, and paged (a head window of 2, with more messages behind it in the table only).
 */
class RedeliveryBackoffRestartIT extends DurableServerIT {
  static final String QUEUE = "/console/api/queues/000000000000/us-east-1/restart-backoff";

  @ParameterizedTest(name = "head window {0}")
  @ValueSource(ints = {0, 2})
  void aMessageWaitingOutItsBackoffKeepsItsWaitAcrossARestart(int window) throws Exception {
    Map<String, String> settings = Map.of("SLUICE_PG_HEAD_WINDOW_MESSAGES", String.valueOf(window));
    long visibleAt = 0;
    String url;
    try (TestServer first = server(settings); SqsClient sqs = first.client()) {
      url = sqs.createQueue(b -> b.queueName("restart-backoff")).queueUrl();
      sqs.purgeQueue(b -> b.queueUrl(url)); // the other case's messages
      int port = first.sluice.port();
      RawHttp.Response set = ConsoleHttp.send(port, "PUT", QUEUE + "/redelivery-backoff",
          "{\"baseSeconds\":60,\"maxSeconds\":60}", ConsoleHttp.CONSOLE, "Content-Type: application/json");
      assertEquals(200, set.status(), set.body());
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("waits"));
      for (int i = 0; i < 5; i++) {
        int n = i;
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("behind " + n).delaySeconds(900));
      }
      // A wait drawn from 0..60 s; one under 2 s (rare) is visible at once: receive and abandon again.
      for (int attempt = 0; attempt < 5 && visibleAt == 0; attempt++) {
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(1).waitTimeSeconds(5)).messages();
        assertEquals(1, got.size());
        Thread.sleep(1_300);
        JsonObject peeked = peekOne(port);
        if (peeked.getString("state").equals("DELAYED") && peeked.getLong("visibleAt") > System.currentTimeMillis() + 2_000) {
          visibleAt = peeked.getLong("visibleAt");
        }
      }
      assertTrue(visibleAt > 0, "the message started a backoff");
      Thread.sleep(300); // the backoff's start is written behind
    }
    try (TestServer second = server(settings); SqsClient sqs = second.client()) {
      int port = second.sluice.port();
      RawHttp.Response policy = ConsoleHttp.get(port, QUEUE + "/redelivery-backoff", ConsoleHttp.CONSOLE);
      assertEquals(new JsonObject().put("baseSeconds", 60).put("maxSeconds", 60), new JsonObject(policy.body()));
      JsonObject peeked = peekOne(port);
      assertEquals("DELAYED", peeked.getString("state"));
      assertEquals(visibleAt, peeked.getLong("visibleAt"), "the same wait: neither drawn again nor lost");
      Map<String, String> counts = RedeliveryBackoffIT.counts(sqs, url);
      assertEquals("6", counts.get("ApproximateNumberOfMessagesDelayed"), "5 in their delay, 1 in backoff");
      assertEquals("0", counts.get("ApproximateNumberOfMessagesNotVisible"));
      assertEquals("0", counts.get("ApproximateNumberOfMessages"));
    }
  }

  static JsonObject peekOne(int port) throws Exception {
    RawHttp.Response r = ConsoleHttp.get(port, QUEUE + "/messages", ConsoleHttp.CONSOLE);
    assertEquals(200, r.status(), r.body());
    return new JsonObject(r.body()).getJsonArray("messages").getJsonObject(0);
  }
}
