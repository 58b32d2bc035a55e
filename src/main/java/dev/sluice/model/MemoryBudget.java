package dev.sluice.model;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes held in memory, shared by every event loop: past the limit, new work is refused with a
 * retryable error instead of the JVM running out of heap. The engine keeps one for messages (sends
 * are refused), the HTTP front one for request bodies being read (requests are refused before
 * their body is read). Shared between event loops, hence the atomic; it never guards queue state.
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

  /**
   * Charges the bytes even past the limit: a page a queue asked for is charged when it arrives, as
   * it was sized to fit when asked and its rows must come in all the same.
   */
  public void chargeAnyway(long bytes) {
    usedBytes.addAndGet(bytes);
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
