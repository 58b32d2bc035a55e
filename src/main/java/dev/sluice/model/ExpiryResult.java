package dev.sluice.model;

import java.util.List;

/**
 * The answer to an {@link ExpiryRequest}: the rows it deleted (what the queue needs to uncount
 * them), whether it stopped at its row limit (more may be expired), and the oldest sent time among
 * the durable-only rows left: {@link Long#MAX_VALUE} when none is left, {@link #UNKNOWN} when it
 * could not be measured (a failed expiry).
 */
public record ExpiryResult(List<Row> deleted, boolean reachedLimit, long oldestSentAtMillis) {
  public static final long UNKNOWN = Long.MIN_VALUE;

  /** A failed expiry: nothing deleted, nothing measured. */
  public static final ExpiryResult FAILED = new ExpiryResult(List.of(), false, UNKNOWN);

  /** One deleted row: when it was first visible, sent, and how it entered the queue. */
  public record Row(long firstVisibleAtMillis, long sentAtMillis, Arrival arrival) {}
}
