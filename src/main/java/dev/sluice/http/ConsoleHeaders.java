package dev.sluice.http;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The headers of every {@code /console} response (design/console.md §2.3), set by a plain handler
 * on a route of its own so that no ordering rule of Vert.x Web's security-policy handlers applies:
 * a policy allowing only the server's own scripts, styles, images and fetches (no inline code, no
 * framing, no form posts), and no referrer, sniffing or cross-origin embedding. API answers are
 * also never stored by a cache: they carry queue contents.
 */
final class ConsoleHeaders {
  static final String JSON = "application/json; charset=utf-8";

  /** In the order they are written; values byte for byte as ConsoleApiIT checks them. */
  static final Map<String, String> EVERY_RESPONSE = orderedMap(
      "Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "X-Frame-Options", "DENY",
      "X-Content-Type-Options", "nosniff",
      "Referrer-Policy", "no-referrer",
      "Cross-Origin-Opener-Policy", "same-origin",
      "Cross-Origin-Resource-Policy", "same-origin");

  private ConsoleHeaders() {}

  /** First handler of every console route. */
  static void everyResponse(RoutingContext ctx) {
    MultiMap headers = ctx.response().headers();
    EVERY_RESPONSE.forEach(headers::set);
    ctx.next();
  }

  /** First handler of the API's routes, after {@link #everyResponse}. */
  static void apiResponse(RoutingContext ctx) {
    ctx.response().headers().set(HttpHeaders.CACHE_CONTROL, "no-store");
    ctx.next();
  }

  /** The static pages: revalidated on every load, so that a new server version is seen at once. */
  static void pageResponse(RoutingContext ctx) {
    ctx.response().headers().set(HttpHeaders.CACHE_CONTROL, "no-cache");
    ctx.next();
  }

  private static Map<String, String> orderedMap(String... keysAndValues) {
    LinkedHashMap<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return Collections.unmodifiableMap(m);
  }
}
