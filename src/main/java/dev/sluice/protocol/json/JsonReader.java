package dev.sluice.protocol.json;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed access to the members of an AWS JSON 1.0 request body (as {@link JsonParser} returns it).
 * A member of the wrong JSON type is a SerializationException, as AWS answers it; absent and null
 * members read as null.
 */
final class JsonReader {
  private final Map<String, Object> json;

  JsonReader(Map<String, Object> json) {
    this.json = json;
  }

  String string(String name) {
    Object v = json.get(name);
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw wrongType(v, "a String", name);
  }

  Integer integer(String name) {
    Object v = json.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
      return l.intValue();
    }
    if (v instanceof Double d && d == Math.rint(d) && d >= Integer.MIN_VALUE && d <= Integer.MAX_VALUE) {
      return d.intValue();
    }
    throw wrongType(v, "an Integer", name);
  }

  List<String> strings(String name) {
    List<?> a = array(name);
    if (a == null) {
      return null;
    }
    List<String> out = new ArrayList<>(a.size());
    for (Object v : a) {
      if (!(v instanceof String s)) {
        throw wrongType(v, "a String", name);
      }
      out.add(s);
    }
    return out;
  }

  Map<String, String> stringMap(String name) {
    Map<String, Object> o = object(name);
    if (o == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : o.entrySet()) {
      if (!(e.getValue() instanceof String s)) {
        throw wrongType(e.getValue(), "a String", name + "." + e.getKey());
      }
      out.put(e.getKey(), s);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  List<JsonReader> objects(String name) {
    List<?> a = array(name);
    if (a == null) {
      return null;
    }
    List<JsonReader> out = new ArrayList<>(a.size());
    for (Object v : a) {
      if (!(v instanceof Map<?, ?> o)) {
        throw wrongType(v, "a structure", name);
      }
      out.add(new JsonReader((Map<String, Object>) o));
    }
    return out;
  }

  /** MessageAttributes / MessageSystemAttributes: {@code {name: {DataType, StringValue|BinaryValue}}}. */
  @SuppressWarnings("unchecked")
  Map<String, MessageAttributeValue> messageAttributes(String name) {
    Map<String, Object> o = object(name);
    if (o == null) {
      return null;
    }
    Map<String, MessageAttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : o.entrySet()) {
      if (!(e.getValue() instanceof Map<?, ?> v)) {
        throw wrongType(e.getValue(), "a structure", name + "." + e.getKey());
      }
      JsonReader r = new JsonReader((Map<String, Object>) v);
      out.put(e.getKey(), new MessageAttributeValue(
          r.string("DataType"), r.string("StringValue"), decodeBase64(r.string("BinaryValue"))));
    }
    return out;
  }

  private List<?> array(String name) {
    Object v = json.get(name);
    if (v == null || v instanceof List) {
      return (List<?>) v;
    }
    throw wrongType(v, "a List", name);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> object(String name) {
    Object v = json.get(name);
    if (v == null || v instanceof Map) {
      return (Map<String, Object>) v;
    }
    throw wrongType(v, "a Map", name);
  }

  private static byte[] decodeBase64(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Base64.getDecoder().decode(s);
    } catch (IllegalArgumentException e) {
      throw new SqsException(ErrorCode.SERIALIZATION_EXCEPTION, "Base64 encoded value of BinaryValue is invalid.");
    }
  }

  /** AWS words these as "STRING_VALUE can not be converted to an Integer". */
  private static SqsException wrongType(Object v, String expected, String member) {
    String found = v instanceof String ? "STRING_VALUE"
        : v instanceof Number ? "NUMBER_VALUE"
        : v instanceof Boolean ? "BOOLEAN_VALUE"
        : v instanceof List ? "START_ARRAY"
        : "START_OBJECT";
    return new SqsException(
        ErrorCode.SERIALIZATION_EXCEPTION, found + " can not be converted to " + expected + " (member " + member + ")");
  }
}
