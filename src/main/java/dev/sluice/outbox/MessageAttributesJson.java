package dev.sluice.outbox;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.MessageAttributeValue;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a row's {@code message_attributes} (SQS-shaped JSON: {@code {"name": {"DataType": "String",
 * "StringValue": "..."}}}, or {@code "BinaryValue"} in base64 for Binary types) into the attributes
 * of a send. Checks the shape only; names, types, sizes and numbers are the engine's to check, as
 * for any SendMessage. Pure.
 */
final class MessageAttributesJson {
  private MessageAttributesJson() {}

  /** The attributes {@code json} gives; null when it is null or names none. */
  static Map<String, MessageAttributeValue> parse(String json) throws RowRefusedException {
    if (json == null || json.isBlank()) {
      return null;
    }
    Object root;
    try {
      root = Json.decodeValue(json);
    } catch (DecodeException e) {
      throw refused("message_attributes is not JSON: " + e.getMessage());
    }
    if (root == null) {
      return null;
    }
    if (root instanceof String) {
      throw refused("message_attributes is a JSON string, not an object: the application stored the object's text"
          + " as a string (with vertx-pg-client, pass a JsonObject; or cast a text parameter, $3::text::jsonb)");
    }
    if (!(root instanceof io.vertx.core.json.JsonObject object)) {
      throw refused("message_attributes must be a JSON object of attribute names to {DataType, StringValue or"
          + " BinaryValue}");
    }
    if (object.isEmpty()) {
      return null;
    }
    Map<String, MessageAttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : object) {
      out.put(e.getKey(), value(e.getKey(), e.getValue()));
    }
    return out;
  }

  private static MessageAttributeValue value(String name, Object node) throws RowRefusedException {
    if (!(node instanceof io.vertx.core.json.JsonObject v)) {
      throw refused("message_attributes." + name + " must be an object with DataType and StringValue or BinaryValue");
    }
    for (String field : v.fieldNames()) {
      if (!field.equals("DataType") && !field.equals("StringValue") && !field.equals("BinaryValue")) {
        throw refused("message_attributes." + name + " has an unknown field " + field
            + " (DataType, StringValue, BinaryValue)");
      }
    }
    if (!(v.getValue("DataType") instanceof String type) || type.isEmpty()) {
      throw refused("message_attributes." + name + ".DataType must be a string such as String, Number or Binary");
    }
    Object string = v.getValue("StringValue");
    Object binary = v.getValue("BinaryValue");
    if ((string == null) == (binary == null)) {
      throw refused("message_attributes." + name + " must have exactly one of StringValue and BinaryValue");
    }
    boolean binaryType = type.equals("Binary") || type.startsWith("Binary.");
    if (binaryType != (binary != null)) {
      throw refused("message_attributes." + name + " of DataType " + type + " takes "
          + (binaryType ? "BinaryValue" : "StringValue"));
    }
    if (string != null) {
      if (!(string instanceof String s)) {
        throw refused("message_attributes." + name + ".StringValue must be a JSON string");
      }
      return new MessageAttributeValue(type, s, null);
    }
    if (!(binary instanceof String b64)) {
      throw refused("message_attributes." + name + ".BinaryValue must be a base64 JSON string");
    }
    try {
      return new MessageAttributeValue(type, null, Base64.getDecoder().decode(b64));
    } catch (IllegalArgumentException e) {
      throw refused("message_attributes." + name + ".BinaryValue is not base64: " + e.getMessage());
    }
  }

  private static RowRefusedException refused(String message) {
    return new RowRefusedException(ErrorCode.INVALID_PARAMETER_VALUE, message);
  }
}
