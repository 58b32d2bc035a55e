package dev.sluice.http;

import dev.sluice.config.HttpConfig;
import dev.sluice.engine.QueueEngine;
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.push.PushBridges;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Deploys the HTTP verticles on one shared port and reports the port they listen on. */
public final class HttpFrontend {
  private HttpFrontend() {}

  /**
   * Deploys {@code instances} servers on one port. Vert.x shares a listening socket between servers
   * whose (host, port) match, which port 0 never does, so port 0 is first resolved to a free port.
   */
  /** {@code notReadyReason} answers why the server is not ready, or null when it is. */
  public static Future<Integer> deploy(Vertx vertx, HttpConfig cfg, int instances, QueueEngine engine, String accountId,
      PushBridges push, java.util.function.Supplier<String> notReadyReason) {
    HealthEndpoints health = new HealthEndpoints(notReadyReason);
    HttpFront front = new HttpFront(new JsonProtocol(engine), new Callers(cfg.publicBaseUrl(), accountId), cfg.maxBodyBytes());
    int port;
    try {
      port = cfg.port() != 0 ? cfg.port() : freePort(cfg.host());
    } catch (IOException e) {
      return Future.failedFuture(e);
    }
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      deployed.add(vertx.deployVerticle(new SqsHttpVerticle(cfg.host(), port, front, push, health)));
    }
    return Future.all(deployed).map(all -> port);
  }

  private static int freePort(String host) throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return s.getLocalPort();
    }
  }
}
