package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.console.ConsoleViews;
import dev.sluice.console.HistorySampler;
import dev.sluice.console.OverviewQuery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The console's sampler on a real server (design/console.md §2.4): it reads every shard's queues
 * through the engine's sliced sampling and its topics through the topics-only sample, and the
 * overview shows what the SDK did; a deleted queue leaves it at the next tick.
 */
class ConsoleSamplerIT {
  @Test
  void theSamplerFollowsTheQueuesThroughTheEngine() throws Exception {
    try (TestServer s = TestServer.start(); SqsClient sqs = s.client()) {
      String dlq = sqs.createQueue(b -> b.queueName("console-dlq")).queueUrl();
      String q = sqs.createQueue(b -> b.queueName("console-orders").attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
          "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:console-dlq\",\"maxReceiveCount\":\"5\"}")))
          .queueUrl();
      for (int i = 0; i < 20; i++) {
        sqs.createQueue(b -> b.queueName("console-idle-" + System.nanoTime()));
      }
      HistorySampler sampler = HistorySampler.of(s.sluice.vertx(), s.sluice.engine(), 200, 10);
      sampler.start();
      try {
        for (int i = 0; i < 3; i++) {
          int n = i;
          sqs.sendMessage(b -> b.queueUrl(q).messageBody("m" + n));
        }
        JsonObject row = awaitRow(sampler, "console-orders", r -> r.getInteger("visible") == 3);
        assertEquals("http://sluice.test/000000000000/console-orders", row.getString("url"));
        JsonObject dlqRow = awaitRow(sampler, "console-dlq", r -> true);
        assertEquals(new JsonArray().add("arn:aws:sqs:us-east-1:000000000000:console-orders"),
            dlqRow.getJsonArray("deadLetterSources"));
        assertEquals(22, (int) sampler.read(h -> ConsoleViews.overview(h, OverviewQuery.DEFAULT, "", "000000000000")
            .getInteger("total")).await(5, TimeUnit.SECONDS));
        assertTrue(sampler.series() >= 1, "console-orders is active: it has a series");

        sqs.deleteQueue(b -> b.queueUrl(dlq));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (findRow(sampler, "console-dlq") != null && System.nanoTime() < until) {
          Thread.sleep(50);
        }
        assertEquals(null, findRow(sampler, "console-dlq"), "deleted: gone at the next tick");
      } finally {
        sampler.stop().await(5, TimeUnit.SECONDS);
      }
    }
  }

  private static JsonObject awaitRow(HistorySampler sampler, String name,
      java.util.function.Predicate<JsonObject> ready) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < until) {
      JsonObject row = findRow(sampler, name);
      if (row != null && ready.test(row)) {
        return row;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(name + " not sampled as expected: " + findRow(sampler, name));
  }

  private static JsonObject findRow(HistorySampler sampler, String name) throws Exception {
    JsonObject overview = sampler.read(h -> ConsoleViews.overview(h,
        OverviewQuery.parse(Map.of("filter", name)::get), "http://sluice.test", "000000000000"))
        .await(5, TimeUnit.SECONDS);
    for (Object r : overview.getJsonArray("rows")) {
      if (((JsonObject) r).getString("name").equals(name)) {
        return (JsonObject) r;
      }
    }
    return null;
  }
}
