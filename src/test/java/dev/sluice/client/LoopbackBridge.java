package dev.sluice.client;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A stand-in for Sluice's bridges and push service in demand mode, on loopback: the TCP bridge's and
 * the raw WebSocket's frames, {@code sluice.subscribe} with {@code "credit": "demand"} (grant 0),
 * {@code sluice.credit} (grant clamped at prefetch), one queue of bodies pushed against the grant,
 * acks answered {@code {}}. Everything runs on one event loop; tests read the recorded lists.
 */
final class LoopbackBridge {
  private final Vertx vertx;
  private final Context loop;
  private final Map<String, ArrayDeque<String>> queues = new HashMap<>();
  private final Map<String, Sub> subs = new HashMap<>();
  private final List<Object> sockets = new CopyOnWriteArrayList<>();
  final List<JsonObject> requests = new CopyOnWriteArrayList<>();
  final List<String> acked = new CopyOnWriteArrayList<>();
  int tcpPort;
  int httpPort;
  private int nextId;
  private int nextMessage;

  /** One subscription: where it pushes, its prefetch and grant, and its socket's writer. */
  private static final class Sub {
    String address;
    int prefetch;
    int grant;
    boolean registered;
    String queue;
    Object socket;
    Consumer<JsonObject> out;
    /** What the bridge calls a frame it delivers: "message" on TCP, "rec" on the WebSocket. */
    String delivered;
  }

  LoopbackBridge(Vertx vertx) {
    this.vertx = vertx;
    this.loop = vertx.getOrCreateContext();
  }

  LoopbackBridge start() throws Exception {
    java.util.concurrent.CompletableFuture<Void> started = new java.util.concurrent.CompletableFuture<>();
    loop.runOnContext(v -> {
      NetServer tcp = vertx.createNetServer().connectHandler(this::tcp);
      HttpServer http = vertx.createHttpServer().webSocketHandler(ws -> {
        sockets.add(ws);
        Consumer<JsonObject> out = f -> ws.writeBinaryMessage(f.toBuffer());
        ws.handler(data -> frame(ws, new JsonObject(data), out, "rec"));
        ws.closeHandler(x -> closed(ws));
      });
      tcp.listen(0, "127.0.0.1").compose(t -> {
        tcpPort = t.actualPort();
        return http.listen(0, "127.0.0.1");
      }).onSuccess(h -> {
        httpPort = h.actualPort();
        started.complete(null);
      }).onFailure(started::completeExceptionally);
    });
    started.get(5, java.util.concurrent.TimeUnit.SECONDS);
    return this;
  }

  private void tcp(NetSocket socket) {
    sockets.add(socket);
    Consumer<JsonObject> out = f -> socket.write(Frames.encode(f));
    Frames.Decoder decoder = new Frames.Decoder(65_536, f -> frame(socket, f, out, "message"));
    socket.handler(decoder::feed);
    socket.closeHandler(x -> closed(socket));
  }

  /** A connection closed: its subscriptions end. */
  private void closed(Object socket) {
    subs.values().removeIf(s -> s.socket == socket);
  }

  /** Adds messages to {@code queue} (from any thread). */
  void offer(String queue, String... bodies) {
    loop.runOnContext(v -> {
      for (String b : bodies) {
        queues.computeIfAbsent(queue, q -> new ArrayDeque<>()).add(b);
      }
      subs.values().forEach(this::pump);
    });
  }

  /** Closes every client connection, as a server going away would. */
  void dropConnections() {
    loop.runOnContext(v -> {
      for (Object s : sockets) {
        if (s instanceof NetSocket n) {
          n.close();
        } else if (s instanceof io.vertx.core.http.ServerWebSocket w) {
          w.close();
        }
      }
      sockets.clear();
    });
  }

  private void frame(Object socket, JsonObject f, Consumer<JsonObject> out, String replyType) {
    String type = f.getString("type");
    String address = f.getString("address");
    if ("register".equals(type)) {
      subs.values().stream().filter(s -> s.address.equals(address)).forEach(s -> {
        s.registered = true;
        pump(s);
      });
      return;
    }
    if (!"send".equals(type)) {
      return;
    }
    requests.add(f);
    JsonObject body = f.getJsonObject("body");
    String reply = f.getString("replyAddress");
    JsonObject answer = new JsonObject();
    switch (address) {
      case ProtocolAddresses.SUBSCRIBE -> {
        Sub s = new Sub();
        String id = "s" + (++nextId);
        s.address = ProtocolAddresses.DELIVERY_PREFIX + id;
        s.prefetch = body.getInteger("prefetch", 10);
        s.out = out;
        s.socket = socket;
        s.queue = body.getString("queueName");
        s.delivered = replyType;
        subs.put(id, s);
        answer.put("subscription", id).put("address", s.address).put("prefetch", s.prefetch).put("visibilityTimeout", 30)
            .put("credit", "demand");
      }
      case ProtocolAddresses.CREDIT -> {
        Sub s = subs.get(body.getString("subscription"));
        if (s != null) {
          s.grant = Math.min(s.prefetch, s.grant + body.getInteger("credits"));
          pump(s);
        }
      }
      case ProtocolAddresses.ACK -> acked.add(body.getString("receiptHandle"));
      case ProtocolAddresses.UNSUBSCRIBE -> subs.remove(body.getString("subscription"));
      default -> { }
    }
    if (reply != null) {
      out.accept(new JsonObject().put("type", replyType).put("address", reply).put("body", answer));
    }
  }

  private void pump(Sub s) {
    ArrayDeque<String> queue = queues.computeIfAbsent(s.queue, q -> new ArrayDeque<>());
    while (s.registered && s.grant > 0 && !queue.isEmpty()) {
      s.grant--;
      String id = "m" + (++nextMessage);
      s.out.accept(new JsonObject().put("type", s.delivered).put("address", s.address)
          .put("body", new JsonObject().put("type", "message").put("messageId", id).put("receiptHandle", "rh-" + id)
              .put("body", queue.poll()).put("receiveCount", 1).put("attributes", new JsonObject())));
    }
  }
}
