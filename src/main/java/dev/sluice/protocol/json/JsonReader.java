package dev.sluice.protocol.json;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.SqsException;
import dev.sluice.protocol.Members;
import dev.sluice.protocol.Utf8;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The members of an AWS JSON 1.0 request body (as {@link JsonParser} returns it). A member of the
 * wrong JSON type is a SerializationException, as AWS answers it; absent and null members read as
 * null.
 */
public final class JsonReader implements Members {
  private final Map<String, Object> json;

  JsonReader(Map<String, Object> json) {
    this.json = json;
  }

  /** The members of a request body; SerializationException when it is not one JSON object. */
  public static JsonReader of(Buffer body) {
    if (body.length() == 0) {
      return new JsonReader(Map.of());
    }
    Object v;
    try {
      byte[] bytes = body.getBytes();
      v = JsonParser.parse(bytes, 0, bytes.length);
    } catch (IllegalArgumentException e) {
      throw new SqsException(ErrorCode.SERIALIZATION_EXCEPTION, "The request body is not valid JSON: " + e.getMessage());
    }
    if (!(v instanceof Map<?, ?>)) {
      throw new SqsException(ErrorCode.SERIALIZATION_EXCEPTION, "The request body must be a JSON object.");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) v;
    return new JsonReader(m);
  }

  @Override
  public String string(String name) {
    return Utf8.checked(text(name), name);
  }

  @Override
  public String text(String name) {
    Object v = json.get(name);
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw wrongType(v, "a String", name);
  }

  @Override
  public Integer integer(String name) {
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

  @Override
  public List<String> strings(String name) {
    List<?> a = array(name);
    if (a == null) {
      return null;
    }
    List<String> out = new ArrayList<>(a.size());
    for (Object v : a) {
      if (!(v instanceof String s)) {
        throw wrongType(v, "a String", name);
      }
      out.add(Utf8.checked(s, name));
    }
    return out;
  }

  @Override
  public Map<String, String> stringMap(String name) {
    Map<String, Object> o = object(name);
    if (o == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : o.entrySet()) {
      if (!(e.getValue() instanceof String s)) {
        throw wrongType(e.getValue(), "a String", name + "." + e.getKey());
      }
      out.put(Utf8.checked(e.getKey(), name), Utf8.checked(s, name + "." + e.getKey()));
    }
    return out;
  }

  @Override
  @SuppressWarnings("unchecked")
  public List<Members> objects(String name) {
    List<?> a = array(name);
    if (a == null) {
      return null;
    }
    List<Members> out = new ArrayList<>(a.size());
    for (Object v : a) {
      if (!(v instanceof Map<?, ?> o)) {
        throw wrongType(v, "a structure", name);
      }
      out.add(new JsonReader((Map<String, Object>) o));
    }
    return out;
  }

  /** {@code {name: {DataType, StringValue|BinaryValue}}}. */
  @Override
  @SuppressWarnings("unchecked")
  public Map<String, MessageAttributeValue> messageAttributes(String name) {
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
          r.text("DataType"), r.text("StringValue"), decodeBase64(r.text("BinaryValue"))));
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
