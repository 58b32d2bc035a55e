package dev.sluice.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counts of a queue's durable-only rows that are not visible yet, by due time in fixed-width
 * buckets: the queue holds no timer per such row, only these counts, and reads a bucket's rows
 * once all of them are due. Only non-empty buckets are held, so its size follows the number of
 * distinct due buckets (at most the longest delay over the bucket width), not the backlog.
 */
final class DueCounts {
  private final long bucketMillis;
  private final TreeMap<Long, Integer> buckets = new TreeMap<>();
  private long total;

  DueCounts(long bucketMillis) {
    this.bucketMillis = bucketMillis;
  }

  void add(long dueAtMillis) {
    add(dueAtMillis, 1);
  }

  /** Counts {@code n} rows due at {@code dueAtMillis} (or anywhere in its bucket). */
  void add(long dueAtMillis, int n) {
    buckets.merge(bucketStart(dueAtMillis), n, Integer::sum);
    total += n;
  }

  /** Uncounts one row due at {@code dueAtMillis}; false if its bucket is not here (already due). */
  boolean remove(long dueAtMillis) {
    Long start = bucketStart(dueAtMillis);
    Integer n = buckets.get(start);
    if (n == null) {
      return false;
    }
    if (n == 1) {
      buckets.remove(start);
    } else {
      buckets.put(start, n - 1);
    }
    total--;
    return true;
  }

  /** Where the earliest non-empty bucket starts, or {@link Long#MAX_VALUE} when none. */
  long earliestBucketStart() {
    return buckets.isEmpty() ? Long.MAX_VALUE : buckets.firstKey();
  }

  /** When every row of the earliest bucket is due (its last millisecond), or MAX_VALUE. */
  long earliestBucketDueAt() {
    return buckets.isEmpty() ? Long.MAX_VALUE : buckets.firstKey() + bucketMillis - 1;
  }

  /** The end (exclusive) of the bucket holding {@code dueAtMillis}. */
  long bucketEnd(long dueAtMillis) {
    return bucketStart(dueAtMillis) + bucketMillis;
  }

  /**
   * Takes out the earliest bucket if all its rows are due at {@code nowMillis}: returns its count,
   * or 0 when there is none.
   */
  int takeDue(long nowMillis) {
    if (buckets.isEmpty() || earliestBucketDueAt() > nowMillis) {
      return 0;
    }
    Map.Entry<Long, Integer> first = buckets.pollFirstEntry();
    total -= first.getValue();
    return first.getValue();
  }

  long total() {
    return total;
  }

  void clear() {
    buckets.clear();
    total = 0;
  }

  private long bucketStart(long dueAtMillis) {
    return Math.floorDiv(dueAtMillis, bucketMillis) * bucketMillis;
  }
}
