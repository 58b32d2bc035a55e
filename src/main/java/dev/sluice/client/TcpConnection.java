package dev.sluice.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;

/**
 * A connection to the TCP bridge ({@code push.tcpPort}): length-prefixed JSON frames
 * ({@link Frames}), the management token in {@code headers.token} of every {@code send}, a ping every
 * 30 s (the bridge drops a connection silent for {@code http.idleTimeoutMillis}, 75 s by default).
 * The bridge checks the token on each send, answers a refused one with an {@code err} frame and
 * closes the connection: a refusal before anything was answered is therefore taken as the token's.
 */
final class TcpConnection extends BridgeConnection {
  static final long PING_MILLIS = 30_000;

  private final NetSocket socket;
  private final String token;

  private TcpConnection(Vertx vertx, NetSocket socket, String token, long replyTimeoutMillis) {
    super(vertx, replyTimeoutMillis);
    this.socket = socket;
    this.token = token;
  }

  /** Opens connections to {@code host:port}, one NetClient for all of them. */
  static Connector connector(Vertx vertx, String host, int port, String token, long replyTimeoutMillis) {
    NetClient client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(10_000).setTcpNoDelay(true));
    return new Connector() {
      @Override
      public Future<Connection> connect() {
        return client.connect(port, host).map(socket -> {
          TcpConnection c = new TcpConnection(vertx, socket, token, replyTimeoutMillis);
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

  private void start() {
    Frames.Decoder decoder = new Frames.Decoder(Frames.MAX_FRAME_BYTES, this::onFrame);
    socket.handler(data -> {
      try {
        decoder.feed(data);
      } catch (SluiceClientException broken) {
        fail(broken);
      }
    });
    socket.exceptionHandler(e -> fail(new ConnectionLostException("The connection failed: " + e.getMessage(), e)));
    socket.closeHandler(v -> closed(null));
    ping(PING_MILLIS);
  }

  @Override
  JsonObject sendFrame(String address, String replyAddress, JsonObject body) {
    JsonObject frame = super.sendFrame(address, replyAddress, body);
    return token == null ? frame : frame.put("headers", new JsonObject().put("token", token));
  }

  @Override
  void write(JsonObject frame) {
    socket.write(Frames.encode(frame));
  }

  @Override
  Future<Void> closeTransport() {
    return socket.close();
  }

  @Override
  Throwable refused(String text, boolean answeredBefore) {
    return answeredBefore ? new SluiceClientException("BridgeRefused", 0, "The bridge refused a frame: " + text)
        : new UnauthorizedException(401, "The TCP bridge refused the first request (" + text
            + "): a management token is required, or this one is wrong");
  }
}
