package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.InvalidAttributeNameException;
import software.amazon.awssdk.services.sqs.model.InvalidAttributeValueException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * FIFO queues (the SQS FIFO queues guide): creation rules, send validation, group ordering and locks,
 * deduplication.
 */
class FifoQueueIT extends SharedServerIT {
  static SqsAsyncClient async;

  @BeforeAll
  static void startAsyncClient() {
    async = server.asyncClient(4);
  }

  @AfterAll
  static void stopAsyncClient() {
    async.close();
  }

  /** Creates a FIFO queue; {@code name} must end in ".fifo". */
  static String fifo(String name, Map<String, String> attributes) {
    Map<String, String> all = new HashMap<>(attributes);
    all.put("FifoQueue", "true");
    return sqs.createQueue(b -> b.queueName(name).attributesWithStrings(all)).queueUrl();
  }

  /** Sends with the body doubling as the explicit deduplication id. */
  static SendMessageResponse send(String url, String group, String body) {
    return sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageGroupId(group).messageDeduplicationId(body));
  }

  static List<Message> receive(String url, int max, int visibility) {
    return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max).visibilityTimeout(visibility)
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All")).messages();
  }

  static List<String> bodies(List<Message> messages) {
    return messages.stream().map(Message::body).toList();
  }

  static Map<String, String> attributes(String url, String... names) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(names)).attributesAsStrings();
  }

  static SqsException sqsError(String expectedCode, org.junit.jupiter.api.function.Executable call) {
    SqsException e = assertThrows(SqsException.class, call);
    assertEquals(expectedCode, e.awsErrorDetails().errorCode(), e.getMessage());
    return e;
  }

  static String sha256Hex(String body) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
  }

  // --- creation and attributes -------------------------------------------------------------

  @Test
  void aFifoNameWithoutFifoQueueTrueIsInvalid() {
    sqsError("InvalidParameterValue", () -> sqs.createQueue(b -> b.queueName("suffix-only.fifo")));
  }

  @Test
  void fifoQueueTrueWithoutTheFifoSuffixIsInvalid() {
    sqsError("InvalidParameterValue", () -> sqs.createQueue(b -> b.queueName("no-suffix")
        .attributesWithStrings(Map.of("FifoQueue", "true"))));
  }

  @Test
  void aFreshFifoQueueHasTheSixteenDefaultAttributes() {
    String url = fifo("defaults.fifo", Map.of());
    Map<String, String> a = attributes(url, "All");
    assertEquals(Set.of("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed",
        "ApproximateNumberOfMessagesNotVisible", "CreatedTimestamp", "DelaySeconds", "LastModifiedTimestamp",
        "MaximumMessageSize", "MessageRetentionPeriod", "QueueArn", "ReceiveMessageWaitTimeSeconds",
        "SqsManagedSseEnabled", "VisibilityTimeout", "ContentBasedDeduplication", "DeduplicationScope", "FifoQueue",
        "FifoThroughputLimit"), a.keySet());
    assertEquals("0", a.get("ApproximateNumberOfMessages"));
    assertEquals("0", a.get("ApproximateNumberOfMessagesDelayed"));
    assertEquals("0", a.get("ApproximateNumberOfMessagesNotVisible"));
    assertEquals("0", a.get("DelaySeconds"));
    assertEquals("1048576", a.get("MaximumMessageSize"));
    assertEquals("345600", a.get("MessageRetentionPeriod"));
    assertEquals("0", a.get("ReceiveMessageWaitTimeSeconds"));
    assertEquals("true", a.get("SqsManagedSseEnabled"));
    assertEquals("30", a.get("VisibilityTimeout"));
    assertEquals("false", a.get("ContentBasedDeduplication"));
    assertEquals("queue", a.get("DeduplicationScope"));
    assertEquals("true", a.get("FifoQueue"));
    assertEquals("perQueue", a.get("FifoThroughputLimit"));
    assertTrue(a.get("QueueArn").startsWith("arn:aws:sqs:"), a.get("QueueArn"));
    assertTrue(a.get("QueueArn").endsWith(":000000000000:defaults.fifo"), a.get("QueueArn"));
    Long.parseLong(a.get("CreatedTimestamp"));
    Long.parseLong(a.get("LastModifiedTimestamp"));
  }

  @Test
  void aStandardQueueRejectsFifoOnlyAttributesAsUnknown() {
    // FifoQueue=true on such a name is a name error instead (AWS API reference: CreateQueue), tested above.
    for (String value : List.of("false")) {
      InvalidAttributeNameException e = assertThrows(InvalidAttributeNameException.class, () -> sqs.createQueue(b -> b
          .queueName("standard-fifo-attr").attributesWithStrings(Map.of("FifoQueue", value))));
      assertEquals("InvalidAttributeName", e.awsErrorDetails().errorCode());
      assertEquals("Unknown Attribute FifoQueue.", e.awsErrorDetails().errorMessage());
    }
    Map<String, String> texts = Map.of(
        "ContentBasedDeduplication", "Unknown Attribute ContentBasedDeduplication.",
        "DeduplicationScope", "You can specify the DeduplicationScope only when FifoQueue is set to true.",
        "FifoThroughputLimit", "You can specify the FifoThroughputLimit only when FifoQueue is set to true.");
    Map<String, String> values = Map.of("ContentBasedDeduplication", "true", "DeduplicationScope", "messageGroup",
        "FifoThroughputLimit", "perMessageGroupId");
    texts.forEach((name, text) -> {
      InvalidAttributeNameException e = assertThrows(InvalidAttributeNameException.class, () -> sqs.createQueue(b -> b
          .queueName("standard-fifo-attr").attributesWithStrings(Map.of(name, values.get(name)))));
      assertEquals(text, e.awsErrorDetails().errorMessage());
    });
  }

  @Test
  void perMessageGroupThroughputRequiresMessageGroupDeduplicationScope() {
    InvalidAttributeValueException implicitScope = assertThrows(InvalidAttributeValueException.class,
        () -> fifo("throughput-bad.fifo", Map.of("FifoThroughputLimit", "perMessageGroupId")));
    assertEquals("InvalidAttributeValue", implicitScope.awsErrorDetails().errorCode());
    assertThrows(InvalidAttributeValueException.class, () -> fifo("throughput-bad.fifo",
        Map.of("FifoThroughputLimit", "perMessageGroupId", "DeduplicationScope", "queue")));
    String url = fifo("throughput-high.fifo",
        Map.of("FifoThroughputLimit", "perMessageGroupId", "DeduplicationScope", "messageGroup"));
    Map<String, String> a = attributes(url, "FifoThroughputLimit", "DeduplicationScope");
    assertEquals("perMessageGroupId", a.get("FifoThroughputLimit"));
    assertEquals("messageGroup", a.get("DeduplicationScope"));
  }

  @Test
  void theQueueTypeOfAFifoQueueCannotBeChanged() {
    String url = fifo("type-fixed.fifo", Map.of());
    sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("FifoQueue", "true")));
    InvalidAttributeValueException e = assertThrows(InvalidAttributeValueException.class, () -> sqs
        .setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("FifoQueue", "false"))));
    assertEquals("Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
        e.awsErrorDetails().errorMessage());
    assertEquals("true", attributes(url, "FifoQueue").get("FifoQueue"));
  }

  // --- send validation ---------------------------------------------------------------------

  @Test
  void sendWithoutMessageGroupIdIsMissingParameter() {
    String url = fifo("no-group.fifo", Map.of("ContentBasedDeduplication", "true"));
    SqsException e = sqsError("MissingParameter", () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x")));
    assertEquals("The request must contain the parameter MessageGroupId.", e.awsErrorDetails().errorMessage());
  }

  @Test
  void aBatchEntryWithoutMessageGroupIdFailsTheWholeRequestAsInvalidParameterValue() {
    String url = fifo("batch-no-group.fifo", Map.of("ContentBasedDeduplication", "true"));
    SqsException e = sqsError("InvalidParameterValue", () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
        SendMessageBatchRequestEntry.builder().id("with").messageBody("with group").messageGroupId("g").build(),
        SendMessageBatchRequestEntry.builder().id("without").messageBody("without group").build())));
    assertEquals("The request must contain the parameter MessageGroupId.", e.awsErrorDetails().errorMessage());
    assertTrue(receive(url, 10, 30).isEmpty(), "no entry of the rejected batch was enqueued");
  }

  @Test
  void withoutDeduplicationIdOrContentBasedDeduplicationASendIsInvalid() {
    String url = fifo("no-dedup.fifo", Map.of());
    String text = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly";
    SqsException single = sqsError("InvalidParameterValue",
        () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageGroupId("g")));
    assertEquals(text, single.awsErrorDetails().errorMessage());
    SqsException batch = sqsError("InvalidParameterValue", () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
        SendMessageBatchRequestEntry.builder().id("a").messageBody("x").messageGroupId("g").build())));
    assertEquals(text, batch.awsErrorDetails().errorMessage());
    assertTrue(receive(url, 10, 30).isEmpty());
  }

  @Test
  void aPerMessageDelayIsRejectedButZeroIsAcceptedAndTheQueueDelayStillApplies() throws Exception {
    String url = fifo("delay.fifo", Map.of("DelaySeconds", "1"));
    SqsException e = sqsError("InvalidParameterValue", () -> sqs.sendMessage(b -> b.queueUrl(url)
        .messageBody("delayed").messageGroupId("g").messageDeduplicationId("d1").delaySeconds(2)));
    assertEquals("Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.",
        e.awsErrorDetails().errorMessage());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("zero").messageGroupId("g").messageDeduplicationId("d2")
        .delaySeconds(0));
    assertTrue(receive(url, 10, 30).isEmpty(), "the queue delay applies to a DelaySeconds=0 send");
    assertEquals("1", attributes(url, "ApproximateNumberOfMessagesDelayed").get("ApproximateNumberOfMessagesDelayed"));
    Thread.sleep(1100);
    assertEquals(List.of("zero"), bodies(receive(url, 10, 30)));
  }

  // --- sequence numbers and system attributes ----------------------------------------------

  @Test
  void sequenceNumbersAreStrictlyIncreasingOnFifoAndAbsentOnStandard() {
    String url = fifo("sequence.fifo", Map.of());
    List<String> sequence = new ArrayList<>();
    sequence.add(send(url, "s1", "seq-1").sequenceNumber());
    sequence.add(send(url, "s2", "seq-2").sequenceNumber());
    sequence.add(send(url, "s1", "seq-3").sequenceNumber());
    SendMessageBatchResponse batch = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
        SendMessageBatchRequestEntry.builder().id("b1").messageBody("seq-4").messageGroupId("s2")
            .messageDeduplicationId("seq-4").build(),
        SendMessageBatchRequestEntry.builder().id("b2").messageBody("seq-5").messageGroupId("s2")
            .messageDeduplicationId("seq-5").build()));
    assertEquals(2, batch.successful().size());
    Map<String, String> byId = new HashMap<>();
    for (SendMessageBatchResultEntry r : batch.successful()) {
      byId.put(r.id(), r.sequenceNumber());
    }
    sequence.add(byId.get("b1"));
    sequence.add(byId.get("b2"));
    BigInteger previous = null;
    for (String s : sequence) {
      assertNotNull(s, "every FIFO send returns a SequenceNumber");
      assertTrue(s.matches("[0-9]+"), s);
      BigInteger n = new BigInteger(s);
      if (previous != null) {
        assertTrue(n.compareTo(previous) > 0, sequence.toString());
      }
      previous = n;
    }

    String standard = sqs.createQueue(b -> b.queueName("sequence-standard")).queueUrl();
    assertNull(sqs.sendMessage(b -> b.queueUrl(standard).messageBody("x")).sequenceNumber());
    SendMessageBatchResponse standardBatch = sqs.sendMessageBatch(b -> b.queueUrl(standard).entries(
        SendMessageBatchRequestEntry.builder().id("a").messageBody("y").build()));
    assertNull(standardBatch.successful().get(0).sequenceNumber());
    Message m = receive(standard, 1, 30).get(0);
    assertFalse(m.attributesAsStrings().containsKey("SequenceNumber"));
    assertFalse(m.attributesAsStrings().containsKey("MessageDeduplicationId"));
  }

  @Test
  void aReceivedFifoMessageCarriesGroupDeduplicationIdAndSequenceNumber() {
    String url = fifo("sysattrs.fifo", Map.of());
    SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("attrs").messageGroupId("the-group")
        .messageDeduplicationId("the-dedup-id"));
    Message m = receive(url, 1, 30).get(0);
    assertEquals(sent.messageId(), m.messageId());
    Map<String, String> a = m.attributesAsStrings();
    assertEquals("the-group", a.get("MessageGroupId"));
    assertEquals("the-dedup-id", a.get("MessageDeduplicationId"));
    assertEquals(sent.sequenceNumber(), a.get("SequenceNumber"));
    assertEquals("1", a.get("ApproximateReceiveCount"));
    assertTrue(a.containsKey("SentTimestamp"));
    assertTrue(a.containsKey("SenderId"));
    assertTrue(a.containsKey("ApproximateFirstReceiveTimestamp"));
  }

  // --- ordering and group locks ------------------------------------------------------------

  @Test
  void aGroupDeliversOneMessageAtATimeUntilTheInFlightOneIsDeleted() {
    String url = fifo("group-lock.fifo", Map.of());
    for (String body : List.of("message-1", "message-2", "message-3")) {
      send(url, "group1", body);
    }
    Message first = receive(url, 1, 30).get(0);
    assertEquals("message-1", first.body());
    assertTrue(receive(url, 1, 30).isEmpty(), "message 2 waits behind the in-flight message 1");
    assertTrue(receive(url, 10, 30).isEmpty(), "and so does message 3");
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(first.receiptHandle()));
    assertEquals(List.of("message-2"), bodies(receive(url, 1, 30)));
  }

  @Test
  void singleReceivesTakeTheFirstMessageOfEachGroupInTurn() {
    String url = fifo("divide.fifo", Map.of());
    send(url, "divide-group1", "group1-m1");
    send(url, "divide-group1", "group1-m2");
    send(url, "divide-group2", "group2-m1");
    send(url, "divide-group3", "group3-m1");
    List<String> got = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      List<Message> one = receive(url, 1, 30);
      assertEquals(1, one.size(), "receive " + (i + 1) + " after " + got);
      got.add(one.get(0).body());
    }
    assertEquals(List.of("group1-m1", "group2-m1", "group3-m1"), got);
    assertTrue(receive(url, 1, 30).isEmpty(), "group1-m2 is blocked by group1-m1");
  }

  @Test
  void aReceiveFillsFromOneGroupFirstInSendOrder() {
    String url = fifo("group-first.fifo", Map.of());
    send(url, "g1", "g1-m1");
    send(url, "g2", "g2-m1");
    send(url, "g1", "g1-m2");
    send(url, "g1", "g1-m3");
    assertEquals(List.of("g1-m1", "g1-m2", "g1-m3", "g2-m1"), bodies(receive(url, 10, 30)));
  }

  @Test
  void anInFlightMessageBlocksItsGroupWhileOtherGroupsAreServed() {
    String url = fifo("blocked.fifo", Map.of());
    send(url, "a", "a-1");
    send(url, "a", "a-2");
    send(url, "b", "b-1");
    Message a1 = receive(url, 1, 30).get(0);
    assertEquals("a-1", a1.body());
    assertEquals(List.of("b-1"), bodies(receive(url, 10, 30)), "a-2 stays behind a-1; group b is served");
    assertTrue(receive(url, 10, 30).isEmpty());
    sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(a1.receiptHandle()).visibilityTimeout(0));
    Message again = receive(url, 1, 30).get(0);
    assertEquals("a-1", again.body(), "the earlier message comes back before a-2");
    assertEquals("2", again.attributesAsStrings().get("ApproximateReceiveCount"));
  }

  @Test
  void deletingTheInFlightMessageWakesALongPollWaitingOnItsGroup() throws Exception {
    String url = fifo("unlock-wait.fifo", Map.of());
    send(url, "g", "first");
    send(url, "g", "second");
    Message first = receive(url, 1, 30).get(0);
    assertEquals("first", first.body());
    CompletableFuture<ReceiveMessageResponse> parked =
        async.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5).maxNumberOfMessages(1));
    Thread.sleep(300);
    assertFalse(parked.isDone(), "the long poll waits while the group is locked");
    long deletedAt = System.nanoTime();
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(first.receiptHandle()));
    List<Message> got = parked.get(4, TimeUnit.SECONDS).messages();
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deletedAt);
    assertEquals(List.of("second"), bodies(got));
    assertTrue(tookMillis < 1000, "answered " + tookMillis + " ms after the delete");
  }

  @Test
  void theVisibleCountIncludesMessagesBlockedBehindLockedGroups() {
    String url = fifo("counts.fifo", Map.of());
    for (String group : List.of("n1", "n2", "n3")) {
      send(url, group, group + "-1");
      send(url, group, group + "-2");
    }
    assertEquals(1, receive(url, 1, 30).size());
    assertEquals(1, receive(url, 1, 30).size());
    Map<String, String> a = attributes(url, "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible");
    assertEquals("4", a.get("ApproximateNumberOfMessages"));
    assertEquals("2", a.get("ApproximateNumberOfMessagesNotVisible"));
  }

  @Test
  void retryingAReceiveWithTheSameAttemptIdReturnsTheSameMessagesAndHandles() {
    String url = fifo("attempt.fifo", Map.of());
    send(url, "r", "r-1");
    send(url, "r", "r-2");
    List<Message> first = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
        .receiveRequestAttemptId("attempt-1")).messages();
    assertEquals(List.of("r-1", "r-2"), bodies(first));
    List<Message> retry = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
        .receiveRequestAttemptId("attempt-1")).messages();
    assertEquals(first.stream().map(Message::messageId).toList(), retry.stream().map(Message::messageId).toList());
    assertEquals(first.stream().map(Message::receiptHandle).toList(),
        retry.stream().map(Message::receiptHandle).toList());
    assertTrue(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).receiveRequestAttemptId("attempt-2"))
        .messages().isEmpty(), "a different attempt id is a fresh receive and the group is locked");
  }

  // --- deduplication -----------------------------------------------------------------------

  @Test
  void anExplicitDeduplicationIdAdmitsOneMessageEvenAfterItIsDeleted() {
    String url = fifo("dedup-explicit.fifo", Map.of());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("original").messageGroupId("g").messageDeduplicationId("same-id"));
    SendMessageResponse duplicate = sqs.sendMessage(b -> b.queueUrl(url).messageBody("duplicate").messageGroupId("g")
        .messageDeduplicationId("same-id"));
    assertNotNull(duplicate.messageId(), "a duplicate send succeeds");
    List<Message> got = receive(url, 10, 30);
    assertEquals(List.of("original"), bodies(got));
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("after delete").messageGroupId("g")
        .messageDeduplicationId("same-id"));
    assertTrue(receive(url, 10, 30).isEmpty(), "still a duplicate after the original was deleted");
    assertEquals("0", attributes(url, "ApproximateNumberOfMessages").get("ApproximateNumberOfMessages"));
  }

  @Test
  void contentBasedDeduplicationKeysOnTheBodyHashAndAnExplicitIdWins() throws Exception {
    String url = fifo("dedup-content.fifo", Map.of("ContentBasedDeduplication", "true"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("same body").messageGroupId("g"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("same body").messageGroupId("g"));
    List<Message> got = receive(url, 10, 30);
    assertEquals(List.of("same body"), bodies(got));
    assertTrue(sha256Hex("same body").equalsIgnoreCase(got.get(0).attributesAsStrings().get("MessageDeduplicationId")),
        got.get(0).attributesAsStrings().toString());
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("same body").messageGroupId("g"));
    assertTrue(receive(url, 10, 30).isEmpty(), "still a duplicate after the original was deleted");
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("same body").messageGroupId("g")
        .messageDeduplicationId("explicit"));
    List<Message> explicit = receive(url, 10, 30);
    assertEquals(List.of("same body"), bodies(explicit), "an explicit id replaces the body hash");
    assertEquals("explicit", explicit.get(0).attributesAsStrings().get("MessageDeduplicationId"));
  }

  @Test
  void queueScopeDeduplicatesAcrossGroups() {
    String url = fifo("scope-queue.fifo", Map.of());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("in g1").messageGroupId("g1").messageDeduplicationId("d"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("in g2").messageGroupId("g2").messageDeduplicationId("d"));
    assertEquals(List.of("in g1"), bodies(receive(url, 10, 30)));
    assertTrue(receive(url, 10, 30).isEmpty());
  }

  @Test
  void messageGroupScopeDeduplicatesOnlyWithinAGroup() {
    String url = fifo("scope-group.fifo", Map.of("DeduplicationScope", "messageGroup"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("in g1").messageGroupId("g1").messageDeduplicationId("d"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("in g2").messageGroupId("g2").messageDeduplicationId("d"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("again in g1").messageGroupId("g1").messageDeduplicationId("d"));
    List<String> got = new ArrayList<>(bodies(receive(url, 10, 30)));
    got.addAll(bodies(receive(url, 10, 30)));
    assertEquals(Set.of("in g1", "in g2"), Set.copyOf(got));
    assertEquals(2, got.size());
  }

  @Test
  void purgeClearsTheDeduplicationHistory() {
    String url = fifo("purge-dedup.fifo", Map.of());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("before purge").messageGroupId("g").messageDeduplicationId("p"));
    sqs.purgeQueue(b -> b.queueUrl(url));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("after purge").messageGroupId("g").messageDeduplicationId("p"));
    assertEquals(List.of("after purge"), bodies(receive(url, 10, 30)));
  }

  // --- receipt handles ---------------------------------------------------------------------

  @Test
  void deletingWithAnExpiredReceiptHandleIsInvalidUnlessTheVisibilityWasExtended() throws Exception {
    String url = fifo("expired-handle.fifo", Map.of());
    send(url, "x", "expires");
    send(url, "y", "extended");
    List<Message> got = receive(url, 10, 1);
    assertEquals(Set.of("expires", "extended"), Set.copyOf(bodies(got)));
    Message expires = got.stream().filter(m -> m.body().equals("expires")).findFirst().orElseThrow();
    Message extended = got.stream().filter(m -> m.body().equals("extended")).findFirst().orElseThrow();
    sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(extended.receiptHandle()).visibilityTimeout(30));
    Thread.sleep(1500);
    SqsException e = sqsError("InvalidParameterValue",
        () -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(expires.receiptHandle())));
    assertEquals("Value " + expires.receiptHandle() + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.",
        e.awsErrorDetails().errorMessage());
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(extended.receiptHandle()));
    List<Message> left = receive(url, 10, 30);
    assertEquals(List.of("expires"), bodies(left), "the expired handle deleted nothing");
  }
}
