package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Whether a queue serves, as one client sees it through one node, for {@code --duration} seconds:
 * one user in a loop of SendMessage, ReceiveMessage (1 message, WaitTimeSeconds 1) and DeleteMessage
 * of what came back, each call given up after {@code --call-timeout-ms} (2,000), a failed round
 * tried again after 20 ms. Every round is written as {@code start_ms,end_ms,ok} (epoch milliseconds;
 * ok is 1 when all three calls succeeded and the receive returned a message) to {@code --csv}, so
 * that a script killing or stopping nodes can tell, from its own clock, when the queue served again.
 * The queue keeps its depth: each round deletes one message for the one it sent.
 */
final class AvailabilityProbe {
  private AvailabilityProbe() {}

  static void run(Worker w, String queueUrl, Options o) throws Exception {
    long timeout = o.integer("call-timeout-ms", 2000);
    long end = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(o.durationSeconds());
    long[] rounds = new long[2]; // all, ok
    try (PrintStream out = new PrintStream(new FileOutputStream(o.string("csv", "availability.csv")), true,
        StandardCharsets.UTF_8)) {
      out.println("start_ms,end_ms,ok");
      Future<Void> done = Future.future(p -> w.context().runOnContext(v -> round(w, queueUrl, timeout, end, out, rounds, p)));
      done.await(o.durationSeconds() + 60L, TimeUnit.SECONDS);
    }
    System.out.printf("availability: %d rounds, %d served%n", rounds[0], rounds[1]);
  }

  private static void round(Worker w, String queueUrl, long timeout, long end, PrintStream out, long[] rounds,
      io.vertx.core.Promise<Void> done) {
    long start = System.currentTimeMillis();
    if (start >= end) {
      done.complete();
      return;
    }
    w.sqs.call("SendMessage", SqsCalls.sendBody(queueUrl, "probe " + start), timeout)
        .compose(sent -> w.sqs.call("ReceiveMessage", SqsCalls.receiveBody(queueUrl, 1, 1), timeout))
        .compose(got -> {
          JsonArray messages = got.getJsonArray("Messages");
          if (messages == null || messages.isEmpty()) {
            return Future.succeededFuture(false);
          }
          return w.sqs.call("DeleteMessage", new JsonObject().put("QueueUrl", queueUrl)
              .put("ReceiptHandle", messages.getJsonObject(0).getString("ReceiptHandle")).toBuffer(), timeout)
              .map(true);
        })
        .onComplete((served, failure) -> {
          boolean ok = failure == null && served;
          rounds[0]++;
          rounds[1] += ok ? 1 : 0;
          out.println(start + "," + System.currentTimeMillis() + "," + (ok ? 1 : 0));
          if (ok) {
            round(w, queueUrl, timeout, end, out, rounds, done);
          } else {
            w.context().owner().setTimer(20, t -> round(w, queueUrl, timeout, end, out, rounds, done));
          }
        });
  }
}
