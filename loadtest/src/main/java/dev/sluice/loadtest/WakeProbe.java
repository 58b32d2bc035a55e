package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Long-poll wake-up latency: consumers parked with WaitTimeSeconds=20; a producer sends one message
 * every --interval-ms carrying its send time; each consumer records now − send time on receipt.
 * The figure therefore includes the send's own trip to the server, as a real producer sees it.
 */
final class WakeProbe {
  private WakeProbe() {}

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    int consumers = o.integer("consumers", 100);
    int intervalMs = o.integer("interval-ms", 10);
    long from = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.warmupSeconds());
    long end = from + TimeUnit.SECONDS.toNanos(o.durationSeconds());
    Histogram[] perWorker = new Histogram[workers.size()];
    Buffer receive = SqsCalls.receiveBody(queueUrl, 1, 20);
    for (int i = 0; i < workers.size(); i++) {
      Worker w = workers.get(i);
      Histogram h = perWorker[i] = new Histogram();
      for (int c = i; c < consumers; c += workers.size()) {
        w.context().runOnContext(v -> consume(w, receive, queueUrl, h, from, end));
      }
    }
    Thread.sleep(1000); // let every consumer park before the first send
    Worker producer = workers.get(0);
    producer.context().runOnContext(v -> producer.context().owner().setPeriodic(intervalMs, id -> {
      if (System.nanoTime() >= end) {
        producer.context().owner().cancelTimer(id);
        return;
      }
      producer.sqs.call("SendMessage", SqsCalls.sendBody(queueUrl, Long.toString(System.nanoTime())));
    }));
    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) + 2000);
    Histogram all = new Histogram();
    for (Histogram h : perWorker) {
      all.merge(h);
    }
    System.out.printf("long-poll wake-up (send issued → receive answered), %d consumers, one send every %d ms: %s%n",
        consumers, intervalMs, all.summary());
  }

  private static void consume(Worker w, Buffer receive, String queueUrl, Histogram h, long from, long end) {
    if (System.nanoTime() >= end) {
      return;
    }
    w.sqs.call("ReceiveMessage", receive).compose(got -> {
      long now = System.nanoTime();
      JsonArray messages = got.getJsonArray("Messages");
      if (messages == null) {
        return Future.succeededFuture();
      }
      JsonObject m = messages.getJsonObject(0);
      long sentAt = Long.parseLong(m.getString("Body"));
      if (sentAt >= from && sentAt < end) {
        h.record((now - sentAt) / 1000);
      }
      return w.sqs.call("DeleteMessage", new JsonObject().put("QueueUrl", queueUrl)
          .put("ReceiptHandle", m.getString("ReceiptHandle"))).mapEmpty();
    }).onComplete((r, failure) -> consume(w, receive, queueUrl, h, from, end));
  }
}
