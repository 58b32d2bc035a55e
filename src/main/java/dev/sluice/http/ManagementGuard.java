package dev.sluice.http;

import dev.sluice.auth.ManagementToken;
import dev.sluice.auth.OriginPolicy;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The first handler of a protected route: lets the request on only with the management token and,
 * for a route browsers use, from an allowed Origin. Mounted on the route itself, so it guards
 * exactly the requests the router sends there, whatever the raw path looked like
 * ({@code /examples/%2e%2e/eventbus/info} is routed, and guarded, as {@code /eventbus/info}).
 */
final class ManagementGuard implements Handler<RoutingContext> {
  private final ManagementToken token;
  private final boolean tokenInQuery;
  private final OriginPolicy origins;

  /**
   * {@code tokenInQuery}: the token may come as {@code ?token=} (browsers cannot set headers on a
   * WebSocket); {@code origins}: null where browsers are not expected.
   */
  ManagementGuard(ManagementToken token, boolean tokenInQuery, OriginPolicy origins) {
    this.token = token;
    this.tokenInQuery = tokenInQuery;
    this.origins = origins;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    if (origins != null && !origins.allows(req.getHeader("origin"), req.getHeader("host"), req.isSSL())) {
      Refusals.originNotAllowed(req);
    } else if (!token.accepts(req.getHeader("authorization"), tokenInQuery ? req.getParam("token") : null)) {
      Refusals.unauthorized(req);
    } else {
      ctx.next();
    }
  }
}
