package dev.sluice.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.ListDeadLetterSourceQueues;
import dev.sluice.api.ListMessageMoveTasks;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessageBatch;
import dev.sluice.protocol.SqsActions;
import io.vertx.core.buffer.Buffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON rendering of responses, byte for byte: what the JSON protocol answered before both
 * protocols shared their action table (recorded from that server) must stay what it answers.
 */
class JsonResponsesTest {
  /** The response body as text (Buffer's toString decodes UTF-8). */
  static String json(Buffer body) {
    return body.toString();
  }

  @Test
  void aReceiveRendersItsMessagesAttributesAndMessageAttributesInOrder() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("SenderId", "000000000000");
    attributes.put("ApproximateReceiveCount", "1");
    Map<String, MessageAttributeValue> user = new LinkedHashMap<>();
    user.put("b", new MessageAttributeValue("Binary", null, new byte[] {1, 2, 3}));
    user.put("k", MessageAttributeValue.ofString("v"));
    assertEquals("{\"Messages\":[{\"MessageId\":\"m\",\"ReceiptHandle\":\"h\",\"MD5OfBody\":\"b\","
        + "\"Body\":\"hello \\\"x\\\" \\r\\n<&>\",\"Attributes\":{\"SenderId\":\"000000000000\",\"ApproximateReceiveCount\":\"1\"},"
        + "\"MD5OfMessageAttributes\":\"a\",\"MessageAttributes\":{\"b\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQID\"},"
        + "\"k\":{\"DataType\":\"String\",\"StringValue\":\"v\"}}},{\"MessageId\":\"m2\",\"ReceiptHandle\":\"h2\","
        + "\"MD5OfBody\":\"c\",\"Body\":\"one\"}]}",
        json(JsonResponses.render(SqsActions.RECEIVE_MESSAGE, new ReceiveMessage.Response(List.of(
            new ReceiveMessage.Message("m", "h", "b", "hello \"x\" \r\n<&>", attributes, "a", user),
            new ReceiveMessage.Message("m2", "h2", "c", "one", null, null, null))))));
    assertEquals("{}", json(JsonResponses.render(SqsActions.RECEIVE_MESSAGE, new ReceiveMessage.Response(List.of()))));
  }

  @Test
  void batchesOmitEmptyListsAndReportFailures() {
    assertEquals("{\"Successful\":[{\"Id\":\"a\",\"MessageId\":\"m\",\"MD5OfMessageBody\":\"b\"},{\"Id\":\"c\",\"MessageId\":\"m3\","
        + "\"MD5OfMessageBody\":\"d\",\"MD5OfMessageAttributes\":\"e\",\"SequenceNumber\":\"1\"}],\"Failed\":[{\"Id\":\"b\","
        + "\"SenderFault\":true,\"Code\":\"InvalidMessageContents\",\"Message\":\"no\"}]}",
        json(JsonResponses.render(SqsActions.SEND_MESSAGE_BATCH, new SendMessageBatch.Response(List.of(
            new SendMessageBatch.ResultEntry("a", "m", "b", null, null, null),
            new SendMessageBatch.ResultEntry("c", "m3", "d", "e", null, "1")),
            List.of(new BatchResultErrorEntry("b", true, "InvalidMessageContents", "no"))))));
    assertEquals("{\"Successful\":[{\"Id\":\"a\"}]}", json(JsonResponses.render(SqsActions.DELETE_MESSAGE_BATCH,
        new BatchIdsResponse(List.of("a"), List.of()))));
  }

  @Test
  void deadLetterResultsKeepTheirModelledShapes() {
    assertEquals("{\"queueUrls\":[]}", json(JsonResponses.render(SqsActions.LIST_DEAD_LETTER_SOURCE_QUEUES,
        new ListDeadLetterSourceQueues.Response(List.of(), null))), "required in the model: present even when empty");
    assertEquals("{\"Results\":[{\"Status\":\"COMPLETED\",\"SourceArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\","
        + "\"MaxNumberOfMessagesPerSecond\":10,\"ApproximateNumberOfMessagesMoved\":0,"
        + "\"ApproximateNumberOfMessagesToMove\":0,\"StartedTimestamp\":1700000000000}]}",
        json(JsonResponses.render(SqsActions.LIST_MESSAGE_MOVE_TASKS, new ListMessageMoveTasks.Response(List.of(
            new ListMessageMoveTasks.Result(null, "COMPLETED", "arn:aws:sqs:us-east-1:000000000000:dlq", null, 10, 0, 0,
                null, 1_700_000_000_000L))))));
  }

  @Test
  void actionsWithoutOutputAnswerAnEmptyObject() {
    assertEquals("{}", json(JsonResponses.render(SqsActions.DELETE_QUEUE, null)));
  }
}
