package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.SqsException;
import java.math.BigDecimal;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The rules a message must meet before it is enqueued (AWS API reference: SendMessage; the SQS
 * message metadata guide).
 */
public final class MessageValidation {
  private MessageValidation() {}

  public static final String AWS_TRACE_HEADER = "AWSTraceHeader";
  private static final BigDecimal NUMBER_MAX = new BigDecimal("1E126");
  private static final BigDecimal NUMBER_MIN_MAGNITUDE = new BigDecimal("1E-128");

  public static void checkBody(String body) {
    if (body == null || body.isEmpty()) {
      throw SqsException.missingParameter("MessageBody");
    }
    int bad = firstInvalidCodePoint(body);
    if (bad >= 0) {
      // An unpaired surrogate is what the protocols make of malformed UTF-8 as well as what a JSON
      // \ud800 escape gives: the text is not Unicode, and naming the surrogate would mislead.
      String what = bad >= Character.MIN_SURROGATE && bad <= Character.MAX_SURROGATE
          ? "Invalid binary character (malformed UTF-8 or an unpaired surrogate) was found in the message body"
          : "Invalid binary character '#x" + Integer.toHexString(bad).toUpperCase() + "' was found in the message body";
      throw new SqsException(
          ErrorCode.INVALID_MESSAGE_CONTENTS,
          what + ", the set of allowed characters is "
              + "#x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF");
    }
  }

  /** The first code point outside the XML character set SQS allows, or -1. */
  public static int firstInvalidCodePoint(String s) {
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      boolean ok =
          cp == 0x9
              || cp == 0xA
              || cp == 0xD
              || (cp >= 0x20 && cp <= 0xD7FF)
              || (cp >= 0xE000 && cp <= 0xFFFD)
              || (cp >= 0x10000 && cp <= 0x10FFFF);
      // A lone surrogate decodes as itself (0xD800-0xDFFF) and is rejected here.
      if (!ok) {
        return cp;
      }
      i += Character.charCount(cp);
    }
    return -1;
  }

  public static void checkAttributes(Map<String, MessageAttributeValue> attributes) {
    if (attributes == null || attributes.isEmpty()) {
      return;
    }
    if (attributes.size() > Limits.MAX_MESSAGE_ATTRIBUTES) {
      throw SqsException.invalidParameter(
          "Number of message attributes ["
              + attributes.size()
              + "] exceeds the allowed maximum ["
              + Limits.MAX_MESSAGE_ATTRIBUTES
              + "].");
    }
    for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
      checkAttributeName(e.getKey());
      checkAttributeValue(e.getKey(), e.getValue());
    }
  }

  static void checkAttributeName(String name) {
    String lower = name == null ? "" : name.toLowerCase();
    boolean ok =
        name != null
            && !name.isEmpty()
            && name.length() <= Limits.ATTRIBUTE_NAME_MAX_LENGTH
            && !lower.startsWith("aws.")
            && !lower.startsWith("amazon.")
            && !name.startsWith(".")
            && !name.endsWith(".")
            && !name.contains("..")
            && name.chars().allMatch(MessageValidation::isAttributeNameChar);
    if (!ok) {
      throw SqsException.invalidParameter(
          "Message (user) attribute name '"
              + name
              + "' is invalid. Names can contain alphanumeric characters, hyphens, underscores and"
              + " periods, must not start or end with a period, must not contain two consecutive"
              + " periods, must not start with AWS. or Amazon. and must be 1 to 256 characters long.");
    }
  }

  private static boolean isAttributeNameChar(int c) {
    boolean ascii = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '_' || c == '-' || c == '.';
    // AWS also accepts Latin-1 letters such as 'ø' or 'ß' (the SQS message metadata guide), not × or ÷.
    boolean latin1Letter = c >= 0xC0 && c <= 0xFF && c != 0xD7 && c != 0xF7;
    return ascii || latin1Letter;
  }

  private static void checkAttributeValue(String name, MessageAttributeValue v) {
    String type = v == null ? null : v.dataType();
    if (type == null || type.isEmpty()) {
      throw SqsException.invalidParameter(
          "The message attribute '" + name + "' must contain a non-empty message attribute type.");
    }
    String base = baseType(type);
    if (base == null || type.length() > Limits.ATTRIBUTE_TYPE_MAX_LENGTH
        || !type.chars().allMatch(c -> c >= 0x20 && c < 0x7F)) {
      throw SqsException.invalidParameter(
          "The type of message (user) attribute '"
              + name
              + "' is invalid. You must use only the following supported type prefixes: Binary,"
              + " Number, String.");
    }
    if (base.equals("Binary")) {
      if (v.binaryValue() == null || v.binaryValue().length == 0) {
        throw SqsException.invalidParameter(
            "Message (user) attribute '" + name + "' must contain a non-empty value of type 'Binary'.");
      }
      return;
    }
    String s = v.stringValue();
    if (s == null || s.isEmpty()) {
      throw SqsException.invalidParameter(
          "Message (user) attribute '" + name + "' must contain a non-empty value of type '" + base + "'.");
    }
    if (firstInvalidCodePoint(s) >= 0) {
      throw SqsException.invalidParameter(
          "Message (user) attribute '" + name + "' contains invalid characters.");
    }
    if (base.equals("Number") && !isValidNumber(s)) {
      throw SqsException.invalidParameter(
          "Could not cast message attribute '" + name + "' value to number.");
    }
  }

  /** "String", "Number" or "Binary" for a DataType with an optional ".label" suffix, else null. */
  static String baseType(String type) {
    for (String base : new String[] {"String", "Number", "Binary"}) {
      if (type.equals(base) || (type.startsWith(base + ".") && type.length() > base.length() + 1)) {
        return base;
      }
    }
    return null;
  }

  /** SQS numbers: up to 38 significant digits, magnitude between 10^-128 and 10^+126 (or zero). */
  static boolean isValidNumber(String s) {
    BigDecimal d;
    try {
      d = new BigDecimal(s);
    } catch (NumberFormatException e) {
      return false;
    }
    if (d.signum() == 0) {
      return true;
    }
    BigDecimal abs = d.abs();
    return d.stripTrailingZeros().precision() <= 38
        && abs.compareTo(NUMBER_MAX) <= 0
        && abs.compareTo(NUMBER_MIN_MAGNITUDE) >= 0;
  }

  /** Only AWSTraceHeader (a String) is a valid message system attribute (AWS API reference: SendMessage). */
  public static void checkSystemAttributes(Map<String, MessageAttributeValue> system) {
    if (system == null) {
      return;
    }
    for (Map.Entry<String, MessageAttributeValue> e : system.entrySet()) {
      if (!AWS_TRACE_HEADER.equals(e.getKey())) {
        throw SqsException.invalidParameter(
            "Message system attribute name '" + e.getKey() + "' is invalid.");
      }
      MessageAttributeValue v = e.getValue();
      if (v == null || !"String".equals(v.dataType()) || v.stringValue() == null || v.stringValue().isEmpty()) {
        throw SqsException.invalidParameter(
            "Message system attribute '" + e.getKey() + "' must contain a non-empty value of type 'String'.");
      }
      if (firstInvalidCodePoint(v.stringValue()) >= 0) {
        throw SqsException.invalidParameter(
            "Message system attribute '" + e.getKey() + "' contains invalid characters.");
      }
    }
  }

  /**
   * The checks every queue type applies to a message it is sent: body, attributes, group and
   * deduplication ids, and its size against the queue's MaximumMessageSize. Answers that size.
   */
  static long checkMessage(NewMessage m, boolean batchEntry, int maximumMessageSize) {
    checkBody(m.body());
    checkAttributes(m.attributes());
    checkSystemAttributes(m.systemAttributes());
    if (m.groupId() != null) {
      checkGroupOrDedupId(m.groupId(), "MessageGroupId");
    }
    if (m.deduplicationId() != null) {
      checkGroupOrDedupId(m.deduplicationId(), "MessageDeduplicationId");
    }
    long payload = payloadBytes(m.body(), m.attributes());
    if (payload > maximumMessageSize) {
      throw SqsException.invalidParameter(
          (batchEntry ? "One or more parameters cannot be validated." : "One or more parameters are invalid.")
              + " Reason: Message must be shorter than " + maximumMessageSize + " bytes.");
    }
    return payload;
  }

  /** MessageGroupId / MessageDeduplicationId: 1 to 128 printable ASCII characters, no spaces. */
  public static void checkGroupOrDedupId(String value, String parameter) {
    boolean ok =
        !value.isEmpty()
            && value.length() <= Limits.GROUP_OR_DEDUP_ID_MAX_LENGTH
            && value.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
    if (!ok) {
      throw SqsException.invalidValue(
          value,
          parameter,
          parameter + " can only include alphanumeric and punctuation characters. 1 to 128 in length.");
    }
  }

  /**
   * The size SQS counts against MaximumMessageSize: body plus every user attribute (AWS API
   * reference: SendMessage).
   */
  public static long payloadBytes(String body, Map<String, MessageAttributeValue> attributes) {
    return measure(body, attributes, MessageValidation::utf8Length);
  }

  private static long measure(
      String body, Map<String, MessageAttributeValue> attributes, ToLongFunction<String> size) {
    long n = size.applyAsLong(body);
    if (attributes != null) {
      for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
        MessageAttributeValue v = e.getValue();
        n += size.applyAsLong(e.getKey()) + size.applyAsLong(v.dataType());
        n += v.isBinaryType()
            ? (v.binaryValue() == null ? 0 : v.binaryValue().length)
            : size.applyAsLong(v.stringValue());
      }
    }
    return n;
  }

  public static long utf8Length(String s) {
    if (s == null) {
      return 0;
    }
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
