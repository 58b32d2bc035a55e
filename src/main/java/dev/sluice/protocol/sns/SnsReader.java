package dev.sluice.protocol.sns;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.topics.SnsException;
import dev.sluice.protocol.FlattenedIndexes;
import dev.sluice.protocol.Utf8;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The members of an SNS Query request, read from its decoded parameters by the flattened names the
 * SDKs send (the AWS query protocol as the SNS model shapes it): a map as
 * {@code Name.entry.N.key/value}, a list as {@code Name.member.N}, a list of structures as
 * {@code Name.member.N.Field}, 1-indexed and taken in index order. Text that is not well-formed
 * UTF-8 is refused. Immutable; one per request.
 */
final class SnsReader {
  private final Map<String, String> params;
  private final String prefix;

  private SnsReader(Map<String, String> params, String prefix) {
    this.params = params;
    this.prefix = prefix;
  }

  static SnsReader of(Map<String, String> params) {
    return new SnsReader(params, "");
  }

  /** A scalar member, or null. */
  String string(String name) {
    return checked(params.get(prefix + name), name);
  }

  /** A map member ({@code Name.entry.N.key/value}), or null when the request has none. */
  Map<String, String> map(String name) {
    String head = name + ".entry.";
    TreeSet<Integer> indexes = indexes(head);
    if (indexes.isEmpty()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int n : indexes) {
      String key = string(head + n + ".key");
      if (key == null) {
        throw SnsException.missing(lowerFirst(name) + "." + n + ".member.key");
      }
      String value = string(head + n + ".value");
      out.put(key, value == null ? "" : value);
    }
    return out;
  }

  /** A list of strings ({@code Name.member.N}), or null when the request has none. */
  List<String> strings(String name) {
    String head = name + ".member.";
    TreeSet<Integer> indexes = indexes(head);
    if (indexes.isEmpty()) {
      return null;
    }
    List<String> out = new ArrayList<>(indexes.size());
    for (int n : indexes) {
      String v = string(head + n);
      if (v != null) {
        out.add(v);
      }
    }
    return out;
  }

  /**
   * A list of tags ({@code Name.member.N.Key/Value}) as a map in request order, or null; a key
   * given twice is refused as SNS refuses it (AWS-recorded).
   */
  Map<String, String> tags(String name) {
    String head = name + ".member.";
    TreeSet<Integer> indexes = indexes(head);
    if (indexes.isEmpty()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int n : indexes) {
      String key = string(head + n + ".Key");
      String value = string(head + n + ".Value");
      if (key == null) {
        throw SnsException.missing(lowerFirst(name) + "." + n + ".member.key");
      }
      if (value == null) {
        throw SnsException.missing(lowerFirst(name) + "." + n + ".member.value");
      }
      if (out.put(key, value) != null) {
        throw SnsException.invalidParameter("Duplicated keys are not allowed.");
      }
    }
    return out;
  }

  /** A boolean member ("true" or "false", any case), or null. */
  Boolean bool(String name) {
    String v = string(name);
    if (v == null) {
      return null;
    }
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw SnsException.invalidParameter(name);
    }
    return Boolean.valueOf(v.toLowerCase(java.util.Locale.ROOT));
  }

  /**
   * Message attributes ({@code Name.entry.N.Name} and {@code Name.entry.N.Value.DataType /
   * StringValue / BinaryValue}, binary as base64), in index order, or null when there are none.
   */
  Map<String, MessageAttributeValue> messageAttributes(String name) {
    String head = name + ".entry.";
    TreeSet<Integer> indexes = indexes(head);
    if (indexes.isEmpty()) {
      return null;
    }
    Map<String, MessageAttributeValue> out = new LinkedHashMap<>();
    for (int n : indexes) {
      String entry = head + n + ".";
      String attribute = string(entry + "Name");
      if (attribute == null) {
        throw SnsException.missing(prefix + lowerFirst(name) + "." + n + ".member.name");
      }
      String binary = params.get(prefix + entry + "Value.BinaryValue");
      byte[] bytes = null;
      if (binary != null) {
        try {
          bytes = Base64.getDecoder().decode(binary);
        } catch (IllegalArgumentException e) {
          throw SnsException.invalidParameter(prefix + entry + "Value.BinaryValue", "not valid base64");
        }
      }
      out.put(attribute, new MessageAttributeValue(string(entry + "Value.DataType"),
          string(entry + "Value.StringValue"), bytes));
    }
    return out;
  }

  /** A list of structures ({@code Name.member.N.Field}): one reader per entry, in index order, or null. */
  List<SnsReader> entries(String name) {
    String head = name + ".member.";
    TreeSet<Integer> indexes = indexes(head);
    if (indexes.isEmpty()) {
      return null;
    }
    List<SnsReader> out = new ArrayList<>(indexes.size());
    for (int n : indexes) {
      out.add(new SnsReader(params, prefix + head + n + "."));
    }
    return out;
  }

  /** The N of every parameter named {@code head}N or {@code head}N.…, in ascending order. */
  private TreeSet<Integer> indexes(String head) {
    return FlattenedIndexes.of(params.keySet(), prefix + head);
  }

  private static String checked(String value, String name) {
    if (value != null && !Utf8.isWellFormed(value)) {
      throw SnsException.invalidParameter(name, "not valid UTF-8: it holds a malformed byte sequence or an unpaired"
          + " surrogate");
    }
    return value;
  }

  private static String lowerFirst(String s) {
    return Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }
}
