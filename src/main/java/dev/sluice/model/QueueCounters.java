package dev.sluice.model;

/**
 * Owned by its queue, on the shard event loop that owns the queue: how many messages arrived in it,
 * how many its receives handed out and how many were deleted, since this queue object was made
 * (design/console.md §2.4). The console draws rates from the differences between two samples.
 *
 * <ul>
 *   <li><b>arrived</b>: sends and batch entries (topic fan-out included), dead letters and redriven
 *       messages adopted; not a FIFO duplicate, which stores nothing. Counted once the queue takes
 *       the message in, so a send whose durable write later fails for good stays counted.
 *   <li><b>received</b>: every message a receive hands out (long polls, push and triggers receive
 *       the same way), including receives with visibility 0; each one adds 1 to its receive count.
 *       Not a FIFO receive replayed by its attempt id (no new delivery), nor a message a receive
 *       moves to its dead-letter queue instead.
 *   <li><b>deleted</b>: DeleteMessage and DeleteMessageBatch entries that removed a message; not a
 *       delete of a message already gone. Purges, retention and moves out leave these alone: they
 *       show as depth.
 * </ul>
 *
 * <p>Plain {@code long}s bumped on the send, receive and delete paths: one field increment on the
 * owning event loop, no atomics and no allocation, and read (sampled) on that same loop. They only
 * grow; they start at 0 with each queue object (a restart, a shard loaded elsewhere, a queue made
 * again), so a reader that sees a total fall takes it as a reset.
 */
public final class QueueCounters {
  private long arrived;
  private long received;
  private long deleted;

  void countArrival() {
    arrived++;
  }

  void countReceive() {
    received++;
  }

  void countDelete() {
    deleted++;
  }

  /** Messages that arrived: sent, fanned out from topics, adopted as dead letters or redriven. */
  public long arrived() {
    return arrived;
  }

  /** Messages receives handed out. */
  public long received() {
    return received;
  }

  /** Messages deleted by receipt handle. */
  public long deleted() {
    return deleted;
  }
}
