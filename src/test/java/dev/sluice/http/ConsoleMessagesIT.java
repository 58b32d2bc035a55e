package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Sluice;
import dev.sluice.api.ErrorCode;
import dev.sluice.config.ConfigLoader;
import dev.sluice.protocol.json.JsonErrors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The console's messages routes on a real server (design/console.md §2.6, the {@code
 * browsingChangesNothing} case of §4): messages sent and received with the AWS SDK, browsed through
 * the console's API as the pages call it (its guard is ConsoleApiIT's), and
 * what the SDK sees afterwards shows that browsing received nothing, hid nothing and counted no
 * receive.
 */
class ConsoleMessagesIT {
  static Sluice sluice;
  static SqsClient sqs;
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() throws Exception {
    sluice = Sluice.start(ConfigLoader.load(new String[0],
        Map.of("SLUICE_HTTP_PORT", "0", "SLUICE_HTTP_HOST", "127.0.0.1"))).await(30, TimeUnit.SECONDS);
    sqs = SqsClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + sluice.port()))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  @AfterAll
  static void stop() throws Exception {
    sqs.close();
    sluice.stop().await(10, TimeUnit.SECONDS);
  }

  static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sluice.port() + path))
        .header("X-Sluice-Console", "1")
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonObject ok(String path) throws Exception {
    HttpResponse<String> r = get(path);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("no-store", r.headers().firstValue("cache-control").orElse(null));
    assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("application/json"));
    return new JsonObject(r.body());
  }

  /** Refused as {@link JsonErrors} renders {@code code}: its status, and its shape name after the last #. */
  static void refused(String path, ErrorCode code) throws Exception {
    HttpResponse<String> r = get(path);
    assertEquals(code.httpStatus(), r.statusCode(), r.body());
    String type = new JsonObject(r.body()).getString("__type");
    assertEquals(code.shapeName(), type.substring(type.lastIndexOf('#') + 1), r.body());
  }

  /** A ready message's {@code visibleAt} is the time of the peek: the one member that moves on its own. */
  static JsonObject withoutReadyTimes(JsonObject page) {
    JsonObject copy = page.copy();
    copy.getJsonArray("messages").forEach(m -> {
      if ("READY".equals(((JsonObject) m).getString("state"))) {
        ((JsonObject) m).remove("visibleAt");
      }
    });
    return copy;
  }

  static int receiveCount(Message m) {
    return Integer.parseInt(m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));
  }

  @Test
  void browsingChangesNothing() throws Exception {
    String q = sqs.createQueue(b -> b.queueName("browsed")).queueUrl();
    sqs.sendMessage(b -> b.queueUrl(q).messageBody("first"));
    sqs.sendMessage(b -> b.queueUrl(q).messageBody("second"));
    Message first = sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(1).visibilityTimeout(60)
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages().get(0);
    assertEquals("first", first.body());

    JsonObject page = ok("/console/api/queues/000000000000/us-east-1/browsed/messages");
    for (int again = 0; again < 3; again++) { // browsing again and again changes nothing either
      assertEquals(withoutReadyTimes(page), withoutReadyTimes(ok("/console/api/queues/000000000000/us-east-1/browsed/messages")));
    }
    assertEquals(2, page.getLong("resident"));
    assertEquals(0, page.getLong("durableOnly"));
    assertFalse(page.getBoolean("truncated"));
    JsonArray messages = page.getJsonArray("messages");
    JsonObject inFlight = messages.getJsonObject(0);
    assertEquals(first.messageId(), inFlight.getString("messageId"));
    assertEquals("IN_FLIGHT", inFlight.getString("state"));
    assertEquals(1, inFlight.getInteger("receiveCount"));
    assertEquals("READY", messages.getJsonObject(1).getString("state"));
    assertEquals(0, messages.getJsonObject(1).getInteger("receiveCount"));
    assertNull(messages.getJsonObject(1).getValue("firstReceiveTimestamp"));
    assertEquals("AKIDTEST", messages.getJsonObject(1).getString("senderId")); // the signing key, as SQS gives it

    Map<QueueAttributeName, String> counts = sqs.getQueueAttributes(b -> b.queueUrl(q).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
        .attributes();
    assertEquals("1", counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    assertEquals("1", counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    Message second = sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10).visibilityTimeout(60)
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages().get(0);
    assertEquals("second", second.body());
    assertEquals(1, receiveCount(second));
    sqs.changeMessageVisibility(b -> b.queueUrl(q).receiptHandle(first.receiptHandle()).visibilityTimeout(0));
    List<Message> back = sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10)
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
    assertEquals(List.of("first"), back.stream().map(Message::body).toList());
    assertEquals(2, receiveCount(back.get(0)));
  }

  @Test
  void oneMessageByItsKeyWithItsWholeBodyUntilItIsDeleted() throws Exception {
    String q = sqs.createQueue(b -> b.queueName("by-key")).queueUrl();
    String body = "\u20ac".repeat(1_000);
    sqs.sendMessage(b -> b.queueUrl(q).messageBody(body).messageAttributes(Map.of(
        "blob", MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromByteArray(new byte[300]))
            .build())));
    JsonObject previewed = ok("/console/api/queues/000000000000/us-east-1/by-key/messages?preview=10&max=1&offset=0")
        .getJsonArray("messages").getJsonObject(0);
    assertEquals("\u20ac".repeat(3), previewed.getString("body"));
    assertEquals(3_000, previewed.getInteger("bodyBytes"));
    assertTrue(previewed.getBoolean("bodyTruncated"));
    JsonObject blob = previewed.getJsonObject("attributes").getJsonObject("blob");
    assertEquals(new JsonObject().put("dataType", "Binary").put("binaryValue", "A".repeat(340) + "AA==")
        .put("bytes", 300).put("truncated", true), blob);

    String path = "/console/api/queues/000000000000/us-east-1/by-key/messages/" + previewed.getString("key");
    JsonObject whole = ok(path);
    assertEquals(body, whole.getString("body"));
    assertFalse(whole.getBoolean("bodyTruncated"));
    assertEquals(previewed.getString("messageId"), whole.getString("messageId"));

    Message m = sqs.receiveMessage(b -> b.queueUrl(q)).messages().get(0);
    sqs.deleteMessage(b -> b.queueUrl(q).receiptHandle(m.receiptHandle()));
    refused(path, ErrorCode.MESSAGE_NOT_FOUND);
  }

  @Test
  void badParametersAndAMissingQueueAreRefused() throws Exception {
    sqs.createQueue(b -> b.queueName("refusing"));
    String messages = "/console/api/queues/000000000000/us-east-1/refusing/messages";
    for (String query : List.of("?max=0", "?max=51", "?max=abc", "?offset=-1", "?offset=9990&max=20",
        "?preview=65537")) {
      refused(messages + query, ErrorCode.INVALID_PARAMETER_VALUE);
    }
    refused(messages + "/not-a-key", ErrorCode.INVALID_PARAMETER_VALUE);
    refused("/console/api/queues/000000000000/US_EAST_1/refusing/messages", ErrorCode.INVALID_PARAMETER_VALUE);
    refused("/console/api/queues/000000000000/us-east-1/missing/messages", ErrorCode.QUEUE_DOES_NOT_EXIST);
    assertEquals(0, ok(messages + "?offset=9950&max=50&preview=65536").getJsonArray("messages").size());
  }
}
