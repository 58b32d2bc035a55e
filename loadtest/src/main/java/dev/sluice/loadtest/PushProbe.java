package dev.sluice.loadtest;

import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Push latency and throughput: {@code --subscribers} WebSocket subscribers (the SockJS bridge's raw
 * WebSocket) with {@code --prefetch} credits each; a producer sends SendMessageBatch(10) at
 * {@code --rate} messages a second, each body carrying its send time; every subscriber records
 * now − send time when a message is pushed to it, then acks it. The figure includes the send's own
 * trip to the server, as a real producer sees it.
 */
final class PushProbe {
  private PushProbe() {}

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    int subscribers = o.integer("subscribers", 100);
    int prefetch = o.integer("prefetch", 10);
    double rate = o.decimal("rate", 10_000);
    String path = o.string("path", "/eventbus");
    long from = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.warmupSeconds());
    long end = from + TimeUnit.SECONDS.toNanos(o.durationSeconds());
    AtomicLong pushed = new AtomicLong();
    List<Histogram> histograms = new ArrayList<>();
    List<WebSocketClient> clients = new ArrayList<>(); // held: a WebSocketClient nobody references may be closed by the garbage collector
    for (int i = 0; i < subscribers; i++) {
      Worker w = workers.get(i % workers.size());
      Histogram h = new Histogram();
      histograms.add(h);
      WebSocketClient client = w.context().owner().createWebSocketClient();
      clients.add(client);
      w.context().runOnContext(v -> subscribe(w.context(), client, o, path, queueUrl, prefetch, h, pushed, from, end));
    }
    Thread.sleep(2000); // every subscriber connected and registered
    Worker producer = workers.get(0);
    long[] sent = {0};
    long start = System.nanoTime();
    producer.context().runOnContext(v -> producer.context().owner().setPeriodic(1, id -> {
      long now = System.nanoTime();
      if (now >= end) {
        producer.context().owner().cancelTimer(id);
        return;
      }
      long due = (long) ((now - start) * rate / 10 / 1e9);
      for (; sent[0] < due; sent[0]++) {
        producer.sqs.call("SendMessageBatch", SqsCalls.sendBatchBody(queueUrl, Long.toString(System.nanoTime()), 10));
      }
    }));
    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) + 2000);
    Histogram all = new Histogram();
    histograms.forEach(all::merge);
    System.out.printf("push (send issued → pushed), %d subscribers, prefetch %d, offered %.0f msgs/s: %.0f msgs/s pushed;"
        + " latency %s%n", subscribers, prefetch, rate, pushed.get() / (double) o.durationSeconds(), all.summary());
  }

  private static void subscribe(Context ctx, WebSocketClient client, Options o, String path, String queueUrl,
      int prefetch, Histogram h, AtomicLong pushed, long from, long end) {
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
              long sentAt = Long.parseLong(body.getString("body"));
              if (sentAt >= from && sentAt < end) {
                h.record((now - sentAt) / 1000);
                pushed.incrementAndGet();
              }
              send(ws, new JsonObject().put("type", "send").put("address", "sluice.ack").put("body",
                  new JsonObject().put("subscription", subscription[0]).put("receiptHandle", body.getString("receiptHandle"))));
            }
          });
          // The SockJS bridge closes a socket that has not pinged for 10 s, as its JS client does every 5 s.
          long pinger = ctx.owner().setPeriodic(5000, t -> send(ws, new JsonObject().put("type", "ping")));
          ws.closeHandler(v -> ctx.owner().cancelTimer(pinger));
          send(ws, new JsonObject().put("type", "send").put("address", "sluice.subscribe").put("replyAddress", reply)
              .put("body", new JsonObject().put("queueUrl", queueUrl).put("prefetch", prefetch)));
        }).onFailure(e -> System.err.println("subscriber failed to connect: " + e.getMessage()));
  }

  private static void send(WebSocket ws, JsonObject frame) {
    ws.writeTextMessage(frame.encode());
  }
}
