package dev.sluice.it;

import static dev.sluice.it.TriggerAdminClient.queueArn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Triggers with PostgreSQL, the packaged jar as a child process on a PostgreSQL of the test's own:
 * a restart keeps every trigger with its settings, state and origin, and its pollers start again;
 * a trigger deleted stays deleted; and {@code kill -9} while a batch is being invoked loses nothing
 * acknowledged: after the restart every sent message reaches the target, the batch that was in
 * flight among them, and the queue ends empty.
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class TriggerDurableIT {
  static final String TOKEN = "t0ken";
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static HttpServer target;
  static int targetPort;
  /** Bodies the target answered with success, and the bodies of the one request it held open. */
  static final Set<String> delivered = ConcurrentHashMap.newKeySet();
  static final Set<String> held = ConcurrentHashMap.newKeySet();
  static final AtomicBoolean holdNext = new AtomicBoolean();

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    target = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      JsonArray records = new JsonObject(body.toString()).getJsonArray("Records");
      List<String> bodies = records.stream().map(r -> ((JsonObject) r).getString("body")).toList();
      if (holdNext.compareAndSet(true, false)) {
        held.addAll(bodies); // never answered: the server is killed meanwhile
        return;
      }
      delivered.addAll(bodies);
      req.response().setStatusCode(204).end();
    })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    targetPort = target.actualPort();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    pg.close();
  }

  static Process server(int port, Path log) throws Exception {
    return server(port, log, Map.of());
  }

  static Process server(int port, Path log, Map<String, String> more) throws Exception {
    Process p = start(port, log, more);
    QuickstartIT.awaitPort(port, p);
    return p;
  }

  static Process start(int port, Path log, Map<String, String> more) throws Exception {
    Map<String, String> env = new java.util.HashMap<>(more);
    // A short database lease: a restart after kill -9 waits out one lease before it serves.
    env.putAll(Map.of("SLUICE_HTTP_PORT", Integer.toString(port), "SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", pg.url(), "SLUICE_PG_LEASE_MILLIS", "2000", "SLUICE_DURABILITY", "commit",
        "SLUICE_MANAGEMENT_TOKEN", TOKEN));
    return ServerJar.logging(log, env).start();
  }

  static void stopGracefully(Process p) throws Exception {
    p.destroy();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stopped");
  }

  static SqsClient sqs(int port) {
    return TopicDurableIT.sqs(port);
  }

  static TriggerAdminClient admin(int port) {
    return new TriggerAdminClient(URI.create("http://127.0.0.1:" + port), TOKEN);
  }

  @Test
  void aRestartKeepsTriggersAndADeleteStays() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("trigger-durable-");
    Process first = server(port, log);
    JsonObject kept;
    String deleted;
    try (SqsClient sqs = sqs(port)) {
      sqs.createQueue(b -> b.queueName("kept"));
      TriggerAdminClient admin = admin(port);
      kept = admin.create(new JsonObject().put("EventSourceArn", queueArn("kept"))
          .put("FunctionName", "http://127.0.0.1:" + targetPort + "/kept").put("BatchSize", 3)
          .put("FunctionResponseTypes", new JsonArray().add("ReportBatchItemFailures"))
          .put("ScalingConfig", new JsonObject().put("MaximumConcurrency", 2))
          .put("FilterCriteria", new JsonObject().put("Filters", new JsonArray()
              .add(new JsonObject().put("Pattern", "{\"body\": [{\"prefix\": \"keep\"}]}"))))
          .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 10)
              .put("Headers", new JsonObject().put("Authorization", "Bearer abc"))));
      deleted = admin.create(new JsonObject().put("EventSourceArn", queueArn("kept")).put("Enabled", false)
          .put("FunctionName", "http://127.0.0.1:" + targetPort + "/deleted")).getString("UUID");
      assertEquals(202, admin.delete(deleted).status());
    }
    stopGracefully(first);
    Process second = server(port, log);
    try (SqsClient sqs = sqs(port)) {
      TriggerAdminClient admin = admin(port);
      JsonObject after = admin.get(kept.getString("UUID"));
      for (String key : List.of("BatchSize", "EventSourceArn", "FilterCriteria", "FunctionArn", "LastModified",
          "FunctionResponseTypes", "ScalingConfig", "EventSourceMappingArn", "TargetConfig", "Origin")) {
        assertEquals(kept.getValue(key), after.getValue(key), key);
      }
      assertEquals("Enabled", after.getString("State"));
      assertEquals(404, admin.call("GET", TriggerAdminClient.MAPPINGS + deleted, null).status(), "a delete stays");
      String url = sqs.getQueueUrl(b -> b.queueName("kept")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("keep-after-restart"));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("drop-after-restart"));
      long until = System.currentTimeMillis() + 10_000;
      while (!delivered.contains("keep-after-restart") && System.currentTimeMillis() < until) {
        Thread.sleep(50);
      }
      assertTrue(delivered.contains("keep-after-restart"), "the recovered trigger runs");
      assertFalse(delivered.contains("drop-after-restart"), "with its filter");
    } finally {
      stopGracefully(second);
    }
  }

  @Test
  void theConfigurationKeepsItsTriggersAndLeavesTheApisAlone() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("trigger-config-");
    String queues = "[{\"name\": \"conf-a\"}, {\"name\": \"conf-b\"}]";
    String target = "http://127.0.0.1:" + targetPort;
    Process first = server(port, log, Map.of("SLUICE_QUEUES", queues, "SLUICE_TRIGGERS",
        "[{\"QueueName\": \"conf-a\", \"FunctionName\": \"" + target + "/x\", \"BatchSize\": 3,"
            + " \"Enabled\": false}, {\"QueueName\": \"conf-b\", \"FunctionName\": \"" + target + "/y\","
            + " \"Enabled\": false}]"));
    Map<String, JsonObject> before;
    try {
      TriggerAdminClient admin = admin(port);
      admin.create(new JsonObject().put("EventSourceArn", queueArn("conf-a")).put("FunctionName", target + "/z")
          .put("Enabled", false));
      before = byUrl(admin);
      assertEquals("config:triggers[0]", before.get(target + "/x").getString("Origin"));
      assertEquals("config:triggers[1]", before.get(target + "/y").getString("Origin"));
      assertEquals("api", before.get(target + "/z").getString("Origin"));
    } finally {
      stopGracefully(first);
    }
    Process second = server(port, log, Map.of("SLUICE_QUEUES", queues, "SLUICE_TRIGGERS",
        "[{\"QueueName\": \"conf-a\", \"FunctionName\": \"" + target + "/x\", \"BatchSize\": 5,"
            + " \"Enabled\": false}, {\"QueueName\": \"conf-a\", \"FunctionName\": \"" + target + "/z\","
            + " \"BatchSize\": 7}]"));
    try {
      Map<String, JsonObject> after = byUrl(admin(port));
      assertEquals(before.get(target + "/x").getString("UUID"), after.get(target + "/x").getString("UUID"));
      assertEquals(5, after.get(target + "/x").getInteger("BatchSize"), "changed to its entry");
      assertEquals(false, after.containsKey(target + "/y"), "no entry names it any more: deleted");
      assertEquals(10, after.get(target + "/z").getInteger("BatchSize"), "made through the API: left alone");
      assertEquals("Disabled", after.get(target + "/z").getString("State"));
    } finally {
      stopGracefully(second);
    }
    Process refused = start(port, log, Map.of("SLUICE_TRIGGERS", "[{\"QueueName\": \"conf-missing\","
        + " \"FunctionName\": \"" + target + "/x\"}]"));
    assertTrue(refused.waitFor(30, TimeUnit.SECONDS), "a bad entry stops the start");
    assertTrue(refused.exitValue() != 0);
    String text = Files.readString(log);
    assertTrue(text.contains("Invalid value for configuration key 'triggers[0]' (trigger conf-missing → " + target
        + "/x): InvalidParameterValueException: The queue " + queueArn("conf-missing") + " does not exist."), text);
  }

  static Map<String, JsonObject> byUrl(TriggerAdminClient admin) throws Exception {
    Map<String, JsonObject> out = new java.util.HashMap<>();
    admin.call("GET", TriggerAdminClient.MAPPINGS, null).json().getJsonArray("EventSourceMappings")
        .forEach(o -> out.put(((JsonObject) o).getString("FunctionArn"), (JsonObject) o));
    return out;
  }

  @Test
  void killMinusNineMidInvokeLosesNothingAcknowledged() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("trigger-crash-");
    Process first = server(port, log);
    Set<String> sent = new HashSet<>();
    try (SqsClient sqs = sqs(port)) {
      String url = sqs.createQueue(b -> b.queueName("crash")
          .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "4"))).queueUrl();
      holdNext.set(true);
      admin(port).create(new JsonObject().put("EventSourceArn", queueArn("crash"))
          .put("FunctionName", "http://127.0.0.1:" + targetPort + "/crash")
          .put("ScalingConfig", new JsonObject().put("MaximumConcurrency", 2))
          .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 4)));
      for (int batch = 0; batch < 20; batch++) {
        int b0 = batch;
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 10).mapToObj(n ->
            SendMessageBatchRequestEntry.builder().id("e" + n).messageBody("crash-" + b0 + "-" + n).build()).toList()));
        IntStream.range(0, 10).forEach(n -> sent.add("crash-" + b0 + "-" + n));
      }
      long until = System.currentTimeMillis() + 10_000;
      while ((held.isEmpty() || delivered.size() < 20) && System.currentTimeMillis() < until) {
        Thread.sleep(20);
      }
      assertFalse(held.isEmpty(), "a batch is being invoked");
    }
    first.destroyForcibly(); // SIGKILL, mid-invoke
    first.waitFor(10, TimeUnit.SECONDS);
    Set<String> heldBeforeRestart = Set.copyOf(held);
    Process second = server(port, log);
    try (SqsClient sqs = sqs(port)) {
      String url = sqs.getQueueUrl(b -> b.queueName("crash")).queueUrl();
      long until = System.currentTimeMillis() + 30_000;
      while (!delivered.containsAll(sent) && System.currentTimeMillis() < until) {
        Thread.sleep(50);
      }
      Set<String> missing = new HashSet<>(sent);
      missing.removeAll(delivered);
      assertEquals(Set.of(), missing, "every acknowledged message reached the target");
      assertTrue(delivered.containsAll(heldBeforeRestart), "the batch in flight at the kill came again");
      TriggerDeliveryIT.awaitEmpty(sqs, url, 15);
    } finally {
      stopGracefully(second);
    }
  }
}
