package dev.sluice.model;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many queues exist on the whole server, against engine.maxQueues: shared by every shard, as
 * {@link MemoryBudget} is, so one atomic counter instead of a lock or a round of questions to the
 * other shards. A shard takes a slot before it creates a queue and gives it back when it deletes
 * one; queues recovered at start-up take theirs whatever the limit (they exist already).
 */
public final class QueueLimit {
  private final int maxQueues;
  private final AtomicInteger queues = new AtomicInteger();
  /** The limit a share takes slots of too (and whose maximum holds); null for a limit of its own. */
  private final QueueLimit whole;

  public QueueLimit(int maxQueues) {
    this.maxQueues = maxQueues;
    this.whole = null;
  }

  private QueueLimit(QueueLimit whole) {
    this.maxQueues = whole.maxQueues;
    this.whole = whole;
  }

  /**
   * A share of this limit for one shard, which may go away with its queues (handed to another
   * node): {@link #releaseShare} then gives back every slot it holds.
   */
  public QueueLimit share() {
    return new QueueLimit(this);
  }

  /** A share's shard is gone: its slots go back to the whole limit. */
  public void releaseShare() {
    if (whole == null) {
      throw new IllegalStateException("not a share");
    }
    for (int n = queues.getAndSet(0); n > 0; n--) {
      whole.release();
    }
  }

  /** Takes a slot for a new queue if one is free; false (and nothing taken) at the limit. */
  public boolean tryTake() {
    if (whole != null) {
      if (!whole.tryTake()) {
        return false;
      }
      queues.incrementAndGet();
      return true;
    }
    while (true) {
      int now = queues.get();
      if (now >= maxQueues) {
        return false;
      }
      if (queues.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** Counts a queue that exists already (recovered), even past the limit. */
  public void take() {
    if (whole != null) {
      whole.take();
    }
    queues.incrementAndGet();
  }

  public void release() {
    if (whole != null) {
      whole.release();
    }
    queues.decrementAndGet();
  }

  public int queues() {
    return queues.get();
  }

  public int maxQueues() {
    return maxQueues;
  }
}
