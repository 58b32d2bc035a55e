package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Makes a call again, after a pause that doubles each time (10 ms to 1 s, with jitter), while the
 * server refuses it as throttled or unavailable, and counts both kinds. Any other failure, or
 * refusals for longer than the give-up time, fail the call: a connection lost mid-request may have
 * been served, and retrying it blindly would make the counts of a benchmark wrong.
 */
final class Retrying {
  private static final long FIRST_PAUSE_MILLIS = 10;
  private static final long LONGEST_PAUSE_MILLIS = 1_000;

  final AtomicLong throttled = new AtomicLong();
  final AtomicLong unavailable = new AtomicLong();
  private final long giveUpNanos;

  Retrying(long giveUpSeconds) {
    this.giveUpNanos = TimeUnit.SECONDS.toNanos(giveUpSeconds);
  }

  /** Called on {@code w}'s event loop; retries run there too. */
  Future<JsonObject> call(Worker w, Supplier<Future<JsonObject>> call) {
    return attempt(w, call, System.nanoTime(), FIRST_PAUSE_MILLIS);
  }

  private Future<JsonObject> attempt(Worker w, Supplier<Future<JsonObject>> call, long since, long pause) {
    return call.get().recover(failure -> {
      if (!(failure instanceof SqsError e) || !(e.throttled() || e.unavailable())
          || System.nanoTime() - since > giveUpNanos) {
        return Future.failedFuture(failure);
      }
      long refusals = (e.throttled() ? throttled : unavailable).incrementAndGet();
      if (refusals <= 3) {
        System.err.println("retrying: " + e.getMessage()); // why, once or thrice of each kind
      }
      Promise<JsonObject> again = Promise.promise();
      long jittered = pause / 2 + ThreadLocalRandom.current().nextLong(pause / 2 + 1);
      w.context().owner().setTimer(jittered, t -> attempt(w, call, since, Math.min(2 * pause, LONGEST_PAUSE_MILLIS))
          .onComplete(again));
      return again.future();
    });
  }
}
