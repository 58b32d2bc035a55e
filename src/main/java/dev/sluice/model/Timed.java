package dev.sluice.model;

/**
 * Something that becomes due at a point in time and sits in its shard's {@link DueTimeIndex}:
 * a delayed or in-flight message, a parked receive's deadline, a queue's retention sweep.
 * Owned by the shard event loop that owns the index; never touched from another thread.
 */
public abstract class Timed {
  long dueAtMillis;
  long order;
  int heapIndex = -1;

  public final long dueAtMillis() {
    return dueAtMillis;
  }

  public final boolean isScheduled() {
    return heapIndex >= 0;
  }

  /** Called by the index owner once {@code nowMillis >= dueAtMillis}, after removal from the index. */
  public abstract void onDue(long nowMillis);
}
