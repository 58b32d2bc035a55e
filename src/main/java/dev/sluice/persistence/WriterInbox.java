package dev.sluice.persistence;

import dev.sluice.persistence.WriteTransaction.Submission;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BiConsumer;

/**
 * What shards submitted and the writer has not taken yet: added to from any event loop, taken on the
 * writer's loop one batch at a time (group commit). Kept apart from {@link PersistenceVerticle}, which
 * writes the batches, so that what one batch may hold is said in one place.
 */
final class WriterInbox {
  /**
   * Message content per batch, whatever {@code batchSize} says: PostgreSQL takes at most 1 GB in
   * one array or message, and large messages after an outage must not build a batch it refuses.
   */
  static final long MAX_BATCH_BYTES = 64L << 20;

  private final int batchSize;
  private final ConcurrentLinkedQueue<Submission> inbox = new ConcurrentLinkedQueue<>();
  /** A submission taken while building a batch that must go into the next one instead. */
  private Submission carried;

  WriterInbox(int batchSize) {
    this.batchSize = batchSize;
  }

  /** From any thread. */
  void add(Submission s) {
    inbox.add(s);
  }

  /**
   * The next batch, or null when nothing waits. A submission of a shard whose epoch PostgreSQL
   * refused ({@code stale}) goes to {@code refuse} instead.
   */
  WriteTransaction take(StaleShards stale, BiConsumer<List<Submission>, Throwable> refuse) {
    WriteTransaction tx = new WriteTransaction();
    int count = 0;
    long bytes = 0;
    while (count < batchSize && bytes < MAX_BATCH_BYTES) {
      Submission s = carried != null ? carried : inbox.poll();
      carried = null;
      if (s == null) {
        break;
      }
      Throwable refusal = stale.refusalOf(s.shards());
      if (refusal != null) {
        refuse.accept(List.of(s), refusal); // its shard moved on: PostgreSQL would refuse it, and the batch with it
        continue;
      }
      if (tx.epochMovedOn(s)) {
        carried = s; // a newer epoch of a shard in this batch: they cannot share one fence
        break;
      }
      tx.add(s);
      count += s.count();
      bytes += s.bytes();
    }
    return tx.taken.isEmpty() ? null : tx.sealed();
  }

  /** Whether nothing waits to be taken, carried over from a batch or not. */
  boolean isEmpty() {
    return carried == null && inbox.isEmpty();
  }

  /** The submission carried over to the next batch, or null. */
  Submission carried() {
    return carried;
  }

  /** The oldest submission not taken yet, or null. */
  Submission head() {
    return inbox.peek();
  }
}
