package dev.sluice.protocol.json;

import static dev.sluice.protocol.json.JsonOut.empty;
import static dev.sluice.protocol.json.JsonOut.object;

import dev.sluice.api.ChangeMessageVisibility;
import dev.sluice.api.ChangeMessageVisibilityBatch;
import dev.sluice.api.DeleteMessage;
import dev.sluice.api.DeleteMessageBatch;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SendMessageBatch;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** JSON codecs of the message-level actions (member names as in sqs-reference §2.8–2.14). */
final class MessageJsonActions {
  private MessageJsonActions() {}

  static void register(Map<String, JsonAction> table) {
    table.put("SendMessage", (e, c, in, g) -> e.sends()
        .sendMessage(c, new SendMessage.Request(
            in.string("QueueUrl"), in.string("MessageBody"), in.integer("DelaySeconds"),
            in.messageAttributes("MessageAttributes"), in.messageAttributes("MessageSystemAttributes"),
            in.string("MessageDeduplicationId"), in.string("MessageGroupId")))
        .map(r -> object()
            .string("MessageId", r.messageId())
            .string("MD5OfMessageBody", r.md5OfMessageBody())
            .stringIf("MD5OfMessageAttributes", r.md5OfMessageAttributes())
            .stringIf("MD5OfMessageSystemAttributes", r.md5OfMessageSystemAttributes())
            .stringIf("SequenceNumber", r.sequenceNumber())
            .endObject()));
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

  private static <T> List<T> mapEntries(JsonReader in, Function<JsonReader, T> f) {
    List<JsonReader> entries = in.objects("Entries");
    return entries == null ? null : entries.stream().map(f).toList();
  }

  private static List<SendMessageBatch.Entry> sendEntries(JsonReader in) {
    return mapEntries(in, x -> new SendMessageBatch.Entry(
        x.string("Id"), x.string("MessageBody"), x.integer("DelaySeconds"),
        x.messageAttributes("MessageAttributes"), x.messageAttributes("MessageSystemAttributes"),
        x.string("MessageDeduplicationId"), x.string("MessageGroupId")));
  }

  private static JsonWriter sendBatchResult(SendMessageBatch.Response r) {
    JsonWriter w = object();
    if (!r.successful().isEmpty()) {
      w.beginArray("Successful");
      for (SendMessageBatch.ResultEntry s : r.successful()) {
        w.beginObject()
            .string("Id", s.id())
            .string("MessageId", s.messageId())
            .string("MD5OfMessageBody", s.md5OfMessageBody())
            .stringIf("MD5OfMessageAttributes", s.md5OfMessageAttributes())
            .stringIf("MD5OfMessageSystemAttributes", s.md5OfMessageSystemAttributes())
            .stringIf("SequenceNumber", s.sequenceNumber())
            .endObject();
      }
      w.endArray();
    }
    JsonOut.failedIf(w, r.failed());
    return w.endObject();
  }

  private static JsonWriter receiveResult(ReceiveMessage.Response r) {
    JsonWriter w = object();
    if (r.messages().isEmpty()) {
      return w.endObject(); // no "Messages" member at all when empty (sqs-reference §2.10)
    }
    w.beginArray("Messages");
    for (ReceiveMessage.Message m : r.messages()) {
      w.beginObject()
          .string("MessageId", m.messageId())
          .string("ReceiptHandle", m.receiptHandle())
          .string("MD5OfBody", m.md5OfBody())
          .string("Body", m.body())
          .stringMapIf("Attributes", m.attributes());
      if (m.messageAttributes() != null) {
        w.string("MD5OfMessageAttributes", m.md5OfMessageAttributes());
        JsonOut.messageAttributes(w, "MessageAttributes", m.messageAttributes());
      }
      w.endObject();
    }
    return w.endArray().endObject();
  }
}
