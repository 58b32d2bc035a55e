package dev.sluice.it;

import static dev.sluice.it.TriggerAdminClient.queueArn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.NodePackages;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Triggers through a Node.js handler built on Powertools for AWS Lambda (TypeScript):
 * {@code src/test/node/trigger-handler}, installed with {@code npm ci} into {@code target/} from its
 * committed lock file, validates each event with the parser's {@code SqsSchema} and processes it with
 * the batch utility's {@code processPartialResponse}, behind a {@code node:http} wrapper that answers
 * as the Lambda emulator does and reports every invoke on its stdout (a failed parse distinctly).
 * It proves that Sluice's events, standard and FIFO, with String, Number and Binary attributes, pass
 * Powertools' schema; that the records Powertools reports failed come back while the rest are deleted;
 * and that a batch whose every record fails, which Powertools answers by throwing, fails as a whole
 * and comes back. A malformed event posted straight to the wrapper shows the parse check can fail.
 */
@NeedsTools({Tool.NODE, Tool.NPM})
class PowertoolsNodeHandlerIT {
  /** The handler and its wrapper, installed by {@link NodePackages}. */
  static Path dir;
  static final String TOKEN = "t0ken";
  static PackagedServer server;
  static SqsClient sqs;
  static TriggerAdminClient admin;
  static Process node;
  static String functionUrl;
  /** The wrapper's invoke reports, by the queue ARN of their first record ("none" without records). */
  static final Map<String, BlockingQueue<JsonObject>> invokes = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    dir = NodePackages.installed("trigger-handler");
    node = new ProcessBuilder(Tools.node(), "invoke-server.js").directory(dir.toFile())
        .redirectError(dir.resolve("invoke-server.log").toFile()).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    assertTrue(first != null && first.startsWith("listening "), "the wrapper started: " + first);
    functionUrl = "http://127.0.0.1:" + first.substring("listening ".length())
        + "/2015-03-31/functions/function/invocations";
    Thread reader = new Thread(() -> readReports(out), "invoke-reports");
    reader.setDaemon(true);
    reader.start();
    server = PackagedServer.start("powertools-handler-", Map.of("SLUICE_MANAGEMENT_TOKEN", TOKEN));
    sqs = server.sqs("AKID", "secret");
    admin = new TriggerAdminClient(server.endpoint, TOKEN);
  }

  static void readReports(BufferedReader out) {
    try (out) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (!line.startsWith("{")) {
          System.out.println("trigger-handler: " + line);
          continue;
        }
        JsonObject report = new JsonObject(line);
        JsonArray records = report.getJsonArray("records");
        String arn = records.isEmpty() ? "none" : records.getJsonObject(0).getString("eventSourceARN", "none");
        reports(arn).add(report);
      }
    } catch (java.io.IOException closed) {
      // the wrapper stopped
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (sqs != null) {
      sqs.close();
    }
    if (server != null) {
      server.close();
    }
    if (node != null) {
      node.destroy();
      node.waitFor(10, TimeUnit.SECONDS);
    }
  }

  static BlockingQueue<JsonObject> reports(String arn) {
    return invokes.computeIfAbsent(arn, a -> new LinkedBlockingQueue<>());
  }

  /** The next invoke from {@code queueName}; fails unless its event passed the schema. */
  static JsonObject nextInvoke(String queueName, long seconds) throws InterruptedException {
    JsonObject report = reports(queueArn(queueName)).poll(seconds, TimeUnit.SECONDS);
    assertNotNull(report, "the handler was invoked for " + queueName);
    assertTrue(!"parse_error".equals(report.getString("outcome")),
        "Powertools' SqsSchema refused the event: " + report.encode());
    return report;
  }

  static String trigger(String queueName) throws Exception {
    return admin.lambdaTrigger(queueName, functionUrl);
  }

  static String queue(String name, Map<QueueAttributeName, String> attributes) {
    return sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
  }

  /** Sends {@code bodies}, each with String, Number and Binary attributes, in one batch; answers their ids by body. */
  static Map<String, String> send(String url, String... bodies) {
    List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
    for (int i = 0; i < bodies.length; i++) {
      entries.add(SendMessageBatchRequestEntry.builder().id("m" + i).messageBody(bodies[i]).messageAttributes(Map.of(
          "color", MessageAttributeValue.builder().dataType("String").stringValue("blue").build(),
          "count", MessageAttributeValue.builder().dataType("Number.int").stringValue(Integer.toString(i)).build(),
          "blob", MessageAttributeValue.builder().dataType("Binary")
              .binaryValue(SdkBytes.fromByteArray(new byte[] {0, (byte) 0xff, (byte) i})).build())).build());
    }
    Map<String, String> ids = new HashMap<>();
    sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries)).successful()
        .forEach(s -> ids.put(bodies[Integer.parseInt(s.id().substring(1))], s.messageId()));
    assertEquals(bodies.length, ids.size());
    return ids;
  }

  /** Messages in the queue, visible or in flight. */
  static int held(String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings().values().stream()
        .mapToInt(Integer::parseInt).sum();
  }

  /** Waits until the queue holds no message, visible or in flight: a success deleted what it settled. */
  static void awaitEmpty(String url) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (held(url) > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    assertEquals(0, held(url), url + " still holds messages");
  }

  @Test
  void theRecordsPowertoolsReportsComeBackAndTheRestAreDeleted() throws Exception {
    String url = queue("powertools-partial", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2"));
    Map<String, String> ids = send(url, "ok-1", "retry-1", "ok-2");
    String uuid = trigger("powertools-partial");
    // body -> the receive counts it was handed to the handler with
    Map<String, List<String>> seen = new HashMap<>();
    List<String> reported = new ArrayList<>();
    while (seen.getOrDefault("retry-1", List.of()).size() < 2) {
      JsonObject report = nextInvoke("powertools-partial", 10);
      assertEquals("ok", report.getString("outcome"), report.encode());
      report.getJsonArray("records").forEach(r -> seen.computeIfAbsent(((JsonObject) r).getString("body"),
          k -> new ArrayList<>()).add(((JsonObject) r).getString("receiveCount")));
      report.getJsonObject("answer").getJsonArray("batchItemFailures")
          .forEach(f -> reported.add(((JsonObject) f).getString("itemIdentifier")));
    }
    assertEquals(List.of(ids.get("retry-1")), reported, "Powertools named the failed record once");
    assertEquals(Map.of("ok-1", List.of("1"), "ok-2", List.of("1"), "retry-1", List.of("1", "2")), seen,
        "the reported record came back, the rest did not");
    awaitEmpty(url);
    admin.delete(uuid);
  }

  @Test
  void aBatchWhoseEveryRecordFailsFailsAsAWholeAndComesBack() throws Exception {
    String url = queue("powertools-all-fail", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2"));
    send(url, "fail-a", "fail-b");
    String uuid = trigger("powertools-all-fail");
    JsonObject first = nextInvoke("powertools-all-fail", 10);
    assertEquals("error", first.getString("outcome"), first.encode());
    assertEquals("FullBatchFailureError", first.getJsonObject("answer").getString("errorType"));
    assertTrue(first.getJsonObject("answer").getString("errorMessage").startsWith("All records failed processing"));
    JsonObject again = nextInvoke("powertools-all-fail", 10);
    again.getJsonArray("records").forEach(r -> assertEquals("2", ((JsonObject) r).getString("receiveCount"),
        "the whole batch came back after its visibility timeout: " + again.encode()));
    JsonObject status = admin.get(uuid);
    assertEquals("function_error", status.getJsonObject("LastError").getString("Kind"), status.encode());
    admin.delete(uuid);
    assertEquals(2, held(url));
  }

  @Test
  void aFifoEventPassesTheSchemaAndASuccessDeletesIt() throws Exception {
    String url = queue("powertools-fifo.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("in order").messageGroupId("g").messageDeduplicationId("d"));
    String uuid = trigger("powertools-fifo.fifo");
    JsonObject report = nextInvoke("powertools-fifo.fifo", 10);
    assertEquals("ok", report.getString("outcome"), report.encode());
    assertEquals(new JsonArray(), report.getJsonObject("answer").getJsonArray("batchItemFailures"));
    awaitEmpty(url);
    admin.delete(uuid);
  }

  @Test
  void aMalformedEventIsReportedAsAParseFailure() throws Exception {
    // The control: without it, "no parse_error" could mean a wrapper that never parses.
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(functionUrl))
        .POST(HttpRequest.BodyPublishers.ofString("{\"Records\":[{\"messageId\":\"m\",\"eventSource\":\"aws:sqs\"}]}"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), "a function error is a 200, as the emulator answers it");
    assertEquals("EventParseError", new JsonObject(r.body()).getString("errorType"), r.body());
    JsonObject report = reports("none").poll(5, TimeUnit.SECONDS);
    assertNotNull(report);
    assertEquals("parse_error", report.getString("outcome"));
  }
}
