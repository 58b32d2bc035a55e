package dev.sluice.loadtest;

import io.vertx.core.Context;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Push latency and throughput: {@code --subscribers} WebSocket subscribers (the SockJS bridge's raw
 * WebSocket) with {@code --prefetch} credits each; a producer sends SendMessageBatch(10) at
 * {@code --rate} messages a second, each body carrying its send time; every subscriber records
 * now − send time when a message is pushed to it, then acks it. The figure includes the send's own
 * trip to the server, as a real producer sees it. The producer, window and report are
 * {@link PushMeasurement}'s, shared with {@link ClientPushProbe}.
 */
final class PushProbe {
  private PushProbe() {}

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    PushMeasurement m = new PushMeasurement(o);
    String path = o.string("path", "/eventbus");
    List<WebSocketClient> clients = new ArrayList<>(); // held: a WebSocketClient nobody references may be closed by the garbage collector
    for (int i = 0; i < m.subscribers; i++) {
      Worker w = workers.get(i % workers.size());
      Histogram h = m.subscriberHistogram();
      WebSocketClient client = w.context().owner().createWebSocketClient();
      clients.add(client);
      w.context().runOnContext(v -> subscribe(w.context(), client, o, path, queueUrl, m, h));
    }
    m.produce(workers.get(0), queueUrl);
    m.report("push (send issued → pushed)", "prefetch");
  }

  private static void subscribe(Context ctx, WebSocketClient client, Options o, String path, String queueUrl,
      PushMeasurement m, Histogram h) {
    client.connect(new WebSocketConnectOptions().setHost(o.url().getHost()).setPort(o.url().getPort())
        .setURI(path + "/websocket")).onSuccess(ws -> {
          String reply = UUID.randomUUID().toString();
          String[] subscription = new String[1];
          ws.handler(frame -> {
            long now = System.nanoTime();
            JsonObject f = new JsonObject(frame);
            JsonObject body = f.getJsonObject("body");
            if (reply.equals(f.getString("address"))) {
              subscription[0] = body.getString("subscription");
              send(ws, new JsonObject().put("type", "register").put("address", body.getString("address")));
            } else if (body != null && "message".equals(body.getString("type"))) {
              m.pushed(h, now, body.getString("body"));
              send(ws, new JsonObject().put("type", "send").put("address", "sluice.ack").put("body",
                  new JsonObject().put("subscription", subscription[0]).put("receiptHandle", body.getString("receiptHandle"))));
            }
          });
          // The SockJS bridge closes a socket that has not pinged for 10 s, as its JS client does every 5 s.
          long pinger = ctx.owner().setPeriodic(5000, t -> send(ws, new JsonObject().put("type", "ping")));
          ws.closeHandler(v -> ctx.owner().cancelTimer(pinger));
          send(ws, new JsonObject().put("type", "send").put("address", "sluice.subscribe").put("replyAddress", reply)
              .put("body", new JsonObject().put("queueUrl", queueUrl).put("prefetch", m.prefetch)));
        }).onFailure(e -> System.err.println("subscriber failed to connect: " + e.getMessage()));
  }

  private static void send(WebSocket ws, JsonObject frame) {
    ws.writeTextMessage(frame.encode());
  }
}
