package dev.sluice.persistence;

import dev.sluice.api.MessageAttributeValue;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * Message attributes in the {@code attributes} column: a JSON object of name → {@code {"t": DataType,
 * "s": string value}} or {@code {"t": DataType, "b": base64 bytes}}, so that a restored message has
 * exactly the attributes (and so the MD5) it was sent with.
 */
public final class AttributesJson {
  private AttributesJson() {}

  /** The column value, or null for no attributes. */
  public static String encode(Map<String, MessageAttributeValue> attributes) {
    if (attributes == null || attributes.isEmpty()) {
      return null;
    }
    JsonObject json = new JsonObject();
    attributes.forEach((name, v) -> {
      JsonObject value = new JsonObject().put("t", v.dataType());
      if (v.binaryValue() != null) {
        value.put("b", Base64.getEncoder().encodeToString(v.binaryValue()));
      } else {
        value.put("s", v.stringValue());
      }
      json.put(name, value);
    });
    return json.encode();
  }

  /** The attributes a column value holds, sorted by name; null for null. */
  public static Map<String, MessageAttributeValue> decode(String column) {
    if (column == null) {
      return null;
    }
    Map<String, MessageAttributeValue> out = new TreeMap<>();
    JsonObject json = new JsonObject(column);
    for (String name : json.fieldNames()) {
      JsonObject v = json.getJsonObject(name);
      String binary = v.getString("b");
      out.put(name, new MessageAttributeValue(
          v.getString("t"), v.getString("s"), binary == null ? null : Base64.getDecoder().decode(binary)));
    }
    return out;
  }
}
