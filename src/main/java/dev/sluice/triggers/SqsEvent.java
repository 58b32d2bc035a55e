package dev.sluice.triggers;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.model.JsonText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The event a trigger posts its target, as Lambda gives a function its SQS messages (AWS Lambda
 * Developer Guide: Using Lambda with Amazon SQS, "Example standard queue message event" and "Example
 * FIFO queue message event"): {@code {"Records": [record, …]}}, records in receive order, each with
 * its keys in Lambda's order: messageId, receiptHandle, body, attributes (Lambda's order of the
 * system attributes, standard or FIFO, then AWSTraceHeader and DeadLetterQueueSourceArn when the
 * message has them), messageAttributes (each with stringValue or binaryValue, the two empty list
 * fields and dataType), md5OfMessageAttributes (only when there are attributes), md5OfBody,
 * eventSource, eventSourceARN and awsRegion. Stateless.
 */
public final class SqsEvent {
  /** Lambda's order of a standard queue's system attributes. */
  static final List<String> STANDARD_ATTRIBUTES =
      List.of("ApproximateReceiveCount", "SentTimestamp", "SenderId", "ApproximateFirstReceiveTimestamp");
  /** Lambda's order of a FIFO queue's system attributes. */
  static final List<String> FIFO_ATTRIBUTES = List.of("ApproximateReceiveCount", "SentTimestamp", "SequenceNumber",
      "MessageGroupId", "SenderId", "MessageDeduplicationId", "ApproximateFirstReceiveTimestamp");
  /** Given when the message has them, after the others. */
  static final List<String> OPTIONAL_ATTRIBUTES = List.of("AWSTraceHeader", "DeadLetterQueueSourceArn");

  private SqsEvent() {}

  /** One record of {@code m}, received from the queue {@code queueArn} of {@code region}, as JSON. */
  public static String record(ReceiveMessage.Message m, String queueArn, String region) {
    boolean fifo = queueArn.endsWith(".fifo");
    Map<String, Object> attributes = new LinkedHashMap<>();
    List<String> order = new ArrayList<>(fifo ? FIFO_ATTRIBUTES : STANDARD_ATTRIBUTES);
    order.addAll(OPTIONAL_ATTRIBUTES);
    for (String name : order) {
      String v = m.attributes().get(name);
      if (v != null) {
        attributes.put(name, v);
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("messageId", m.messageId());
    out.put("receiptHandle", m.receiptHandle());
    out.put("body", m.body());
    out.put("attributes", attributes);
    Map<String, MessageAttributeValue> given = m.messageAttributes() == null ? Map.of() : m.messageAttributes();
    out.put("messageAttributes", messageAttributes(given));
    if (!given.isEmpty()) {
      out.put("md5OfMessageAttributes", m.md5OfMessageAttributes());
    }
    out.put("md5OfBody", m.md5OfBody());
    out.put("eventSource", "aws:sqs");
    out.put("eventSourceARN", queueArn);
    out.put("awsRegion", region);
    return JsonText.write(out);
  }

  /** The event of {@code records} (each from {@link #record}). */
  public static String of(List<String> records) {
    return "{\"Records\":[" + String.join(",", records) + "]}";
  }

  /** What a record adds to its event, in bytes (the record and its separator), for the event's size bound. */
  public static int bytesOf(String record) {
    return record.getBytes(StandardCharsets.UTF_8).length + 1;
  }

  private static Map<String, Object> messageAttributes(Map<String, MessageAttributeValue> given) {
    Map<String, Object> out = new LinkedHashMap<>();
    given.forEach((name, v) -> {
      Map<String, Object> a = new LinkedHashMap<>();
      if (v.isBinaryType()) {
        a.put("binaryValue", Base64.getEncoder().encodeToString(v.binaryValue()));
      } else {
        a.put("stringValue", v.stringValue());
      }
      a.put("stringListValues", new ArrayList<>());
      a.put("binaryListValues", new ArrayList<>());
      a.put("dataType", v.dataType());
      out.put(name, a);
    });
    return out;
  }
}
