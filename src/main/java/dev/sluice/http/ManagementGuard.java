package dev.sluice.http;

import dev.sluice.auth.ManagementToken;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The first handler of a management route ({@code /metrics}): lets the request on only with the
 * management token as {@code Authorization: Bearer}. Mounted on the route itself, so it guards
 * exactly the requests the router sends there, whatever the raw path looked like
 * ({@code /x/%2e%2e/metrics} is routed, and guarded, as {@code /metrics}).
 */
final class ManagementGuard implements Handler<RoutingContext> {
  private final ManagementToken token;

  ManagementGuard(ManagementToken token) {
    this.token = token;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    if (token.accepts(req.getHeader("authorization"), null)) {
      ctx.next();
    } else {
      Refusals.unauthorized(req);
    }
  }
}
