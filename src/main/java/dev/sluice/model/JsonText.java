package dev.sluice.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON documents held in queue attributes (Policy, RedrivePolicy, RedriveAllowPolicy): parsed into
 * plain maps, lists, strings, numbers and booleans, and written back. Stateless.
 */
public final class JsonText {
  private JsonText() {}

  private static final JsonFactory FACTORY = new JsonFactory();

  /** Parses one JSON value; throws IllegalArgumentException when the text is not exactly that. */
  public static Object parse(String text) {
    try (JsonParser p = FACTORY.createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new IllegalArgumentException("empty document");
      }
      Object value = read(p, first);
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("trailing content");
      }
      return value;
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** Parses a JSON object, or returns null when the text is not one. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parseObject(String text) {
    try {
      Object v = parse(text);
      return v instanceof Map ? (Map<String, Object>) v : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Object read(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          // A repeated key would be read one way and shown another (a policy's "Effect" twice).
          if (m.containsKey(name)) {
            throw new IllegalArgumentException("duplicate key " + name);
          }
          m.put(name, read(p, p.nextToken()));
        }
        return m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        JsonToken n;
        while ((n = p.nextToken()) != JsonToken.END_ARRAY) {
          l.add(read(p, n));
        }
        return l;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return p.getNumberValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IllegalArgumentException("unexpected token " + t);
    }
  }

  public static String write(Object value) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(JsonGenerator g, Object v) throws IOException {
    if (v instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof List<?> l) {
      g.writeStartArray();
      for (Object o : l) {
        write(g, o);
      }
      g.writeEndArray();
    } else if (v instanceof Number n) {
      g.writeNumber(n.toString());
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v == null) {
      g.writeNull();
    } else {
      g.writeString(v.toString());
    }
  }
}
