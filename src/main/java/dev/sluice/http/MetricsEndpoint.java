package dev.sluice.http;

import dev.sluice.auth.ManagementToken;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.MetricNames;
import dev.sluice.metrics.SluiceMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/** {@code GET /metrics}: the Prometheus text exposition (format 0.0.4), when metrics are on. */
final class MetricsEndpoint {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Vertx vertx;
  private final QueueEngine engine;
  private final SluiceMetrics metrics;
  private final ManagementToken token;

  MetricsEndpoint(Vertx vertx, QueueEngine engine, SluiceMetrics metrics, ManagementToken token) {
    this.token = token;
    this.vertx = vertx;
    this.engine = engine;
    this.metrics = metrics;
  }

  /** Answers a scrape; false for any other request (or when metrics are off). */
  boolean handle(HttpServerRequest req) {
    if (!metrics.enabled() || !req.path().equals(MetricNames.SCRAPE_PATH)
        || (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD)) {
      return false;
    }
    if (!token.accepts(req.getHeader("authorization"), null)) {
      Unauthorized.answer(req.response());
      return true;
    }
    metrics.scrape(vertx, engine).onComplete((text, failure) -> {
      if (failure == null) {
        req.response().putHeader("content-type", CONTENT_TYPE).end(text);
      } else {
        req.response().setStatusCode(500).putHeader("content-type", "text/plain").end("scrape failed: " + failure);
      }
    });
    return true;
  }
}
