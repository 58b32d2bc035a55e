package dev.sluice.model;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of messages held in memory, shared by all shards: past the limit, sends are refused
 * with a retryable error instead of the JVM running out of heap. The only state shared between
 * event loops, hence the atomic; it never guards queue state.
 */
public final class MemoryBudget {
  private final long limitBytes;
  private final AtomicLong usedBytes = new AtomicLong();

  public MemoryBudget(long limitBytes) {
    this.limitBytes = limitBytes;
  }

  /** Charges the bytes if they fit; false (and nothing charged) when they would exceed the limit. */
  public boolean tryCharge(long bytes) {
    while (true) {
      long used = usedBytes.get();
      if (used + bytes > limitBytes) {
        return false;
      }
      if (usedBytes.compareAndSet(used, used + bytes)) {
        return true;
      }
    }
  }

  public void release(long bytes) {
    usedBytes.addAndGet(-bytes);
  }

  public long usedBytes() {
    return usedBytes.get();
  }

  public long limitBytes() {
    return limitBytes;
  }
}
