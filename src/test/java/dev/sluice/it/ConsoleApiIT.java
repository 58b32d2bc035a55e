package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.LogCapture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/**
 * The web console's surface and SQS passthrough through a real server (design/console.md §2.3,
 * §2.6): the guard's five checks in order, the exact security headers on every /console answer,
 * the redirect, a console turned off, the media type of bodies, and SQS actions run through
 * {@code /console/api/sqs/<region>} as the operator, seen by the AWS SDK as any other call's.
 */
class ConsoleApiIT {
  static final String TOKEN = "console-t0ken";
  static final Map<String, String> SECURITY_HEADERS = orderedHeaders();

  /** Loopback, no token: the local default. */
  static TestServer open;
  /** With credentials and a management token. */
  static TestServer guarded;
  static int port;

  @BeforeAll
  static void start() {
    open = TestServer.start();
    port = open.sluice.port();
    guarded = TestServer.start(Map.of("SLUICE_CREDENTIALS", "AKIDCONSOLE:s3cret", "SLUICE_MANAGEMENT_TOKEN", TOKEN));
  }

  @AfterAll
  static void stop() throws Exception {
    open.close();
    guarded.close();
  }

  private static Map<String, String> orderedHeaders() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
        + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    m.put("X-Frame-Options", "DENY");
    m.put("X-Content-Type-Options", "nosniff");
    m.put("Referrer-Policy", "no-referrer");
    m.put("Cross-Origin-Opener-Policy", "same-origin");
    m.put("Cross-Origin-Resource-Policy", "same-origin");
    return m;
  }

  /** Each security header once, with exactly its value. */
  static void assertSecurityHeaders(RawHttp.Response r, String what) {
    for (Map.Entry<String, String> h : SECURITY_HEADERS.entrySet()) {
      List<String> lines = new ArrayList<>();
      for (String line : r.head().split("\r\n")) {
        if (line.regionMatches(true, 0, h.getKey() + ":", 0, h.getKey().length() + 1)) {
          lines.add(line);
        }
      }
      assertEquals(List.of(h.getKey() + ": " + h.getValue()), lines, what + ": " + r.head());
    }
  }

  static JsonObject json(RawHttp.Response r) {
    return new JsonObject(r.body());
  }

  static void assertError(RawHttp.Response r, int status, String type) {
    assertEquals(status, r.status(), r.head() + r.body());
    assertEquals(type, json(r).getString("__type"), r.body());
    assertNotNull(json(r).getString("message"), r.body());
  }

  // --- the guard, in its order ---

  @Test
  void withoutTheConsoleHeaderTheApiRefuses() throws Exception {
    assertError(ConsoleHttp.get(port, "/console/api/status"), 403, "Forbidden");
    assertError(ConsoleHttp.get(port, "/console/api/status", "X-Sluice-Console: true"), 403, "Forbidden");
    assertEquals(200, ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE).status());
  }

  @Test
  void aPageOfAnotherOriginIsRefused() throws Exception {
    assertError(ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Origin: https://evil.example"),
        403, "Forbidden");
    assertError(ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Origin: null"), 403, "Forbidden");
    assertError(ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Origin: https://127.0.0.1:" + port),
        403, "Forbidden");
    assertEquals(200, ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE,
        "Origin: http://127.0.0.1:" + port).status(), "its own origin");
  }

  @Test
  void aCrossSiteFetchIsRefused() throws Exception {
    assertError(ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Sec-Fetch-Site: cross-site"),
        403, "Forbidden");
    assertError(ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Sec-Fetch-Site: same-site"),
        403, "Forbidden");
    assertEquals(200, ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE,
        "Sec-Fetch-Site: same-origin").status());
    assertEquals(200, ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Sec-Fetch-Site: none")
        .status());
  }

  @Test
  void withATokenOnlyTheBearerHeaderCarryingItPasses() throws Exception {
    int g = guarded.sluice.port();
    RawHttp.Response missing = ConsoleHttp.get(g, "/console/api/status", ConsoleHttp.CONSOLE);
    assertError(missing, 401, "MissingToken");
    assertEquals("Bearer realm=\"sluice\"", missing.header("WWW-Authenticate"));
    RawHttp.Response wrong = ConsoleHttp.get(g, "/console/api/status", ConsoleHttp.CONSOLE,
        "Authorization: Bearer not-" + TOKEN);
    assertError(wrong, 401, "InvalidToken");
    assertEquals("Bearer realm=\"sluice\"", wrong.header("WWW-Authenticate"));
    assertError(ConsoleHttp.get(g, "/console/api/status?token=" + TOKEN, ConsoleHttp.CONSOLE), 401, "MissingToken");
    RawHttp.Response right = ConsoleHttp.get(g, "/console/api/status", ConsoleHttp.CONSOLE,
        "Authorization: Bearer " + TOKEN);
    assertEquals(200, right.status(), right.body());
    assertTrue(json(right).getBoolean("tokenRequired"));
    assertEquals(200, ConsoleHttp.get(g, "/console/api/status", ConsoleHttp.CONSOLE,
        "Authorization: Bearer " + TOKEN, "Host: sqs.evil.example").status(), "the token, not the Host, decides");
  }

  @Test
  void theTokenAdministersTheDefaultAccountsQueuesWhereCredentialsGuardTheApi() throws Exception {
    int g = guarded.sluice.port();
    String create = "{\"QueueName\":\"operated\"}";
    assertError(ConsoleHttp.sqs(g, "us-east-1", "CreateQueue", create), 401, "MissingToken");
    RawHttp.Response made = ConsoleHttp.sqs(g, "us-east-1", "CreateQueue", create, "Authorization: Bearer " + TOKEN);
    assertEquals(200, made.status(), made.body());
    try (SqsClient sqs = guarded.client("AKIDCONSOLE", "s3cret")) {
      assertEquals(List.of(guarded.queueUrl("operated")),
          sqs.listQueues(b -> b.queueNamePrefix("operated")).queueUrls(), "the default account's queue");
    }
  }

  @Test
  void withoutATokenAForeignHostIsRefused() throws Exception {
    assertError(ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Host: rebound.evil.example:" + port),
        403, "Forbidden");
    assertError(ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Host: rebound.evil.example"),
        403, "Forbidden");
    assertError(ConsoleHttp.sqs(port, "us-east-1", "CreateQueue", "{\"QueueName\":\"rebound\"}",
        "Host: rebound.evil.example:" + port), 403, "Forbidden");
    assertEquals(200, ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE, "Host: localhost:" + port)
        .status());
    try (SqsClient sqs = open.client()) {
      assertTrue(sqs.listQueues(b -> b.queueNamePrefix("rebound")).queueUrls().isEmpty(), "nothing was created");
    }
  }

  // --- headers, pages, routes ---

  @Test
  void everyConsoleAnswerCarriesTheSecurityHeaders() throws Exception {
    RawHttp.Response redirect = ConsoleHttp.get(port, "/console");
    assertEquals(301, redirect.status());
    assertEquals("/console/", redirect.header("Location"));
    assertSecurityHeaders(redirect, "the redirect");
    RawHttp.Response page = ConsoleHttp.get(port, "/console/");
    assertNotEquals(301, page.status(), "/console/ is the page, not redirected again");
    assertSecurityHeaders(page, "the page");
    RawHttp.Response asset = ConsoleHttp.get(port, "/console/no-such-asset.js");
    assertEquals(404, asset.status());
    assertSecurityHeaders(asset, "a missing asset");
    assertEquals("no-cache", asset.header("Cache-Control"), "pages are revalidated");
    RawHttp.Response status = ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE);
    assertSecurityHeaders(status, "an API answer");
    assertEquals("no-store", status.header("Cache-Control"));
    RawHttp.Response refused = ConsoleHttp.get(port, "/console/api/status");
    assertSecurityHeaders(refused, "a refusal");
    assertEquals("no-store", refused.header("Cache-Control"));
    RawHttp.Response unknown = ConsoleHttp.get(port, "/console/api/nothing-here", ConsoleHttp.CONSOLE);
    assertError(unknown, 404, "NotFound");
    assertSecurityHeaders(unknown, "an unknown API route");
    assertNull(ConsoleHttp.get(port, "/health/live").header("Content-Security-Policy"), "only /console answers");
  }

  @Test
  void noAccessControlHeaderIsEverSent() throws Exception {
    RawHttp.Response preflight = ConsoleHttp.send(port, "OPTIONS", "/console/api/status", null,
        "Origin: https://evil.example", "Access-Control-Request-Method: POST",
        "Access-Control-Request-Headers: x-sluice-console");
    assertTrue(preflight.status() >= 400, preflight.head());
    assertTrue(!preflight.head().toLowerCase().contains("access-control-allow"), preflight.head());
  }

  @Test
  void aConsoleTurnedOffAnswers404Everywhere() throws Exception {
    try (TestServer off = TestServer.start(Map.of("SLUICE_CONSOLE_ENABLED", "false"))) {
      int p = off.sluice.port();
      for (String path : List.of("/console", "/console/", "/console/index.html", "/console/api/status")) {
        RawHttp.Response r = ConsoleHttp.get(p, path, ConsoleHttp.CONSOLE);
        assertError(r, 404, "NotFound");
        assertTrue(json(r).getString("message").contains("console disabled"), r.body());
      }
      RawHttp.Response sqs = ConsoleHttp.sqs(p, "us-east-1", "CreateQueue", "{\"QueueName\":\"off\"}");
      assertError(sqs, 404, "NotFound");
      try (SqsClient client = off.client()) {
        assertTrue(client.listQueues().queueUrls().isEmpty());
      }
    }
  }

  @Test
  void bodiesOtherThanJsonAreRefusedUnread() throws Exception {
    RawHttp.Response form = ConsoleHttp.send(port, "POST", "/console/api/sqs/us-east-1", "Action=ListQueues",
        ConsoleHttp.CONSOLE, "Content-Type: application/x-www-form-urlencoded", "X-Amz-Target: AmazonSQS.ListQueues");
    assertError(form, 415, "UnsupportedMediaType");
    assertError(ConsoleHttp.send(port, "POST", "/console/api/sqs/us-east-1", "{}", ConsoleHttp.CONSOLE,
        "X-Amz-Target: AmazonSQS.ListQueues"), 415, "UnsupportedMediaType");
    RawHttp.Response plainJson = ConsoleHttp.send(port, "POST", "/console/api/sqs/us-east-1", "{}",
        ConsoleHttp.CONSOLE, "Content-Type: application/json; charset=utf-8", "X-Amz-Target: AmazonSQS.ListQueues");
    assertEquals(200, plainJson.status(), plainJson.body());
  }

  // --- status ---

  @Test
  void statusDescribesTheServerAndTheConsolesSettings() throws Exception {
    long before = System.currentTimeMillis();
    RawHttp.Response r = ConsoleHttp.get(port, "/console/api/status", ConsoleHttp.CONSOLE);
    assertEquals(200, r.status(), r.body());
    assertTrue(r.header("Content-Type").startsWith("application/json"), r.head());
    JsonObject s = json(r);
    assertNotNull(s.getString("version"));
    assertEquals(true, s.getBoolean("ready"));
    assertTrue(s.containsKey("reason") && s.getValue("reason") == null, s.encode());
    assertEquals("memory", s.getString("mode"));
    assertEquals("000000000000", s.getString("accountId"));
    assertEquals("us-east-1", s.getString("region"));
    assertEquals(false, s.getBoolean("tokenRequired"));
    assertEquals(5000, s.getInteger("sampleMillis"));
    assertEquals(120, s.getInteger("fineSlots"));
    assertEquals(60, s.getInteger("coarseSlots"));
    assertEquals(60000, s.getInteger("coarseMillis"));
    assertEquals(2000, s.getInteger("historySeries"));
    assertEquals(32, s.getInteger("maxStreams"));
    assertEquals(0, s.getInteger("streams"), s.encode());
    assertTrue(s.getLong("historyBytes") >= 0 && s.getInteger("series") >= 0, s.encode());
    assertTrue(s.getLong("time") >= before && s.getLong("time") <= System.currentTimeMillis(), s.encode());
    try (TestServer tuned = TestServer.start(Map.of("SLUICE_CONSOLE_SAMPLE_MILLIS", "1000",
        "SLUICE_CONSOLE_HISTORY_SERIES", "7", "SLUICE_CONSOLE_MAX_STREAMS", "3", "SLUICE_SQS_ACCOUNT_ID", "123456789012",
        "SLUICE_SQS_REGION", "eu-west-1", "SLUICE_SQS_REGIONS", "eu-west-1"))) {
      JsonObject t = json(ConsoleHttp.get(tuned.sluice.port(), "/console/api/status", ConsoleHttp.CONSOLE));
      assertEquals(1000, t.getInteger("sampleMillis"));
      assertEquals(7, t.getInteger("historySeries"));
      assertEquals(3, t.getInteger("maxStreams"));
      assertEquals("123456789012", t.getString("accountId"));
      assertEquals("eu-west-1", t.getString("region"));
      assertError(ConsoleHttp.sqs(tuned.sluice.port(), "us-east-1", "ListQueues", "{}"), 400, "InvalidParameterValue");
      assertEquals(200, ConsoleHttp.sqs(tuned.sluice.port(), "eu-west-1", "ListQueues", "{}").status(),
          "the passthrough serves the regions sqs.regions lists, and no other");
    }
  }

  // --- the SQS passthrough ---

  static JsonObject sqsOk(String region, String action, JsonObject request) throws Exception {
    RawHttp.Response r = ConsoleHttp.sqs(port, region, action, request.encode());
    assertEquals(200, r.status(), action + ": " + r.body());
    assertEquals("application/x-amz-json-1.0", r.header("Content-Type"));
    assertSecurityHeaders(r, action);
    assertEquals("no-store", r.header("Cache-Control"));
    return r.body().isEmpty() ? new JsonObject() : json(r);
  }

  @Test
  void messagesSentThroughTheConsoleAreReceivedByTheSdkAndBack() throws Exception {
    String url = sqsOk("us-east-1", "CreateQueue", new JsonObject().put("QueueName", "console-orders"))
        .getString("QueueUrl");
    assertEquals(open.queueUrl("console-orders"), url);
    JsonObject sent = sqsOk("us-east-1", "SendMessage", new JsonObject().put("QueueUrl", url)
        .put("MessageBody", "from the console: é ✓"));
    try (SqsClient sqs = open.client()) {
      List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5)).messages();
      assertEquals(1, got.size());
      assertEquals("from the console: é ✓", got.get(0).body());
      assertEquals(sent.getString("MessageId"), got.get(0).messageId());
      assertEquals(sent.getString("MD5OfMessageBody"), got.get(0).md5OfBody());
      sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));

      SendMessageResponse bySdk = sqs.sendMessage(b -> b.queueUrl(url).messageBody("from the SDK"));
      JsonArray received = sqsOk("us-east-1", "ReceiveMessage", new JsonObject().put("QueueUrl", url)
          .put("WaitTimeSeconds", 5)).getJsonArray("Messages");
      assertEquals(1, received.size());
      JsonObject m = received.getJsonObject(0);
      assertEquals("from the SDK", m.getString("Body"));
      assertEquals(bySdk.messageId(), m.getString("MessageId"));
      assertEquals(bySdk.md5OfMessageBody(), m.getString("MD5OfBody"));
      assertEquals("1", sqs.getQueueAttributes(b -> b.queueUrl(url)
          .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes()
          .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE), "received, in flight");
      sqsOk("us-east-1", "DeleteMessage", new JsonObject().put("QueueUrl", url)
          .put("ReceiptHandle", m.getString("ReceiptHandle")));
      Map<QueueAttributeName, String> after = sqs.getQueueAttributes(b -> b.queueUrl(url)
          .attributeNames(QueueAttributeName.ALL)).attributes();
      assertEquals("0", after.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE), "deleted");
      assertEquals("0", after.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }
  }

  @Test
  void theRegionInThePathIsTheOneActedIn() throws Exception {
    String url = sqsOk("eu-west-1", "CreateQueue", new JsonObject().put("QueueName", "console-eu")).getString("QueueUrl");
    JsonObject attributes = sqsOk("eu-west-1", "GetQueueAttributes", new JsonObject().put("QueueUrl", url)
        .put("AttributeNames", new JsonArray().add("QueueArn"))).getJsonObject("Attributes");
    assertEquals("arn:aws:sqs:eu-west-1:000000000000:console-eu", attributes.getString("QueueArn"));
  }

  @Test
  void aValidationErrorIsAnsweredExactlyAsTheJsonProtocolAnswersIt() throws Exception {
    String bad = new JsonObject().put("QueueName", "not a valid name!").encode();
    RawHttp.Response viaConsole = ConsoleHttp.sqs(port, "us-east-1", "CreateQueue", bad);
    RawHttp.Response viaApi = ConsoleHttp.send(port, "POST", "/", bad,
        "Content-Type: application/x-amz-json-1.0", "X-Amz-Target: AmazonSQS.CreateQueue");
    assertEquals(400, viaConsole.status(), viaConsole.body());
    assertEquals(viaApi.status(), viaConsole.status());
    assertEquals(viaApi.body(), viaConsole.body());
    assertEquals(viaApi.header("x-amzn-query-error"), viaConsole.header("x-amzn-query-error"));
    assertNotNull(viaConsole.header("x-amzn-RequestId"));
    RawHttp.Response unknown = ConsoleHttp.sqs(port, "us-east-1", "NoSuchAction", "{}");
    assertEquals(ConsoleHttp.send(port, "POST", "/", "{}", "Content-Type: application/x-amz-json-1.0",
        "X-Amz-Target: AmazonSQS.NoSuchAction").body(), unknown.body());
  }

  @Test
  void aBadRegionOrAnotherServicesTargetIsRefused() throws Exception {
    for (String region : List.of("us_east_1", "US-EAST-1", "us-east-1-", "us%3Aeast-1", "a-b-c-d-e-f-g")) {
      assertError(ConsoleHttp.sqs(port, region, "ListQueues", "{}"), 400, "InvalidParameterValue");
    }
    RawHttp.Response sns = ConsoleHttp.send(port, "POST", "/console/api/sqs/us-east-1", "{}", ConsoleHttp.CONSOLE,
        "Content-Type: application/x-amz-json-1.0", "X-Amz-Target: AmazonSNS.ListTopics");
    assertEquals(400, sns.status(), sns.body());
    assertTrue(json(sns).getString("__type").endsWith("UnsupportedOperation"), sns.body());
    assertError(ConsoleHttp.get(port, "/console/api/sqs/us-east-1", ConsoleHttp.CONSOLE), 404, "NotFound");
  }

  @Test
  void aBodyOverTheActionsLimitIsRefusedUnread() throws Exception {
    // Only the head is sent: the answer must come without the body (sending it could meet a closed
    // connection, since the server answers and closes as soon as it has the head).
    int bodyBytes = 300 * 1024;
    RawHttp.Response r;
    try (RawHttp c = new RawHttp(port)) {
      r = c.send("POST /console/api/sqs/us-east-1 HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + ConsoleHttp.CONSOLE
          + "\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.CreateQueue\r\nContent-Length: "
          + bodyBytes + "\r\n\r\n").read(10_000);
    }
    assertEquals(400, r.status(), r.body());
    assertTrue(json(r).getString("message").contains("larger than"), r.body());
  }

  @Test
  void actionsThatChangeSomethingAreLoggedAndReadsAreNot() throws Exception {
    String url = sqsOk("us-east-1", "CreateQueue", new JsonObject().put("QueueName", "console-audited"))
        .getString("QueueUrl");
    try (LogCapture log = LogCapture.of("dev.sluice.http.ConsoleSqs")) {
      sqsOk("us-east-1", "GetQueueAttributes", new JsonObject().put("QueueUrl", url));
      sqsOk("us-east-1", "ListQueues", new JsonObject());
      sqsOk("us-east-1", "ReceiveMessage", new JsonObject().put("QueueUrl", url));
      sqsOk("us-east-1", "PurgeQueue", new JsonObject().put("QueueUrl", url));
      // A name that is not an action's is not logged as sent (it is the client's text).
      ConsoleHttp.sqs(port, "us-east-1", "Purge Queue", new JsonObject().put("QueueUrl", url).encode());
      // The logger is the JVM's: another class's server may log console actions meanwhile, naming its own queues.
      List<java.util.logging.LogRecord> ours = log.records().stream()
          .filter(r -> !r.getMessage().contains("http://127.0.0.1:") || r.getMessage().contains("http://127.0.0.1:" + port + "/"))
          .toList();
      assertEquals(List.of("console: AmazonSQS.PurgeQueue us-east-1 " + url + " from 127.0.0.1",
          "console: an unknown action us-east-1 " + url + " from 127.0.0.1"), ours.stream().map(r -> r.getMessage()).toList());
      assertEquals(java.util.logging.Level.INFO, ours.get(0).getLevel());
    }
  }

  @Test
  void aLongPollEndsWhenTheTabGoesAway() throws Exception {
    String url = sqsOk("us-east-1", "CreateQueue", new JsonObject().put("QueueName", "console-waits"))
        .getString("QueueUrl");
    String body = new JsonObject().put("QueueUrl", url).put("WaitTimeSeconds", 20).encode();
    try (RawHttp tab = new RawHttp(port)) {
      tab.send("POST /console/api/sqs/us-east-1 HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + ConsoleHttp.CONSOLE
          + "\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ReceiveMessage\r\n"
          + "Content-Length: " + body.length() + "\r\n\r\n" + body);
      open.awaitParked(1);
    }
    open.awaitParked(0);
  }
}
