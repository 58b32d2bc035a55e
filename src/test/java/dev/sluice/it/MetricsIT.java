package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * /metrics after a scripted scenario: per-queue gauges say what GetQueueAttributes says, request
 * timers count each action and error, parked polls and the memory budget show, a deleted queue's
 * series are gone, and with metrics off there is no endpoint. Isolated: Vert.x keeps its Micrometer
 * backend per JVM, so an in-JVM server of another class running at the same time would take the
 * JVM metrics this test looks for.
 */
@Isolated
class MetricsIT {
  static String scrape(TestServer s) throws Exception {
    HttpResponse<String> r = HealthIT.get(s, "/metrics");
    assertEquals(200, r.statusCode(), r.body());
    assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
    return r.body();
  }

  /** The value of one series, or null when the scrape has no such line. */
  static Double value(String text, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
    return m.find() ? Double.valueOf(m.group(1)) : null;
  }

  /** The labels of a queue of the default account and region: its series carry all three. */
  static String queue(String name) {
    return "{account=\"000000000000\",queue=\"" + name + "\",region=\"us-east-1\"}";
  }

  @Test
  void gaugesAndTimersFollowAScriptedScenario() throws Exception {
    try (TestServer s = TestServer.start(); SqsClient sqs = s.client(); SqsAsyncClient async = s.asyncClient(4)) {
      String a = sqs.createQueue(b -> b.queueName("metrics-a")).queueUrl();
      String idle = sqs.createQueue(b -> b.queueName("metrics-idle")).queueUrl();
      String gone = sqs.createQueue(b -> b.queueName("metrics-gone")).queueUrl();
      for (int i = 0; i < 3; i++) {
        int n = i;
        sqs.sendMessage(b -> b.queueUrl(a).messageBody("m" + n));
      }
      sqs.sendMessage(b -> b.queueUrl(a).messageBody("later").delaySeconds(60));
      assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(a).visibilityTimeout(60)).messages().size());
      sqs.sendMessage(b -> b.queueUrl(gone).messageBody("x"));
      try {
        sqs.getQueueUrl(b -> b.queueName("metrics-missing"));
      } catch (QueueDoesNotExistException expected) {
        // counted as an error of GetQueueUrl
      }
      CompletableFuture<ReceiveMessageResponse> parked = async.receiveMessage(b -> b.queueUrl(idle).waitTimeSeconds(20));
      HealthIT.awaitStatus(s, "/health/ready", 200);
      String text = scrape(s);
      long deadline = System.currentTimeMillis() + 5_000;
      while (!Double.valueOf(1).equals(value(text, "sluice_receives_parked")) && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
        text = scrape(s);
      }
      assertEquals(1.0, value(text, "sluice_receives_parked"), "the long poll on metrics-idle");
      assertEquals(2.0, value(text, "sluice_queue_messages_visible" + queue("metrics-a")));
      assertEquals(1.0, value(text, "sluice_queue_messages_inflight" + queue("metrics-a")));
      assertEquals(1.0, value(text, "sluice_queue_messages_delayed" + queue("metrics-a")));
      assertTrue(value(text, "sluice_queue_oldest_message_age_seconds" + queue("metrics-a")) > 0);
      assertEquals(0.0, value(text, "sluice_queue_messages_visible" + queue("metrics-idle")));
      assertEquals(0.0, value(text, "sluice_queue_oldest_message_age_seconds" + queue("metrics-idle")));
      assertEquals(1.0, value(text, "sluice_queue_messages_visible" + queue("metrics-gone")));
      assertEquals(5.0, value(text, "sluice_requests_seconds_count{action=\"SendMessage\",error=\"none\"}"));
      assertEquals(3.0, value(text, "sluice_requests_seconds_count{action=\"CreateQueue\",error=\"none\"}"));
      assertEquals(1.0, value(text,
          "sluice_requests_seconds_count{action=\"GetQueueUrl\",error=\"AWS.SimpleQueueService.NonExistentQueue\"}"));
      assertTrue(value(text, "sluice_memory_budget_used_bytes") > 0);
      assertTrue(value(text, "sluice_memory_budget_limit_bytes") > 0);
      assertEquals(0.0, value(text, "sluice_push_subscriptions"));
      assertEquals(0.0, value(text, "sluice_console_streams"));
      assertTrue(value(text, "sluice_console_history_bytes") >= 0);
      assertTrue(value(text, "sluice_console_history_series") >= 0);
      assertTrue(text.contains("\njvm_memory_used_bytes{"), "JVM metrics");
      assertTrue(text.contains("\nvertx_http_server_requests_total{"), "Vert.x metrics");
      assertFalse(text.contains("address=\""), "no per-address event-bus series");

      sqs.deleteQueue(b -> b.queueUrl(gone));
      sqs.sendMessage(b -> b.queueUrl(idle).messageBody("wake"));
      assertEquals(1, parked.get().messages().size());
      text = scrape(s);
      assertFalse(text.contains("queue=\"metrics-gone\""), "a deleted queue has no series left");
      assertEquals(0.0, value(text, "sluice_receives_parked"));
      assertEquals(1.0, value(text, "sluice_queue_messages_inflight" + queue("metrics-idle")));
    }
  }

  @Test
  void withMetricsOffThereIsNoEndpoint() throws Exception {
    try (TestServer s = TestServer.start(Map.of("SLUICE_METRICS_ENABLED", "false"))) {
      HttpResponse<String> r = HealthIT.get(s, "/metrics");
      assertEquals(400, r.statusCode(), "answered as a request of no protocol: " + r.body());
    }
  }
}
