package dev.sluice.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

/**
 * One HTTP server on one event loop. Several instances listen on the same port and Vert.x spreads
 * connections over them, so parsing and encoding run on every loop while queue state stays with
 * the shards. Holds no state beyond its server.
 */
final class SqsHttpVerticle extends VerticleBase {
  private final String host;
  private final int port;
  private final Handler<HttpServerRequest> front;
  private HttpServer server;

  SqsHttpVerticle(String host, int port, Handler<HttpServerRequest> front) {
    this.host = host;
    this.port = port;
    this.front = front;
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
    server = vertx.createHttpServer(options).requestHandler(front);
    return server.listen();
  }
}
