package dev.sluice.protocol.query;

import io.vertx.core.buffer.Buffer;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parameters of a Query request: the URL's query string (GET, and any POST) and the
 * form-encoded body (POST), decoded; a body parameter wins over the same one in the URL.
 */
public final class QueryParams {
  private QueryParams() {}

  public static Map<String, String> of(String rawQuery, Buffer body) {
    Map<String, String> out = new LinkedHashMap<>();
    addAll(rawQuery, out);
    if (body != null && body.length() > 0) {
      addAll(body.toString(StandardCharsets.UTF_8), out);
    }
    return out;
  }

  private static void addAll(String encoded, Map<String, String> out) {
    if (encoded == null || encoded.isEmpty()) {
      return;
    }
    for (String part : encoded.split("&")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      String name = decode(eq < 0 ? part : part.substring(0, eq));
      out.put(name, eq < 0 ? "" : decode(part.substring(eq + 1)));
    }
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      return s; // a stray '%': taken literally, and refused by whatever checks the value
    }
  }
}
