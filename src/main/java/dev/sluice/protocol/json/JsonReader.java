package dev.sluice.protocol.json;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.SqsException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed access to the members of an AWS JSON 1.0 request body. A member of the wrong JSON type is
 * a SerializationException, as AWS answers it; absent and null members read as null.
 */
final class JsonReader {
  private final JsonObject json;

  JsonReader(JsonObject json) {
    this.json = json;
  }

  String string(String name) {
    Object v = json.getValue(name);
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw wrongType(v, "a String", name);
  }

  Integer integer(String name) {
    Object v = json.getValue(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Integer i) {
      return i;
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
        && n.doubleValue() >= Integer.MIN_VALUE && n.doubleValue() <= Integer.MAX_VALUE) {
      return n.intValue();
    }
    throw wrongType(v, "an Integer", name);
  }

  List<String> strings(String name) {
    JsonArray a = array(name);
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
    JsonObject o = object(name);
    if (o == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : o) {
      if (!(e.getValue() instanceof String s)) {
        throw wrongType(e.getValue(), "a String", name + "." + e.getKey());
      }
      out.put(e.getKey(), s);
    }
    return out;
  }

  List<JsonReader> objects(String name) {
    JsonArray a = array(name);
    if (a == null) {
      return null;
    }
    List<JsonReader> out = new ArrayList<>(a.size());
    for (Object v : a) {
      if (!(v instanceof JsonObject o)) {
        throw wrongType(v, "a structure", name);
      }
      out.add(new JsonReader(o));
    }
    return out;
  }

  /** MessageAttributes / MessageSystemAttributes: {@code {name: {DataType, StringValue|BinaryValue}}}. */
  Map<String, MessageAttributeValue> messageAttributes(String name) {
    JsonObject o = object(name);
    if (o == null) {
      return null;
    }
    Map<String, MessageAttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : o) {
      if (!(e.getValue() instanceof JsonObject v)) {
        throw wrongType(e.getValue(), "a structure", name + "." + e.getKey());
      }
      JsonReader r = new JsonReader(v);
      String binary = r.string("BinaryValue");
      out.put(e.getKey(), new MessageAttributeValue(r.string("DataType"), r.string("StringValue"), decodeBase64(binary)));
    }
    return out;
  }

  private JsonArray array(String name) {
    Object v = json.getValue(name);
    if (v == null || v instanceof JsonArray) {
      return (JsonArray) v;
    }
    throw wrongType(v, "a List", name);
  }

  private JsonObject object(String name) {
    Object v = json.getValue(name);
    if (v == null || v instanceof JsonObject) {
      return (JsonObject) v;
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
        : v instanceof JsonArray ? "START_ARRAY"
        : "START_OBJECT";
    return new SqsException(
        ErrorCode.SERIALIZATION_EXCEPTION, found + " can not be converted to " + expected + " (member " + member + ")");
  }
}
