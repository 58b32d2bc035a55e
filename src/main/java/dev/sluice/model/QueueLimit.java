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

  public QueueLimit(int maxQueues) {
    this.maxQueues = maxQueues;
  }

  /** Takes a slot for a new queue if one is free; false (and nothing taken) at the limit. */
  public boolean tryTake() {
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
    queues.incrementAndGet();
  }

  public void release() {
    queues.decrementAndGet();
  }

  public int queues() {
    return queues.get();
  }

  public int maxQueues() {
    return maxQueues;
  }
}
