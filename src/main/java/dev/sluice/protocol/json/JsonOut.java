package dev.sluice.protocol.json;

import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.MessageAttributeValue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

/**
 * Building AWS JSON 1.0 response bodies. Empty or absent members are omitted, as AWS does
 * (sqs-reference §1.2): no {@code "Messages": []}, no {@code "Failed": []}, no {@code "Tags": {}}.
 */
final class JsonOut {
  private JsonOut() {}

  static JsonObject putIf(JsonObject o, String name, Object value) {
    if (value == null
        || (value instanceof Collection<?> c && c.isEmpty())
        || (value instanceof Map<?, ?> m && m.isEmpty())) {
      return o;
    }
    if (value instanceof Collection<?> c) {
      return o.put(name, new JsonArray(c.stream().map(x -> (Object) x).toList()));
    }
    if (value instanceof Map<?, ?> m) {
      JsonObject inner = new JsonObject();
      m.forEach((k, v) -> inner.put(String.valueOf(k), v));
      return o.put(name, inner);
    }
    return o.put(name, value);
  }

  static JsonObject messageAttributes(Map<String, MessageAttributeValue> attributes) {
    JsonObject out = new JsonObject();
    for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
      MessageAttributeValue v = e.getValue();
      JsonObject a = new JsonObject().put("DataType", v.dataType());
      if (v.isBinaryType()) {
        // Standard base64 with padding, as AWS writes blobs (Vert.x's own byte[] encoding is base64url).
        a.put("BinaryValue", Base64.getEncoder().encodeToString(v.binaryValue()));
      } else {
        a.put("StringValue", v.stringValue());
      }
      out.put(e.getKey(), a);
    }
    return out;
  }

  static JsonArray failed(Collection<BatchResultErrorEntry> failed) {
    JsonArray out = new JsonArray();
    for (BatchResultErrorEntry f : failed) {
      out.add(new JsonObject()
          .put("Id", f.id())
          .put("SenderFault", f.senderFault())
          .put("Code", f.code())
          .put("Message", f.message()));
    }
    return out;
  }

  static JsonObject batchIds(BatchIdsResponse r) {
    JsonObject o = new JsonObject();
    if (!r.successfulIds().isEmpty()) {
      JsonArray ok = new JsonArray();
      r.successfulIds().forEach(id -> ok.add(new JsonObject().put("Id", id)));
      o.put("Successful", ok);
    }
    if (!r.failed().isEmpty()) {
      o.put("Failed", failed(r.failed()));
    }
    return o;
  }
}
