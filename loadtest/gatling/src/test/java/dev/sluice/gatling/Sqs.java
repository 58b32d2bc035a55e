package dev.sluice.gatling;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The AWS JSON 1.0 protocol as Gatling requests, and the settings every simulation shares
 * (system properties: sluice.url, users, duration, bodyBytes). Sluice ignores signatures unless
 * credentials are configured, so requests carry a fixed one, as the SDKs' headers look.
 */
final class Sqs {
  static final String URL = System.getProperty("sluice.url", "http://127.0.0.1:9324");
  static final int USERS = Integer.getInteger("users", 64);
  static final Duration DURATION = Duration.ofSeconds(Integer.getInteger("duration", 30));
  static final String BODY = "x".repeat(Integer.getInteger("bodyBytes", 100));
  private static final String AUTHORIZATION = "AWS4-HMAC-SHA256 Credential=gatling/20260101/us-east-1/sqs/aws4_request,"
      + " SignedHeaders=host;x-amz-date, Signature=0";

  private Sqs() {}

  /** {@code users} users repeating {@code step} for the run's duration, all started at once. */
  static PopulationBuilder loop(String name, ChainBuilder step, int users) {
    return scenario(name).exec(during(DURATION).on(step)).injectOpen(atOnceUsers(users));
  }

  /** Every simulation's pass mark: no failed request. */
  static Assertion noFailures() {
    return global().failedRequests().count().is(0L);
  }

  static HttpProtocolBuilder protocol() {
    return http.baseUrl(URL)
        // Gatling's warm-up request goes to gatling.io by default: off-machine, and unreachable
        // where load tests run on 127.0.0.1 only.
        .disableWarmUp()
        .contentTypeHeader("application/x-amz-json-1.0")
        .header("Authorization", AUTHORIZATION)
        .header("X-Amz-Date", "20260101T000000Z");
  }

  /** One SQS action with a body computed per call. */
  static HttpRequestActionBuilder call(String action, Function<Session, String> body) {
    return http(action).post("/").header("X-Amz-Target", "AmazonSQS." + action)
        .body(StringBody(body::apply)).check(status().is(200));
  }

  /** A fresh queue for this run (unique name), created before the load starts; its URL. */
  static String createQueue(String prefix) {
    String name = prefix + "-" + System.currentTimeMillis();
    String answer = direct("CreateQueue", "{\"QueueName\":\"" + name + "\"}");
    return answer.replaceAll(".*\"QueueUrl\":\"([^\"]+)\".*", "$1");
  }

  /** Fills a queue with {@code count} messages, ten per batch, before the load starts; its URL. */
  static String prefill(String queueUrl, int count) {
    for (int i = 0; i < count; i += 10) {
      direct("SendMessageBatch", sendBatch(queueUrl, "prefill"));
    }
    return queueUrl;
  }

  /** Deletes a run's queue once the load is over, so that runs one after another start equal. */
  static void deleteQueue(String queueUrl) {
    direct("DeleteQueue", "{\"QueueUrl\":\"" + queueUrl + "\"}");
  }

  static String sendOne(String queueUrl) {
    return "{\"QueueUrl\":\"" + queueUrl + "\",\"MessageBody\":\"" + BODY + "\"}";
  }

  static String sendBatch(String queueUrl, String idPrefix) {
    StringBuilder b = new StringBuilder("{\"QueueUrl\":\"").append(queueUrl).append("\",\"Entries\":[");
    for (int i = 0; i < 10; i++) {
      b.append(i == 0 ? "" : ",").append("{\"Id\":\"").append(idPrefix).append(i)
          .append("\",\"MessageBody\":\"").append(BODY).append("\"}");
    }
    return b.append("]}").toString();
  }

  static String receive(String queueUrl, int waitSeconds) {
    return "{\"QueueUrl\":\"" + queueUrl + "\",\"MaxNumberOfMessages\":10,\"WaitTimeSeconds\":" + waitSeconds + "}";
  }

  static String deleteBatch(String queueUrl, List<String> receiptHandles) {
    StringBuilder b = new StringBuilder("{\"QueueUrl\":\"").append(queueUrl).append("\",\"Entries\":[");
    for (int i = 0; i < receiptHandles.size(); i++) {
      b.append(i == 0 ? "" : ",").append("{\"Id\":\"d").append(i).append("\",\"ReceiptHandle\":\"")
          .append(receiptHandles.get(i)).append("\"}");
    }
    return b.append("]}").toString();
  }

  private static final HttpClient SETUP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /** A request outside the measured load (queue set-up). */
  private static String direct(String action, String body) {
    try {
      HttpResponse<String> r = SETUP.send(HttpRequest.newBuilder(URI.create(URL + "/"))
          .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", "AmazonSQS." + action)
          .header("Authorization", AUTHORIZATION).header("X-Amz-Date", "20260101T000000Z")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(action + " answered " + r.statusCode() + ": " + r.body());
      }
      return r.body();
    } catch (Exception e) {
      throw new IllegalStateException("Sluice at " + URL + " is not reachable: " + e.getMessage(), e);
    }
  }
}
