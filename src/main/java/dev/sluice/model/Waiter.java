package dev.sluice.model;

import dev.sluice.api.ReceiveMessage;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A parked long poll: a receive that found nothing and waits in its queue until a message becomes
 * available or its deadline passes. It completes exactly once; after a cancel (the connection
 * closed) it never completes. Owned by the shard event loop of its queue.
 */
public final class Waiter extends Timed {
  final ReceiveSpec spec;
  private final BooleanSupplier abandoned;
  private final Consumer<List<ReceiveMessage.Message>> onComplete;
  ParkedReceives parkedIn;
  private boolean done;

  /**
   * @param abandoned true once the caller has gone away, even before its cancel reaches the shard:
   *     such a waiter is skipped instead of being handed messages nobody will read
   */
  public Waiter(ReceiveSpec spec, BooleanSupplier abandoned, Consumer<List<ReceiveMessage.Message>> onComplete) {
    this.spec = spec;
    this.abandoned = abandoned;
    this.onComplete = onComplete;
  }

  boolean isAbandoned() {
    return abandoned.getAsBoolean();
  }

  /** Delivers the result unless the waiter already completed or was cancelled. */
  void complete(List<ReceiveMessage.Message> messages) {
    if (!done) {
      done = true;
      onComplete.accept(messages);
    }
  }

  void markCancelled() {
    done = true;
  }

  @Override
  public void onDue(long nowMillis) {
    parkedIn.expire(this);
  }
}
