package dev.sluice.client;

import io.smallrye.mutiny.Uni;
import java.util.concurrent.CompletableFuture;

/** Outcomes already under way, as Unis. */
final class Outcomes {
  private Outcomes() {}

  /**
   * A Uni of {@code outcome}: subscribing waits for it, cancelling stops waiting, neither starts nor
   * changes it (so a memoized outcome stays the same for every caller).
   */
  static Uni<Void> uni(CompletableFuture<Void> outcome) {
    return Uni.createFrom().emitter(e -> outcome.whenComplete((v, failure) -> {
      if (failure != null) {
        e.fail(failure);
      } else {
        e.complete(null);
      }
    }));
  }
}
