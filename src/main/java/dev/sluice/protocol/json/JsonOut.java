package dev.sluice.protocol.json;

import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.MessageAttributeValue;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;

/**
 * Response shapes several actions share. Empty or absent members are omitted, as AWS does
 * (sqs-reference §1.2): no {@code "Messages": []}, no {@code "Failed": []}, no {@code "Tags": {}}.
 */
final class JsonOut {
  private JsonOut() {}

  static JsonWriter object() {
    return new JsonWriter().beginObject();
  }

  /** For actions without output: {@code {}}. */
  static Future<JsonWriter> empty(Future<Void> done) {
    return done.map(v -> object().endObject());
  }

  static void messageAttributes(JsonWriter w, String name, Map<String, MessageAttributeValue> attributes) {
    w.beginObject(name);
    for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
      MessageAttributeValue v = e.getValue();
      w.beginObject(e.getKey()).string("DataType", v.dataType());
      if (v.isBinaryType()) {
        w.base64("BinaryValue", v.binaryValue()); // standard base64 with padding, as AWS writes blobs
      } else {
        w.string("StringValue", v.stringValue());
      }
      w.endObject();
    }
    w.endObject();
  }

  static void failedIf(JsonWriter w, List<BatchResultErrorEntry> failed) {
    if (failed.isEmpty()) {
      return;
    }
    w.beginArray("Failed");
    for (BatchResultErrorEntry f : failed) {
      w.beginObject().string("Id", f.id()).bool("SenderFault", f.senderFault())
          .string("Code", f.code()).string("Message", f.message()).endObject();
    }
    w.endArray();
  }

  static JsonWriter batchIds(BatchIdsResponse r) {
    JsonWriter w = object();
    if (!r.successfulIds().isEmpty()) {
      w.beginArray("Successful");
      r.successfulIds().forEach(id -> w.beginObject().string("Id", id).endObject());
      w.endArray();
    }
    failedIf(w, r.failed());
    return w.endObject();
  }
}
