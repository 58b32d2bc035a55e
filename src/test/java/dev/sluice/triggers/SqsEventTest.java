package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.model.Digests;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The records a trigger posts, against the examples of the AWS Lambda Developer Guide (Using Lambda
 * with Amazon SQS: "Example standard queue message event", "Example FIFO queue message event"): keys
 * and attributes in Lambda's order, whatever order the receive gave them in.
 */
class SqsEventTest {
  static final String QUEUE = "arn:aws:sqs:us-east-2:123456789012:my-queue";

  static ReceiveMessage.Message message(Map<String, String> attributes, Map<String, MessageAttributeValue> values) {
    String body = "Test message.";
    return new ReceiveMessage.Message("059f36b4-87a3-44ab-83d2-661975830a7d", "AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a",
        Digests.md5Hex(body), body, attributes, values.isEmpty() ? null : Digests.md5OfAttributes(values), values);
  }

  @Test
  void aStandardRecordIsLambdasInItsOrder() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("SenderId", "AIDAIENQZJOLO23YVJ4VO"); // as a receive orders them: SenderId first
    attributes.put("ApproximateFirstReceiveTimestamp", "1545082649185");
    attributes.put("ApproximateReceiveCount", "1");
    attributes.put("SentTimestamp", "1545082649183");
    String record = SqsEvent.record(message(attributes, Map.of()), QUEUE, "us-east-2");
    assertEquals("{\"messageId\":\"059f36b4-87a3-44ab-83d2-661975830a7d\","
        + "\"receiptHandle\":\"AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a\",\"body\":\"Test message.\","
        + "\"attributes\":{\"ApproximateReceiveCount\":\"1\",\"SentTimestamp\":\"1545082649183\","
        + "\"SenderId\":\"AIDAIENQZJOLO23YVJ4VO\",\"ApproximateFirstReceiveTimestamp\":\"1545082649185\"},"
        + "\"messageAttributes\":{},\"md5OfBody\":\"e4e68fb7bd0e697a0ae8f1bb342846b3\",\"eventSource\":\"aws:sqs\","
        + "\"eventSourceARN\":\"arn:aws:sqs:us-east-2:123456789012:my-queue\",\"awsRegion\":\"us-east-2\"}", record);
    assertEquals("{\"Records\":[" + record + "," + record + "]}", SqsEvent.of(List.of(record, record)));
    assertEquals(record.getBytes(StandardCharsets.UTF_8).length + 1, SqsEvent.bytesOf(record));
  }

  @Test
  void aFifoRecordCarriesItsGroupInLambdasOrderAndAttributesWithTheirEmptyLists() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("MessageDeduplicationId", "1");
    attributes.put("SenderId", "AIDAIO23YVJENQZJOL4VO");
    attributes.put("MessageGroupId", "1");
    attributes.put("SequenceNumber", "18849496460467696128");
    attributes.put("ApproximateReceiveCount", "1");
    attributes.put("SentTimestamp", "1573251510774");
    attributes.put("ApproximateFirstReceiveTimestamp", "1573251510774");
    attributes.put("AWSTraceHeader", "Root=1-5759e988-bd862e3fe1be46a994272793");
    Map<String, MessageAttributeValue> values = new LinkedHashMap<>();
    values.put("kind", MessageAttributeValue.ofString("refund"));
    values.put("raw", new MessageAttributeValue("Binary", null, new byte[] {2, 3, 4}));
    String record = SqsEvent.record(message(attributes, values), QUEUE + ".fifo", "us-east-2");
    assertEquals("{\"messageId\":\"059f36b4-87a3-44ab-83d2-661975830a7d\","
        + "\"receiptHandle\":\"AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a\",\"body\":\"Test message.\","
        + "\"attributes\":{\"ApproximateReceiveCount\":\"1\",\"SentTimestamp\":\"1573251510774\","
        + "\"SequenceNumber\":\"18849496460467696128\",\"MessageGroupId\":\"1\",\"SenderId\":\"AIDAIO23YVJENQZJOL4VO\","
        + "\"MessageDeduplicationId\":\"1\",\"ApproximateFirstReceiveTimestamp\":\"1573251510774\","
        + "\"AWSTraceHeader\":\"Root=1-5759e988-bd862e3fe1be46a994272793\"},"
        + "\"messageAttributes\":{\"kind\":{\"stringValue\":\"refund\",\"stringListValues\":[],\"binaryListValues\":[],"
        + "\"dataType\":\"String\"},\"raw\":{\"binaryValue\":\"AgME\",\"stringListValues\":[],\"binaryListValues\":[],"
        + "\"dataType\":\"Binary\"}},\"md5OfMessageAttributes\":\"" + Digests.md5OfAttributes(values) + "\","
        + "\"md5OfBody\":\"e4e68fb7bd0e697a0ae8f1bb342846b3\",\"eventSource\":\"aws:sqs\","
        + "\"eventSourceARN\":\"arn:aws:sqs:us-east-2:123456789012:my-queue.fifo\",\"awsRegion\":\"us-east-2\"}",
        record);
  }
}
