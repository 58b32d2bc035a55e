package dev.sluice.loadtest;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The application of the latency phase: commits of {@code rowsPerCommit} rows each, started as the
 * open-loop schedule makes them due, whatever the database's pace, each row's body stamped with its
 * commit's intended time ({@link OutboxBody}). A commit the database takes long over is still
 * counted from when it was due (no coordinated omission); a due commit that cannot start because
 * {@link #MAX_OUTSTANDING} are open counts as failed and marks the run invalid.
 */
final class OutboxCommitter {
  /** Commits kept open at once; beyond it the database is the bottleneck, not the relay. */
  static final int MAX_OUTSTANDING = 2_000;

  record Result(long failed, long unstarted) {}

  private OutboxCommitter() {}

  /** Runs the whole schedule of {@code timeline} on {@code context}; the result once every commit has an answer. */
  static Future<Result> run(Context context, OutboxDatabase db, String queue, OutboxTimeline timeline,
      int bodyBytes) {
    Promise<Result> done = Promise.promise();
    AtomicLong failed = new AtomicLong();
    AtomicLong unstarted = new AtomicLong();
    AtomicLong outstanding = new AtomicLong();
    long[] started = {0};
    // The answers may come on the pool's own event loops: the end is seen there too.
    AtomicBoolean ended = new AtomicBoolean();
    int rows = timeline.rowsPerCommit();
    context.runOnContext(v -> context.owner().setPeriodic(1, id -> {
      long due = Math.min(timeline.commits(), dueBy(timeline, System.nanoTime(), started[0]));
      for (; started[0] < due; started[0]++) {
        long k = started[0];
        if (outstanding.get() >= MAX_OUTSTANDING) {
          unstarted.incrementAndGet();
          timeline.commitFailed(k);
          continue;
        }
        String[] bodies = new String[rows];
        for (int i = 0; i < rows; i++) {
          bodies[i] = OutboxBody.of(timeline.stamp(k), k * rows + i, bodyBytes);
        }
        outstanding.incrementAndGet();
        db.commit(queue, bodies).onComplete((ok, failure) -> {
          if (failure == null) {
            timeline.committed(k, System.nanoTime());
          } else {
            timeline.commitFailed(k);
            if (failed.incrementAndGet() <= 3) {
              System.err.println("outbox commit failed: " + failure.getMessage());
            }
          }
          if (outstanding.decrementAndGet() == 0 && ended.get()) {
            done.tryComplete(new Result(failed.get(), unstarted.get()));
          }
        });
      }
      if (started[0] >= timeline.commits()) {
        context.owner().cancelTimer(id);
        ended.set(true);
        if (outstanding.get() == 0) {
          done.tryComplete(new Result(failed.get(), unstarted.get()));
        }
      }
    }));
    return done.future();
  }

  /** Commits due by {@code now}, counted on from {@code started} (the schedule's own walk). */
  private static long dueBy(OutboxTimeline timeline, long now, long started) {
    long k = started;
    while (k < timeline.commits() && timeline.dueAt(k) <= now) {
      k++;
    }
    return k;
  }
}
