package dev.sluice.it;

import static dev.sluice.it.TriggerAdminClient.queueArn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/**
 * Triggers through a real Java Lambda handler ({@link SqsBatchHandler}: a
 * {@code RequestHandler<SQSEvent, SQSBatchResponse>} on AWS's event classes), its event read and
 * its answer written by AWS's serializer, on the emulator's invoke path ({@link LambdaInvokeEndpoint}),
 * so that the trigger speaks protocol {@code lambda}; the SDK v2 client sends and inspects. It proves
 * that every field arrives where the official classes look for it, with Lambda's values: ids, a
 * receipt handle that works, the body, the system attributes, String, Number and Binary message
 * attributes (the binary bytes intact), both MD5s, eventSource, eventSourceARN (Lambda's capitals,
 * which only the serializer's mix-in maps), awsRegion, and a FIFO queue's group, deduplication id and
 * sequence number; that the records a handler names in its SQSBatchResponse come back while the
 * rest are deleted, until maxReceiveCount puts them in the dead-letter queue; and that a handler
 * that throws fails its whole batch.
 */
class LambdaJavaHandlerIT {
  static final String TOKEN = "t0ken";
  static final SqsBatchHandler handler = new SqsBatchHandler();
  static LambdaInvokeEndpoint<SQSEvent, SQSBatchResponse> function;
  static PackagedServer server;
  static SqsClient sqs;
  static TriggerAdminClient admin;

  @BeforeAll
  static void start() throws Exception {
    function = LambdaInvokeEndpoint.start(handler, SQSEvent.class, SQSBatchResponse.class);
    server = PackagedServer.start("java-handler-", Map.of("SLUICE_MANAGEMENT_TOKEN", TOKEN));
    sqs = server.sqs("AKID", "secret");
    admin = new TriggerAdminClient(server.endpoint, TOKEN);
  }

  @AfterAll
  static void stop() throws Exception {
    sqs.close();
    server.close();
    function.close();
  }

  /** A trigger on {@code queueName} invoking the handler, which reports batch item failures. */
  static String trigger(String queueName) throws Exception {
    return admin.lambdaTrigger(queueName, function.url());
  }

  static String queue(String name, Map<QueueAttributeName, String> attributes) {
    return sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
  }

  static SQSMessage only(List<SQSMessage> batch) {
    assertNotNull(batch, "the handler was invoked");
    assertEquals(1, batch.size());
    return batch.get(0);
  }

  @Test
  void everyFieldOfAStandardQueueArrivesWhereTheEventClassesLookForIt() throws Exception {
    String url = queue("java-fields", Map.of());
    // A body the handler reports as failed, so that the test can delete it with the handle the handler saw.
    String body = "fail {\"note\":\"ü ✓ \\\"quoted\\\" \\\\ and a\\nnew line\"}\t\uD83D\uDE00";
    byte[] bytes = {0, 1, 2, (byte) 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};
    long before = System.currentTimeMillis();
    SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageAttributes(Map.of(
        "color", MessageAttributeValue.builder().dataType("String").stringValue("blue").build(),
        "price", MessageAttributeValue.builder().dataType("Number").stringValue("3.14").build(),
        "count", MessageAttributeValue.builder().dataType("Number.int").stringValue("7").build(),
        "blob", MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromByteArray(bytes)).build())));
    long after = System.currentTimeMillis();
    String uuid = trigger("java-fields");
    SQSMessage m = only(handler.next(queueArn("java-fields"), 10));

    assertEquals(sent.messageId(), m.getMessageId());
    assertEquals(body, m.getBody());
    assertEquals(sent.md5OfMessageBody(), m.getMd5OfBody());
    assertEquals(sent.md5OfMessageAttributes(), m.getMd5OfMessageAttributes());
    assertEquals("aws:sqs", m.getEventSource());
    assertEquals(queueArn("java-fields"), m.getEventSourceArn());
    assertEquals("us-east-1", m.getAwsRegion());

    Map<String, String> a = m.getAttributes();
    assertEquals(Set.of("ApproximateReceiveCount", "SentTimestamp", "SenderId", "ApproximateFirstReceiveTimestamp"),
        a.keySet());
    assertEquals("1", a.get("ApproximateReceiveCount"));
    assertEquals("AKID", a.get("SenderId"), "the signing access key id, as SQS records it");
    long sentAt = Long.parseLong(a.get("SentTimestamp"));
    assertTrue(before <= sentAt && sentAt <= after, sentAt + " not in [" + before + ", " + after + "]");
    long firstReceive = Long.parseLong(a.get("ApproximateFirstReceiveTimestamp"));
    assertTrue(sentAt <= firstReceive && firstReceive <= System.currentTimeMillis(), a.toString());

    Map<String, SQSEvent.MessageAttribute> attributes = m.getMessageAttributes();
    assertEquals(Set.of("color", "price", "count", "blob"), attributes.keySet());
    assertStringAttribute("String", "blue", attributes.get("color"));
    assertStringAttribute("Number", "3.14", attributes.get("price"));
    assertStringAttribute("Number.int", "7", attributes.get("count"));
    SQSEvent.MessageAttribute blob = attributes.get("blob");
    assertEquals("Binary", blob.getDataType());
    assertNull(blob.getStringValue());
    ByteBuffer binary = blob.getBinaryValue();
    byte[] got = new byte[binary.remaining()];
    binary.get(got);
    assertArrayEquals(bytes, got, "the serializer decoded the base64 binaryValue to the bytes sent");
    assertEquals(List.of(), blob.getStringListValues());
    assertEquals(List.of(), blob.getBinaryListValues());

    // The handle the handler was given is the live receipt: SQS deletes the message with it.
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.getReceiptHandle()));
    awaitEmpty(url);
    admin.delete(uuid);
  }

  static void assertStringAttribute(String dataType, String value, SQSEvent.MessageAttribute a) {
    assertEquals(dataType, a.getDataType());
    assertEquals(value, a.getStringValue());
    assertNull(a.getBinaryValue());
    assertEquals(List.of(), a.getStringListValues());
    assertEquals(List.of(), a.getBinaryListValues());
  }

  @Test
  void aFifoQueuesGroupDeduplicationIdAndSequenceNumberArrive() throws Exception {
    String url = queue("java-fields.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true"));
    SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("in order")
        .messageGroupId("group-1").messageDeduplicationId("dedup-1"));
    String uuid = trigger("java-fields.fifo");
    SQSMessage m = only(handler.next(queueArn("java-fields.fifo"), 10));
    assertEquals(sent.messageId(), m.getMessageId());
    assertEquals(queueArn("java-fields.fifo"), m.getEventSourceArn());
    Map<String, String> a = m.getAttributes();
    assertEquals(Set.of("ApproximateReceiveCount", "SentTimestamp", "SequenceNumber", "MessageGroupId", "SenderId",
        "MessageDeduplicationId", "ApproximateFirstReceiveTimestamp"), a.keySet());
    assertEquals(sent.sequenceNumber(), a.get("SequenceNumber"));
    assertEquals("group-1", a.get("MessageGroupId"));
    assertEquals("dedup-1", a.get("MessageDeduplicationId"));
    assertEquals("AKID", a.get("SenderId"));
    assertEquals(Map.of(), m.getMessageAttributes());
    assertNull(m.getMd5OfMessageAttributes(), "absent when there are no message attributes");
    awaitEmpty(url);
    admin.delete(uuid);
  }

  @Test
  void reportedFailuresComeBackTheRestAreDeletedAndTheDeadLetterQueueTakesWhatKeepsFailing() throws Exception {
    String dlq = queue("java-partial-dlq", Map.of());
    String url = queue("java-partial", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2",
        QueueAttributeName.REDRIVE_POLICY, "{\"deadLetterTargetArn\":\"" + queueArn("java-partial-dlq")
            + "\",\"maxReceiveCount\":\"2\"}"));
    Map<String, String> ids = send(url, "ok-1", "fail-1", "ok-2", "fail-2");
    String uuid = trigger("java-partial");
    // body -> the receive counts it was handed to the handler with
    Map<String, List<String>> seen = new HashMap<>();
    long deadline = System.currentTimeMillis() + 15_000;
    while (System.currentTimeMillis() < deadline
        && !(seen.getOrDefault("fail-1", List.of()).size() == 2 && seen.getOrDefault("fail-2", List.of()).size() == 2)) {
      List<SQSMessage> batch = handler.next(queueArn("java-partial"), 1);
      if (batch != null) {
        batch.forEach(m -> seen.computeIfAbsent(m.getBody(), k -> new ArrayList<>())
            .add(m.getAttributes().get("ApproximateReceiveCount")));
      }
    }
    assertEquals(Map.of("ok-1", List.of("1"), "ok-2", List.of("1"), "fail-1", List.of("1", "2"),
        "fail-2", List.of("1", "2")), seen, "the reported records came back, the rest were deleted");

    Map<String, String> dead = new HashMap<>();
    long until = System.currentTimeMillis() + 10_000;
    while (dead.size() < 2 && System.currentTimeMillis() < until) {
      for (Message m : sqs.receiveMessage(b -> b.queueUrl(dlq).waitTimeSeconds(1).maxNumberOfMessages(10)).messages()) {
        dead.put(m.body(), m.messageId());
      }
    }
    assertEquals(Map.of("fail-1", ids.get("fail-1"), "fail-2", ids.get("fail-2")), dead,
        "after maxReceiveCount failures the messages are in the dead-letter queue, under their ids");
    awaitEmpty(url);
    assertNull(handler.next(queueArn("java-partial"), 0), "nothing more was handed to the handler");
    admin.delete(uuid);
  }

  @Test
  void aHandlerThatThrowsFailsItsWholeBatch() throws Exception {
    String url = queue("java-throws", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2"));
    send(url, "ok-3", "throw-once");
    String uuid = trigger("java-throws");
    List<SQSMessage> first = handler.next(queueArn("java-throws"), 10);
    assertNotNull(first);
    assertEquals(Set.of("ok-3", "throw-once"), bodies(first), "one receive took both");
    // Both come back after the visibility timeout, in one batch or two, on their second receive.
    Map<String, String> again = new HashMap<>();
    long deadline = System.currentTimeMillis() + 10_000;
    while (again.size() < 2 && System.currentTimeMillis() < deadline) {
      List<SQSMessage> batch = handler.next(queueArn("java-throws"), 1);
      if (batch != null) {
        batch.forEach(m -> again.put(m.getBody(), m.getAttributes().get("ApproximateReceiveCount")));
      }
    }
    assertEquals(Map.of("ok-3", "2", "throw-once", "2"), again, "a record the handler never failed came back too");
    awaitEmpty(url);
    JsonObject status = admin.get(uuid);
    assertEquals("function_error", status.getJsonObject("LastError").getString("Kind"), status.encode());
    assertEquals("OK", status.getString("LastProcessingResult"), "the second invoke succeeded");
    admin.delete(uuid);
  }

  static Set<String> bodies(List<SQSMessage> batch) {
    return Set.copyOf(batch.stream().map(SQSMessage::getBody).toList());
  }

  /** Sends {@code bodies} in one batch; answers each body's message id. */
  static Map<String, String> send(String url, String... bodies) {
    List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
    for (int i = 0; i < bodies.length; i++) {
      entries.add(SendMessageBatchRequestEntry.builder().id("m" + i).messageBody(bodies[i]).build());
    }
    Map<String, String> ids = new HashMap<>();
    sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries)).successful()
        .forEach(s -> ids.put(bodies[Integer.parseInt(s.id().substring(1))], s.messageId()));
    assertEquals(bodies.length, ids.size());
    return ids;
  }

  /** Waits until the queue holds no message, visible or in flight. */
  static void awaitEmpty(String url) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    Map<String, String> a = Map.of();
    while (System.currentTimeMillis() < deadline) {
      a = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("ApproximateNumberOfMessages",
          "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed")).attributesAsStrings();
      if (a.values().stream().allMatch("0"::equals)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(url + " still holds messages: " + a);
  }
}
