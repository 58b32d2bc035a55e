package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The transactional outbox end to end: an application's transactions on its own PostgreSQL, a
 * Sluice relaying its outbox table (made by createTable), and an SQS client receiving. A rolled-back
 * row is never delivered, a committed one exactly once with everything it said; a FIFO group keeps
 * its order across batches; a poisoned row goes to the dead-row table and the rows behind it flow;
 * a NOTIFY wakes the relay long before its poll interval (10 s here).
 */
@NeedsTools(Tool.POSTGRESQL)
class OutboxRelayIT {
  static final String INSERT = "INSERT INTO sluice_outbox (queue_name, body, message_attributes, message_group_id,"
      + " message_deduplication_id) VALUES ($1, $2, $3::jsonb, $4, $5)";
  static ThrowawayPostgres pg;
  static TestServer server;
  static SqsClient sqs;
  static Vertx vertx;
  /** The application's own connections to its database. */
  static Pool app;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    Map<String, String> env = new HashMap<>();
    env.put("SLUICE_QUEUES", "[{name: orders}, {name: jobs.fifo, attributes: {FifoQueue: true}},"
        + " {name: small, attributes: {MaximumMessageSize: 1024}}, {name: behind}, {name: wake}]");
    env.put("SLUICE_OUTBOX_SOURCES", new JsonArray().add(new JsonObject().put("name", "app")
        .put("url", "postgresql://127.0.0.1:" + pg.port() + "/postgres").put("user", "postgres")
        .put("password", "${env:APP_DB_PASSWORD}").put("createTable", true).put("batchSize", 3)
        .put("pollIntervalMillis", 10_000)).encode());
    env.put("APP_DB_PASSWORD", "unused-with-trust");
    server = TestServer.start(env);
    sqs = server.client();
    vertx = Vertx.vertx();
    app = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    long end = System.currentTimeMillis() + 15_000;
    while (query("SELECT to_regclass('sluice_outbox_dead') IS NOT NULL").iterator().next().getBoolean(0) == false) {
      assertTrue(System.currentTimeMillis() < end, "the relay made the outbox tables (createTable)");
      Thread.sleep(50);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (sqs != null) {
      sqs.close();
      server.close();
      vertx.close().await(10, TimeUnit.SECONDS);
    }
    if (pg != null) {
      pg.close();
    }
  }

  static RowSet<Row> query(String sql, Object... args) throws Exception {
    return app.preparedQuery(sql).execute(Tuple.wrap(args)).await(10, TimeUnit.SECONDS);
  }

  /** Inserts {@code rows} (each the INSERT's five arguments) in one transaction, committed or rolled back. */
  static void transaction(boolean commit, List<Object[]> rows) throws Exception {
    app.withConnection(conn -> conn.begin().compose(tx -> {
      io.vertx.core.Future<?> chain = io.vertx.core.Future.succeededFuture();
      for (Object[] r : rows) {
        chain = chain.compose(v -> conn.preparedQuery(INSERT).execute(Tuple.wrap(r)));
      }
      return chain.compose(v -> commit ? tx.commit() : tx.rollback());
    })).await(10, TimeUnit.SECONDS);
  }

  static String deadRows() {
    try {
      List<String> out = new ArrayList<>();
      query("SELECT * FROM sluice_outbox_dead").forEach(r -> out.add(r.toJson().encode()));
      return out.toString();
    } catch (Exception e) {
      return e.toString();
    }
  }

  static String url(String queue) {
    return sqs.getQueueUrl(b -> b.queueName(queue)).queueUrl();
  }

  static List<Message> receive(String queue, int waitSeconds) {
    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url(queue)).maxNumberOfMessages(10)
        .waitTimeSeconds(waitSeconds).messageAttributeNames("All")
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
    for (Message m : got) {
      sqs.deleteMessage(b -> b.queueUrl(url(queue)).receiptHandle(m.receiptHandle()));
    }
    return got;
  }

  @Test
  void aRolledBackRowIsNeverDeliveredACommittedOneOnceWithAllItSaid() throws Exception {
    transaction(false, List.<Object[]>of(new Object[] {"orders", "rolled back", null, null, null}));
    // A JsonObject: vertx-pg-client sends a String given for jsonb as a JSON string, not as the object it spells.
    JsonObject attributes = new JsonObject().put("tenant", new JsonObject().put("DataType", "String")
        .put("StringValue", "acme")).put("raw", new JsonObject().put("DataType", "Binary").put("BinaryValue", "AAEC"));
    transaction(true, List.<Object[]>of(new Object[] {"orders", "order 1 created", attributes, null, null}));
    List<Message> got = receive("orders", 5);
    assertEquals(1, got.size(), () -> "dead rows: " + deadRows());
    assertEquals("order 1 created", got.get(0).body());
    assertEquals("acme", got.get(0).messageAttributes().get("tenant").stringValue());
    assertEquals(SdkBytes.fromByteArray(new byte[] {0, 1, 2}), got.get(0).messageAttributes().get("raw").binaryValue());
    assertEquals(List.of(), receive("orders", 2), "delivered once, the rolled-back row never");
    assertEquals(0L, query("SELECT count(*) FROM sluice_outbox WHERE queue_name = 'orders'").iterator().next()
        .getLong(0));
  }

  @Test
  void aFifoGroupKeepsItsOrderAcrossBatches() throws Exception {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String group = i % 2 == 0 ? "even" : "odd";
      rows.add(new Object[] {"jobs.fifo", group + " " + i, null, group, "d" + i});
    }
    transaction(true, rows);
    Map<String, List<Integer>> seen = new HashMap<>();
    long end = System.currentTimeMillis() + 20_000;
    int total = 0;
    while (total < 20 && System.currentTimeMillis() < end) {
      for (Message m : receive("jobs.fifo", 2)) {
        String group = m.attributesAsStrings().get("MessageGroupId");
        assertEquals("d" + m.body().split(" ")[1], m.attributesAsStrings().get("MessageDeduplicationId"));
        seen.computeIfAbsent(group, g -> new ArrayList<>()).add(Integer.parseInt(m.body().split(" ")[1]));
        total++;
      }
    }
    assertEquals(List.of(0, 2, 4, 6, 8, 10, 12, 14, 16, 18), seen.get("even"));
    assertEquals(List.of(1, 3, 5, 7, 9, 11, 13, 15, 17, 19), seen.get("odd"));
  }

  @Test
  void aPoisonedRowGoesToTheDeadTableAndTheRowsBehindItFlow() throws Exception {
    transaction(true, List.of(
        new Object[] {"no-such-queue", "lost", null, null, null},
        new Object[] {"small", "x".repeat(2000), null, null, null},
        new Object[] {"behind", "bad attributes", new JsonArray().add(1).add(2), null, null},
        new Object[] {"behind", "after the poison", null, null, null}));
    List<Message> got = receive("behind", 5);
    assertEquals(List.of("after the poison"), got.stream().map(Message::body).toList());
    long end = System.currentTimeMillis() + 5_000;
    while (query("SELECT count(*) FROM sluice_outbox_dead").iterator().next().getLong(0) < 3) {
      assertTrue(System.currentTimeMillis() < end, "three dead rows");
      Thread.sleep(50);
    }
    Map<String, Row> dead = new HashMap<>();
    for (Row r : query("SELECT queue_name, body, error_code, error_message, failed_at FROM sluice_outbox_dead")) {
      dead.put(r.getString("queue_name"), r);
    }
    assertEquals("AWS.SimpleQueueService.NonExistentQueue", dead.get("no-such-queue").getString("error_code"));
    assertEquals("InvalidParameterValue", dead.get("small").getString("error_code"));
    assertTrue(dead.get("small").getString("error_message").contains("1024"), dead.get("small").toJson().encode());
    assertEquals("bad attributes", dead.get("behind").getString("body"));
    assertTrue(dead.get("behind").getString("error_message").contains("message_attributes"),
        dead.get("behind").toJson().encode());
    assertFalse(dead.get("behind").getValue("failed_at") == null);
    assertEquals(List.of(), receive("small", 1));
    assertEquals(0L, query("SELECT count(*) FROM sluice_outbox").iterator().next().getLong(0));
  }

  @Test
  void aNotifyWakesTheRelayLongBeforeItsPoll() throws Exception {
    long before = System.nanoTime();
    transaction(true, List.<Object[]>of(new Object[] {"wake", "now", null, null, null}));
    List<Message> got = receive("wake", 8);
    long millis = (System.nanoTime() - before) / 1_000_000;
    assertEquals(List.of("now"), got.stream().map(Message::body).toList());
    assertTrue(millis < 3_000, "delivered " + millis + " ms after the commit; the poll interval is 10 s");
    RawHttp.Response r = ConsoleHttp.get(server.sluice.port(), "/console/api/outbox/sources", ConsoleHttp.CONSOLE);
    assertEquals(200, r.status(), r.body());
    JsonObject source = new JsonObject(r.body()).getJsonArray("sources").getJsonObject(0);
    assertEquals("app", source.getString("name"));
    assertEquals("relaying", source.getString("state"));
    assertEquals("sluice_outbox", source.getString("table"));
    assertEquals(pg.port(), source.getInteger("port"));
    assertTrue(source.getJsonObject("wakeups").getLong("notify") > 0, source.encode());
    assertFalse(source.containsKey("user") || source.containsKey("password"), source.encode());
    assertFalse(r.body().contains("unused-with-trust"), r.body());
  }
}
