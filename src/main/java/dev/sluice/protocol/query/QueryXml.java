package dev.sluice.protocol.query;

import java.util.List;
import java.util.Map;

/**
 * Renders an action's result, as the JSON protocol's member tree, in the Query protocol's XML
 * (sqs-reference §1.4): maps become repeated {@code <Attribute><Name/><Value/>} or
 * {@code <Tag><Key/><Value/>} elements, lists repeat their element name, batch results become
 * {@code <…ResultEntry>} and {@code <BatchResultErrorEntry>}.
 */
public final class QueryXml {
  static final String NAMESPACE = "http://queue.amazonaws.com/doc/2012-11-05/";

  private QueryXml() {}

  /** The whole response document; {@code result} null for actions without output. */
  public static String response(String action, Map<String, Object> result, String requestId) {
    StringBuilder b = new StringBuilder(256).append("<?xml version=\"1.0\"?><").append(action)
        .append("Response xmlns=\"").append(NAMESPACE).append("\">");
    if (result != null) {
      if (result.isEmpty()) {
        b.append('<').append(action).append("Result/>");
      } else {
        b.append('<').append(action).append("Result>");
        members(b, action, result);
        b.append("</").append(action).append("Result>");
      }
    }
    b.append("<ResponseMetadata><RequestId>").append(Xml.escape(requestId))
        .append("</RequestId></ResponseMetadata></").append(action).append("Response>");
    return b.toString();
  }

  @SuppressWarnings("unchecked")
  private static void members(StringBuilder b, String action, Map<String, Object> members) {
    for (Map.Entry<String, Object> e : members.entrySet()) {
      String name = e.getKey();
      Object v = e.getValue();
      switch (name) {
        case "Attributes" -> pairs(b, "Attribute", "Name", "Value", (Map<String, Object>) v);
        case "Tags" -> pairs(b, "Tag", "Key", "Value", (Map<String, Object>) v);
        case "MessageAttributes" -> messageAttributes(b, (Map<String, Object>) v);
        case "QueueUrls", "queueUrls" -> repeated(b, "QueueUrl", (List<Object>) v);
        case "Messages" -> repeated(b, "Message", (List<Object>) v);
        case "Successful" -> repeated(b, action + "ResultEntry", (List<Object>) v);
        case "Failed" -> repeated(b, "BatchResultErrorEntry", (List<Object>) v);
        case "Results" -> repeated(b, action + "ResultEntry", (List<Object>) v);
        default -> element(b, name, v);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void repeated(StringBuilder b, String element, List<Object> items) {
    for (Object item : items) {
      if (item instanceof Map<?, ?> m) {
        b.append('<').append(element).append('>');
        members(b, element, (Map<String, Object>) m);
        b.append("</").append(element).append('>');
      } else {
        element(b, element, item);
      }
    }
  }

  private static void pairs(StringBuilder b, String element, String key, String value, Map<String, Object> map) {
    for (Map.Entry<String, Object> e : map.entrySet()) {
      b.append('<').append(element).append('>');
      element(b, key, e.getKey());
      element(b, value, e.getValue());
      b.append("</").append(element).append('>');
    }
  }

  @SuppressWarnings("unchecked")
  private static void messageAttributes(StringBuilder b, Map<String, Object> attributes) {
    for (Map.Entry<String, Object> e : attributes.entrySet()) {
      b.append("<MessageAttribute>");
      element(b, "Name", e.getKey());
      b.append("<Value>");
      Map<String, Object> value = (Map<String, Object>) e.getValue();
      for (String member : List.of("StringValue", "BinaryValue", "DataType")) {
        if (value.get(member) != null) {
          element(b, member, value.get(member));
        }
      }
      b.append("</Value></MessageAttribute>");
    }
  }

  private static void element(StringBuilder b, String name, Object value) {
    b.append('<').append(name).append('>').append(Xml.escape(scalarText(value))).append("</").append(name).append('>');
  }

  /** Numbers as integers where they are whole (JSON numbers come back as Long or Double). */
  private static String scalarText(Object v) {
    if (v instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
      return Long.toString(d.longValue());
    }
    return String.valueOf(v);
  }
}
