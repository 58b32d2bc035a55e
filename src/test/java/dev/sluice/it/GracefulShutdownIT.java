package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tools;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * SIGTERM to the packaged jar, with long polls parked and sends acknowledged but not yet written
 * (relaxed durability, a 5-second flush interval): the polls come back empty at once, every
 * acknowledged message is in PostgreSQL afterwards, and the process exits 0 within its grace period.
 * A push subscription open at the stop ends with it, and its unacknowledged message is visible at
 * once after a restart.
 */
@Isolated
class GracefulShutdownIT extends DurableServerIT {
  static final int PARKED = 20;
  static final int MESSAGES = 500;
  static final long GRACE_MILLIS = 15_000;

  @Test
  void sigtermAnswersParkedPollsFlushesWritesAndExitsZero() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("shutdown-");
    ProcessBuilder pb = ServerJar.logging(log, Map.of("SLUICE_HTTP_PORT", Integer.toString(port), "SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", pg.url(), "SLUICE_DURABILITY", "relaxed", "SLUICE_PG_FLUSH_INTERVAL_MILLIS", "5000",
        "SLUICE_SHUTDOWN_GRACE_MILLIS", Long.toString(GRACE_MILLIS)));
    Process server = pb.start();
    Vertx vertx = Vertx.vertx();
    Pool db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    try (SqsAsyncClient sqs = DurableCrashIT.client(port)) {
      QuickstartIT.awaitPort(port, server);
      String idle = sqs.createQueue(b -> b.queueName("idle")).get().queueUrl();
      String data = sqs.createQueue(b -> b.queueName("data")).get().queueUrl();
      List<CompletableFuture<ReceiveMessageResponse>> polls = new ArrayList<>();
      for (int i = 0; i < PARKED; i++) {
        polls.add(sqs.receiveMessage(b -> b.queueUrl(idle).waitTimeSeconds(20)));
      }
      for (int i = 0; i < MESSAGES; i += 10) {
        List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
        for (int j = i; j < i + 10; j++) {
          batch.add(SendMessageBatchRequestEntry.builder().id("e" + (j - i)).messageBody("m" + j).build());
        }
        assertEquals(10, sqs.sendMessageBatch(b -> b.queueUrl(data).entries(batch)).get().successful().size());
      }
      awaitParked(port, PARKED);
      assertEquals(0, messagesInPostgres(db), "the acknowledged sends are still waiting for their flush");
      String metrics = scrape(port);
      assertTrue(MetricsIT.value(metrics, "sluice_persistence_pending") >= MESSAGES, "the writer's backlog shows");
      assertTrue(MetricsIT.value(metrics, "sluice_persistence_lag_seconds") > 0, "and its age");

      long signalled = System.nanoTime();
      server.destroy(); // SIGTERM
      for (CompletableFuture<ReceiveMessageResponse> poll : polls) {
        assertEquals(0, poll.get(5, TimeUnit.SECONDS).messages().size(), "a parked poll is answered empty");
      }
      assertTrue(server.waitFor(GRACE_MILLIS + 2_000, TimeUnit.MILLISECONDS), "the process exited");
      long tookMillis = (System.nanoTime() - signalled) / 1_000_000;
      assertEquals(0, server.exitValue(), "exit code 0; log:\n" + Files.readString(log));
      assertTrue(tookMillis < GRACE_MILLIS, "exited within the grace period: " + tookMillis + " ms");
      assertEquals(MESSAGES, messagesInPostgres(db), "every acknowledged send was written before exit");
    } finally {
      server.destroyForcibly();
      db.close();
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void stoppingEndsPushSubscriptionsAndTheirMessagesAreVisibleAfterRestart() throws Exception {
    TestServer first = server();
    String url;
    try (SqsClient sqs = first.client(); BridgeClient c = BridgeClient.webSocket(first.sluice.port(), "/eventbus")) {
      url = sqs.createQueue(b -> b.queueName("pushed-at-stop")).queueUrl();
      JsonObject sub = PushIT.ok(c.request("sluice.subscribe", new JsonObject().put("queueUrl", url)
          .put("prefetch", 1).put("visibilityTimeout", 600)));
      c.register(sub.getString("address"));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("in flight at stop"));
      assertTrue(c.pushed(sub.getString("address"), 5000) != null, "pushed, not acknowledged");
      long start = System.nanoTime();
      first.sluice.stop(GRACE_MILLIS).await(GRACE_MILLIS + 2_000, TimeUnit.MILLISECONDS);
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMillis < 3_000, "an open bridge socket does not hold the stop: " + tookMillis + " ms");
    }
    try (TestServer second = server(); SqsClient sqs = second.client()) {
      List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url)).messages();
      assertEquals(1, got.size(), "visible again at once, not after its 600 s visibility timeout");
      assertEquals("in flight at stop", got.get(0).body());
    }
  }

  static long messagesInPostgres(Pool db) throws Exception {
    return db.query("SELECT count(*) FROM sluice_messages").execute().await(10, TimeUnit.SECONDS)
        .iterator().next().getLong(0);
  }

  static String scrape(int port) throws Exception {
    return HealthIT.awaitAnswer(URI.create("http://127.0.0.1:" + port + "/metrics")).body();
  }

  static void awaitParked(int port, int expected) throws Exception {
    long end = System.currentTimeMillis() + 10_000;
    while (true) {
      String text = scrape(port);
      Double parked = MetricsIT.value(text, "sluice_receives_parked");
      if (parked != null && parked == expected) {
        return;
      }
      assertTrue(System.currentTimeMillis() < end, "parked polls: " + parked);
      Thread.sleep(50);
    }
  }
}
