package dev.sluice.http;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * {@code GET /health/live}: the process answers. {@code GET /health/ready}: the server takes
 * traffic, unless {@code notReadyReason} says otherwise (recovering, PostgreSQL unreachable,
 * stopping), and then answers 503 with the reason. Open to anyone: they reveal nothing, and
 * Kubernetes probes cannot send a token.
 */
public final class HealthEndpoints {
  public static final String LIVE = "/health/live";
  public static final String READY = "/health/ready";

  private final Supplier<String> notReadyReason;

  HealthEndpoints(Supplier<String> notReadyReason) {
    this.notReadyReason = notReadyReason;
  }

  /** Why the server is not ready, or null when it is. */
  String notReadyReason() {
    return notReadyReason.get();
  }

  void live(RoutingContext ctx) {
    answer(ctx, 200, new JsonObject().put("status", "UP"));
  }

  void ready(RoutingContext ctx) {
    String reason = notReadyReason.get();
    answer(ctx, reason == null ? 200 : 503, reason == null ? new JsonObject().put("status", "UP")
        : new JsonObject().put("status", "DOWN").put("reason", reason));
  }

  private static void answer(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.toBuffer());
  }
}
