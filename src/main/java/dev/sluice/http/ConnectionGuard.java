package dev.sluice.http;

import dev.sluice.config.HttpConfig;
import dev.sluice.runtime.ConnectionFootprint;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds one HTTP verticle's connections in number and in time. A connection over the server-wide
 * limit is closed as it opens. Then a sweep, on this verticle's event loop, closes a connection
 * that sent no whole request head within {@code http.headerTimeoutMillis} of opening (slow
 * headers), one whose request body is still arriving {@code http.bodyTimeoutMillis} after its head
 * (slow body), and one left without a request for {@code http.idleTimeoutMillis} after its last
 * answer. A request being answered is never idle: a parked long poll keeps its connection, and so
 * does a WebSocket (the bridge watches those itself). Owned by its verticle's event loop, apart from
 * the two server-wide counters.
 */
final class ConnectionGuard {
  private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());
  static final long REFUSAL_REPORT_MILLIS = 10_000;

  /** What the sweep knows of one connection. */
  static final class State {
    final long openedNanos;
    HttpServerRequest lastRequest;
    long lastRequestNanos;
    /** When the sweep first saw the last request answered: the start of an idle period, or 0. */
    long idleSinceNanos;
    /** Request body bytes this connection holds now (a pipelining client may have two requests in). */
    long bodyBytes;

    State(long openedNanos) {
      this.openedNanos = openedNanos;
    }
  }

  private final Vertx vertx;
  private final HttpConfig cfg;
  private final AtomicInteger open;
  private final AtomicLong lastRefusalReport;
  private final AtomicInteger refusedSinceReport;
  private final Map<HttpConnection, State> states = new HashMap<>();
  private long sweepTimer = -1;

  /** {@code open}, {@code lastRefusalReport} and {@code refusedSinceReport} are shared by every verticle. */
  ConnectionGuard(Vertx vertx, HttpConfig cfg, AtomicInteger open, AtomicLong lastRefusalReport,
      AtomicInteger refusedSinceReport) {
    this.vertx = vertx;
    this.cfg = cfg;
    this.open = open;
    this.lastRefusalReport = lastRefusalReport;
    this.refusedSinceReport = refusedSinceReport;
  }

  /** How often the sweep runs: often enough to hold the shortest timeout to within a quarter of it. */
  long sweepMillis() {
    return Math.max(10, Math.min(1000, Math.min(cfg.headerTimeoutMillis(),
        Math.min(cfg.bodyTimeoutMillis(), cfg.idleTimeoutMillis())) / 4));
  }

  void start() {
    sweepTimer = vertx.setPeriodic(sweepMillis(), id -> sweep(System.nanoTime()));
  }

  void stop() {
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
  }

  /** A connection opened (the server's connection handler). */
  void opened(HttpConnection conn) {
    int now = open.incrementAndGet();
    conn.closeHandler(v -> {
      open.decrementAndGet();
      states.remove(conn);
    });
    if (now > cfg.maxConnections()) {
      reportRefusal(now - 1);
      conn.close();
      return;
    }
    states.put(conn, new State(System.nanoTime()));
    ConnectionFootprint.shrink(conn);
  }

  /** A request's head arrived; returns its connection's state (null for a connection being refused). */
  State requestArrived(HttpServerRequest req) {
    State s = states.get(req.connection());
    if (s != null) {
      s.lastRequest = req;
      s.lastRequestNanos = System.nanoTime();
      s.idleSinceNanos = 0;
    }
    return s;
  }

  State of(HttpServerRequest req) {
    return states.get(req.connection());
  }

  /** Connections open on this verticle (for tests and the log). */
  int size() {
    return states.size();
  }

  void sweep(long nowNanos) {
    List<HttpConnection> expired = new ArrayList<>();
    for (Map.Entry<HttpConnection, State> e : states.entrySet()) {
      if (expired(e.getValue(), nowNanos)) {
        expired.add(e.getKey());
      }
    }
    for (HttpConnection conn : expired) {
      states.remove(conn);
      conn.close();
    }
  }

  private boolean expired(State s, long nowNanos) {
    HttpServerRequest req = s.lastRequest;
    if (req == null) {
      return elapsedMillis(s.openedNanos, nowNanos) > cfg.headerTimeoutMillis();
    }
    if (!req.isEnded()) {
      return elapsedMillis(s.lastRequestNanos, nowNanos) > cfg.bodyTimeoutMillis();
    }
    if (!req.response().ended() && !req.response().closed()) {
      return false; // being answered: a parked long poll, a WebSocket, a streaming transport
    }
    if (s.idleSinceNanos == 0) {
      s.idleSinceNanos = nowNanos;
      return false;
    }
    return elapsedMillis(s.idleSinceNanos, nowNanos) > cfg.idleTimeoutMillis();
  }

  private static long elapsedMillis(long sinceNanos, long nowNanos) {
    return (nowNanos - sinceNanos) / 1_000_000;
  }

  /** Logs refused connections at most every 10 s, server-wide, with how many since the last line. */
  private void reportRefusal(int openConnections) {
    refusedSinceReport.incrementAndGet();
    long now = System.nanoTime();
    long last = lastRefusalReport.get();
    if ((last == 0 || (now - last) / 1_000_000 >= REFUSAL_REPORT_MILLIS) && lastRefusalReport.compareAndSet(last, now)) {
      LOG.log(System.Logger.Level.WARNING, "Refusing connections: " + openConnections + " are open, the limit"
          + " (http.maxConnections) is " + cfg.maxConnections() + "; " + refusedSinceReport.getAndSet(0)
          + " refused since the last report");
    }
  }
}
