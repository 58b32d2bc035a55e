package dev.sluice.it;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A raw event-bus bridge client for tests: the SockJS bridge's WebSocket endpoint
 * ({@code /eventbus/websocket}, JSON frames) or the TCP bridge (4-byte length + JSON frames). It
 * keeps every frame the server sends, so tests see exactly what a client would.
 */
final class BridgeClient implements AutoCloseable {
  private final Vertx vertx;
  private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
  private final WebSocketClient wsClient;
  private final NetClient netClient;
  private final WebSocket ws;
  private final NetSocket tcp;
  final BlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
  private Buffer pending = Buffer.buffer();
  /** TCP: the management token each {@code send} frame carries in its headers; null for none. */
  private String token;

  private BridgeClient(Vertx vertx, WebSocketClient wsClient, WebSocket ws, NetClient netClient, NetSocket tcp) {
    this.vertx = vertx;
    this.wsClient = wsClient;
    this.ws = ws;
    this.netClient = netClient;
    this.tcp = tcp;
  }

  static BridgeClient webSocket(int port, String path) throws Exception {
    return webSocket(port, path, "");
  }

  /** {@code query}: appended to the WebSocket URI, e.g. "?token=…"; "" for none. */
  static BridgeClient webSocket(int port, String path, String query) throws Exception {
    Vertx vertx = Vertx.vertx();
    WebSocketClient client = vertx.createWebSocketClient(); // held in a field: a WebSocketClient nobody references may be closed by the garbage collector
    WebSocket ws;
    try {
      ws = client.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port)
          .setURI(path + "/websocket" + query)).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      vertx.close();
      throw e;
    }
    BridgeClient c = new BridgeClient(vertx, client, ws, null, null);
    // The bridge answers with binary frames holding JSON.
    ws.handler(b -> c.frames.add(new JsonObject(b)));
    ws.closeHandler(v -> c.closed.countDown());
    return c;
  }

  static BridgeClient tcp(int port) throws Exception {
    Vertx vertx = Vertx.vertx();
    NetClient client = vertx.createNetClient();
    NetSocket socket = client.connect(port, "127.0.0.1").await(10, TimeUnit.SECONDS);
    BridgeClient c = new BridgeClient(vertx, null, null, client, socket);
    socket.handler(c::onTcpData);
    socket.closeHandler(v -> c.closed.countDown());
    return c;
  }

  /** A TCP bridge client that puts {@code token} in the headers of every {@code send} frame. */
  static BridgeClient tcp(int port, String token) throws Exception {
    BridgeClient c = tcp(port);
    c.token = token;
    return c;
  }

  private void onTcpData(Buffer data) {
    pending.appendBuffer(data);
    while (pending.length() >= 4 && pending.length() >= 4 + pending.getInt(0)) {
      int n = pending.getInt(0);
      frames.add(new JsonObject(pending.getBuffer(4, 4 + n)));
      pending = pending.getBuffer(4 + n, pending.length());
    }
  }

  void sendRaw(String text) throws Exception {
    if (ws != null) {
      ws.writeTextMessage(text).await(10, TimeUnit.SECONDS);
    } else {
      Buffer json = Buffer.buffer(text);
      tcp.write(Buffer.buffer().appendInt(json.length()).appendBuffer(json)).await(10, TimeUnit.SECONDS);
    }
  }

  void frame(JsonObject frame) throws Exception {
    if (token != null && "send".equals(frame.getString("type"))) {
      frame = frame.copy().put("headers", new JsonObject().put("token", token));
    }
    sendRaw(frame.encode());
  }

  /** Sends {@code body} to {@code address} with a reply address and waits for the answer frame. */
  JsonObject request(String address, JsonObject body) throws Exception {
    String reply = UUID.randomUUID().toString(); // the SockJS bridge accepts only UUID reply addresses
    frame(new JsonObject().put("type", "send").put("address", address).put("body", body).put("replyAddress", reply));
    return next(f -> reply.equals(f.getString("address")) || "err".equals(f.getString("type")), 10_000);
  }

  void register(String address) throws Exception {
    frame(new JsonObject().put("type", "register").put("address", address));
  }

  /** The next frame matching {@code test}; frames before it that do not match stay queued. */
  JsonObject next(java.util.function.Predicate<JsonObject> test, long timeoutMillis) throws Exception {
    long end = System.currentTimeMillis() + timeoutMillis;
    while (true) {
      for (JsonObject f : frames) {
        if (test.test(f)) {
          frames.remove(f);
          return f;
        }
      }
      long left = end - System.currentTimeMillis();
      if (left <= 0) {
        return null;
      }
      Thread.sleep(Math.min(left, 5));
    }
  }

  /** The next pushed message on {@code address}, or null after {@code timeoutMillis}. */
  JsonObject pushed(String address, long timeoutMillis) throws Exception {
    return next(f -> address.equals(f.getString("address")) && !"err".equals(f.getString("type")), timeoutMillis);
  }

  /** Whether the server closes the connection within {@code timeoutMillis}. */
  boolean closedWithin(long timeoutMillis) throws InterruptedException {
    return closed.await(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws TimeoutException {
    if (closed.getCount() > 0) {
      if (ws != null) {
        ws.close().await(10, TimeUnit.SECONDS);
      } else {
        tcp.close().await(10, TimeUnit.SECONDS);
      }
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }
}
