package dev.sluice.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * {@code GET /health/live}: the process answers. {@code GET /health/ready}: the server takes
 * traffic; the port opens only after recovery, so it is ready unless {@code notReadyReason} says
 * otherwise (in durable mode: PostgreSQL unreachable), and then answers 503 with the reason.
 */
public final class HealthEndpoints {
  public static final String LIVE = "/health/live";
  public static final String READY = "/health/ready";

  private final Supplier<String> notReadyReason;

  HealthEndpoints(Supplier<String> notReadyReason) {
    this.notReadyReason = notReadyReason;
  }

  /** Answers a health request; false for any other request. */
  boolean handle(HttpServerRequest req) {
    String path = req.path();
    if (!path.startsWith("/health/") || (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD)) {
      return false;
    }
    if (path.equals(LIVE)) {
      answer(req, 200, new JsonObject().put("status", "UP"));
      return true;
    }
    if (path.equals(READY)) {
      String reason = notReadyReason.get();
      answer(req, reason == null ? 200 : 503, reason == null ? new JsonObject().put("status", "UP")
          : new JsonObject().put("status", "DOWN").put("reason", reason));
      return true;
    }
    return false;
  }

  private static void answer(HttpServerRequest req, int status, JsonObject body) {
    req.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.toBuffer());
  }
}
