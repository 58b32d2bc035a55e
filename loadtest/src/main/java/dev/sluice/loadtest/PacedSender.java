package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An open loop of SendMessage at a fixed rate, split over the workers, each body starting with its
 * intended send time (nanoseconds since {@code originNanos}) and padded to the body size: the
 * latency phase of the trigger benchmark measures from when a message was due, so a send the
 * client or the server made late still counts from then (no coordinated omission). Counts the sends
 * acknowledged whose due time is in the window, which the target must then see.
 */
final class PacedSender {
  /** Sends one worker keeps open at once; beyond it a due send is dropped and counted as failed. */
  static final int MAX_OUTSTANDING = 10_000;

  record Result(long acknowledged, long failed) {}

  private PacedSender() {}

  /** Sends from {@code startNanos} to {@code endNanos}; the result once every send has an answer. */
  static Future<Result> run(List<Worker> workers, String queueUrl, int bodyBytes, double perSecond,
      long originNanos, long startNanos, long windowFromNanos, long endNanos) {
    List<Future<Result>> runs = new ArrayList<>();
    for (int i = 0; i < workers.size(); i++) {
      Worker w = workers.get(i);
      OpenLoopSchedule schedule = OpenLoopSchedule.of(startNanos, perSecond, i, workers.size());
      Promise<Result> done = Promise.promise();
      w.context().runOnContext(v -> paced(w, queueUrl, bodyBytes, schedule, originNanos, windowFromNanos,
          endNanos, done));
      runs.add(done.future());
    }
    return Future.all(runs).map(all -> {
      long acknowledged = 0;
      long failed = 0;
      for (Future<Result> r : runs) {
        acknowledged += r.result().acknowledged();
        failed += r.result().failed();
      }
      return new Result(acknowledged, failed);
    });
  }

  private static void paced(Worker w, String queueUrl, int bodyBytes, OpenLoopSchedule schedule,
      long originNanos, long windowFromNanos, long endNanos, Promise<Result> done) {
    String head = "{\"QueueUrl\":\"" + queueUrl + "\",\"MessageBody\":\"";
    String padding = " " + "x".repeat(bodyBytes);
    long[] counts = new long[3]; // acknowledged in the window, failed, outstanding
    long[] started = {0};
    boolean[] ended = {false};
    w.context().owner().setPeriodic(1, id -> {
      long now = System.nanoTime();
      long due = schedule.dueBy(now, endNanos, started[0]);
      for (; started[0] < due; started[0]++) {
        long dueAt = schedule.dueAt(started[0]);
        boolean counted = dueAt >= windowFromNanos && dueAt < endNanos;
        if (counts[2] >= MAX_OUTSTANDING) {
          counts[1]++;
          continue;
        }
        String stamp = Long.toString(dueAt - originNanos);
        String body = stamp + padding.substring(0, Math.max(0, bodyBytes - stamp.length()));
        counts[2]++;
        w.sqs.call("SendMessage", Buffer.buffer(head + body + "\"}")).onComplete((answer, failure) -> {
          counts[2]--;
          if (failure != null) {
            if (counts[1]++ < 3) {
              System.err.println("send failed: " + failure.getMessage());
            }
          } else if (counted) {
            counts[0]++;
          }
          if (ended[0] && counts[2] == 0) {
            done.tryComplete(new Result(counts[0], counts[1]));
          }
        });
      }
      if (now >= endNanos) {
        w.context().owner().cancelTimer(id);
        ended[0] = true;
        if (counts[2] == 0) {
          done.tryComplete(new Result(counts[0], counts[1]));
        }
      }
    });
  }
}
