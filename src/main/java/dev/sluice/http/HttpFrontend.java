package dev.sluice.http;

import dev.sluice.auth.Authenticator;
import dev.sluice.auth.ManagementToken;
import dev.sluice.config.HttpConfig;
import dev.sluice.config.SecurityConfig;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.protocol.query.QueryProtocol;
import dev.sluice.push.PushBridges;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The HTTP verticles sharing one port: they listen as soon as the server starts (health probes
 * answer during recovery), serve the APIs once the engine is up, and shut down together.
 */
public final class HttpFrontend {
  private final Vertx vertx;
  private final HttpConfig cfg;
  private final SecurityConfig security;
  private final int port;
  private final List<SqsHttpVerticle> servers;

  private HttpFrontend(Vertx vertx, HttpConfig cfg, SecurityConfig security, int port, List<SqsHttpVerticle> servers) {
    this.vertx = vertx;
    this.cfg = cfg;
    this.security = security;
    this.port = port;
    this.servers = servers;
  }

  /**
   * Listens with {@code instances} servers on one port. Vert.x shares a listening socket between
   * servers whose (host, port) match, which port 0 never does, so port 0 is first resolved to a
   * free port. {@code notReadyReason} answers why the server is not ready, or null when it is;
   * {@code pushFrameBytes} is the push bridge's frame limit, 0 when push is off.
   */
  public static Future<HttpFrontend> listen(Vertx vertx, HttpConfig cfg, SecurityConfig security, int instances,
      Supplier<String> notReadyReason, int pushFrameBytes) {
    HealthEndpoints health = new HealthEndpoints(notReadyReason);
    int port;
    try {
      port = cfg.port() != 0 ? cfg.port() : freePort(cfg.host());
    } catch (IOException e) {
      return Future.failedFuture(e);
    }
    List<SqsHttpVerticle> servers = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      SqsHttpVerticle v = new SqsHttpVerticle(cfg.host(), port, security, health, pushFrameBytes);
      servers.add(v);
      deployed.add(vertx.deployVerticle(v));
    }
    return Future.all(deployed).map(all -> new HttpFrontend(vertx, cfg, security, port, List.copyOf(servers)));
  }

  /** Opens the APIs: the engine is up and recovered. {@code push} is null when push is off. */
  public void serve(QueueEngine engine, String accountId, PushBridges push, SluiceMetrics metrics) {
    HttpFront front = new HttpFront(
        new JsonProtocol(engine, metrics.requests()), new QueryProtocol(engine, metrics.requests()),
        new Callers(cfg.publicBaseUrl(), accountId), cfg.maxBodyBytes(), Authenticator.of(security.credentials()));
    ManagementToken token = new ManagementToken(security.managementToken());
    MetricsEndpoint scrape = new MetricsEndpoint(vertx, engine, metrics, token);
    for (SqsHttpVerticle s : servers) {
      s.serve(front, push, scrape, token);
    }
  }

  public int port() {
    return port;
  }

  /**
   * Stops accepting connections at once; requests under way are answered, and connections close
   * once idle. Done when all have closed, or after {@code timeoutMillis}.
   */
  public Future<Void> shutdown(long timeoutMillis) {
    List<Future<Void>> closed = new ArrayList<>();
    for (SqsHttpVerticle s : servers) {
      closed.add(s.shutdown(timeoutMillis));
    }
    return Future.join(closed).mapEmpty();
  }

  private static int freePort(String host) throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return s.getLocalPort();
    }
  }
}
