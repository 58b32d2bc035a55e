package dev.sluice.push;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
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

  /** Pushed when a subscription ends on the server's side (its queue was deleted). */
  static JsonObject ended(String subscriptionId, Throwable cause) {
    SqsException e = asSqs(cause);
    return new JsonObject().put("type", "error").put("subscription", subscriptionId)
        .put("code", e.code().shapeName()).put("message", e.getMessage());
  }

  /**
   * Answers a request with an error: the failure code is the HTTP status SQS would use, the
   * message {@code "<SQS error code>: <text>"}.
   */
  static void fail(Message<?> request, Throwable cause) {
    SqsException e = asSqs(cause);
    request.fail(e.code().httpStatus(), e.code().shapeName() + ": " + e.getMessage());
  }

  static SqsException asSqs(Throwable cause) {
    return cause instanceof SqsException e ? e
        : new SqsException(ErrorCode.INTERNAL_FAILURE, "The request failed: " + cause.getMessage());
  }
}
