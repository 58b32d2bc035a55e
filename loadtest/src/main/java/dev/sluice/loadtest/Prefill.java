package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Fills the queue with a backlog (batches of 10) before a measured run. */
final class Prefill {
  private Prefill() {}

  static void run(List<Worker> workers, String queueUrl, int messages, int bodyBytes) throws Exception {
    if (messages <= 0) {
      return;
    }
    Buffer batch = SqsCalls.sendBatchBody(queueUrl, "p".repeat(bodyBytes), 10);
    AtomicLong remaining = new AtomicLong((messages + 9) / 10);
    long start = System.nanoTime();
    List<Future<Void>> done = new ArrayList<>();
    for (Worker w : workers) {
      for (int u = 0; u < 32; u++) {
        Promise<Void> p = Promise.promise();
        done.add(p.future());
        w.context().runOnContext(v -> next(w, batch, remaining, p));
      }
    }
    Future.all(done).await(30, TimeUnit.MINUTES);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("prefilled %d messages in %.1f s (%.0f msgs/s)%n", messages, seconds, messages / seconds);
  }

  private static void next(Worker w, Buffer batch, AtomicLong remaining, Promise<Void> p) {
    if (remaining.getAndDecrement() <= 0) {
      p.tryComplete();
      return;
    }
    w.sqs.call("SendMessageBatch", batch).onComplete((r, failure) -> {
      if (failure != null) {
        p.tryFail(failure);
      } else {
        next(w, batch, remaining, p);
      }
    });
  }
}
