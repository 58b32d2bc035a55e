package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import dev.sluice.testtools.LogCapture;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.SqsException;
import org.junit.jupiter.api.parallel.Isolated;

/** Input that is not what it claims to be is refused with an SQS error, never taken silently. */
@Isolated
class InputHygieneIT extends SharedServerIT {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  /** A byte that is never UTF-8. */
  static final byte[] FF = {(byte) 0xFF};

  /** The parts, strings as UTF-8 and byte arrays as they are, in one body. */
  static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object p : parts) {
      out.writeBytes(p instanceof byte[] b ? b : p.toString().getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  static HttpResponse<String> json(String action, byte[] body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.endpoint + "/"))
        .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", "AmazonSQS." + action)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> query(byte[] form) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.endpoint + "/"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofByteArray(form)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The legacy code of a JSON error answer, which the SDKs read. */
  static String jsonCode(HttpResponse<String> r) {
    assertEquals(400, r.statusCode(), r.body());
    return r.headers().firstValue("x-amzn-query-error").orElseThrow().split(";")[0];
  }

  static String queryCode(HttpResponse<String> r) {
    assertEquals(400, r.statusCode(), r.body());
    return r.body().replaceAll("(?s).*<Code>([^<]*)</Code>.*", "$1");
  }

  static List<String> bodies(String url) {
    return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(0)).messages().stream()
        .map(software.amazon.awssdk.services.sqs.model.Message::body).sorted().toList();
  }

  @Test
  void jsonTextThatIsNotUtf8OrHoldsALoneSurrogateIsRefused() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("hygiene-json")).queueUrl();
    String q = "{\"QueueUrl\":\"" + url + "\",";
    assertEquals("InvalidMessageContents", jsonCode(json("SendMessage", bytes(q, "\"MessageBody\":\"a", FF, "b\"}"))),
        "a body that is not UTF-8");
    assertEquals("InvalidMessageContents", jsonCode(json("SendMessage", bytes(q, "\"MessageBody\":\"a\\ud800b\"}"))),
        "a body with a lone surrogate");
    assertEquals("InvalidParameterValue", jsonCode(json("SendMessage", bytes(q, "\"MessageBody\":\"ok\",",
        "\"MessageAttributes\":{\"a\":{\"DataType\":\"String\",\"StringValue\":\"x", FF, "\"}}}"))),
        "an attribute value that is not UTF-8");
    assertEquals("InvalidParameterValue", jsonCode(json("SendMessage", bytes(q, "\"MessageBody\":\"ok\",",
        "\"MessageAttributes\":{\"a\":{\"DataType\":\"String\",\"StringValue\":\"x\\udfffy\"}}}"))),
        "an attribute value with a lone surrogate");
    assertEquals("InvalidParameterValue", jsonCode(json("SetQueueAttributes", bytes(q,
        "\"Attributes\":{\"Policy\":\"{\\\"Id\\\":\\\"p", FF, "\\\"}\"}}"))), "a policy that is not UTF-8");
    assertEquals("InvalidParameterValue", jsonCode(json("SetQueueAttributes", bytes(q,
        "\"Attributes\":{\"Policy\":\"{\\\"Id\\\":\\\"p\\ud800\\\"}\"}}"))), "a policy with a lone surrogate");
    assertEquals("InvalidParameterValue", jsonCode(json("SendMessage", bytes(q, "\"MessageBody\":\"ok\",",
        "\"MessageSystemAttributes\":{\"AWSTraceHeader\":{\"DataType\":\"String\",\"StringValue\":\"R", FF,
        "\"}}}"))), "a trace header that is not UTF-8");
    assertEquals("InvalidParameterValue", jsonCode(json("GetQueueUrl", bytes("{\"QueueName\":\"hygiene-json", FF,
        "\"}"))), "a queue name that is not UTF-8");

    JsonObject batch = new JsonObject(json("SendMessageBatch", bytes(q, "\"Entries\":[",
        "{\"Id\":\"good\",\"MessageBody\":\"kept\"},",
        "{\"Id\":\"bytes\",\"MessageBody\":\"a", FF, "\"},",
        "{\"Id\":\"surrogate\",\"MessageBody\":\"a\\udc00\"},",
        "{\"Id\":\"attribute\",\"MessageBody\":\"ok\",\"MessageAttributes\":{\"a\":{\"DataType\":\"String\",",
        "\"StringValue\":\"", FF, "\"}}}]}")).body());
    assertEquals(List.of("good"), batch.getJsonArray("Successful").stream()
        .map(e -> ((JsonObject) e).getString("Id")).toList());
    assertEquals(Map.of("bytes", "InvalidMessageContents", "surrogate", "InvalidMessageContents",
        "attribute", "InvalidParameterValue"), failures(batch.getJsonArray("Failed")));
    assertEquals(List.of("kept"), bodies(url), "nothing else was stored");
    assertEquals(null, sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("Policy"))
        .attributesAsStrings().get("Policy"), "no policy was set");

    String handle = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).receiptHandle();
    JsonObject deleted = new JsonObject(json("DeleteMessageBatch", bytes(q, "\"Entries\":[",
        "{\"Id\":\"bad\",\"ReceiptHandle\":\"", handle.substring(0, 33), FF, "\"},",
        "{\"Id\":\"good\",\"ReceiptHandle\":\"", handle, "\"}]}")).body());
    assertEquals(List.of("good"), deleted.getJsonArray("Successful").stream()
        .map(e -> ((JsonObject) e).getString("Id")).toList());
    assertEquals(Map.of("bad", "ReceiptHandleIsInvalid"), failures(deleted.getJsonArray("Failed")));
  }

  static Map<String, String> failures(JsonArray failed) {
    Map<String, String> out = new java.util.TreeMap<>();
    for (Object f : failed) {
      JsonObject e = (JsonObject) f;
      assertEquals(true, e.getBoolean("SenderFault"));
      out.put(e.getString("Id"), e.getString("Code"));
    }
    return out;
  }

  @Test
  void queryParametersThatAreNotUtf8AreRefused() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("hygiene-query")).queueUrl();
    String q = "QueueUrl=" + java.net.URLEncoder.encode(url, StandardCharsets.UTF_8) + "&";
    assertEquals("InvalidMessageContents", queryCode(query(bytes(q, "Action=SendMessage&MessageBody=a%FFb"))),
        "a percent-encoded body that is not UTF-8");
    assertEquals("InvalidMessageContents", queryCode(query(bytes(q, "Action=SendMessage&MessageBody=a", FF, "b"))),
        "a raw body byte that is not UTF-8");
    assertEquals("InvalidMessageContents", queryCode(query(bytes(q, "Action=SendMessage&MessageBody=a%ED%A0%80b"))),
        "a body with an encoded surrogate");
    assertEquals("InvalidParameterValue", queryCode(query(bytes(q, "Action=SendMessage&MessageBody=ok",
        "&MessageAttribute.1.Name=a&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=%C3"))),
        "an attribute value that is not UTF-8");
    assertEquals("InvalidParameterValue", queryCode(query(bytes(q, "Action=SetQueueAttributes",
        "&Attribute.1.Name=Policy&Attribute.1.Value=%7B%22Id%22%3A%22p%FF%22%7D"))), "a policy that is not UTF-8");
    HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create(server.endpoint
        + "/?Action=GetQueueUrl&QueueName=hygiene-query%FF")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals("InvalidParameterValue", queryCode(get), "a query string that is not UTF-8");

    String e = "&SendMessageBatchRequestEntry.";
    String batch = query(bytes(q, "Action=SendMessageBatch", e, "1.Id=good", e, "1.MessageBody=kept",
        e, "2.Id=bytes", e, "2.MessageBody=a%FF", e, "3.Id=attribute", e, "3.MessageBody=ok",
        e, "3.MessageAttribute.1.Name=a", e, "3.MessageAttribute.1.Value.DataType=String",
        e, "3.MessageAttribute.1.Value.StringValue=%ED%BF%BF")).body();
    assertTrue(batch.contains("<SendMessageBatchResultEntry><Id>good</Id>"), batch);
    assertTrue(batch.contains("<BatchResultErrorEntry><Id>bytes</Id><SenderFault>true</SenderFault>"
        + "<Code>InvalidMessageContents</Code>"), batch);
    assertTrue(batch.contains("<BatchResultErrorEntry><Id>attribute</Id><SenderFault>true</SenderFault>"
        + "<Code>InvalidParameterValue</Code>"), batch);
    assertEquals(List.of("kept"), bodies(url), "nothing else was stored");
    assertEquals(null, sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("Policy"))
        .attributesAsStrings().get("Policy"), "no policy was set");
  }

  @Test
  void aGarbageNextTokenIsInvalidParameterValue() {
    String dlq = sqs.createQueue(b -> b.queueName("hygiene-dlq")).queueUrl();
    for (String garbage : new String[] {"garbage", "%%%", "bm90IGEgcXVldWU"}) {
      SqsException e = assertThrows(SqsException.class,
          () -> sqs.listQueues(b -> b.maxResults(1).nextToken(garbage)), garbage);
      assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode(), garbage);
      assertEquals("Invalid NextToken value.", e.awsErrorDetails().errorMessage());
      e = assertThrows(SqsException.class,
          () -> sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq).maxResults(1).nextToken(garbage)), garbage);
      assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode(), garbage);
    }
  }

  /** The JSON, Query and chunked requests below each declare more body than they send, then hang up. */
  static final List<String> HALF_REQUESTS = List.of(
      "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n"
          + "Content-Type: application/x-amz-json-1.0\r\nContent-Length: 1000\r\n\r\n{\"QueueNamePre",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
          + "Content-Length: 1000\r\n\r\nAction=ListQueues&QueueNamePre",
      "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n"
          + "Content-Type: application/x-amz-json-1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"Que\r\n");

  @Test
  void aClientHangingUpMidRequestIsNoInternalFailure() throws Exception {
    try (LogCapture log = LogCapture.of("dev.sluice.protocol.Failures")) {
      List<LogRecord> records = log.records();
      for (String half : HALF_REQUESTS) {
        try (Socket socket = new Socket("127.0.0.1", server.endpoint.getPort())) {
          OutputStream out = socket.getOutputStream();
          out.write(half.getBytes(StandardCharsets.UTF_8));
          out.flush();
          Thread.sleep(100); // the server has started reading the body
        }
      }
      long end = System.currentTimeMillis() + 5000;
      while (records.size() < HALF_REQUESTS.size() && System.currentTimeMillis() < end) {
        Thread.sleep(20);
      }
      Thread.sleep(200); // nothing more comes
      assertEquals(List.of(), records.stream().filter(r -> r.getLevel().intValue() > Level.FINE.intValue())
          .map(r -> r.getLevel() + " " + r.getMessage() + " " + r.getThrown()).toList(), "nothing above DEBUG");
      assertEquals(HALF_REQUESTS.size(), records.size(), "each hang-up is logged at DEBUG");
      for (LogRecord r : records) {
        assertTrue(r.getThrown() == null, "no stack trace");
      }
      assertEquals(List.of(), sqs.listQueues(b -> b.queueNamePrefix("nothing-")).queueUrls(), "still serving");
    }
  }
}
