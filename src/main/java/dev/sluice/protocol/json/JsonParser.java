package dev.sluice.protocol.json;

import dev.sluice.protocol.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON parser for request bodies: UTF-8 bytes in; maps, lists, strings, longs,
 * doubles, booleans and nulls out. Strings are decoded by {@link Utf8}: malformed UTF-8 and lone
 * surrogate escapes come out as unpaired surrogates, for the reader or the engine to refuse. Requests are small and every one is parsed, so this avoids a
 * general parser's per-document set-up cost (measured: it dominated the JSON share of a
 * SendMessage). Stateless apart from one instance per parse.
 */
final class JsonParser {
  private final byte[] in;
  private final int end;
  private int pos;

  private JsonParser(byte[] in, int offset, int length) {
    this.in = in;
    this.pos = offset;
    this.end = offset + length;
  }

  /** Parses exactly one JSON value; IllegalArgumentException on anything else. */
  static Object parse(byte[] in, int offset, int length) {
    JsonParser p = new JsonParser(in, offset, length);
    Object v = p.value(0);
    p.skipWhitespace();
    if (p.pos != p.end) {
      throw p.error("trailing content");
    }
    return v;
  }

  private Object value(int depth) {
    if (depth > 64) {
      throw error("nesting too deep");
    }
    skipWhitespace();
    if (pos >= end) {
      throw error("unexpected end");
    }
    byte c = in[pos];
    switch (c) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string();
      case 't':
        literal("true");
        return Boolean.TRUE;
      case 'f':
        literal("false");
        return Boolean.FALSE;
      case 'n':
        literal("null");
        return null;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected character");
    }
  }

  private Map<String, Object> object(int depth) {
    pos++; // {
    // In wire order, as the Query protocol's maps are in index order: the engine then meets a request's
    // attributes in the client's order on both protocols, and refuses the same one first.
    Map<String, Object> m = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String name = string();
      skipWhitespace();
      expect(':');
      m.put(name, value(depth + 1));
      skipWhitespace();
      byte c = next();
      if (c == '}') {
        return m;
      }
      if (c != ',') {
        throw error("expected , or }");
      }
    }
  }

  private List<Object> array(int depth) {
    pos++; // [
    List<Object> l = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return l;
    }
    while (true) {
      l.add(value(depth + 1));
      skipWhitespace();
      byte c = next();
      if (c == ']') {
        return l;
      }
      if (c != ',') {
        throw error("expected , or ]");
      }
    }
  }

  private String string() {
    pos++; // opening quote
    int start = pos;
    while (pos < end) {
      byte c = in[pos];
      if (c == '"') {
        String s = Utf8.decode(in, start, pos - start);
        pos++;
        return s;
      }
      if (c == '\\') {
        return escapedString(start);
      }
      if ((c & 0xff) < 0x20) {
        throw error("control character in string");
      }
      pos++;
    }
    throw error("unterminated string");
  }

  /** The slow path, from the first backslash on: decode into a builder. */
  private String escapedString(int start) {
    StringBuilder b = new StringBuilder(Utf8.decode(in, start, pos - start));
    int chunk = pos;
    while (pos < end) {
      byte c = in[pos];
      if (c == '"') {
        b.append(Utf8.decode(in, chunk, pos - chunk));
        pos++;
        return b.toString();
      }
      if ((c & 0xff) < 0x20) {
        throw error("control character in string");
      }
      if (c != '\\') {
        pos++;
        continue;
      }
      b.append(Utf8.decode(in, chunk, pos - chunk));
      pos++;
      byte e = next();
      switch (e) {
        case '"' -> b.append('"');
        case '\\' -> b.append('\\');
        case '/' -> b.append('/');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> b.append(hex4());
        default -> throw error("invalid escape");
      }
      chunk = pos;
    }
    throw error("unterminated string");
  }

  private char hex4() {
    if (pos + 4 > end) {
      throw error("short \\u escape");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(in[pos++], 16);
      if (d < 0) {
        throw error("invalid \\u escape");
      }
      v = v * 16 + d;
    }
    return (char) v;
  }

  /** RFC 8259: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}. */
  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (digits() == 0) {
      throw error("invalid number");
    }
    boolean integral = true;
    if (pos < end && in[pos] == '.') {
      pos++;
      integral = false;
      if (digits() == 0) {
        throw error("invalid number");
      }
    }
    if (pos < end && (in[pos] == 'e' || in[pos] == 'E')) {
      pos++;
      integral = false;
      if (pos < end && (in[pos] == '+' || in[pos] == '-')) {
        pos++;
      }
      if (digits() == 0) {
        throw error("invalid number");
      }
    }
    String text = new String(in, start, pos - start, StandardCharsets.US_ASCII);
    try {
      if (integral && text.length() < 19) {
        return Long.parseLong(text);
      }
      double d = Double.parseDouble(text);
      if (Double.isInfinite(d)) {
        throw error("number out of range");
      }
      return d;
    } catch (NumberFormatException e) {
      throw error("invalid number");
    }
  }

  private int digits() {
    int start = pos;
    while (pos < end && in[pos] >= '0' && in[pos] <= '9') {
      pos++;
    }
    return pos - start;
  }

  private void literal(String word) {
    for (int i = 0; i < word.length(); i++) {
      if (pos >= end || in[pos++] != word.charAt(i)) {
        throw error("invalid literal");
      }
    }
  }

  private void skipWhitespace() {
    while (pos < end) {
      byte c = in[pos];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      pos++;
    }
  }

  private byte peek() {
    if (pos >= end) {
      throw error("unexpected end");
    }
    return in[pos];
  }

  private byte next() {
    byte c = peek();
    pos++;
    return c;
  }

  private void expect(char c) {
    if (next() != c) {
      throw error("expected " + c);
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at byte " + pos);
  }
}
