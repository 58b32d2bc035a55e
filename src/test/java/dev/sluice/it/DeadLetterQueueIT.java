package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.sqs.model.ListDeadLetterSourceQueuesResponse;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Dead-letter queues (the SQS dead-letter queues guide; AWS API reference:
 * ListDeadLetterSourceQueues): RedrivePolicy validation, moves at receive time, sources.
 */
class DeadLetterQueueIT extends SharedServerIT {
  static String fifo(String name, Map<String, String> attributes) {
    Map<String, String> all = new HashMap<>(attributes);
    all.put("FifoQueue", "true");
    return queue(name, all);
  }

  static String arn(String url) {
    return attributes(url, "QueueArn").get("QueueArn");
  }

  static Map<String, String> attributes(String url, String... names) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(names)).attributesAsStrings();
  }

  static int visible(String url) {
    return Integer.parseInt(attributes(url, "ApproximateNumberOfMessages").get("ApproximateNumberOfMessages"));
  }

  static String redrive(String targetArn, int maxReceiveCount) {
    return new JsonObject().put("deadLetterTargetArn", targetArn).put("maxReceiveCount", maxReceiveCount).encode();
  }

  static void setRedrive(String url, String policy) {
    sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("RedrivePolicy", policy)));
  }

  static List<Message> receive(String url, int max, int visibility) {
    return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max).visibilityTimeout(visibility)
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All")).messages();
  }

  static SqsException sqsError(String expectedCode, Executable call) {
    SqsException e = assertThrows(SqsException.class, call);
    assertEquals(expectedCode, e.awsErrorDetails().errorCode(), e.getMessage());
    return e;
  }

  // --- RedrivePolicy attribute -------------------------------------------------------------

  @Test
  void theRedrivePolicyRoundTripsAsJsonWithANumericMaxReceiveCount() {
    String dlq = queue("roundtrip-dlq", Map.of());
    String dlqArn = arn(dlq);
    String created = queue("roundtrip-src", Map.of("RedrivePolicy", redrive(dlqArn, 3)));
    JsonObject policy = new JsonObject(attributes(created, "RedrivePolicy").get("RedrivePolicy"));
    assertEquals(dlqArn, policy.getString("deadLetterTargetArn"));
    assertTrue(policy.getValue("maxReceiveCount") instanceof Number, policy.encode());
    assertEquals(3, policy.getInteger("maxReceiveCount"));

    String updated = queue("roundtrip-set", Map.of());
    setRedrive(updated, redrive(dlqArn, 7));
    JsonObject all = new JsonObject(attributes(updated, "All").get("RedrivePolicy"));
    assertEquals(dlqArn, all.getString("deadLetterTargetArn"));
    assertTrue(all.getValue("maxReceiveCount") instanceof Number, all.encode());
    assertEquals(7, all.getInteger("maxReceiveCount"));
  }

  @Test
  void maxReceiveCountMustBeBetweenOneAndAThousand() {
    String dlqArn = arn(queue("range-dlq", Map.of()));
    String src = queue("range-src", Map.of());
    for (int bad : new int[] {0, 1001}) {
      sqsError("InvalidParameterValue", () -> setRedrive(src, redrive(dlqArn, bad)));
      sqsError("InvalidParameterValue", () -> queue("range-created", Map.of("RedrivePolicy", redrive(dlqArn, bad))));
    }
    assertFalse(attributes(src, "All").containsKey("RedrivePolicy"));
    for (int good : new int[] {1, 1000}) {
      setRedrive(src, redrive(dlqArn, good));
      assertEquals(good, new JsonObject(attributes(src, "RedrivePolicy").get("RedrivePolicy")).getInteger("maxReceiveCount"));
    }
  }

  @Test
  void anUnparsableOrIncompletePolicyIsInvalid() {
    String src = queue("garbled-src", Map.of());
    sqsError("InvalidParameterValue", () -> setRedrive(src, "not json"));
    sqsError("InvalidParameterValue", () -> setRedrive(src, new JsonObject().put("maxReceiveCount", 2).encode()));
  }

  @Test
  void aTargetThatIsNotAQueueArnIsRejectedBeforeAnyLookup() {
    String src = queue("dummy-arn-src", Map.of());
    String policy = "{\"deadLetterTargetArn\": \"dummy\", \"maxReceiveCount\": 42}";
    SqsException e = sqsError("InvalidParameterValue", () -> setRedrive(src, policy));
    assertEquals("Value " + policy + " for parameter RedrivePolicy is invalid. Reason: Invalid value for"
        + " deadLetterTargetArn.", e.awsErrorDetails().errorMessage());
  }

  @Test
  void aQueueMayNameItselfAsItsDeadLetterQueue() {
    // As AWS accepts it (LocalStack's AWS-validated test_set_empty_redrive_policy).
    String dlq = queue("self-dlq", Map.of());
    setRedrive(dlq, redrive(arn(dlq), 42));
    assertEquals(42, new JsonObject(attributes(dlq, "RedrivePolicy").get("RedrivePolicy")).getInteger("maxReceiveCount"));
    setRedrive(dlq, "");
    assertFalse(attributes(dlq, "All").containsKey("RedrivePolicy"));
  }

  @Test
  void theTargetQueueMustExist() {
    String dlqArn = arn(queue("exists-dlq", Map.of()));
    String missingArn = dlqArn.substring(0, dlqArn.lastIndexOf(':') + 1) + "no-such-dlq";
    String src = queue("exists-src", Map.of());
    sqsError("InvalidParameterValue", () -> setRedrive(src, redrive(missingArn, 2)));
    sqsError("InvalidParameterValue", () -> queue("exists-created", Map.of("RedrivePolicy", redrive(missingArn, 2))));
  }

  @Test
  void sourceAndTargetMustBeOfTheSameQueueType() {
    String standardDlqArn = arn(queue("type-dlq", Map.of()));
    String fifoDlqArn = arn(fifo("type-dlq.fifo", Map.of()));
    String fifoSrc = fifo("type-src.fifo", Map.of());
    sqsError("InvalidParameterValue", () -> setRedrive(fifoSrc, redrive(standardDlqArn, 2)));
    String standardSrc = queue("type-src", Map.of());
    sqsError("InvalidParameterValue", () -> setRedrive(standardSrc, redrive(fifoDlqArn, 2)));
    setRedrive(fifoSrc, redrive(fifoDlqArn, 2));
  }

  @Test
  void theRedriveAllowPolicyOfTheTargetGatesItsSources() {
    String dlq = queue("allow-dlq", Map.of());
    String dlqArn = arn(dlq);
    String src = queue("allow-src", Map.of());
    String srcArn = arn(src);
    String other = queue("allow-other", Map.of());

    sqs.setQueueAttributes(b -> b.queueUrl(dlq).attributesWithStrings(Map.of("RedriveAllowPolicy",
        new JsonObject().put("redrivePermission", "denyAll").encode())));
    sqsError("InvalidParameterValue", () -> setRedrive(src, redrive(dlqArn, 2)));

    sqs.setQueueAttributes(b -> b.queueUrl(dlq).attributesWithStrings(Map.of("RedriveAllowPolicy",
        new JsonObject().put("redrivePermission", "byQueue").put("sourceQueueArns", new JsonArray().add(srcArn))
            .encode())));
    setRedrive(src, redrive(dlqArn, 2));
    assertEquals(dlqArn, new JsonObject(attributes(src, "RedrivePolicy").get("RedrivePolicy"))
        .getString("deadLetterTargetArn"));
    sqsError("InvalidParameterValue", () -> setRedrive(other, redrive(dlqArn, 2)));
  }

  @Test
  void anEmptyRedrivePolicyRemovesIt() {
    String dlq = queue("remove-dlq", Map.of());
    String src = queue("remove-src", Map.of("RedrivePolicy", redrive(arn(dlq), 2)));
    assertEquals(List.of(src), sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq)).queueUrls());
    setRedrive(src, "");
    assertFalse(attributes(src, "All").containsKey("RedrivePolicy"));
    assertFalse(attributes(src, "RedrivePolicy").containsKey("RedrivePolicy"));
    assertTrue(sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq)).queueUrls().isEmpty());
  }

  // --- moves at receive time ---------------------------------------------------------------

  @Test
  void withMaxReceiveCountOneTheSecondReceiveMovesTheMessageWithItsIdentityAndAttributes() throws Exception {
    String dlq = queue("attrs-dlq", Map.of());
    String src = queue("attrs-src", Map.of("RedrivePolicy", redrive(arn(dlq), 1)));
    String srcArn = arn(src);
    String trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    Map<String, MessageAttributeValue> userAttributes = Map.of(
        "text", MessageAttributeValue.builder().dataType("String").stringValue("Bar").build(),
        "count", MessageAttributeValue.builder().dataType("Number").stringValue("42").build());
    SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(src).messageBody("poison").messageAttributes(userAttributes)
        .messageSystemAttributes(Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
            MessageSystemAttributeValue.builder().dataType("String").stringValue(trace).build())));

    List<Message> first = receive(src, 1, 1);
    assertEquals(1, first.size());
    Map<String, String> sourceAttributes = first.get(0).attributesAsStrings();
    Thread.sleep(1100);
    assertTrue(receive(src, 1, 30).isEmpty(), "the receive after expiry moves the message instead of returning it");
    assertEquals(0, visible(src));

    Message moved = receive(dlq, 1, 30).get(0);
    assertEquals(sent.messageId(), moved.messageId());
    assertEquals("poison", moved.body());
    assertEquals(userAttributes, moved.messageAttributes());
    assertEquals(sent.md5OfMessageAttributes(), moved.md5OfMessageAttributes());
    Map<String, String> a = moved.attributesAsStrings();
    assertEquals(trace, a.get("AWSTraceHeader"));
    assertEquals(sourceAttributes.get("SentTimestamp"), a.get("SentTimestamp"));
    assertEquals(sourceAttributes.get("ApproximateFirstReceiveTimestamp"), a.get("ApproximateFirstReceiveTimestamp"));
    assertEquals(srcArn, a.get("DeadLetterQueueSourceArn"));
    assertEquals("2", a.get("ApproximateReceiveCount"));
  }

  @Test
  void aFifoSourceMovesOnTheThirdReceiveWithMaxReceiveCountTwoAndItsGroupGoesOn() {
    String dlq = fifo("fifo-dlq.fifo", Map.of());
    String src = fifo("fifo-src.fifo", Map.of("RedrivePolicy", redrive(arn(dlq), 2)));
    SendMessageResponse poison = sqs.sendMessage(b -> b.queueUrl(src).messageBody("poison").messageGroupId("g")
        .messageDeduplicationId("poison"));
    sqs.sendMessage(b -> b.queueUrl(src).messageBody("next").messageGroupId("g").messageDeduplicationId("next"));

    assertEquals(List.of("poison"), receive(src, 1, 0).stream().map(Message::body).toList());
    assertEquals(List.of("poison"), receive(src, 1, 0).stream().map(Message::body).toList());
    List<String> afterMove = new ArrayList<>(receive(src, 1, 30).stream().map(Message::body).toList());
    assertFalse(afterMove.contains("poison"), "the third receive moved the poison message: " + afterMove);
    if (afterMove.isEmpty()) {
      afterMove.addAll(receive(src, 1, 30).stream().map(Message::body).toList());
    }
    assertEquals(List.of("next"), afterMove, "the group's next message is delivered after the move");

    Message moved = receive(dlq, 1, 30).get(0);
    assertEquals(poison.messageId(), moved.messageId());
    assertEquals("poison", moved.body());
    assertEquals(arn(src), moved.attributesAsStrings().get("DeadLetterQueueSourceArn"));
    assertEquals("g", moved.attributesAsStrings().get("MessageGroupId"));
    assertEquals(moved.messageId(), moved.attributesAsStrings().get("MessageDeduplicationId"),
        "on a move to a FIFO DLQ the deduplication id becomes the MessageId");
  }

  /** The scenario: poison message to the DLQ, then a move task without destination brings it back. */
  @Test
  void aPoisonMessageLandsInTheDlqAndAMoveTaskReturnsItToItsSource() throws Exception {
    String dlq = queue("poison-dlq", Map.of());
    String dlqArn = arn(dlq);
    String src = queue("poison-src", Map.of("RedrivePolicy", redrive(dlqArn, 2)));
    String originalId = sqs.sendMessage(b -> b.queueUrl(src).messageBody("poison pill")).messageId();

    assertEquals(1, receive(src, 1, 1).size());
    Thread.sleep(1100);
    List<Message> second = receive(src, 1, 1);
    assertEquals(1, second.size());
    assertEquals("2", second.get(0).attributesAsStrings().get("ApproximateReceiveCount"));
    Thread.sleep(1100);
    assertTrue(receive(src, 1, 30).isEmpty(), "the third receive attempt moves the message to the DLQ");
    assertEquals(1, visible(dlq));

    String handle = sqs.startMessageMoveTask(b -> b.sourceArn(dlqArn)).taskHandle();
    assertNotNull(handle);
    ListMessageMoveTasksResultEntry done = awaitCompleted(dlqArn, 10_000);
    assertEquals(1L, done.approximateNumberOfMessagesMoved());
    assertEquals(0, visible(dlq));

    List<Message> back = receive(src, 1, 30);
    assertEquals(1, back.size());
    assertEquals("poison pill", back.get(0).body());
    assertNotEquals(originalId, back.get(0).messageId(), "a moved message is a new message");
  }

  static ListMessageMoveTasksResultEntry awaitCompleted(String sourceArn, long maxMillis) throws Exception {
    long deadline = System.currentTimeMillis() + maxMillis;
    ListMessageMoveTasksResultEntry last = null;
    while (System.currentTimeMillis() < deadline) {
      List<ListMessageMoveTasksResultEntry> results =
          sqs.listMessageMoveTasks(b -> b.sourceArn(sourceArn).maxResults(1)).results();
      if (!results.isEmpty()) {
        last = results.get(0);
        if ("COMPLETED".equals(last.status())) {
          return last;
        }
      }
      Thread.sleep(100);
    }
    return fail("the move task did not complete within " + maxMillis + " ms; last seen " + last);
  }

  // --- ListDeadLetterSourceQueues ----------------------------------------------------------

  @Test
  void listDeadLetterSourceQueuesNamesTheQueuesThatTargetIt() {
    String dlq = queue("sources-dlq", Map.of());
    String policy = redrive(arn(dlq), 5);
    String a = queue("sources-a", Map.of("RedrivePolicy", policy));
    String b = queue("sources-b", Map.of());
    setRedrive(b, policy);
    queue("sources-unrelated", Map.of());
    assertEquals(Set.of(a, b), Set.copyOf(sqs.listDeadLetterSourceQueues(r -> r.queueUrl(dlq)).queueUrls()));
  }

  @Test
  void aQueueNobodyTargetsHasAnEmptySourceList() {
    String lonely = queue("sources-none", Map.of());
    ListDeadLetterSourceQueuesResponse r = sqs.listDeadLetterSourceQueues(b -> b.queueUrl(lonely));
    assertTrue(r.queueUrls().isEmpty());
    assertTrue(r.hasQueueUrls(), "queueUrls is always present, even when empty");
    assertNull(r.nextToken());
  }

  @Test
  void listDeadLetterSourceQueuesOfAMissingQueueIsQueueDoesNotExist() {
    assertThrows(QueueDoesNotExistException.class,
        () -> sqs.listDeadLetterSourceQueues(b -> b.queueUrl(server.queueUrl("sources-missing"))));
  }

  @Test
  void listDeadLetterSourceQueuesPages() {
    String dlq = queue("pages-dlq", Map.of());
    String policy = redrive(arn(dlq), 5);
    Set<String> expected = Set.of(queue("pages-a", Map.of("RedrivePolicy", policy)),
        queue("pages-b", Map.of("RedrivePolicy", policy)), queue("pages-c", Map.of("RedrivePolicy", policy)));
    List<String> seen = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      String t = token;
      ListDeadLetterSourceQueuesResponse page =
          sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq).maxResults(1).nextToken(t));
      assertEquals(1, page.queueUrls().size());
      seen.addAll(page.queueUrls());
      token = page.nextToken();
      pages++;
      if (pages < 3) {
        assertNotNull(token, "more sources remain after page " + pages);
      }
    } while (token != null && pages < 5);
    assertEquals(3, pages, "the last page carries no NextToken");
    assertEquals(3, seen.size());
    assertEquals(expected, Set.copyOf(seen));
  }
}
