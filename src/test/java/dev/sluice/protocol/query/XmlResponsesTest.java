package dev.sluice.protocol.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.CancelMessageMoveTask;
import dev.sluice.api.CreateQueue;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.GetQueueAttributes;
import dev.sluice.api.ListDeadLetterSourceQueues;
import dev.sluice.api.ListMessageMoveTasks;
import dev.sluice.api.ListQueueTags;
import dev.sluice.api.ListQueues;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SendMessageBatch;
import dev.sluice.api.SqsException;
import dev.sluice.api.StartMessageMoveTask;
import dev.sluice.protocol.SqsActions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Golden tests of the Query protocol's responses: response records render to the XML documents of
 * src/test/resources/fixtures/query/ (layouts of the SQS Query API guide), errors included.
 */
class XmlResponsesTest {
  static final String Q = "http://localhost:9324/000000000000/q";

  static void assertFixture(String name, String actual) throws Exception {
    assertEquals(Files.readString(Path.of("src/test/resources/fixtures/query", name)).strip(), actual, name);
  }

  static <K, V> Map<K, V> ordered(K k1, V v1, K k2, V v2) {
    Map<K, V> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    return m;
  }

  @Test
  void queueResultsRenderAsTheFixtures() throws Exception {
    assertFixture("create-queue.xml",
        XmlResponses.document(SqsActions.CREATE_QUEUE, new CreateQueue.Response(Q), "req-8"));
    assertFixture("list-queues.xml", XmlResponses.document(SqsActions.LIST_QUEUES,
        new ListQueues.Response(List.of(Q, Q + "2"), "n"), "req-6"));
    assertFixture("get-queue-attributes.xml", XmlResponses.document(SqsActions.GET_QUEUE_ATTRIBUTES,
        new GetQueueAttributes.Response(ordered("VisibilityTimeout", "30", "DelaySeconds", "0")), "req-4"));
    assertFixture("list-queue-tags.xml", XmlResponses.document(SqsActions.LIST_QUEUE_TAGS,
        new ListQueueTags.Response(Map.of("team", "a")), "req-5"));
    assertFixture("delete-queue.xml", XmlResponses.document(SqsActions.DELETE_QUEUE, null, "req-7"));
  }

  @Test
  void messageResultsRenderAsTheFixtures() throws Exception {
    assertFixture("send-message.xml", XmlResponses.document(SqsActions.SEND_MESSAGE,
        new SendMessage.Response("m1", "b", "a", "s", "18849496460467696128"), "req-9"));
    assertFixture("receive-message.xml", XmlResponses.document(SqsActions.RECEIVE_MESSAGE, new ReceiveMessage.Response(
        List.of(new ReceiveMessage.Message("m1", "h1", "5d41402abc4b2a76b9719d911017c592", "a \"quoted\" <b>\r",
            Map.of("ApproximateReceiveCount", "1"), "x", Map.of("kind", MessageAttributeValue.ofString("greeting"))))),
        "req-1"));
    assertFixture("receive-messages.xml", XmlResponses.document(SqsActions.RECEIVE_MESSAGE, new ReceiveMessage.Response(
        List.of(new ReceiveMessage.Message("m1", "h1", "b", "one", null, "a", ordered(
                "blob", new MessageAttributeValue("Binary", null, new byte[] {1, 2, 3}),
                "n", new MessageAttributeValue("Number.int", "7", null))),
            new ReceiveMessage.Message("m2", "h2", "c", "two", ordered("SequenceNumber", "2", "MessageGroupId", "g"),
                null, null))), "req-10"));
    assertFixture("receive-message-empty.xml",
        XmlResponses.document(SqsActions.RECEIVE_MESSAGE, new ReceiveMessage.Response(List.of()), "req-2"));
  }

  @Test
  void batchResultsListEachEntryAndEachFailure() throws Exception {
    assertFixture("send-message-batch.xml", XmlResponses.document(SqsActions.SEND_MESSAGE_BATCH,
        new SendMessageBatch.Response(List.of(new SendMessageBatch.ResultEntry("a", "m1", "md5", null, null, null)),
            List.of(new BatchResultErrorEntry("b", true, "InvalidParameterValue", "bad"))), "req-3"));
    assertFixture("delete-message-batch.xml", XmlResponses.document(SqsActions.DELETE_MESSAGE_BATCH,
        new BatchIdsResponse(List.of("a", "b"), List.of(new BatchResultErrorEntry("c", true, "ReceiptHandleIsInvalid",
            "The input receipt handle \"x\" is not a valid receipt handle."))), "req-11"));
    assertFixture("change-message-visibility-batch.xml", XmlResponses.document(
        SqsActions.CHANGE_MESSAGE_VISIBILITY_BATCH, new BatchIdsResponse(List.of("a"), List.of()), "req-12"));
  }

  @Test
  void deadLetterResultsRenderAsTheFixtures() throws Exception {
    assertFixture("list-dead-letter-source-queues-empty.xml", XmlResponses.document(
        SqsActions.LIST_DEAD_LETTER_SOURCE_QUEUES, new ListDeadLetterSourceQueues.Response(List.of(), null), "req-13"));
    String dlq = "arn:aws:sqs:us-east-1:000000000000:dlq";
    assertFixture("list-message-move-tasks.xml", XmlResponses.document(SqsActions.LIST_MESSAGE_MOVE_TASKS,
        new ListMessageMoveTasks.Response(List.of(
            new ListMessageMoveTasks.Result("t1", "RUNNING", dlq, "arn:aws:sqs:us-east-1:000000000000:q", 50, 3, 10,
                null, 1_700_000_000_000L),
            new ListMessageMoveTasks.Result(null, "FAILED", dlq, null, null, 0, 1, "gone", 1_600_000_000_000L))),
        "req-14"));
    assertFixture("start-message-move-task.xml", XmlResponses.document(SqsActions.START_MESSAGE_MOVE_TASK,
        new StartMessageMoveTask.Response("t1"), "req-15"));
    assertFixture("cancel-message-move-task.xml", XmlResponses.document(SqsActions.CANCEL_MESSAGE_MOVE_TASK,
        new CancelMessageMoveTask.Response(42), "req-16"));
  }

  @Test
  void errorsRenderAsErrorResponsesWithTheQueryCodes() throws Exception {
    // The JSON protocol's message for this error; the Query protocol has its own (the SQS common errors).
    assertFixture("error-non-existent-queue.xml", QueryErrors.document(SqsException.queueDoesNotExist(), "req-17"));
    assertFixture("error-invalid-action.xml", QueryErrors.document(new SqsException(ErrorCode.INVALID_ACTION,
        "The action CreateQueue is not valid for this endpoint."), "req-18"));
    assertFixture("error-invalid-parameter-value.xml", QueryErrors.document(SqsException.invalidValue(11,
        "MaxNumberOfMessages", "Must be between 1 and 10, if provided."), "req-19"));
    assertFixture("error-internal-failure.xml", QueryErrors.document(new SqsException(ErrorCode.INTERNAL_FAILURE,
        "We encountered an internal error. Please try again."), "req-20"));
    // AccessDenied names the principal, action and reason on JSON, only the resource on Query.
    assertFixture("error-access-denied.xml", QueryErrors.document(new SqsException(ErrorCode.ACCESS_DENIED,
        "User: arn:aws:iam::444455556666:root is not authorized to perform: sqs:sendmessage on resource: "
            + "arn:aws:sqs:us-east-1:111122223333:orders because no resource-based policy allows the sqs:sendmessage action",
        "Access to the resource http://127.0.0.1:9324/111122223333/orders is denied."), "req-21"));
  }
}
