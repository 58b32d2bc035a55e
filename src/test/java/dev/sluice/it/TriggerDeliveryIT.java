package dev.sluice.it;

import static dev.sluice.it.TriggerAdminClient.queueArn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Triggers delivering to an HTTP target, through the packaged jar: a small Vert.x server in the test
 * is the target, each path answering one way, and the SDK v2 client sends and inspects queues. The
 * event carries every field as Lambda's does; a success deletes the batch, a partial batch response
 * all but the records it names, an unknown identifier nothing; after maxReceiveCount failures the
 * message is in the dead-letter queue; records no pattern matches are deleted unseen; concurrency
 * never exceeds MaximumConcurrency and reaches it; a batching window gathers one batch; a target
 * that hangs is timed out and the batch redelivered; FIFO groups keep their order across failures.
 */
@Isolated
class TriggerDeliveryIT {
  static final String TOKEN = "t0ken";
  static PackagedServer server;
  static SqsClient sqs;
  static TriggerAdminClient admin;
  static Vertx vertx;
  static HttpServer target;
  static int port;
  /** Each event a path was posted, with its arrival time. */
  static final Map<String, BlockingQueue<Event>> events = new ConcurrentHashMap<>();
  static final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
  static final Map<String, AtomicInteger> mostOpen = new ConcurrentHashMap<>();
  /** FIFO: message ids that failed once already (each fails at most once). */
  static final Set<String> failedOnce = ConcurrentHashMap.newKeySet();

  record Event(Map<String, String> headers, JsonObject json, long atMillis) {
    List<JsonObject> records() {
      List<JsonObject> out = new ArrayList<>();
      json.getJsonArray("Records").forEach(r -> out.add((JsonObject) r));
      return out;
    }
  }

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    target = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      Map<String, String> headers = new HashMap<>();
      req.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
      Event e = new Event(headers, new JsonObject(body.toString()), System.currentTimeMillis());
      events.computeIfAbsent(req.path(), p -> new LinkedBlockingQueue<>()).add(e);
      int now = open.computeIfAbsent(req.path(), p -> new AtomicInteger()).incrementAndGet();
      mostOpen.computeIfAbsent(req.path(), p -> new AtomicInteger()).accumulateAndGet(now, Math::max);
      answer(req, e);
    })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    port = target.actualPort();
    server = PackagedServer.start("triggers-", Map.of("SLUICE_MANAGEMENT_TOKEN", TOKEN));
    sqs = server.sqs("AKID", "secret");
    admin = new TriggerAdminClient(server.endpoint, TOKEN);
  }

  /** How each path answers: see the class comment. */
  static void answer(HttpServerRequest req, Event e) {
    Runnable done = () -> open.get(req.path()).decrementAndGet();
    switch (req.path()) {
      case "/hang" -> done.run(); // never answers
      case "/slow" -> vertx.setTimer(150, t -> {
        done.run();
        req.response().end("{}");
      });
      case "/partial" -> {
        JsonArray failures = new JsonArray();
        e.records().stream().filter(r -> r.getString("body").startsWith("fail"))
            .forEach(r -> failures.add(new JsonObject().put("itemIdentifier", r.getString("messageId"))));
        done.run();
        req.response().end(new JsonObject().put("batchItemFailures", failures).encode());
      }
      case "/unknown-id" -> {
        done.run();
        req.response().end("{\"batchItemFailures\":[{\"itemIdentifier\":\"not-in-this-batch\"}]}");
      }
      case "/fifo" -> {
        // Each message fails the first time it comes when its body says so.
        JsonArray failures = new JsonArray();
        for (JsonObject r : e.records()) {
          if (r.getString("body").endsWith("!") && failedOnce.add(r.getString("messageId"))) {
            failures.add(new JsonObject().put("itemIdentifier", r.getString("messageId")));
          }
        }
        done.run();
        req.response().end(new JsonObject().put("batchItemFailures", failures).encode());
      }
      case "/2015-03-31/functions/function/invocations" -> {
        done.run(); // the emulator's answer to a function that threw
        req.response().end("{\"errorType\":\"Error\",\"errorMessage\":\"boom\",\"trace\":[]}");
      }
      default -> {
        done.run();
        req.response().setStatusCode(204).end();
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    sqs.close();
    server.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  static Event next(String path, long seconds) throws InterruptedException {
    return events.computeIfAbsent(path, p -> new LinkedBlockingQueue<>()).poll(seconds, TimeUnit.SECONDS);
  }

  static String queue(String name, Map<QueueAttributeName, String> attributes) {
    return sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
  }

  static JsonObject trigger(String queueName, String path, JsonObject more) throws Exception {
    return admin.create(new JsonObject().put("EventSourceArn", queueArn(queueName)).put("FunctionName", url(path))
        .mergeIn(more));
  }

  /** Waits until the queue holds no message, visible or in flight. */
  static void awaitEmpty(SqsClient sqs, String queueUrl, long seconds) throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000;
    Map<QueueAttributeName, String> a = Map.of();
    while (System.currentTimeMillis() < deadline) {
      a = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
          QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
          QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
          QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
      if (a.values().stream().allMatch("0"::equals)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(queueUrl + " still holds messages: " + a);
  }

  /** The lines of the Prometheus text about the trigger {@code uuid}. */
  static List<String> metrics(String uuid) throws Exception {
    java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
        .newBuilder(server.endpoint.resolve("/metrics")).header("Authorization", "Bearer " + TOKEN).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    return r.body().lines().filter(l -> l.contains("trigger=\"" + uuid + "\"")).toList();
  }

  @Test
  void theEventCarriesEveryFieldAsLambdaGivesItAndASuccessDeletesTheBatch() throws Exception {
    String url = queue("trigger-fields", Map.of());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("{\"kind\":\"order\"}").messageAttributes(Map.of(
        "color", MessageAttributeValue.builder().dataType("String").stringValue("blue").build(),
        "count", MessageAttributeValue.builder().dataType("Number.int").stringValue("7").build(),
        "blob", MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromUtf8String("hi"))
            .build())));
    JsonObject mapping = trigger("trigger-fields", "/fields", new JsonObject());
    assertEquals("Creating", mapping.getString("State"));
    Event e = next("/fields", 10);
    assertNotNull(e, "the target was posted the message");
    assertEquals("application/json", e.headers().get("content-type"));
    assertEquals(mapping.getString("UUID"), e.headers().get("x-sluice-trigger"));
    List<JsonObject> records = e.records();
    assertEquals(1, records.size());
    JsonObject r = records.get(0);
    assertEquals(List.of("messageId", "receiptHandle", "body", "attributes", "messageAttributes",
        "md5OfMessageAttributes", "md5OfBody", "eventSource", "eventSourceARN", "awsRegion"),
        new ArrayList<>(r.fieldNames()));
    assertEquals("{\"kind\":\"order\"}", r.getString("body"));
    assertEquals(List.of("ApproximateReceiveCount", "SentTimestamp", "SenderId", "ApproximateFirstReceiveTimestamp"),
        new ArrayList<>(r.getJsonObject("attributes").fieldNames()));
    assertEquals("1", r.getJsonObject("attributes").getString("ApproximateReceiveCount"));
    JsonObject attributes = r.getJsonObject("messageAttributes");
    assertEquals(new JsonObject().put("stringValue", "blue").put("stringListValues", new JsonArray())
        .put("binaryListValues", new JsonArray()).put("dataType", "String"), attributes.getJsonObject("color"));
    assertEquals("Number.int", attributes.getJsonObject("count").getString("dataType"));
    assertEquals("aGk=", attributes.getJsonObject("blob").getString("binaryValue"));
    assertEquals("aws:sqs", r.getString("eventSource"));
    assertEquals(queueArn("trigger-fields"), r.getString("eventSourceARN"));
    assertEquals("us-east-1", r.getString("awsRegion"));
    awaitEmpty(sqs, url, 10);
    JsonObject after = admin.get(mapping.getString("UUID"));
    assertEquals("Enabled", after.getString("State"));
    assertEquals("OK", after.getString("LastProcessingResult"));
    List<String> series = metrics(mapping.getString("UUID"));
    assertTrue(series.stream().anyMatch(l -> l.startsWith("sluice_trigger_invocations_total{")
        && l.contains("outcome=\"success\"") && l.endsWith(" 1.0")), String.join("\n", series));
    assertTrue(series.stream().anyMatch(l -> l.startsWith("sluice_trigger_records_total{")
        && l.contains("result=\"deleted\"") && l.endsWith(" 1.0")), String.join("\n", series));
    assertTrue(series.stream().anyMatch(l -> l.startsWith("sluice_trigger_pollers{")), String.join("\n", series));
    admin.delete(mapping.getString("UUID"));
    long until = System.currentTimeMillis() + 5_000;
    while (!metrics(mapping.getString("UUID")).isEmpty() && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    assertEquals(List.of(), metrics(mapping.getString("UUID")), "a deleted trigger's series go with it");
  }

  @Test
  void aPartialBatchResponseDeletesAllButTheReportedAndTheDeadLetterQueueTakesWhatKeepsFailing() throws Exception {
    String dlq = queue("trigger-partial-dlq", Map.of());
    String url = queue("trigger-partial", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2",
        QueueAttributeName.REDRIVE_POLICY, "{\"deadLetterTargetArn\":\"" + queueArn("trigger-partial-dlq")
            + "\",\"maxReceiveCount\":\"2\"}"));
    for (String body : List.of("ok-1", "fail-1", "ok-2")) {
      sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
    }
    JsonObject mapping = trigger("trigger-partial", "/partial", new JsonObject()
        .put("FunctionResponseTypes", new JsonArray().add("ReportBatchItemFailures"))
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 2)));
    Map<String, Integer> seen = new HashMap<>();
    long deadline = System.currentTimeMillis() + 15_000;
    while (System.currentTimeMillis() < deadline && seen.getOrDefault("fail-1", 0) < 2) {
      Event e = next("/partial", 1);
      if (e != null) {
        e.records().forEach(r -> seen.merge(r.getString("body"), 1, Integer::sum));
      }
    }
    assertEquals(Map.of("ok-1", 1, "ok-2", 1, "fail-1", 2), seen, "the reported record came back, the rest did not");
    long until = System.currentTimeMillis() + 10_000;
    List<String> dead = List.of();
    while (dead.isEmpty() && System.currentTimeMillis() < until) {
      dead = sqs.receiveMessage(b -> b.queueUrl(dlq).waitTimeSeconds(1)).messages().stream()
          .map(m -> m.body()).toList();
    }
    assertEquals(List.of("fail-1"), dead, "after maxReceiveCount failures the message is in the dead-letter queue");
    assertNull(next("/partial", 0), "nothing more was posted");
    admin.delete(mapping.getString("UUID"));
  }

  @Test
  void anUnknownItemIdentifierAndAFunctionErrorFailTheWholeBatch() throws Exception {
    String url = queue("trigger-unknown-id", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("a"));
    JsonObject mapping = trigger("trigger-unknown-id", "/unknown-id", new JsonObject()
        .put("FunctionResponseTypes", new JsonArray().add("ReportBatchItemFailures"))
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 1)));
    assertNotNull(next("/unknown-id", 10));
    Event again = next("/unknown-id", 10);
    assertNotNull(again, "the whole batch failed, so it came again");
    assertEquals("2", again.records().get(0).getJsonObject("attributes").getString("ApproximateReceiveCount"));
    JsonObject status = admin.get(mapping.getString("UUID"));
    assertEquals("bad_response", status.getJsonObject("LastError").getString("Kind"));
    assertTrue(status.getString("LastProcessingResult").startsWith("PROBLEM: "), status.encode());
    admin.delete(mapping.getString("UUID"));

    String lambdaUrl = queue("trigger-function-error", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1"));
    sqs.sendMessage(b -> b.queueUrl(lambdaUrl).messageBody("b"));
    String path = "/2015-03-31/functions/function/invocations";
    JsonObject lambda = trigger("trigger-function-error", path, new JsonObject()
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 1)));
    assertEquals("lambda", lambda.getJsonObject("TargetConfig").getString("Protocol"));
    Event first = next(path, 10);
    assertNotNull(first);
    assertEquals("RequestResponse", first.headers().get("x-amz-invocation-type"));
    assertNotNull(next(path, 10), "a function error (a 200 naming errorType) fails the batch");
    assertEquals("function_error", admin.get(lambda.getString("UUID")).getJsonObject("LastError").getString("Kind"));
    admin.delete(lambda.getString("UUID"));
  }

  @Test
  void recordsNoPatternMatchesAreDeletedWithoutAnInvoke() throws Exception {
    String url = queue("trigger-filter", Map.of());
    JsonObject mapping = trigger("trigger-filter", "/filter", new JsonObject().put("FilterCriteria",
        new JsonObject().put("Filters", new JsonArray().add(new JsonObject()
            .put("Pattern", "{\"body\": {\"kind\": [\"refund\"]}}")))));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("{\"kind\":\"order\"}"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("{\"kind\":\"refund\"}"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("not json"));
    Event e = next("/filter", 10);
    assertNotNull(e);
    assertEquals("{\"kind\":\"refund\"}", e.records().get(0).getString("body"));
    awaitEmpty(sqs, url, 10);
    assertNull(next("/filter", 0), "the others were deleted, never posted");
    assertTrue(metrics(mapping.getString("UUID")).stream().anyMatch(l -> l.startsWith("sluice_trigger_records_total{")
        && l.contains("result=\"filtered\"") && l.endsWith(" 2.0")));
    admin.delete(mapping.getString("UUID"));
  }

  @Test
  void concurrencyNeverExceedsMaximumConcurrencyAndReachesIt() throws Exception {
    String url = queue("trigger-concurrency", Map.of());
    for (int i = 0; i < 6; i++) {
      int batch = i;
      sqs.sendMessageBatch(b -> b.queueUrl(url).entries(java.util.stream.IntStream.range(0, 10)
          .mapToObj(n -> software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry.builder()
              .id("m" + n).messageBody("m-" + batch + "-" + n).build()).toList()));
    }
    JsonObject mapping = trigger("trigger-concurrency", "/slow", new JsonObject().put("BatchSize", 1)
        .put("ScalingConfig", new JsonObject().put("MaximumConcurrency", 3)));
    awaitEmpty(sqs, url, 30);
    assertEquals(3, mostOpen.get("/slow").get(), "at most three invokes were open at once, and three were");
    assertEquals(60, events.get("/slow").size());
    JsonObject status = admin.get(mapping.getString("UUID"));
    assertEquals(3, status.getJsonObject("Concurrency").getInteger("Maximum"));
    admin.delete(mapping.getString("UUID"));
  }

  @Test
  void aBatchingWindowGathersOneBatch() throws Exception {
    String url = queue("trigger-window", Map.of());
    JsonObject mapping = trigger("trigger-window", "/window", new JsonObject().put("BatchSize", 50)
        .put("MaximumBatchingWindowInSeconds", 2).put("ScalingConfig", new JsonObject().put("MaximumConcurrency", 2)));
    long first = System.currentTimeMillis();
    for (int i = 0; i < 3; i++) {
      int batch = i;
      sqs.sendMessageBatch(b -> b.queueUrl(url).entries(java.util.stream.IntStream.range(0, 10)
          .mapToObj(n -> software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry.builder()
              .id("m" + n).messageBody("w-" + batch + "-" + n).build()).toList()));
    }
    List<Integer> sizes = new ArrayList<>();
    long firstAt = 0;
    int total = 0;
    while (total < 30) {
      Event e = next("/window", 10);
      assertNotNull(e, "got " + sizes);
      sizes.add(e.records().size());
      total += e.records().size();
      firstAt = firstAt == 0 ? e.atMillis() : firstAt;
    }
    // Each of the two pollers gathers its own batch, as each of Lambda's does.
    assertTrue(sizes.size() <= 2, "the window gathered the sends: " + sizes);
    assertTrue(firstAt - first >= 1_500, "no batch went before its window: " + (firstAt - first) + " ms");
    admin.delete(mapping.getString("UUID"));
  }

  @Test
  void aTargetThatHangsIsTimedOutAndTheBatchComesBack() throws Exception {
    String url = queue("trigger-hang", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2"));
    JsonObject mapping = trigger("trigger-hang", "/hang", new JsonObject()
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 1)));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("h"));
    Event first = next("/hang", 10);
    assertNotNull(first);
    Event again = next("/hang", 10);
    assertNotNull(again, "redelivered after its visibility timeout");
    assertEquals("2", again.records().get(0).getJsonObject("attributes").getString("ApproximateReceiveCount"));
    assertTrue(again.atMillis() - first.atMillis() >= 1_800, "not before the visibility timeout");
    JsonObject status = admin.get(mapping.getString("UUID"));
    assertEquals("timeout", status.getJsonObject("LastError").getString("Kind"));
    assertEquals("PROBLEM: the target did not answer within 1 seconds", status.getString("LastProcessingResult"));
    admin.delete(mapping.getString("UUID"));
  }

  @Test
  void fifoGroupsKeepTheirOrderAcrossFailures() throws Exception {
    String url = queue("trigger-order.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true",
        QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true", QueueAttributeName.VISIBILITY_TIMEOUT, "1"));
    java.util.Random random = new java.util.Random(19);
    for (int n = 0; n < 12; n++) {
      for (String group : List.of("a", "b", "c")) {
        String body = group + "-" + n + (random.nextInt(5) == 0 ? "!" : "");
        sqs.sendMessage(b -> b.queueUrl(url).messageGroupId(group).messageBody(body));
      }
    }
    JsonObject mapping = trigger("trigger-order.fifo", "/fifo", new JsonObject()
        .put("FunctionResponseTypes", new JsonArray().add("ReportBatchItemFailures"))
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 1)));
    awaitEmpty(sqs, url, 40);
    Map<String, List<Integer>> succeeded = new HashMap<>();
    Map<String, Integer> doneUpTo = new HashMap<>();
    for (Event e : events.get("/fifo")) {
      Set<String> failedHere = new HashSet<>();
      for (JsonObject r : e.records()) {
        String body = r.getString("body");
        String group = body.substring(0, 1);
        if (failedHere.contains(group)) {
          continue; // after a failure in its group, a record is not settled: it comes again
        }
        int n = Integer.parseInt(body.substring(2).replace("!", ""));
        assertEquals(doneUpTo.getOrDefault(group, -1) + 1, n, "group " + group + " was posted out of order");
        // The target fails a marked record the first time it sees it; the answer was written then.
        boolean failedNow = body.endsWith("!") && r.getJsonObject("attributes").getString("ApproximateReceiveCount")
            .equals("1");
        if (failedNow) {
          failedHere.add(group);
        } else {
          doneUpTo.put(group, n);
          succeeded.computeIfAbsent(group, g -> new ArrayList<>()).add(n);
        }
      }
    }
    for (String group : List.of("a", "b", "c")) {
      assertEquals(java.util.stream.IntStream.range(0, 12).boxed().toList(), succeeded.get(group), group);
    }
    assertFalse(failedOnce.isEmpty(), "some records failed on the way");
    admin.delete(mapping.getString("UUID"));
  }
}
