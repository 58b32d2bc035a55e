package dev.sluice.client;

import io.vertx.core.Vertx;
import io.vertx.core.net.ClientSSLOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where and how a {@link SluiceClient} connects: the TCP bridge ({@link #tcp}) or the SockJS
 * bridge's WebSocket ({@link #webSocket}), with the management token, TLS and presigned URLs for the
 * WebSocket, the reconnect backoff, the Vert.x instance to run on and the reply timeout. Immutable:
 * each method returns a changed copy.
 */
public final class ClientOptions {
  private final String host;
  private final int port;
  private final URI webSocket;
  private final String token;
  private final ClientSSLOptions ssl;
  private final Supplier<String> presignedQuery;
  private final Backoff reconnect;
  private final Vertx vertx;
  private final Duration replyTimeout;

  private ClientOptions(String host, int port, URI webSocket, String token, ClientSSLOptions ssl,
      Supplier<String> presignedQuery, Backoff reconnect, Vertx vertx, Duration replyTimeout) {
    this.host = host;
    this.port = port;
    this.webSocket = webSocket;
    this.token = token;
    this.ssl = ssl;
    this.presignedQuery = presignedQuery;
    this.reconnect = reconnect;
    this.vertx = vertx;
    this.replyTimeout = replyTimeout;
  }

  /** The TCP bridge at {@code host:port} (the server's {@code push.tcpPort}; no TLS). */
  public static ClientOptions tcp(String host, int port) {
    Objects.requireNonNull(host, "host");
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("Not a port: " + port);
    }
    return new ClientOptions(host, port, null, null, null, null, Backoff.defaults(), null, Duration.ofSeconds(30));
  }

  /**
   * The SockJS bridge at {@code uri}, e.g. {@code ws://127.0.0.1:9324/eventbus} or
   * {@code wss://sluice.example.com/eventbus} (its path is the server's {@code push.path}; the client
   * opens {@code <path>/websocket}).
   */
  public static ClientOptions webSocket(URI uri) {
    Objects.requireNonNull(uri, "uri");
    if (uri.getHost() == null || !java.util.Set.of("ws", "wss", "http", "https").contains(uri.getScheme())) {
      throw new IllegalArgumentException("Not a ws://, wss://, http:// or https:// URI with a host: " + uri);
    }
    return new ClientOptions(null, 0, uri, null, null, null, Backoff.defaults(), null, Duration.ofSeconds(30));
  }

  /** The management token: on TCP in every request's headers, on WebSocket as a bearer on the upgrade. */
  public ClientOptions token(String token) {
    return new ClientOptions(host, port, webSocket, token, ssl, presignedQuery, reconnect, vertx, replyTimeout);
  }

  /** TLS settings for a {@code wss://} WebSocket (trust, client certificates). */
  public ClientOptions ssl(ClientSSLOptions ssl) {
    requireWebSocket("ssl");
    return new ClientOptions(host, port, webSocket, token, ssl, presignedQuery, reconnect, vertx, replyTimeout);
  }

  /**
   * A query string presigned with SigV4 for {@code GET <uri>} by a configured credential (see the
   * push documentation), asked for anew at each connect since a presigned URL expires; the connection
   * then acts as that credential.
   */
  public ClientOptions presignedQuery(Supplier<String> query) {
    requireWebSocket("presignedQuery");
    return new ClientOptions(host, port, webSocket, token, ssl, query, reconnect, vertx, replyTimeout);
  }

  /** How to retry lost connections and refused subscribes; {@link Backoff#defaults()} unless set. */
  public ClientOptions reconnect(Backoff backoff) {
    Objects.requireNonNull(backoff, "backoff");
    return new ClientOptions(host, port, webSocket, token, ssl, presignedQuery, backoff, vertx, replyTimeout);
  }

  /** Runs on this Vert.x instance, which the client then does not close; else it makes and owns one. */
  public ClientOptions vertx(Vertx vertx) {
    return new ClientOptions(host, port, webSocket, token, ssl, presignedQuery, reconnect, vertx, replyTimeout);
  }

  /** How long a request waits for its answer before failing with a TimeoutException; 30 s unless set. */
  public ClientOptions replyTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("replyTimeout must be positive: " + timeout);
    }
    return new ClientOptions(host, port, webSocket, token, ssl, presignedQuery, reconnect, vertx, timeout);
  }

  private void requireWebSocket(String option) {
    if (webSocket == null) {
      throw new IllegalStateException(option + " applies to the WebSocket transport only (the TCP bridge has no TLS or presigning)");
    }
  }

  Backoff backoff() {
    return reconnect;
  }

  Vertx vertx() {
    return vertx;
  }

  /** The connector this transport uses, on {@code vertx}. */
  Connection.Connector connector(Vertx on) {
    long timeout = replyTimeout.toMillis();
    return webSocket != null ? WebSocketConnection.connector(on, webSocket, token, presignedQuery, ssl, timeout)
        : TcpConnection.connector(on, host, port, token, timeout);
  }
}
