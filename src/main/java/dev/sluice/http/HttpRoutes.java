package dev.sluice.http;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.auth.ConsolePolicy;
import dev.sluice.auth.Surfaces;
import dev.sluice.engine.TopicSigner;
import dev.sluice.metrics.MetricNames;
import dev.sluice.model.Ids;
import dev.sluice.protocol.Headers;
import dev.sluice.protocol.json.JsonErrors;
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.protocol.query.QueryErrors;
import dev.sluice.push.PushBridges;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * Every path the HTTP port answers and who may use it, in one table per phase. Each router matches
 * on the path normalized the way Vert.x Web normalizes it (dot segments resolved, unreserved
 * characters decoded) and a protected route's guard is its own first handler, so no spelling of a
 * path reaches a surface around its guard.
 *
 * <pre>
 *   /health/live, /health/ready   GET  open (probes)
 *   /metrics                      GET  management token
 *   /2015-03-31/event-source-mappings/**  the triggers' admin API: management token
 *   {push.path}/**                any  management token (header or ?token=) and an allowed Origin
 *   /examples/**                  GET  open (a static page and the browser libraries it loads)
 *   /console, /console/**         GET  open: the console's pages (static, no data); 404 when console.enabled is false
 *   /console/api/**               any  the console's API: ConsoleGuard (management token, or without one a
 *                                      loopback or IP Host), then ConsoleApi; while starting, the retryable 503
 *   /sns/&lt;certificate&gt;.pem         GET  open (the public certificate SNS envelopes are signed for)
 *   anything else                 any  the SQS and SNS APIs: SigV4 when credentials are set
 * </pre>
 */
final class HttpRoutes {
  /** SockJS from its WebJar, for the example page. */
  static final String SOCKJS = "META-INF/resources/webjars/sockjs-client/1.6.1/dist/sockjs.min.js";

  private HttpRoutes() {}

  /**
   * While the queues are recovered: health answers, the console's pages too (they say so), and
   * everything else gets the retryable 503.
   */
  static Router starting(Vertx vertx, HealthEndpoints health, ConsolePolicy console) {
    Router router = Router.router(vertx);
    health(router, health);
    ConsoleRoutes.mount(router, console, null);
    router.route().handler(ctx -> notStartedYet(ctx.request()));
    return router;
  }

  /** Once the engine is up. {@code metrics}, {@code push} and {@code triggers} are null when off. */
  static Router serving(Vertx vertx, HealthEndpoints health, Surfaces surfaces, MetricsEndpoint metrics,
      PushBridges push, TopicSigner signer, TriggerAdmin triggers, ConsoleApi console, Handler<HttpServerRequest> sqs) {
    Router router = Router.router(vertx);
    health(router, health);
    ConsoleRoutes.mount(router, surfaces.console(), console);
    // Public by nature, as AWS serves its SNS certificates: subscribers fetch it to check signatures.
    router.route(TopicSigner.PATH + ":file").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(ctx -> signer
        .certificate().onComplete((cert, failure) -> {
          if (failure == null && ctx.pathParam("file").equals(cert.fileName())) {
            ctx.response().putHeader("content-type", "application/x-pem-file")
                .putHeader("cache-control", "max-age=86400").end(cert.pem());
          } else {
            ctx.response().setStatusCode(404).end();
          }
        }));
    if (metrics != null) {
      router.route(MetricNames.SCRAPE_PATH).method(HttpMethod.GET).method(HttpMethod.HEAD)
          .handler(new ManagementGuard(surfaces.managementToken()))
          .handler(metrics::scrape);
    }
    if (triggers != null) {
      triggers.mount(router, new ManagementGuard(surfaces.managementToken()));
    }
    if (push != null) {
      String bridge = push.path() + "/*";
      router.route(bridge).handler(
          new BridgeAdmission(surfaces.managementToken(), surfaces.bridgeOrigins(), surfaces.sqs(), push.path()));
      // SockJS's fallback transports (XHR, for browsers without WebSocket) post their frames. (A
      // route of its own: Vert.x Web wants a body handler first on its route, and the guard must
      // come before any body is read.)
      router.route(bridge).handler(BodyHandler.create().setBodyLimit(push.maxFrameBytes()));
      router.route(bridge).subRouter(push.sockJsRouter(vertx));
      router.route("/examples/vendor/sockjs.min.js").method(HttpMethod.GET).handler(ctx -> ctx.response()
          .putHeader("content-type", "application/javascript").sendFile(SOCKJS));
      router.route("/examples/*").method(HttpMethod.GET).handler(StaticHandler.create("webroot/examples"));
    }
    router.route().handler(ctx -> sqs.handle(ctx.request()));
    return router;
  }

  private static void health(Router router, HealthEndpoints health) {
    router.route(HealthEndpoints.LIVE).method(HttpMethod.GET).method(HttpMethod.HEAD).handler(health::live);
    router.route(HealthEndpoints.READY).method(HttpMethod.GET).method(HttpMethod.HEAD).handler(health::ready);
  }

  /** Answered in the request's own protocol, so that its SDK reads the 503 and retries. */
  private static void notStartedYet(HttpServerRequest req) {
    Refusals.closeIfUnread(req);
    SqsException starting = new SqsException(ErrorCode.SERVICE_UNAVAILABLE,
        "Sluice is starting (recovering its queues); retry shortly.");
    if (JsonProtocol.accepts(req.getHeader(Headers.X_AMZ_TARGET), req)) {
      JsonErrors.render(req.response(), starting);
    } else {
      QueryErrors.render(req.response(), starting, Ids.uuid());
    }
  }
}
