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
  /** The budget a share charges too (and whose limit holds); null for a budget of its own. */
  private final MemoryBudget whole;

  public MemoryBudget(long limitBytes) {
    this.limitBytes = limitBytes;
    this.whole = null;
  }

  private MemoryBudget(MemoryBudget whole) {
    this.limitBytes = whole.limitBytes;
    this.whole = whole;
  }

  /**
   * A share of this budget, for one holder that may go away with its charges outstanding (a shard
   * handed to another node): it charges this budget and counts what it charged, so that
   * {@link #releaseShare} gives all of it back at once.
   */
  public MemoryBudget share() {
    return new MemoryBudget(this);
  }

  /** A share's holder is gone: what it still had charged goes back to the whole budget. */
  public void releaseShare() {
    if (whole == null) {
      throw new IllegalStateException("not a share");
    }
    whole.release(usedBytes.getAndSet(0));
  }

  /** Charges the bytes if they fit; false (and nothing charged) when they would exceed the limit. */
  public boolean tryCharge(long bytes) {
    if (whole != null) {
      if (!whole.tryCharge(bytes)) {
        return false;
      }
      usedBytes.addAndGet(bytes);
      return true;
    }
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
    if (whole != null) {
      whole.chargeAnyway(bytes);
    }
    usedBytes.addAndGet(bytes);
  }

  public void release(long bytes) {
    if (whole != null) {
      whole.release(bytes);
    }
    usedBytes.addAndGet(-bytes);
  }

  public long usedBytes() {
    return usedBytes.get();
  }

  public long limitBytes() {
    return limitBytes;
  }
}
