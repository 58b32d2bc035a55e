package dev.sluice.protocol.query;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a Query request's flattened parameters into the member tree of the same request on the
 * AWS JSON protocol (sqs-reference §1.4), so that both protocols share one decoder per action and
 * one engine call. {@code Attribute.1.Name=VisibilityTimeout&Attribute.1.Value=40} becomes
 * {@code {"Attributes":{"VisibilityTimeout":"40"}}}; lists are 1-indexed and come out in index
 * order; integer members become numbers, as JSON clients send them.
 */
public final class QueryMembers {
  /** Members the JSON protocol takes as integers. */
  static final Set<String> INTEGERS = Set.of("DelaySeconds", "MaxNumberOfMessages", "MaxNumberOfMessagesPerSecond",
      "MaxResults", "VisibilityTimeout", "WaitTimeSeconds");
  /** Query parameters that are not members of the action. */
  static final Set<String> ENVELOPE = Set.of("Action", "Version", "X-Amz-Algorithm", "X-Amz-Credential",
      "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature", "X-Amz-Security-Token",
      "AWSAccessKeyId", "SignatureMethod", "SignatureVersion", "Signature", "Timestamp", "Expires");

  private QueryMembers() {}

  /** The JSON-shaped members of {@code action} from its Query {@code params}. */
  public static Map<String, Object> of(String action, Map<String, String> params) {
    Map<String, Object> tree = new LinkedHashMap<>();
    for (Map.Entry<String, String> p : params.entrySet()) {
      if (!ENVELOPE.contains(p.getKey())) {
        put(tree, p.getKey().split("\\."), 0, p.getValue());
      }
    }
    return members(action, tree);
  }

  /** Builds a tree from a dotted name; numeric steps become keys of a sorted map (a list later). */
  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> node, String[] path, int i, String value) {
    String step = path[i];
    if (i == path.length - 1) {
      node.put(step, value);
      return;
    }
    Object child = node.get(step);
    if (!(child instanceof Map<?, ?>)) {
      child = isIndex(path[i + 1]) ? new TreeMap<String, Object>(QueryMembers::byIndex) : new LinkedHashMap<>();
      node.put(step, child);
    }
    put((Map<String, Object>) child, path, i + 1, value);
  }

  private static boolean isIndex(String s) {
    return !s.isEmpty() && s.length() < 10 && s.chars().allMatch(Character::isDigit);
  }

  private static int byIndex(String a, String b) {
    return Integer.compare(Integer.parseInt(a), Integer.parseInt(b));
  }

  /** The flattened names of sqs-reference §1.4, mapped back to JSON members. */
  private static Map<String, Object> members(String action, Map<String, Object> tree) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : tree.entrySet()) {
      String name = e.getKey();
      Object v = e.getValue();
      switch (name) {
        case "Attribute" -> out.put("Attributes", pairs(v, "Name", "Value"));
        case "Tag" -> out.put(action.equals("CreateQueue") ? "tags" : "Tags", pairs(v, "Key", "Value"));
        // The Java SDK v1 names TagQueue's and UntagQueue's lists by their members' own names.
        case "Tags" -> out.put("Tags", pairs(v, "Key", "Value"));
        case "TagKey", "TagKeys" -> out.put("TagKeys", list(v));
        case "AttributeName" -> out.put("AttributeNames", list(v));
        case "MessageAttributeName" -> out.put("MessageAttributeNames", list(v));
        case "MessageSystemAttributeName" -> out.put("MessageSystemAttributeNames", list(v));
        case "MessageAttribute" -> out.put("MessageAttributes", messageAttributes(v));
        case "MessageSystemAttribute" -> out.put("MessageSystemAttributes", messageAttributes(v));
        case "AWSAccountId" -> out.put("AWSAccountIds", list(v));
        case "ActionName" -> out.put("Actions", list(v));
        case "SendMessageBatchRequestEntry", "DeleteMessageBatchRequestEntry", "ChangeMessageVisibilityBatchRequestEntry" ->
            out.put("Entries", entries(action, v));
        default -> out.put(name, scalar(name, v));
      }
    }
    return out;
  }

  private static Object scalar(String name, Object v) {
    if (v instanceof String s && INTEGERS.contains(name)) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException notANumber) {
        return s; // refused by the decoder as a value of the wrong type
      }
    }
    return v;
  }

  private static List<Object> list(Object v) {
    return v instanceof Map<?, ?> m ? new ArrayList<>(m.values()) : new ArrayList<>(List.of(v));
  }

  /** {@code X.N.Name / X.N.Value} (or Key/Value) as one map. */
  private static Map<String, Object> pairs(Object v, String key, String value) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Object entry : list(v)) {
      if (entry instanceof Map<?, ?> m && m.get(key) instanceof String k) {
        out.put(k, m.get(value));
      }
    }
    return out;
  }

  /** {@code MessageAttribute.N.Name / .Value.DataType / .Value.StringValue / .Value.BinaryValue}. */
  private static Map<String, Object> messageAttributes(Object v) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Object entry : list(v)) {
      if (entry instanceof Map<?, ?> m && m.get("Name") instanceof String k) {
        out.put(k, m.get("Value") instanceof Map<?, ?> value ? value : Map.of());
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> entries(String action, Object v) {
    List<Object> out = new ArrayList<>();
    for (Object entry : list(v)) {
      out.add(entry instanceof Map<?, ?> m ? members(action, (Map<String, Object>) m) : entry);
    }
    return out;
  }
}
