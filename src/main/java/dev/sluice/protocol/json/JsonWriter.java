package dev.sluice.protocol.json;

import io.vertx.core.buffer.Buffer;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

/**
 * Builds a response body as text: objects and arrays with members written in order, strings
 * escaped per RFC 8259. Cheaper than a general generator for the small documents SQS answers with.
 * One instance per response; not thread-safe.
 */
final class JsonWriter {
  private final StringBuilder out = new StringBuilder(256);
  /** Whether the container being written still needs no comma before its next member. */
  private boolean first = true;

  JsonWriter beginObject() {
    separator();
    return open('{');
  }

  /** Starts a nested object member. */
  JsonWriter beginObject(String name) {
    name(name);
    return open('{');
  }

  JsonWriter endObject() {
    return close('}');
  }

  JsonWriter beginArray(String name) {
    name(name);
    return open('[');
  }

  JsonWriter endArray() {
    return close(']');
  }

  private JsonWriter open(char bracket) {
    out.append(bracket);
    first = true;
    return this;
  }

  private JsonWriter close(char bracket) {
    out.append(bracket);
    first = false;
    return this;
  }

  JsonWriter string(String name, String value) {
    name(name);
    quote(value);
    return this;
  }

  /** Writes the member only when the value is present. */
  JsonWriter stringIf(String name, String value) {
    return value == null ? this : string(name, value);
  }

  JsonWriter bool(String name, boolean value) {
    name(name);
    out.append(value);
    first = false;
    return this;
  }

  JsonWriter number(String name, long value) {
    name(name);
    out.append(value);
    first = false;
    return this;
  }

  /** Writes the member only when the value is present. */
  JsonWriter numberIf(String name, Integer value) {
    return value == null ? this : number(name, value);
  }

  JsonWriter base64(String name, byte[] value) {
    return string(name, Base64.getEncoder().encodeToString(value));
  }

  /** A JSON array of strings, omitted when empty (AWS omits empty lists). */
  JsonWriter stringsIf(String name, Collection<String> values) {
    return values == null || values.isEmpty() ? this : strings(name, values);
  }

  /** A JSON array of strings, written even when empty (for members the model marks required). */
  JsonWriter strings(String name, Collection<String> values) {
    beginArray(name);
    for (String v : values) {
      separator();
      quote(v);
    }
    return endArray();
  }

  /** A JSON object of string values, omitted when empty (AWS omits empty maps). */
  JsonWriter stringMapIf(String name, Map<String, String> values) {
    if (values == null || values.isEmpty()) {
      return this;
    }
    beginObject(name);
    for (Map.Entry<String, String> e : values.entrySet()) {
      string(e.getKey(), e.getValue());
    }
    return endObject();
  }

  Buffer toBuffer() {
    return Buffer.buffer(out.toString());
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void name(String name) {
    separator();
    quote(name);
    out.append(':');
    first = true; // the value follows without a comma
  }

  private void separator() {
    if (!first) {
      out.append(',');
    }
    first = false;
  }

  private void quote(String s) {
    out.append('"');
    int chunk = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++; // a valid pair is written as is (UTF-8 encodes it as one code point)
        continue;
      }
      out.append(s, chunk, i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        // Control characters, and lone surrogates, which UTF-8 cannot carry: escaped.
        default -> out.append(String.format("\\u%04x", (int) c));
      }
      chunk = i + 1;
    }
    out.append(s, chunk, s.length()).append('"');
    first = false;
  }
}
