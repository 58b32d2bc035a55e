package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The trigger benchmark's handler: an HTTP server on 127.0.0.1 (a free port) that answers every
 * POST {@code 200 {}} as soon as its body is in, which a trigger takes as the whole batch handled,
 * and notes the batch's arrival in the {@link Arrivals} of its path ({@code /invoke/<phase>}), one
 * per phase so that a trigger still settling cannot blur the next phase's figures. An unknown path
 * gets 404, which a trigger counts as a failure: a benchmark that loses its target shows it.
 */
final class NoopTarget extends VerticleBase {
  private static final Buffer EMPTY_RESPONSE = Buffer.buffer("{}");
  private final Map<String, Arrivals> phases = new ConcurrentHashMap<>();
  private final AtomicLong connections = new AtomicLong();
  private HttpServer server;

  @Override
  public Future<?> start() {
    server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0).setTcpNoDelay(true));
    // Counted because a trigger that does not keep its connections alive pays a TCP handshake per invoke.
    server.connectionHandler(c -> connections.incrementAndGet());
    server.requestHandler(req -> req.body().onSuccess(body -> {
      long nanos = System.nanoTime();
      Arrivals a = phases.get(req.path());
      if (a == null) {
        req.response().setStatusCode(404).end();
        return;
      }
      // Answered before the scan: the trigger's clock stops at the answer, the benchmark's at arrival.
      req.response().putHeader("Content-Type", "application/json").end(EMPTY_RESPONSE);
      a.invoked(body.toString(), nanos, System.currentTimeMillis());
    }));
    return server.listen();
  }

  /** Connections the target has accepted so far. */
  long connections() {
    return connections.get();
  }

  /** The target URL of a phase whose arrivals go to {@code arrivals}. */
  String register(String phase, Arrivals arrivals) {
    String path = "/invoke/" + phase;
    phases.put(path, arrivals);
    return "http://127.0.0.1:" + server.actualPort() + path;
  }
}
