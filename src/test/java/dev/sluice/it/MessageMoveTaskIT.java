package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * The DLQ redrive API (AWS API reference: StartMessageMoveTask): StartMessageMoveTask,
 * ListMessageMoveTasks, CancelMessageMoveTask.
 */
class MessageMoveTaskIT extends SharedServerIT {
  /** A dead-letter queue (some source's RedrivePolicy targets it) and a plain destination queue. */
  record Setup(String dlq, String dlqArn, String source, String destination, String destinationArn) {}

  /** Creates {@code <name>-dlq}, {@code <name>-src} redriving to it and {@code <name>-dest}; sends bodies to the DLQ. */
  static Setup setup(String name, String... bodies) {
    String dlq = queue(name + "-dlq");
    String dlqArn = arn(dlq);
    String source = sqs.createQueue(b -> b.queueName(name + "-src").attributesWithStrings(Map.of("RedrivePolicy",
        redrive(dlqArn, 1)))).queueUrl();
    String destination = queue(name + "-dest");
    for (String body : bodies) {
      sqs.sendMessage(b -> b.queueUrl(dlq).messageBody(body));
    }
    return new Setup(dlq, dlqArn, source, destination, arn(destination));
  }

  static String queue(String name) {
    return sqs.createQueue(b -> b.queueName(name)).queueUrl();
  }

  static String arn(String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("QueueArn")).attributesAsStrings()
        .get("QueueArn");
  }

  static String missingArn(String existingArn) {
    return existingArn.substring(0, existingArn.lastIndexOf(':') + 1) + "no-such-queue";
  }

  static String redrive(String targetArn, int maxReceiveCount) {
    return new JsonObject().put("deadLetterTargetArn", targetArn).put("maxReceiveCount", maxReceiveCount).encode();
  }

  static int visible(String url) {
    return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(url)
        .attributeNamesWithStrings("ApproximateNumberOfMessages")).attributesAsStrings().get("ApproximateNumberOfMessages"));
  }

  static List<ListMessageMoveTasksResultEntry> tasks(String sourceArn, int max) {
    return sqs.listMessageMoveTasks(b -> b.sourceArn(sourceArn).maxResults(max)).results();
  }

  /** Polls the newest task of the source until it has {@code status}; bounded. */
  static ListMessageMoveTasksResultEntry await(String sourceArn, String status, long maxMillis) throws Exception {
    long deadline = System.currentTimeMillis() + maxMillis;
    ListMessageMoveTasksResultEntry last = null;
    while (System.currentTimeMillis() < deadline) {
      List<ListMessageMoveTasksResultEntry> results = tasks(sourceArn, 1);
      if (!results.isEmpty()) {
        last = results.get(0);
        if (status.equals(last.status())) {
          return last;
        }
      }
      Thread.sleep(50);
    }
    return fail("no " + status + " task within " + maxMillis + " ms; last seen " + last);
  }

  static SqsException sqsError(String expectedCode, org.junit.jupiter.api.function.Executable call) {
    SqsException e = assertThrows(SqsException.class, call);
    assertEquals(expectedCode, e.awsErrorDetails().errorCode(), e.getMessage());
    return e;
  }

  // --- StartMessageMoveTask errors ---------------------------------------------------------

  @Test
  void aSourceThatIsNotADeadLetterQueueIsInvalid() {
    String plainArn = arn(queue("not-a-dlq"));
    SqsException e = sqsError("InvalidParameterValue", () -> sqs.startMessageMoveTask(b -> b.sourceArn(plainArn)));
    assertEquals("Source queue must be configured as a Dead Letter Queue.", e.awsErrorDetails().errorMessage());
  }

  @Test
  void aMissingSourceIsResourceNotFound() {
    String missing = missingArn(arn(queue("missing-source-probe")));
    ResourceNotFoundException e =
        assertThrows(ResourceNotFoundException.class, () -> sqs.startMessageMoveTask(b -> b.sourceArn(missing)));
    assertEquals(404, e.statusCode());
    assertEquals("ResourceNotFoundException", e.awsErrorDetails().errorCode());
    assertEquals("The resource that you specified for the SourceArn parameter doesn't exist.",
        e.awsErrorDetails().errorMessage());
  }

  @Test
  void aMissingDestinationIsResourceNotFound() {
    Setup s = setup("missing-dest", "m");
    String missing = missingArn(s.destinationArn());
    ResourceNotFoundException e = assertThrows(ResourceNotFoundException.class,
        () -> sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn()).destinationArn(missing)));
    assertEquals(404, e.statusCode());
    assertEquals("The resource that you specified for the DestinationArn parameter doesn't exist.",
        e.awsErrorDetails().errorMessage());
    assertEquals(1, visible(s.dlq()), "nothing was moved");
  }

  @Test
  void onlyOneTaskMayRunPerSource() throws Exception {
    Setup s = setup("one-task", "m1", "m2", "m3");
    String handle = sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn()).destinationArn(s.destinationArn())
        .maxNumberOfMessagesPerSecond(1)).taskHandle();
    SqsException e = sqsError("InvalidParameterValue", () -> sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn())
        .destinationArn(s.destinationArn())));
    assertEquals("There is already a task running. Only one active task is allowed for a source queue arn at a given time.",
        e.awsErrorDetails().errorMessage());
    sqs.cancelMessageMoveTask(b -> b.taskHandle(handle));
    await(s.dlqArn(), "CANCELLED", 5_000);
  }

  // --- ListMessageMoveTasks ----------------------------------------------------------------

  @Test
  void tasksAreListedNewestFirstRunningWithAHandleThenCompletedWithCounts() throws Exception {
    Setup s = setup("listing", "first");
    sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn()).destinationArn(s.destinationArn()));
    await(s.dlqArn(), "COMPLETED", 10_000);

    sqs.sendMessage(b -> b.queueUrl(s.dlq()).messageBody("second"));
    sqs.sendMessage(b -> b.queueUrl(s.dlq()).messageBody("third"));
    long before = System.currentTimeMillis();
    String handle = sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn()).destinationArn(s.destinationArn())
        .maxNumberOfMessagesPerSecond(1)).taskHandle();
    long after = System.currentTimeMillis();
    assertNotNull(handle);

    List<ListMessageMoveTasksResultEntry> both = tasks(s.dlqArn(), 10);
    assertEquals(2, both.size());
    ListMessageMoveTasksResultEntry running = both.get(0);
    assertEquals("RUNNING", running.status());
    assertEquals(handle, running.taskHandle());
    assertEquals(s.dlqArn(), running.sourceArn());
    assertEquals(s.destinationArn(), running.destinationArn());
    assertEquals(1, running.maxNumberOfMessagesPerSecond());
    assertEquals(2L, running.approximateNumberOfMessagesToMove());
    assertNotNull(running.startedTimestamp());
    assertTrue(running.startedTimestamp() >= before - 1000 && running.startedTimestamp() <= after + 1000,
        "StartedTimestamp is epoch milliseconds: " + running.startedTimestamp());
    ListMessageMoveTasksResultEntry older = both.get(1);
    assertEquals("COMPLETED", older.status());
    assertNull(older.taskHandle(), "only a running task shows its handle");
    assertEquals(1L, older.approximateNumberOfMessagesMoved());
    assertEquals(1L, older.approximateNumberOfMessagesToMove());
    assertNull(older.maxNumberOfMessagesPerSecond(), "no rate was given");

    List<ListMessageMoveTasksResultEntry> byDefault =
        sqs.listMessageMoveTasks(b -> b.sourceArn(s.dlqArn())).results();
    assertEquals(1, byDefault.size(), "MaxResults defaults to 1");
    assertEquals(handle, byDefault.get(0).taskHandle());

    ListMessageMoveTasksResultEntry done = await(s.dlqArn(), "COMPLETED", 10_000);
    assertNull(done.taskHandle());
    assertEquals(2L, done.approximateNumberOfMessagesMoved());
    assertEquals(2L, done.approximateNumberOfMessagesToMove());
    assertEquals(3, visible(s.destination()));
    assertEquals(0, visible(s.dlq()));
  }

  // --- CancelMessageMoveTask ---------------------------------------------------------------

  @Test
  void cancellingARunningTaskStopsItAndLeavesMovedMessagesMoved() throws Exception {
    Setup s = setup("cancel", "c1", "c2", "c3", "c4");
    String handle = sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn()).destinationArn(s.destinationArn())
        .maxNumberOfMessagesPerSecond(1)).taskHandle();
    Thread.sleep(1200);
    assertEquals("RUNNING", tasks(s.dlqArn(), 1).get(0).status());
    Long movedAtCancel = sqs.cancelMessageMoveTask(b -> b.taskHandle(handle)).approximateNumberOfMessagesMoved();
    assertNotNull(movedAtCancel);

    ListMessageMoveTasksResultEntry cancelled = await(s.dlqArn(), "CANCELLED", 5_000);
    int moved = visible(s.destination());
    int left = visible(s.dlq());
    assertEquals(4, moved + left);
    assertTrue(moved >= 1, "messages moved before the cancel stay moved");
    assertTrue(left >= 1, "the cancel stopped the task before it moved everything");
    assertTrue(movedAtCancel <= moved, movedAtCancel + " reported at cancel, " + moved + " moved");
    assertEquals((long) moved, cancelled.approximateNumberOfMessagesMoved().longValue());
    assertEquals(4L, cancelled.approximateNumberOfMessagesToMove());

    Thread.sleep(1100);
    assertEquals(moved, visible(s.destination()), "a cancelled task moves nothing more");
    assertEquals(left, visible(s.dlq()));
  }

  @Test
  void aMalformedTaskHandleIsInvalid() {
    SqsException e = sqsError("InvalidParameterValue",
        () -> sqs.cancelMessageMoveTask(b -> b.taskHandle("%%% not a task handle %%%")));
    assertEquals("Value for parameter TaskHandle is invalid.", e.awsErrorDetails().errorMessage());
  }

  // --- moving ------------------------------------------------------------------------------

  @Test
  void anExplicitDestinationReceivesTheMessagesAsNewMessages() throws Exception {
    Setup s = setup("explicit");
    Set<String> originalIds = new HashSet<>();
    for (String body : List.of("e1", "e2")) {
      originalIds.add(sqs.sendMessage(b -> b.queueUrl(s.dlq()).messageBody(body)).messageId());
    }
    sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn()).destinationArn(s.destinationArn()));
    ListMessageMoveTasksResultEntry done = await(s.dlqArn(), "COMPLETED", 10_000);
    assertEquals(2L, done.approximateNumberOfMessagesMoved());
    assertEquals(2L, done.approximateNumberOfMessagesToMove());
    assertEquals(s.destinationArn(), done.destinationArn());
    assertNull(done.maxNumberOfMessagesPerSecond());
    assertEquals(0, visible(s.dlq()));
    assertEquals(0, visible(s.source()), "the DLQ's source gets nothing when a destination is given");

    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(s.destination()).maxNumberOfMessages(10)).messages();
    assertEquals(Set.of("e1", "e2"), Set.copyOf(got.stream().map(Message::body).toList()));
    for (Message m : got) {
      assertTrue(!originalIds.contains(m.messageId()), "moved message " + m.body() + " has a new MessageId");
    }
  }

  @Test
  void withoutADestinationEachMessageReturnsToItsOwnSource() throws Exception {
    String dlq = queue("home-dlq");
    String dlqArn = arn(dlq);
    String policy = redrive(dlqArn, 1);
    String a = sqs.createQueue(b -> b.queueName("home-a").attributesWithStrings(Map.of("RedrivePolicy", policy)))
        .queueUrl();
    String b2 = sqs.createQueue(b -> b.queueName("home-b").attributesWithStrings(Map.of("RedrivePolicy", policy)))
        .queueUrl();
    sqs.sendMessage(b -> b.queueUrl(a).messageBody("from-a"));
    sqs.sendMessage(b -> b.queueUrl(b2).messageBody("from-b"));
    for (String url : List.of(a, b2)) {
      assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0)).messages().size());
      assertTrue(sqs.receiveMessage(b -> b.queueUrl(url)).messages().isEmpty(), "the second receive redrives");
    }
    assertEquals(2, visible(dlq));

    sqs.startMessageMoveTask(b -> b.sourceArn(dlqArn));
    ListMessageMoveTasksResultEntry done = await(dlqArn, "COMPLETED", 10_000);
    assertEquals(2L, done.approximateNumberOfMessagesMoved());
    assertNull(done.destinationArn(), "DestinationArn is listed only when given");
    assertEquals(List.of("from-a"),
        sqs.receiveMessage(b -> b.queueUrl(a).maxNumberOfMessages(10)).messages().stream().map(Message::body).toList());
    assertEquals(List.of("from-b"),
        sqs.receiveMessage(b -> b.queueUrl(b2).maxNumberOfMessages(10)).messages().stream().map(Message::body).toList());
  }

  @Test
  void theRateLimitIsHonoured() throws Exception {
    Setup s = setup("rate", "r1", "r2", "r3");
    long start = System.nanoTime();
    sqs.startMessageMoveTask(b -> b.sourceArn(s.dlqArn()).destinationArn(s.destinationArn())
        .maxNumberOfMessagesPerSecond(1));
    ListMessageMoveTasksResultEntry done = await(s.dlqArn(), "COMPLETED", 10_000);
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(tookMillis >= 1800, "3 messages at 1 per second took only " + tookMillis + " ms");
    assertEquals(3L, done.approximateNumberOfMessagesMoved());
    assertEquals(1, done.maxNumberOfMessagesPerSecond());
    assertEquals(3, visible(s.destination()));
  }
}
