package dev.sluice.http;

import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.SluiceMetrics;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;

/** {@code GET /metrics}: the Prometheus text exposition (format 0.0.4), behind the management token. */
final class MetricsEndpoint {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Vertx vertx;
  private final QueueEngine engine;
  private final SluiceMetrics metrics;

  MetricsEndpoint(Vertx vertx, QueueEngine engine, SluiceMetrics metrics) {
    this.vertx = vertx;
    this.engine = engine;
    this.metrics = metrics;
  }

  void scrape(RoutingContext ctx) {
    metrics.scrape(vertx, engine).onComplete((text, failure) -> {
      if (failure == null) {
        ctx.response().putHeader("content-type", CONTENT_TYPE).end(text);
      } else {
        ctx.response().setStatusCode(500).putHeader("content-type", "text/plain").end("scrape failed: " + failure);
      }
    });
  }
}
