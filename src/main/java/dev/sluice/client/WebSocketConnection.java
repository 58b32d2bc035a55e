package dev.sluice.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.ClientSSLOptions;
import java.net.URI;
import java.util.function.Supplier;

/**
 * A connection to the SockJS bridge's raw WebSocket ({@code <push.path>/websocket}): one JSON text
 * frame per message, no SockJS framing. The token goes in the upgrade's {@code Authorization: Bearer}
 * header (never in the URL, which ends up in logs), or the URL carries a query presigned by a
 * credential, made anew for each connection. No {@code Origin} header: a non-browser client is
 * admitted without one, while a made-up one can be refused. A ping every 5 s: the bridge drops a
 * socket that has not pinged for 10 s.
 */
final class WebSocketConnection extends BridgeConnection {
  static final long PING_MILLIS = 5_000;

  private final WebSocket ws;

  private WebSocketConnection(Vertx vertx, WebSocket ws, long replyTimeoutMillis) {
    super(vertx, replyTimeoutMillis);
    this.ws = ws;
  }

  /**
   * Opens connections to {@code uri} ({@code ws://host:port/eventbus}, or {@code wss://}, or with
   * {@code http(s)}), one WebSocketClient for all of them (held: one nobody references may be closed
   * by the garbage collector).
   */
  static Connector connector(Vertx vertx, URI uri, String token, Supplier<String> presignedQuery,
      ClientSSLOptions ssl, long replyTimeoutMillis) {
    boolean secure = "wss".equals(uri.getScheme()) || "https".equals(uri.getScheme());
    int port = uri.getPort() > 0 ? uri.getPort() : secure ? 443 : 80;
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() || "/".equals(uri.getRawPath()) ? "/eventbus"
        : uri.getRawPath().replaceAll("/+$", "");
    WebSocketClient client = vertx.createWebSocketClient(new WebSocketClientOptions()
        .setMaxFrameSize(Frames.MAX_FRAME_BYTES).setMaxMessageSize(Frames.MAX_FRAME_BYTES));
    return new Connector() {
      @Override
      public Future<Connection> connect() {
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(uri.getHost()).setPort(port)
            .setSsl(secure).setURI(path + "/websocket" + query(presignedQuery)).setAllowOriginHeader(false)
            .setConnectTimeout(10_000);
        if (ssl != null) {
          options.setSslOptions(ssl);
        }
        if (token != null) {
          options.putHeader("Authorization", "Bearer " + token);
        }
        return client.connect(options).recover(WebSocketConnection::refusal).map(ws -> {
          WebSocketConnection c = new WebSocketConnection(vertx, ws, replyTimeoutMillis);
          c.start();
          return c;
        });
      }

      @Override
      public Future<Void> close() {
        return client.close();
      }
    };
  }

  private static String query(Supplier<String> presignedQuery) {
    if (presignedQuery == null) {
      return "";
    }
    String q = presignedQuery.get();
    if (q == null || q.isEmpty()) {
      return "";
    }
    return q.startsWith("?") ? q : "?" + q;
  }

  private static Future<WebSocket> refusal(Throwable e) {
    if (e instanceof UpgradeRejectedException r && (r.getStatus() == 401 || r.getStatus() == 403)) {
      return Future.failedFuture(new UnauthorizedException(r.getStatus(),
          "The bridge refused the WebSocket (HTTP " + r.getStatus() + "): the token, the presigned URL or the Origin"));
    }
    return Future.failedFuture(e);
  }

  private void start() {
    // The bridge writes JSON in binary frames or text frames: both arrive here whole.
    ws.handler(data -> {
      JsonObject frame;
      try {
        frame = new JsonObject(data);
      } catch (DecodeException | ClassCastException e) {
        fail(new SluiceClientException("ProtocolError", 0, "A frame is not a JSON object: " + e.getMessage()));
        return;
      }
      onFrame(frame);
    });
    ws.exceptionHandler(e -> fail(new ConnectionLostException("The WebSocket failed: " + e.getMessage(), e)));
    ws.closeHandler(v -> closed(null));
    ping(PING_MILLIS);
  }

  @Override
  void write(JsonObject frame) {
    ws.writeTextMessage(frame.encode());
  }

  @Override
  Future<Void> closeTransport() {
    return ws.close();
  }

  @Override
  Throwable refused(String text, boolean answeredBefore) {
    // The WebSocket's identity was checked at the upgrade: a refused frame is a protocol mismatch.
    return new SluiceClientException("BridgeRefused", 0, "The bridge refused a frame: " + text);
  }
}
