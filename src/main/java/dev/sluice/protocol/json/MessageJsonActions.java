package dev.sluice.protocol.json;

import static dev.sluice.protocol.json.JsonOut.putIf;
import static dev.sluice.protocol.json.QueueJsonActions.empty;

import dev.sluice.api.ChangeMessageVisibility;
import dev.sluice.api.ChangeMessageVisibilityBatch;
import dev.sluice.api.DeleteMessage;
import dev.sluice.api.DeleteMessageBatch;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SendMessageBatch;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/** JSON codecs of the message-level actions (member names as in sqs-reference §2.8–2.14). */
final class MessageJsonActions {
  private MessageJsonActions() {}

  static void register(Map<String, JsonAction> table) {
    table.put("SendMessage", (e, c, in, g) -> e.sends()
        .sendMessage(c, new SendMessage.Request(
            in.string("QueueUrl"), in.string("MessageBody"), in.integer("DelaySeconds"),
            in.messageAttributes("MessageAttributes"), in.messageAttributes("MessageSystemAttributes"),
            in.string("MessageDeduplicationId"), in.string("MessageGroupId")))
        .map(r -> {
          JsonObject o = new JsonObject().put("MessageId", r.messageId()).put("MD5OfMessageBody", r.md5OfMessageBody());
          putIf(o, "MD5OfMessageAttributes", r.md5OfMessageAttributes());
          putIf(o, "MD5OfMessageSystemAttributes", r.md5OfMessageSystemAttributes());
          return putIf(o, "SequenceNumber", r.sequenceNumber());
        }));
    table.put("SendMessageBatch", (e, c, in, g) -> e.sends()
        .sendMessageBatch(c, new SendMessageBatch.Request(in.string("QueueUrl"), sendEntries(in)))
        .map(MessageJsonActions::sendBatchResult));
    table.put("ReceiveMessage", (e, c, in, g) -> e.receives()
        .receiveMessage(new ReceiveMessage.Request(
            in.string("QueueUrl"), in.strings("AttributeNames"), in.strings("MessageSystemAttributeNames"),
            in.strings("MessageAttributeNames"), in.integer("MaxNumberOfMessages"), in.integer("VisibilityTimeout"),
            in.integer("WaitTimeSeconds"), in.string("ReceiveRequestAttemptId")), g)
        .map(MessageJsonActions::receiveResult));
    table.put("DeleteMessage", (e, c, in, g) -> empty(e.receipts()
        .deleteMessage(new DeleteMessage.Request(in.string("QueueUrl"), in.string("ReceiptHandle")))));
    table.put("DeleteMessageBatch", (e, c, in, g) -> e.receipts()
        .deleteMessageBatch(new DeleteMessageBatch.Request(in.string("QueueUrl"), mapEntries(in,
            x -> new DeleteMessageBatch.Entry(x.string("Id"), x.string("ReceiptHandle")))))
        .map(JsonOut::batchIds));
    table.put("ChangeMessageVisibility", (e, c, in, g) -> empty(e.receipts()
        .changeMessageVisibility(new ChangeMessageVisibility.Request(
            in.string("QueueUrl"), in.string("ReceiptHandle"), in.integer("VisibilityTimeout")))));
    table.put("ChangeMessageVisibilityBatch", (e, c, in, g) -> e.receipts()
        .changeMessageVisibilityBatch(new ChangeMessageVisibilityBatch.Request(in.string("QueueUrl"), mapEntries(in,
            x -> new ChangeMessageVisibilityBatch.Entry(
                x.string("Id"), x.string("ReceiptHandle"), x.integer("VisibilityTimeout")))))
        .map(JsonOut::batchIds));
  }

  private static <T> List<T> mapEntries(JsonReader in, java.util.function.Function<JsonReader, T> f) {
    List<JsonReader> entries = in.objects("Entries");
    return entries == null ? null : entries.stream().map(f).toList();
  }

  private static List<SendMessageBatch.Entry> sendEntries(JsonReader in) {
    return mapEntries(in, x -> new SendMessageBatch.Entry(
        x.string("Id"), x.string("MessageBody"), x.integer("DelaySeconds"),
        x.messageAttributes("MessageAttributes"), x.messageAttributes("MessageSystemAttributes"),
        x.string("MessageDeduplicationId"), x.string("MessageGroupId")));
  }

  private static JsonObject sendBatchResult(SendMessageBatch.Response r) {
    JsonArray ok = new JsonArray();
    for (SendMessageBatch.ResultEntry s : r.successful()) {
      JsonObject o = new JsonObject()
          .put("Id", s.id()).put("MessageId", s.messageId()).put("MD5OfMessageBody", s.md5OfMessageBody());
      putIf(o, "MD5OfMessageAttributes", s.md5OfMessageAttributes());
      putIf(o, "MD5OfMessageSystemAttributes", s.md5OfMessageSystemAttributes());
      putIf(o, "SequenceNumber", s.sequenceNumber());
      ok.add(o);
    }
    JsonObject out = new JsonObject();
    if (!ok.isEmpty()) {
      out.put("Successful", ok);
    }
    if (!r.failed().isEmpty()) {
      out.put("Failed", JsonOut.failed(r.failed()));
    }
    return out;
  }

  private static JsonObject receiveResult(ReceiveMessage.Response r) {
    JsonObject out = new JsonObject();
    if (r.messages().isEmpty()) {
      return out; // no "Messages" member at all when empty (sqs-reference §2.10)
    }
    JsonArray messages = new JsonArray();
    for (ReceiveMessage.Message m : r.messages()) {
      JsonObject o = new JsonObject()
          .put("MessageId", m.messageId())
          .put("ReceiptHandle", m.receiptHandle())
          .put("MD5OfBody", m.md5OfBody())
          .put("Body", m.body());
      putIf(o, "Attributes", m.attributes());
      if (m.messageAttributes() != null) {
        o.put("MD5OfMessageAttributes", m.md5OfMessageAttributes());
        o.put("MessageAttributes", JsonOut.messageAttributes(m.messageAttributes()));
      }
      messages.add(o);
    }
    return out.put("Messages", messages);
  }
}
