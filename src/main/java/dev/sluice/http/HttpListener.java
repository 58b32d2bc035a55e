package dev.sluice.http;

import dev.sluice.auth.Surfaces;
import dev.sluice.config.HttpConfig;
import dev.sluice.config.SecurityConfig;
import dev.sluice.console.ConsoleData;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.outbox.OutboxRelays;
import dev.sluice.model.MemoryBudget;
import dev.sluice.push.PushBridges;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The HTTP port: its verticles listen as soon as the server starts (health probes answer during
 * recovery), serve the APIs once the engine is up, and shut down together. They share the
 * server-wide bounds: open connections and request bytes in memory.
 */
public final class HttpListener {
  /** What the verticles of one port share; atomics, as each verticle runs on its own event loop. */
  record Shared(AtomicInteger openConnections, AtomicLong lastRefusalReport, AtomicInteger refusedSinceReport) {}

  private final HttpConfig cfg;
  private final int port;
  private final List<SqsHttpVerticle> servers;
  private final MemoryBudget requestBytes;

  private HttpListener(HttpConfig cfg, int port, List<SqsHttpVerticle> servers) {
    this.cfg = cfg;
    this.port = port;
    this.servers = servers;
    this.requestBytes = new MemoryBudget(cfg.maxInflightBodyBytes() > 0 ? cfg.maxInflightBodyBytes()
        : Runtime.getRuntime().maxMemory() / 8);
  }

  /**
   * Listens with {@code instances} servers on one port. Vert.x shares a listening socket between
   * servers whose (host, port) match, which port 0 never does, so port 0 is first resolved to a
   * free port. {@code notReadyReason} answers why the server is not ready, or null when it is;
   * {@code pushFrameBytes} is the push bridge's frame limit, 0 when push is off; {@code console}
   * says who may use the console (in both phases) and what its status reports.
   */
  public static Future<HttpListener> listen(Vertx vertx, HttpConfig cfg, SecurityConfig security, int instances,
      Supplier<String> notReadyReason, int pushFrameBytes, ConsoleSettings console) {
    HealthEndpoints health = new HealthEndpoints(notReadyReason);
    int port;
    try {
      port = cfg.port() != 0 ? cfg.port() : freePort(cfg.host());
    } catch (IOException e) {
      return Future.failedFuture(e);
    }
    Shared shared = new Shared(new AtomicInteger(), new AtomicLong(), new AtomicInteger());
    List<SqsHttpVerticle> servers = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      SqsHttpVerticle v = new SqsHttpVerticle(cfg, port, security, health, pushFrameBytes, shared, console);
      servers.add(v);
      deployed.add(vertx.deployVerticle(v));
    }
    return Future.all(deployed).map(all -> new HttpListener(cfg, port, List.copyOf(servers)));
  }

  /**
   * Opens the APIs: the engine is up and recovered. {@code push} is null when push is off;
   * {@code triggers} says whether triggers run (their admin API is routed then); {@code outbox} is
   * null when no outbox source is relayed.
   */
  public void serve(QueueEngine engine, Surfaces surfaces, PushBridges push, SluiceMetrics metrics, boolean triggers,
      ConsoleData console, OutboxRelays outbox) {
    Callers callers = new Callers(cfg.publicBaseUrl());
    for (SqsHttpVerticle s : servers) {
      s.serve(engine, metrics, surfaces, callers, requestBytes, push, triggers, console, outbox);
    }
  }

  public int port() {
    return port;
  }

  /** Request body bytes held in memory right now, server-wide. */
  public long requestBytesInUse() {
    return requestBytes.usedBytes();
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
