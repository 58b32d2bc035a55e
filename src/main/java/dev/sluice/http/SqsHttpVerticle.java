package dev.sluice.http;

import dev.sluice.auth.Surfaces;
import dev.sluice.config.HttpConfig;
import dev.sluice.config.SecurityConfig;
import dev.sluice.console.ConsoleData;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.outbox.OutboxRelays;
import dev.sluice.model.MemoryBudget;
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.protocol.query.QueryProtocol;
import dev.sluice.protocol.sns.SnsProtocol;
import dev.sluice.push.PushBridges;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP server on one event loop. Several instances listen on the same port and Vert.x spreads
 * connections over them, so parsing and encoding run on every loop while queue state stays with
 * the shards. The port opens before recovery so that health probes are answered; until
 * {@link #serve} is called every other request gets the retryable ServiceUnavailable. Its
 * connections are bounded by a {@link ConnectionGuard} of its own; everything here runs on this
 * verticle's event loop.
 */
final class SqsHttpVerticle extends VerticleBase {
  private final HttpConfig cfg;
  private final int port;
  private final SecurityConfig security;
  private final HealthEndpoints health;
  private final int maxWebSocketFrameBytes;
  private final HttpListener.Shared shared;
  private final ConsoleSettings console;
  /** What answers requests: the start-up router, then the serving one. */
  private volatile Router routes;
  private ConnectionGuard connections;
  private HttpServer server;

  /** {@code maxWebSocketFrameBytes}: the push bridge's frame limit, 0 when push is off. */
  SqsHttpVerticle(HttpConfig cfg, int port, SecurityConfig security, HealthEndpoints health,
      int maxWebSocketFrameBytes, HttpListener.Shared shared, ConsoleSettings console) {
    this.cfg = cfg;
    this.port = port;
    this.security = security;
    this.health = health;
    this.maxWebSocketFrameBytes = maxWebSocketFrameBytes;
    this.shared = shared;
    this.console = console;
  }

  @Override
  public Future<?> start() {
    HttpServerOptions options = new HttpServerOptions()
        .setHost(cfg.host())
        .setPort(port)
        .setTcpNoDelay(true)
        // 100 Continue is sent by the SQS handler, once it has decided to read the body: a body it
        // refuses from the headers alone (too large, throttled, unsigned) is then never sent.
        .setHandle100ContinueAutomatically(false)
        // HTTP/1.1 only: with cleartext HTTP/2 on, Vert.x shows a connection to the connection
        // handler only once a whole request head has come (it must first tell HTTP/2's preface
        // apart), so a connection that trickles its head or sends nothing would escape the header
        // timeout and the connection limit. No SQS client speaks cleartext HTTP/2.
        .setHttp2ClearTextEnabled(false)
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
    connections = new ConnectionGuard(vertx, cfg, shared.openConnections(), shared.lastRefusalReport(),
        shared.refusedSinceReport());
    connections.start();
    routes = HttpRoutes.starting(vertx, health, console.policy());
    server = vertx.createHttpServer(options)
        .connectionHandler(connections::opened)
        .requestHandler(req -> {
          connections.requestArrived(req);
          routes.handle(req);
        });
    return server.listen();
  }

  @Override
  public Future<?> stop() {
    connections.stop();
    return Future.succeededFuture();
  }

  /**
   * Recovery is done: from now on requests reach the SQS APIs, the metrics (when {@code metrics}
   * is not null), the triggers' admin API (when {@code triggersServed}) and, when {@code push} is
   * not null, the event-bus bridge and the example page; the console's outbox view lists the sources of
   * {@code outbox} (none when it is null).
   */
  void serve(QueueEngine engine, SluiceMetrics sluiceMetrics, Surfaces surfaces, Callers callers,
      MemoryBudget requestBytes, PushBridges push, boolean triggersServed, ConsoleData consoleData,
      OutboxRelays outbox) {
    SqsApiHandler sqs = new SqsApiHandler(new JsonProtocol(engine, sluiceMetrics.requests()),
        new QueryProtocol(engine, sluiceMetrics.requests()), new SnsProtocol(engine, sluiceMetrics.requests()),
        callers, cfg.maxBodyBytes(), surfaces.sqs(),
        // Per connection: a large request and one pipelined behind it.
        new BodyReader(requestBytes, 2L * cfg.maxBodyBytes()), connections);
    MetricsEndpoint metrics = sluiceMetrics.enabled() ? new MetricsEndpoint(vertx, engine, sluiceMetrics) : null;
    TriggerAdmin triggers = triggersServed
        ? new TriggerAdmin(engine.triggers(), callers, surfaces.sqs().unadmitted()) : null;
    routes = HttpRoutes.serving(vertx, health, surfaces, metrics, push, engine.sns().signer(), triggers,
        consoleData != null ? consoleApi(sqs, callers, engine, consoleData, outbox) : null, sqs);
  }

  /**
   * The console's API routes, one line each; every one is behind ConsoleGuard (mounted by
   * ConsoleRoutes before them). Paths are relative to /console/api/.
   */
  private ConsoleApi consoleApi(SqsApiHandler sqs, Callers callers, QueueEngine engine, ConsoleData data,
      OutboxRelays outbox) {
    ConsoleMessages messages = new ConsoleMessages(engine, callers, console.sqs());
    ConsoleApi api = new ConsoleLive(data.sampler(), data.streams(), callers, console.sqs().accountId())
        .addTo(new ConsoleApi());
    return api
        .route(HttpMethod.POST, "sqs/:region", new ConsoleSqs(sqs, callers, console.sqs()))
        .route(HttpMethod.GET, "status", new ConsoleStatus(console, health::notReadyReason, data))
        .route(HttpMethod.GET, "queues/:account/:region/:name/messages", messages)
        .route(HttpMethod.GET, "queues/:account/:region/:name/messages/:key", messages)
        .route(HttpMethod.GET, "outbox/sources", new ConsoleOutbox(outbox));
  }

  /** Stops accepting; open connections get until {@code timeoutMillis} to finish and close. */
  Future<Void> shutdown(long timeoutMillis) {
    return server.shutdown(timeoutMillis, TimeUnit.MILLISECONDS);
  }
}
