package dev.sluice.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import dev.sluice.push.PushBridges;

/**
 * One HTTP server on one event loop. Several instances listen on the same port and Vert.x spreads
 * connections over them, so parsing and encoding run on every loop while queue state stays with
 * the shards. Holds no state beyond its server.
 */
final class SqsHttpVerticle extends VerticleBase {
  private final String host;
  private final int port;
  /** SockJS from its WebJar, for the example page. */
  static final String SOCKJS = "META-INF/resources/webjars/sockjs-client/1.6.1/dist/sockjs.min.js";

  private final Handler<HttpServerRequest> front;
  private final PushBridges push;
  private final HealthEndpoints health;
  private HttpServer server;

  /** {@code push} is null when push delivery is off. */
  SqsHttpVerticle(String host, int port, Handler<HttpServerRequest> front, PushBridges push, HealthEndpoints health) {
    this.health = health;
    this.host = host;
    this.port = port;
    this.front = front;
    this.push = push;
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
        if (req.path().startsWith(prefix) || req.path().startsWith("/examples/")) {
          bridge.handle(req);
        } else {
          front.handle(req);
        }
      };
      // Frames up to four times the limit reach the bridge, which refuses those over it with an
      // error frame and keeps the connection; only larger ones close it.
      options.setMaxWebSocketFrameSize(Math.max(options.getMaxWebSocketFrameSize(), 4 * push.maxFrameBytes()))
          .setMaxWebSocketMessageSize(Math.max(options.getMaxWebSocketMessageSize(), 4 * push.maxFrameBytes()));
    }
    Handler<HttpServerRequest> routed = handler;
    server = vertx.createHttpServer(options).requestHandler(req -> {
      if (!health.handle(req)) {
        routed.handle(req);
      }
    });
    return server.listen();
  }
}
