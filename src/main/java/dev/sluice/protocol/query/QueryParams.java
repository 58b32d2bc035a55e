package dev.sluice.protocol.query;

import dev.sluice.protocol.Utf8;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parameters of a Query request: the URL's query string (GET, and any POST) and the
 * form-encoded body (POST), decoded; a body parameter wins over the same one in the URL. Decoding
 * works on bytes: percent escapes and raw bytes alike are put together first and read as UTF-8 by
 * {@link Utf8}, so a value that is not UTF-8 keeps the evidence (unpaired surrogates) for whatever
 * checks it, instead of U+FFFD in its place.
 */
public final class QueryParams {
  private QueryParams() {}

  public static Map<String, String> of(String rawQuery, Buffer body) {
    Map<String, String> out = new LinkedHashMap<>();
    if (rawQuery != null) {
      // The request line reaches us one char per byte (ISO-8859-1): this gives back its bytes.
      addAll(rawQuery.getBytes(StandardCharsets.ISO_8859_1), out);
    }
    if (body != null && body.length() > 0) {
      addAll(body.getBytes(), out);
    }
    return out;
  }

  private static void addAll(byte[] encoded, Map<String, String> out) {
    int start = 0;
    while (start < encoded.length) {
      int end = indexOf(encoded, (byte) '&', start, encoded.length);
      if (end > start) {
        int eq = indexOf(encoded, (byte) '=', start, end);
        String name = decode(encoded, start, eq);
        out.put(name, eq == end ? "" : decode(encoded, eq + 1, end));
      }
      start = end + 1;
    }
  }

  private static int indexOf(byte[] b, byte c, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return to;
  }

  /**
   * application/x-www-form-urlencoded: {@code +} is a space, {@code %XX} a byte. A stray {@code %}
   * (not followed by two hex digits) leaves the whole value as it was sent, to be refused by
   * whatever checks it.
   */
  private static String decode(byte[] b, int from, int to) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
    for (int i = from; i < to; i++) {
      byte c = b[i];
      if (c == '+') {
        bytes.write(' ');
      } else if (c == '%') {
        int hi = i + 2 < to ? Character.digit(b[i + 1], 16) : -1;
        int lo = hi >= 0 ? Character.digit(b[i + 2], 16) : -1;
        if (lo < 0) {
          return Utf8.decode(b, from, to - from);
        }
        bytes.write(hi << 4 | lo);
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    return Utf8.decode(bytes.toByteArray());
  }
}
