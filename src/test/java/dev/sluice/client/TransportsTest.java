package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Both transports against loopback servers that answer as the bridges do (frame shapes read in
 * vertx-tcp-eventbus-bridge 5.0.8 and vertx-web 5.0.10's SockJS bridge): replies, refusals, pushes,
 * the token, timeouts and closes.
 */
class TransportsTest {
  private static Vertx vertx;
  private static Context loop;
  /** Every frame the loopback servers read, in order. */
  private static final List<JsonObject> read = new CopyOnWriteArrayList<>();
  private static final List<String> upgrades = new CopyOnWriteArrayList<>();
  private static int tcpPort;
  private static int httpPort;

  @BeforeAll
  static void startServers() {
    vertx = Vertx.vertx();
    loop = vertx.getOrCreateContext();
    NetServer tcp = vertx.createNetServer().connectHandler(TransportsTest::tcpBridge);
    tcpPort = tcp.listen(0, "127.0.0.1").await().actualPort();
    HttpServer http = vertx.createHttpServer().webSocketHandshakeHandler(hs -> {
      upgrades.add(hs.uri() + " auth=" + hs.headers().get("authorization") + " origin=" + hs.headers().get("origin"));
      if ("Bearer t0ken".equals(hs.headers().get("authorization")) && hs.path().equals("/eventbus/websocket")) {
        hs.accept();
      } else {
        hs.reject(401);
      }
    }).webSocketHandler(TransportsTest::webSocketBridge);
    httpPort = http.listen(0, "127.0.0.1").await().actualPort();
  }

  @AfterAll
  static void stopServers() {
    vertx.close().await();
  }

  /** The TCP bridge: a send without the token is refused and the connection closed, as BridgeGuard does. */
  private static void tcpBridge(NetSocket socket) {
    Frames.Decoder decoder = new Frames.Decoder(65_536, f -> {
      read.add(f);
      String type = f.getString("type");
      String reply = f.getString("replyAddress");
      if ("send".equals(type) && !"t0ken".equals(f.getJsonObject("headers", new JsonObject()).getString("token"))) {
        socket.write(Frames.encode(new JsonObject().put("type", "err").put("message", "blocked by bridgeEvent handler")))
            .onComplete(v -> socket.close());
      } else if ("send".equals(type) && ProtocolAddresses.SUBSCRIBE.equals(f.getString("address"))) {
        Buffer answer = Frames.encode(new JsonObject().put("type", "message").put("address", reply).put("headers", new JsonObject())
            .put("send", true).put("body", new JsonObject().put("subscription", "s1").put("credit", "demand")));
        socket.write(answer.getBuffer(0, 3)); // the answer in two reads
        vertx.setTimer(5, t -> socket.write(answer.getBuffer(3, answer.length())));
      } else if ("send".equals(type) && ProtocolAddresses.ACK.equals(f.getString("address"))) {
        socket.write(Frames.encode(new JsonObject().put("type", "err").put("address", reply).put("sourceAddress", "sluice.ack")
            .put("failureCode", 404).put("failureType", "RECIPIENT_FAILURE").put("message", "ReceiptHandleIsInvalid: expired")));
      } else if ("register".equals(type)) {
        JsonObject push = new JsonObject().put("type", "message").put("address", f.getString("address")).put("send", true)
            .put("body", new JsonObject().put("type", "message").put("messageId", "m1"));
        socket.write(Frames.encode(push).appendBuffer(Frames.encode(new JsonObject().put("type", "pong")))); // merged
      } else if ("send".equals(type) && "close.please".equals(f.getString("address"))) {
        socket.close();
      }
    });
    socket.handler(decoder::feed);
  }

  /** The SockJS bridge's raw WebSocket: answers in binary frames, refuses with {"type":"err","body":…}. */
  private static void webSocketBridge(ServerWebSocket ws) {
    ws.handler(data -> {
      JsonObject f = new JsonObject(data);
      read.add(f);
      if ("send".equals(f.getString("type")) && f.getString("replyAddress") != null) {
        ws.writeBinaryMessage(new JsonObject().put("type", "rec").put("address", f.getString("replyAddress"))
            .put("body", new JsonObject().put("echo", f.getString("address"))).toBuffer());
      } else if ("register".equals(f.getString("type"))) {
        ws.writeBinaryMessage(new JsonObject().put("type", "err").put("body", "rejected").toBuffer());
      }
    });
  }

  /** Runs {@code action} on the test's event loop (where connections are made and used) and waits. */
  private static <T> T on(Supplier<Future<T>> action) throws Exception {
    CompletableFuture<T> done = new CompletableFuture<>();
    loop.runOnContext(v -> action.get().onComplete((r, e) -> {
      if (e != null) {
        done.completeExceptionally(e);
      } else {
        done.complete(r);
      }
    }));
    try {
      return done.get(5, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw (Exception) e.getCause();
    }
  }

  private static Throwable failure(Supplier<Future<?>> action) {
    try {
      on(() -> action.get().map(x -> (Object) x));
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("succeeded");
  }

  @Test
  void tcpRepliesRefusalsPushesAndTheToken() throws Exception {
    read.clear();
    Connection.Connector connector = TcpConnection.connector(vertx, "127.0.0.1", tcpPort, "t0ken", 100);
    Connection c = on(connector::connect);
    JsonObject answer = on(() -> c.request(ProtocolAddresses.SUBSCRIBE, new JsonObject().put("queueName", "q")));
    assertEquals("s1", answer.getString("subscription"));
    JsonObject first = read.get(0);
    assertEquals("send", first.getString("type"));
    assertEquals("r.1", first.getString("replyAddress"));
    assertEquals(new JsonObject().put("token", "t0ken"), first.getJsonObject("headers"));
    List<JsonObject> pushed = new CopyOnWriteArrayList<>();
    on(() -> {
      c.register("sluice.push.s1", pushed::add);
      return Future.succeededFuture();
    });
    awaitTrue(() -> pushed.size() == 1);
    assertEquals("m1", pushed.get(0).getString("messageId"));
    assertInstanceOf(ReceiptHandleInvalidException.class, failure(() -> c.request(ProtocolAddresses.ACK, new JsonObject())));
    assertInstanceOf(TimeoutException.class, failure(() -> c.request(ProtocolAddresses.EXTEND, new JsonObject())));
    on(() -> {
      c.send(ProtocolAddresses.CREDIT, new JsonObject().put("credits", 1));
      return Future.succeededFuture();
    });
    awaitTrue(() -> read.stream().anyMatch(f -> ProtocolAddresses.CREDIT.equals(f.getString("address"))));
    JsonObject credit = read.stream().filter(f -> ProtocolAddresses.CREDIT.equals(f.getString("address"))).findFirst().orElseThrow();
    assertFalse(credit.containsKey("replyAddress"), "a top-up has no reply address");
    assertEquals("t0ken", credit.getJsonObject("headers").getString("token"));
    List<Throwable> closes = new CopyOnWriteArrayList<>();
    on(() -> {
      c.closeHandler(closes::add);
      return Future.succeededFuture();
    });
    assertInstanceOf(ConnectionLostException.class, failure(() -> c.request("close.please", new JsonObject())));
    awaitTrue(() -> closes.size() == 1);
    assertInstanceOf(ConnectionLostException.class, closes.get(0));
    on(connector::close);
  }

  @Test
  void aTcpRefusalBeforeAnyAnswerIsTheTokens() throws Exception {
    Connection.Connector connector = TcpConnection.connector(vertx, "127.0.0.1", tcpPort, "wrong", 5000);
    Connection c = on(connector::connect);
    List<Throwable> closes = new CopyOnWriteArrayList<>();
    on(() -> {
      c.closeHandler(closes::add);
      return Future.succeededFuture();
    });
    assertInstanceOf(UnauthorizedException.class, failure(() -> c.request(ProtocolAddresses.SUBSCRIBE, new JsonObject())));
    awaitTrue(() -> closes.size() == 1);
    assertInstanceOf(UnauthorizedException.class, closes.get(0));
    on(connector::close);
  }

  @Test
  void theWebSocketCarriesABearerNoOriginAndThePresignedQuery() throws Exception {
    read.clear();
    upgrades.clear();
    Connection.Connector connector = WebSocketConnection.connector(vertx, URI.create("ws://127.0.0.1:" + httpPort + "/eventbus/"),
        "t0ken", () -> "X-Amz-Signature=abc", null, 5000);
    Connection c = on(connector::connect);
    assertEquals(List.of("/eventbus/websocket?X-Amz-Signature=abc auth=Bearer t0ken origin=null"), upgrades);
    JsonObject answer = on(() -> c.request(ProtocolAddresses.SUBSCRIBE, new JsonObject()));
    assertEquals(ProtocolAddresses.SUBSCRIBE, answer.getString("echo"));
    assertNull(read.get(0).getValue("headers"), "no token in the frames of an authenticated WebSocket");
    List<Throwable> closes = new CopyOnWriteArrayList<>();
    on(() -> {
      c.closeHandler(closes::add);
      c.register("sluice.push.x", m -> { });
      return Future.succeededFuture();
    });
    awaitTrue(() -> closes.size() == 1);
    assertEquals("BridgeRefused", ((SluiceClientException) closes.get(0)).code(), "an address-less refusal drops the connection");
    on(connector::close);
  }

  @Test
  void aRefusedUpgradeIsUnauthorized() throws Exception {
    Connection.Connector connector = WebSocketConnection.connector(vertx, URI.create("ws://127.0.0.1:" + httpPort + "/eventbus"),
        "wrong", null, null, 5000);
    Throwable e = failure(connector::connect);
    assertInstanceOf(UnauthorizedException.class, e);
    assertEquals(401, ((UnauthorizedException) e).status());
    on(connector::close);
  }

  private static void awaitTrue(Supplier<Boolean> condition) throws InterruptedException {
    long end = System.currentTimeMillis() + 5000;
    while (!condition.get()) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("condition not met in 5 s");
      }
      Thread.sleep(5);
    }
  }
}
