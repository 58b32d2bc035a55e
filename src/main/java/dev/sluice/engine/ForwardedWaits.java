package dev.sluice.engine;

import dev.sluice.runtime.EventLoops;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cluster mode: the receives this node forwarded that may be waiting on other nodes (long polls).
 * When the server stops, they end at once with no messages, as its own parked receives do, so that
 * its HTTP connections close without waiting out the polls; each owner is told (its caller's
 * {@link CallerGone}) and drops the wait without taking messages. One whose owner answered with
 * messages just as it ended leaves them in flight until their visibility timeout, as a lost answer
 * would. Receives asked after the stop are answered empty without being forwarded. Shared by every
 * event loop.
 */
final class ForwardedWaits {
  private final Set<Runnable> waiting = ConcurrentHashMap.newKeySet();
  private volatile boolean stopped;

  /**
   * {@code forward}'s answer, or {@code whenStopped} once the server stops; {@code forward} is not
   * called at all after the stop.
   */
  <R> Future<R> watch(java.util.function.Supplier<Future<R>> forward, R whenStopped, CallerGone gone) {
    if (stopped) {
      return Future.succeededFuture(whenStopped);
    }
    Promise<R> answer = EventLoops.promiseOnCaller();
    Runnable end = () -> {
      if (answer.tryComplete(whenStopped)) {
        gone.fire();
      }
    };
    waiting.add(end);
    forward.get().onComplete((result, failure) -> {
      waiting.remove(end);
      if (failure == null) {
        answer.tryComplete(result);
      } else {
        answer.tryFail(failure);
      }
    });
    if (stopped) {
      end.run(); // the stop came while this one was being registered
    }
    return answer.future();
  }

  /** The server stops: every forwarded receive still waiting ends now, and later ones do not wait. */
  void stop() {
    stopped = true;
    for (Runnable end : waiting) {
      end.run();
    }
  }
}
