package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.persistence.MessageContent;
import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** storage: postgres through the AWS SDK: what an acknowledgment means, and an outage. */
@NeedsTools(Tool.POSTGRESQL)
class DurableModeIT {
  static ThrowawayPostgres pg;
  static TestServer server;
  static SqsClient sqs;
  static Vertx vertx;
  static Pool db;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    server = TestServer.start(Map.of("SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", pg.url(),
        "SLUICE_PG_SEND_TIMEOUT_MILLIS", "500"));
    sqs = server.client();
    vertx = Vertx.vertx();
    db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
  }

  @AfterAll
  static void stop() throws Exception {
    if (server == null) {
      return; // a subclass stopped the server it ran instead
    }
    sqs.close();
    server.close();
    vertx.close().await(10, TimeUnit.SECONDS);
    TallyCheck.assertExact(pg.url());
    pg.close();
  }

  static Row message(String messageId) throws Exception {
    var rows = db.preparedQuery("SELECT content, receive_count, visible_at FROM sluice_messages WHERE message_id = $1")
        .execute(Tuple.of(UUID.fromString(messageId))).await(10, TimeUnit.SECONDS);
    return rows.size() == 0 ? null : rows.iterator().next();
  }

  static void eventually(BooleanSupplier condition, String what) throws Exception {
    long end = System.currentTimeMillis() + 5000;
    while (!condition.getAsBoolean()) {
      assertTrue(System.currentTimeMillis() < end, what);
      Thread.sleep(20);
    }
  }

  static boolean check(ThrowingSupplier s) {
    try {
      return s.get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  interface ThrowingSupplier {
    boolean get() throws Exception;
  }

  @Test
  void anAcknowledgedSendIsCommittedAndReceivesAndDeletesAreWrittenBehind() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("durable").tags(Map.of("team", "payments"))).queueUrl();
    String id = sqs.sendMessage(b -> b.queueUrl(url).messageBody("order 1")).messageId();
    Row row = message(id);
    assertTrue(row != null, "the acknowledged message is in PostgreSQL");
    assertEquals("order 1", MessageContent.decode(row.getBuffer(0).getBytes()).body());
    Message got = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(60)).messages().get(0);
    eventually(() -> check(() -> message(id).getInteger(1) == 1), "the receive count is written behind");
    assertTrue(message(id).getLong(2) > System.currentTimeMillis() + 50_000, "its visibility deadline too");
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.receiptHandle()));
    eventually(() -> check(() -> message(id) == null), "the delete is written behind");
    Row queue = db.query("SELECT tags FROM sluice_queues WHERE name = 'durable'").execute()
        .await(10, TimeUnit.SECONDS).iterator().next();
    assertEquals("{\"team\":\"payments\"}", queue.getString(0));
  }

  @Test
  void theWriterReportsItsBatchesInTheMetrics() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("metered")).queueUrl();
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("counted"));
    String text = MetricsIT.scrape(server);
    assertTrue(MetricsIT.value(text, "sluice_persistence_batch_size_count") >= 1, "batches written");
    assertTrue(MetricsIT.value(text, "sluice_persistence_batch_size_sum") >= 2, "the queue row and the message");
    assertTrue(MetricsIT.value(text, "sluice_persistence_flush_seconds_count") >= 1, "flush timer");
    assertTrue(MetricsIT.value(text, "sluice_persistence_failures_total") != null, "failure counter");
    assertTrue(MetricsIT.value(text, "sluice_persistence_lag_seconds") != null, "lag gauge");
    assertTrue(MetricsIT.value(text, "sluice_persistence_pending") != null, "pending gauge");
  }

  @Test
  void whilePostgresIsDownSendsFailRetryablyAndNothingIsAcknowledgedFalsely() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("outage")).queueUrl();
    eventually(() -> check(() -> db.query("SELECT count(*) FROM sluice_queues WHERE name = 'outage'").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0) == 1), "the queue row is written");
    pg.stopNow();
    try {
      long start = System.currentTimeMillis();
      SqsException e = assertThrows(SqsException.class,
          () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("during outage")));
      assertEquals(503, e.statusCode());
      assertTrue(System.currentTimeMillis() - start < 20_000, "answered, not hung");
      // Without PostgreSQL the server cannot show that it still owns its database: it serves nothing,
      // so an unacknowledged message is not receivable while it is not stored.
      assertEquals(503, assertThrows(SqsException.class, () -> sqs.receiveMessage(b -> b.queueUrl(url)))
          .statusCode(), "a receive is refused, retryably");
    } finally {
      pg.restart();
    }
    // Serving resumes once the server has taken its database lock back (it retries every second).
    HealthIT.awaitStatus(server, "/health/ready", 200);
    String id = sqs.sendMessage(b -> b.queueUrl(url).messageBody("after outage")).messageId();
    assertTrue(message(id) != null);
  }

  @Test
  void underLoadAnOutageLosesNothingAcknowledgedAndTrafficResumes() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("outage-load")).queueUrl();
    java.util.Set<String> acknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.List<Thread> producers = new java.util.ArrayList<>();
    for (int p = 0; p < 4; p++) {
      Thread t = new Thread(() -> {
        try (SqsClient client = server.clientWithoutRetries()) {
          while (!stop.get()) {
            try {
              acknowledged.add(client.sendMessage(b -> b.queueUrl(url).messageBody("load")).messageId());
            } catch (SqsException e) {
              assertEquals(503, e.statusCode(), e.getMessage());
              failed.incrementAndGet();
            }
          }
        }
      });
      t.start();
      producers.add(t);
    }
    Thread.sleep(500);
    pg.stopNow();
    Thread.sleep(1500);
    int acknowledgedDuringOutage = acknowledged.size();
    pg.restart();
    HealthIT.awaitStatus(server, "/health/ready", 200); // the lock taken back, as above
    Thread.sleep(1500);
    stop.set(true);
    for (Thread t : producers) {
      t.join(30_000);
    }
    assertTrue(failed.get() > 0, "sends failed while PostgreSQL was down");
    assertTrue(acknowledged.size() > acknowledgedDuringOutage, "traffic resumed after the outage");
    eventually(() -> check(() -> db.preparedQuery("SELECT count(*) FROM sluice_messages WHERE message_id = ANY($1)")
        .execute(Tuple.of(acknowledged.stream().map(UUID::fromString).toArray(UUID[]::new)))
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0) == acknowledged.size()),
        "every acknowledged message is in PostgreSQL");
  }
}
