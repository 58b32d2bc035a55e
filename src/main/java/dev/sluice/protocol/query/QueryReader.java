package dev.sluice.protocol.query;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.SqsException;
import dev.sluice.protocol.FlattenedIndexes;
import dev.sluice.protocol.Members;
import dev.sluice.protocol.Utf8;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The members of a Query request, read from its decoded parameters by their flattened names
 * (the SQS Query API guide): a list as {@code Element.N}, a map as {@code Element.N.Key/Value}, message
 * attributes as {@code Element.N.Name/Value.*}, batch entries as {@code <Action>RequestEntry.N.*},
 * 1-indexed and taken in index order; scalars by their own names. Every value is a string on the
 * wire: integers are parsed here, and one that is not an integer is InvalidParameterValue.
 * Immutable; one per request (and one per batch entry).
 */
public final class QueryReader implements Members {
  /** List members: the name each element is flattened under. */
  private static final Map<String, String> LISTS = Map.of(
      "AttributeNames", "AttributeName",
      // Both lists travel as AttributeName.N (the SQS Query API guide): a Query request cannot tell them
      // apart, so it carries both, and the engine selects their union as it does for JSON.
      "MessageSystemAttributeNames", "AttributeName",
      "MessageAttributeNames", "MessageAttributeName",
      "TagKeys", "TagKey",
      "AWSAccountIds", "AWSAccountId",
      "Actions", "ActionName");
  /** Map members: the name each entry is flattened under, and its key and value parts. */
  private static final Map<String, Pairs> MAPS = Map.of(
      "Attributes", new Pairs("Attribute", "Name", "Value"),
      "tags", new Pairs("Tag", "Key", "Value"),
      // The Java SDK v1 (to 1.12.583) sends TagQueue's map as Tags.N.Key/Value: both are read.
      "Tags", new Pairs("Tag", "Key", "Value", "Tags"));
  private static final Map<String, String> MESSAGE_ATTRIBUTES = Map.of(
      "MessageAttributes", "MessageAttribute",
      "MessageSystemAttributes", "MessageSystemAttribute");
  /** The one list of structures: a batch's entries, {@code <Action>RequestEntry.N}. */
  private static final String ENTRIES = "Entries";
  private static final String QUEUE_URL = "QueueUrl";

  private record Pairs(String element, String key, String value, String alias) {
    Pairs(String element, String key, String value) {
      this(element, key, value, null);
    }
  }

  private final String action;
  private final Map<String, String> params;
  /** Prepended to every name read: empty for the request, {@code XRequestEntry.N.} for an entry. */
  private final String prefix;
  /** The queue the request's path names, for a QueueUrl the request leaves out; or null. */
  private final String pathQueueUrl;

  private QueryReader(String action, Map<String, String> params, String prefix, String pathQueueUrl) {
    this.action = action;
    this.params = params;
    this.prefix = prefix;
    this.pathQueueUrl = pathQueueUrl;
  }

  /**
   * The members of {@code action} in {@code params}. {@code pathQueueUrl} is the queue URL the
   * request was sent to, or null when it went to {@code /}: older SDKs post to the queue's URL and
   * leave QueueUrl out, and an explicit QueueUrl wins over it (the SQS Query API guide).
   */
  public static QueryReader of(String action, Map<String, String> params, String pathQueueUrl) {
    return new QueryReader(action, params, "", pathQueueUrl);
  }

  @Override
  public String string(String name) {
    return Utf8.checked(text(name), prefix + name);
  }

  @Override
  public String text(String name) {
    String v = params.get(prefix + name);
    return v == null && name.equals(QUEUE_URL) ? pathQueueUrl : v;
  }

  @Override
  public Integer integer(String name) {
    String v = params.get(prefix + name);
    if (v == null) {
      return null;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException notAnInteger) {
      // The Query protocol has no SerializationException (the JSON answer to a wrong type): a value
      // that is not a number gets the code of every other invalid value, InvalidParameterValue.
      throw SqsException.invalidValue(v, prefix + name, "Must be an integer.");
    }
  }

  @Override
  public List<String> strings(String name) {
    String element = flattened(LISTS, name);
    TreeSet<Integer> indexes = indexes(element);
    if (indexes.isEmpty()) {
      return null;
    }
    List<String> out = new ArrayList<>(indexes.size());
    for (int n : indexes) {
      String v = params.get(prefix + element + "." + n);
      if (v != null) { // not Element.N.something
        out.add(Utf8.checked(v, prefix + element + "." + n));
      }
    }
    return out;
  }

  @Override
  public Map<String, String> stringMap(String name) {
    Pairs pairs = flattened(MAPS, name);
    String element = pairs.element();
    TreeSet<Integer> indexes = indexes(element);
    if (indexes.isEmpty() && pairs.alias() != null) {
      element = pairs.alias();
      indexes = indexes(element);
    }
    if (indexes.isEmpty()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int n : indexes) {
      String entry = element + "." + n + ".";
      out.put(Utf8.checked(required(entry + pairs.key()), prefix + entry + pairs.key()),
          Utf8.checked(required(entry + pairs.value()), prefix + entry + pairs.value()));
    }
    return out;
  }

  @Override
  public Map<String, MessageAttributeValue> messageAttributes(String name) {
    String element = flattened(MESSAGE_ATTRIBUTES, name);
    TreeSet<Integer> indexes = indexes(element);
    if (indexes.isEmpty()) {
      return null;
    }
    Map<String, MessageAttributeValue> out = new LinkedHashMap<>();
    for (int n : indexes) {
      String entry = element + "." + n + ".";
      String binary = params.get(prefix + entry + "Value.BinaryValue");
      out.put(required(entry + "Name"), new MessageAttributeValue(params.get(prefix + entry + "Value.DataType"),
          params.get(prefix + entry + "Value.StringValue"), binary == null ? null : base64(binary, entry)));
    }
    return out;
  }

  @Override
  public List<Members> objects(String name) {
    if (!name.equals(ENTRIES)) {
      throw new IllegalArgumentException("No Query name for the member " + name);
    }
    String element = action + "RequestEntry";
    TreeSet<Integer> indexes = indexes(element);
    if (indexes.isEmpty()) {
      return null;
    }
    List<Members> out = new ArrayList<>(indexes.size());
    for (int n : indexes) {
      out.add(new QueryReader(action, params, prefix + element + "." + n + ".", null));
    }
    return out;
  }

  /** The N of every parameter named {@code element.N} or {@code element.N.…}, in ascending order. */
  private TreeSet<Integer> indexes(String element) {
    return FlattenedIndexes.of(params.keySet(), prefix + element + ".");
  }

  private String required(String name) {
    String v = params.get(prefix + name);
    if (v == null) {
      throw SqsException.missingParameter(prefix + name);
    }
    return v;
  }

  private byte[] base64(String value, String entry) {
    try {
      return Base64.getDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      throw SqsException.invalidValue(value, prefix + entry + "Value.BinaryValue", "Base64 encoded value is invalid.");
    }
  }

  /** A member's flattened name: a member missing from the table is a decoder bug, not a client's. */
  private static <T> T flattened(Map<String, T> table, String member) {
    T flat = table.get(member);
    if (flat == null) {
      throw new IllegalArgumentException("No Query name for the member " + member);
    }
    return flat;
  }
}
