package dev.sluice.http;

import dev.sluice.auth.ConsolePolicy;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The first handler of every {@code /console/api/} route (design/console.md §2.3), before any body
 * is read: five checks in this order, each refusal a console error ({@link ConsoleErrors}).
 * <ol>
 *   <li>{@code X-Sluice-Console: 1}: a page of another site cannot send a custom header without a
 *       CORS preflight, and Sluice answers no preflight with {@code Access-Control-Allow-*};
 *   <li>an {@code Origin}, when sent, is the server's own (scheme and {@code Host});
 *   <li>a {@code Sec-Fetch-Site}, when sent, is {@code same-origin} or {@code none};
 *   <li>with a management token: {@code Authorization: Bearer <token>}, never {@code ?token=} (URLs
 *       end up in logs);
 *   <li>without one: a {@code Host} a DNS-rebinding page cannot have ({@link ConsolePolicy#hostAllowed}).
 * </ol>
 * Mounted on the route itself, so it guards exactly what the router sends there, whatever the raw
 * path looked like. Stateless.
 */
final class ConsoleGuard implements Handler<RoutingContext> {
  static final String HEADER = "x-sluice-console";

  private final ConsolePolicy policy;

  ConsoleGuard(ConsolePolicy policy) {
    this.policy = policy;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    String host = req.getHeader("host");
    if (!"1".equals(req.getHeader(HEADER))) {
      ConsoleErrors.render(req, 403, ConsoleErrors.FORBIDDEN, "The console's API takes requests with the header "
          + "X-Sluice-Console: 1 only.");
    } else if (!policy.originAllowed(req.getHeader("origin"), host, req.isSSL())) {
      ConsoleErrors.render(req, 403, ConsoleErrors.FORBIDDEN, "Pages of other sites may not use the console's API"
          + " (Origin is not this server's).");
    } else if (!sameSiteFetch(req.getHeader("sec-fetch-site"))) {
      ConsoleErrors.render(req, 403, ConsoleErrors.FORBIDDEN, "Pages of other sites may not use the console's API"
          + " (Sec-Fetch-Site).");
    } else if (policy.token().required()) {
      String authorization = req.getHeader("authorization");
      if (policy.token().accepts(authorization, null)) {
        ctx.next();
      } else if (authorization == null) {
        ConsoleErrors.unauthorized(req, ConsoleErrors.MISSING_TOKEN,
            "The management token is required, as Authorization: Bearer <token>.");
      } else {
        ConsoleErrors.unauthorized(req, ConsoleErrors.INVALID_TOKEN, "The management token given is not this"
            + " server's.");
      }
    } else if (!policy.hostAllowed(host)) {
      ConsoleErrors.render(req, 403, ConsoleErrors.FORBIDDEN, "Without a management token the console's API answers"
          + " only requests to localhost, an IP address or the host of http.publicBaseUrl (Host: " + host + ").");
    } else {
      ctx.next();
    }
  }

  private static boolean sameSiteFetch(String site) {
    return site == null || site.equals("same-origin") || site.equals("none");
  }
}
