package dev.sluice.http;

import dev.sluice.api.ErrorCode;
import dev.sluice.auth.ManagementToken;
import dev.sluice.config.SecurityConfig;
import dev.sluice.api.SqsException;
import dev.sluice.model.Ids;
import dev.sluice.protocol.Headers;
import dev.sluice.protocol.json.JsonErrors;
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.protocol.query.QueryErrors;
import dev.sluice.push.PushBridges;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP server on one event loop. Several instances listen on the same port and Vert.x spreads
 * connections over them, so parsing and encoding run on every loop while queue state stays with
 * the shards. The port opens before recovery so that health probes are answered; until
 * {@link #serve} is called every other request gets the retryable ServiceUnavailable.
 */
final class SqsHttpVerticle extends VerticleBase {
  /** SockJS from its WebJar, for the example page. */
  static final String SOCKJS = "META-INF/resources/webjars/sockjs-client/1.6.1/dist/sockjs.min.js";

  private final String host;
  private final int port;
  private final SecurityConfig security;
  private final HealthEndpoints health;
  private final int maxWebSocketFrameBytes;
  /** What answers requests other than health probes: the start-up gate, then the APIs. */
  private volatile Handler<HttpServerRequest> routed = SqsHttpVerticle::notStartedYet;
  private HttpServer server;

  /** {@code maxWebSocketFrameBytes}: the push bridge's frame limit, 0 when push is off. */
  SqsHttpVerticle(String host, int port, SecurityConfig security, HealthEndpoints health, int maxWebSocketFrameBytes) {
    this.security = security;
    this.host = host;
    this.port = port;
    this.health = health;
    this.maxWebSocketFrameBytes = maxWebSocketFrameBytes;
  }

  @Override
  public Future<?> start() {
    HttpServerOptions options = new HttpServerOptions()
        .setHost(host)
        .setPort(port)
        .setTcpNoDelay(true)
        // Clients that send Expect: 100-continue (curl on large bodies, PHP's Guzzle) would stall.
        .setHandle100ContinueAutomatically(true)
        // Many idle long polls connect at once in load tests; a deeper backlog avoids refused connects.
        .setAcceptBacklog(8192);
    if (security.tls()) {
      options.setSsl(true).setKeyCertOptions(
          new PemKeyCertOptions().setCertPath(security.tlsCertPath()).setKeyPath(security.tlsKeyPath()));
    }
    if (maxWebSocketFrameBytes > 0) {
      // Frames up to four times the limit reach the bridge, which refuses those over it with an
      // error frame and keeps the connection; only larger ones close it.
      options.setMaxWebSocketFrameSize(Math.max(options.getMaxWebSocketFrameSize(), 4 * maxWebSocketFrameBytes))
          .setMaxWebSocketMessageSize(Math.max(options.getMaxWebSocketMessageSize(), 4 * maxWebSocketFrameBytes));
    }
    server = vertx.createHttpServer(options).requestHandler(req -> {
      if (!health.handle(req)) {
        routed.handle(req);
      }
    });
    return server.listen();
  }

  /**
   * Recovery is done: from now on requests reach the SQS APIs ({@code front}), the metrics and, when
   * {@code push} is not null, the event-bus bridge and the example page.
   */
  void serve(Handler<HttpServerRequest> front, PushBridges push, MetricsEndpoint metrics, ManagementToken token) {
    Handler<HttpServerRequest> handler = front;
    if (push != null) {
      // The SQS APIs keep their direct path; only the bridge's own path goes through a router.
      Router bridge = Router.router(vertx);
      // SockJS's fallback transports (XHR, for browsers without WebSocket) post their frames.
      bridge.route(push.path() + "/*").handler(BodyHandler.create().setBodyLimit(push.maxFrameBytes()));
      bridge.route(push.path() + "/*").subRouter(push.sockJsRouter(vertx));
      // The example subscriber page and the browser libraries it loads.
      bridge.route("/examples/vendor/sockjs.min.js").handler(ctx -> ctx.response()
          .putHeader("content-type", "application/javascript").sendFile(SOCKJS));
      bridge.route("/examples/*").handler(StaticHandler.create("webroot/examples"));
      String prefix = push.path() + "/";
      handler = req -> {
        if (req.path().startsWith(prefix)) {
          // Browsers cannot set headers on a WebSocket: the token may come as ?token= instead.
          if (token.accepts(req.getHeader("authorization"), req.getParam("token"))) {
            bridge.handle(req);
          } else {
            Unauthorized.answer(req.response());
          }
        } else if (req.path().startsWith("/examples/")) {
          bridge.handle(req);
        } else {
          front.handle(req);
        }
      };
    }
    Handler<HttpServerRequest> apis = handler;
    routed = req -> {
      if (!metrics.handle(req)) {
        apis.handle(req);
      }
    };
  }

  /** Answered in the request's own protocol, so that its SDK reads the 503 and retries. */
  private static void notStartedYet(HttpServerRequest req) {
    SqsException starting = new SqsException(ErrorCode.SERVICE_UNAVAILABLE,
        "Sluice is starting (recovering its queues); retry shortly.");
    if (JsonProtocol.accepts(req.getHeader(Headers.X_AMZ_TARGET), req)) {
      JsonErrors.render(req.response(), starting);
    } else {
      QueryErrors.render(req.response(), starting, Ids.uuid());
    }
  }

  /** Stops accepting; open connections get until {@code timeoutMillis} to finish and close. */
  Future<Void> shutdown(long timeoutMillis) {
    return server.shutdown(timeoutMillis, TimeUnit.MILLISECONDS);
  }
}
