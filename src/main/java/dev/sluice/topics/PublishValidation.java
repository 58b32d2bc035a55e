package dev.sluice.topics;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.model.JsonText;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checks a publish as SNS does before it looks at its topic (SNS API reference: Publish), with the
 * texts AWS answers (recorded): the message, its size with its attributes (256 KiB), the subject,
 * MessageStructure json and the message attributes' names, types and values. Stateless.
 */
public final class PublishValidation {
  public static final int MAX_BYTES = 262_144;
  static final int MAX_SUBJECT_LENGTH = 100;
  static final int MAX_ATTRIBUTE_NAME_BYTES = 256;

  private PublishValidation() {}

  /**
   * The publish's content, or the error SNS answers; {@code where} names the request's members in a
   * ValidationError ({@code ""} for Publish, {@code publishBatchRequestEntries.N.member.} for a batch
   * entry).
   */
  public static PublishContent check(String message, String subject, String messageStructure,
      Map<String, MessageAttributeValue> attributes, String groupId, String deduplicationId, String where) {
    if (message == null) {
      throw SnsException.missing(where + "message");
    }
    Map<String, MessageAttributeValue> attrs = attributes == null ? Map.of() : attributes;
    checkAttributes(attrs, where);
    if (message.isEmpty()) {
      throw SnsException.invalidParameter("Empty message");
    }
    if (bytesOf(message, attrs) > MAX_BYTES) {
      throw SnsException.invalidParameter("Message too long");
    }
    if (subject != null && !isSubject(subject)) {
      throw SnsException.invalidParameter("Subject");
    }
    Map<String, String> perProtocol = Map.of();
    String text = message;
    if (messageStructure != null) {
      if (!messageStructure.equals("json")) {
        throw SnsException.invalidParameter("MessageStructure");
      }
      Map<String, Object> structure = JsonText.parseObject(message);
      if (structure == null) {
        throw SnsException.invalidParameter("Message Structure - JSON message body failed to parse");
      }
      if (!(structure.get("default") instanceof String d)) {
        throw SnsException.invalidParameter("Message Structure - No default entry in JSON message body");
      }
      text = d;
      Map<String, String> keys = new LinkedHashMap<>();
      structure.forEach((k, v) -> {
        if (!k.equals("default") && v instanceof String s) {
          keys.put(k, s);
        }
      });
      perProtocol = Map.copyOf(keys);
    }
    return new PublishContent(text, perProtocol, subject, Map.copyOf(attrs), groupId, deduplicationId);
  }

  /** The bytes SNS counts against the 256 KiB: the message and each attribute's name, type and value. */
  public static long bytesOf(String message, Map<String, MessageAttributeValue> attributes) {
    long n = message.getBytes(StandardCharsets.UTF_8).length;
    for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
      MessageAttributeValue v = e.getValue();
      n += e.getKey().getBytes(StandardCharsets.UTF_8).length;
      n += v.dataType() == null ? 0 : v.dataType().getBytes(StandardCharsets.UTF_8).length;
      n += v.stringValue() != null ? v.stringValue().getBytes(StandardCharsets.UTF_8).length
          : v.binaryValue() != null ? v.binaryValue().length : 0;
    }
    return n;
  }

  /** 1 to 100 printable ASCII characters, no line break (SNS API reference: Publish, Subject). */
  private static boolean isSubject(String s) {
    return !s.isEmpty() && s.length() <= MAX_SUBJECT_LENGTH && s.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
  }

  private static void checkAttributes(Map<String, MessageAttributeValue> attrs, String where) {
    for (Map.Entry<String, MessageAttributeValue> e : attrs.entrySet()) {
      String name = e.getKey();
      MessageAttributeValue v = e.getValue();
      checkName(name);
      if (v.dataType() == null) {
        throw SnsException.missing(where + "messageAttributes." + name + ".member.dataType");
      }
      String base = baseType(v.dataType());
      if (base == null) {
        throw invalidAttribute("The message attribute '" + name + "' has an invalid message attribute type, the set"
            + " of supported type prefixes is Binary, Number, and String.");
      }
      boolean binary = base.equals("Binary");
      if (binary ? v.stringValue() != null : v.binaryValue() != null) {
        throw invalidAttribute("The message attribute '" + name + "' with type '" + base + "' must use field '"
            + (binary ? "Binary" : "String") + "'.");
      }
      boolean empty = binary ? v.binaryValue() == null || v.binaryValue().length == 0
          : v.stringValue() == null || v.stringValue().isEmpty();
      if (empty) {
        throw invalidAttribute("The message attribute '" + name + "' must contain non-empty message attribute value"
            + " for message attribute type '" + base + "'.");
      }
      if (base.equals("Number") && !isNumber(v.stringValue())) {
        throw invalidAttribute("Could not cast message attribute '" + name + "' value to number.");
      }
    }
  }

  /** String, Number or Binary for a type of that name or with a custom suffix ({@code String.x}); else null. */
  private static String baseType(String type) {
    for (String base : new String[] {"String", "Number", "Binary"}) {
      if (type.equals(base) || (type.startsWith(base + ".") && type.length() > base.length() + 1)) {
        return base;
      }
    }
    return null;
  }

  private static void checkName(String name) {
    if (name.getBytes(StandardCharsets.UTF_8).length > MAX_ATTRIBUTE_NAME_BYTES) {
      throw invalidAttribute("Length of message attribute name must be less than 256 bytes.");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
          || c == '_' || c == '.';
      if (!ok) {
        throw invalidAttribute("Invalid non-alphanumeric character '#x" + Integer.toHexString(c).toUpperCase()
            + "' was found in the message attribute name. Can only include alphanumeric characters, hyphens,"
            + " underscores, or dots.");
      }
    }
    if (name.startsWith(".")) {
      throw invalidAttribute("Invalid message attribute name starting with character '.' was found.");
    }
    if (name.endsWith(".")) {
      throw invalidAttribute("Invalid message attribute name ending with character '.' was found.");
    }
    if (name.contains("..")) {
      throw invalidAttribute("Message attribute name can not have successive '.' character.");
    }
  }

  private static boolean isNumber(String s) {
    try {
      new java.math.BigDecimal(s.trim());
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static SnsException invalidAttribute(String message) {
    return new SnsException(SnsErrorCode.PARAMETER_VALUE_INVALID, message);
  }
}
