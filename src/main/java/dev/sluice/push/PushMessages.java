package dev.sluice.push;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicNotification;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.Map;

/** The JSON shapes the push protocol sends: pushed messages and errors (src/site/markdown/push.md). */
final class PushMessages {
  private PushMessages() {}

  /** One pushed message, with what a ReceiveMessage answer would carry. */
  static JsonObject delivery(String subscriptionId, ReceiveMessage.Message m) {
    JsonObject attributes = new JsonObject();
    m.attributes().forEach(attributes::put);
    JsonObject out = new JsonObject()
        .put("type", "message")
        .put("subscription", subscriptionId)
        .put("messageId", m.messageId())
        .put("receiptHandle", m.receiptHandle())
        .put("body", m.body())
        .put("md5OfBody", m.md5OfBody())
        .put("receiveCount", Integer.parseInt(m.attributes().getOrDefault("ApproximateReceiveCount", "1")))
        .put("attributes", attributes);
    if (m.messageAttributes() != null && !m.messageAttributes().isEmpty()) {
      out.put("messageAttributes", messageAttributes(m.messageAttributes()));
      out.put("md5OfMessageAttributes", m.md5OfMessageAttributes());
    }
    return out;
  }

  /**
   * One publish pushed to a subscriber of its topic; {@code dropped}: how many this subscription
   * could not be given so far (none free), shown when there were any.
   */
  static JsonObject notification(String subscriptionId, TopicNotification n, long dropped) {
    JsonObject out = new JsonObject()
        .put("type", "notification")
        .put("subscription", subscriptionId)
        .put("messageId", n.messageId())
        .put("topicArn", n.topicArn());
    if (n.sequenceNumber() != null) {
      out.put("sequenceNumber", n.sequenceNumber());
    }
    if (n.subject() != null) {
      out.put("subject", n.subject());
    }
    out.put("message", n.message()).put("timestamp", n.timestamp());
    if (!n.attributes().isEmpty()) {
      out.put("messageAttributes", messageAttributes(n.attributes()));
    }
    if (dropped > 0) {
      out.put("dropped", dropped);
    }
    return out;
  }

  private static JsonObject messageAttributes(Map<String, MessageAttributeValue> values) {
    JsonObject out = new JsonObject();
    values.forEach((name, v) -> {
      JsonObject value = new JsonObject().put("dataType", v.dataType());
      if (v.binaryValue() != null) {
        value.put("binaryValue", Base64.getEncoder().encodeToString(v.binaryValue()));
      } else {
        value.put("stringValue", v.stringValue());
      }
      out.put(name, value);
    });
    return out;
  }

  /** Pushed when a subscription ends on the server's side (its queue or topic was deleted). */
  static JsonObject ended(String subscriptionId, Throwable cause) {
    Refusal r = refusal(cause);
    return new JsonObject().put("type", "error").put("subscription", subscriptionId)
        .put("code", r.code()).put("message", r.message());
  }

  /**
   * Answers a request with an error: the failure code is the HTTP status the API would use, the
   * message {@code "<error code>: <text>"} (an SQS code, or an SNS code for a topic's refusal).
   */
  static void fail(Message<?> request, Throwable cause) {
    Refusal r = refusal(cause);
    request.fail(r.status(), r.code() + ": " + r.message());
  }

  private record Refusal(int status, String code, String message) {}

  private static Refusal refusal(Throwable cause) {
    if (cause instanceof SnsException e) {
      return new Refusal(e.code().httpStatus(), e.code().code(), e.getMessage());
    }
    SqsException e = cause instanceof SqsException s ? s
        : new SqsException(ErrorCode.INTERNAL_FAILURE, "The request failed: " + cause.getMessage());
    return new Refusal(e.code().httpStatus(), e.code().shapeName(), e.getMessage());
  }
}
