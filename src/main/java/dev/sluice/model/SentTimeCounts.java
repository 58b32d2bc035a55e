package dev.sluice.model;

import dev.sluice.api.Limits;
import java.util.Map;
import java.util.TreeMap;

/**
 * Owned by a paged FIFO queue's {@link FifoBacklogDelays}: the durable-only rows that a delay may
 * still hold back, counted by sent time in buckets, so that the queue can tell how many are delayed
 * now under its current delay rule ({@link FifoDelayRule}) without holding them. Only rows sent
 * with the queue's delay count here (not dead letters nor redriven messages, visible when they
 * arrive), and only for the longest delay after their send: an older row is visible whatever the
 * delay becomes. A row sent within a bucket is counted delayed, or visible, as its bucket is: up to
 * one bucket off.
 */
final class SentTimeCounts {
  private final long bucketMillis;
  /** Bucket start → rows sent in it. */
  private final TreeMap<Long, int[]> buckets = new TreeMap<>();

  SentTimeCounts(long bucketMillis) {
    this.bucketMillis = bucketMillis;
  }

  private long bucketOf(long sentAtMillis) {
    return Math.floorDiv(sentAtMillis, bucketMillis) * bucketMillis;
  }

  void add(long sentAtMillis, long nowMillis) {
    buckets.computeIfAbsent(bucketOf(sentAtMillis), b -> new int[1])[0]++;
    forgetOlderThanLongestDelay(nowMillis);
  }

  /** A row left the durable store only (read back, or its write failed); one forgotten is ignored. */
  void remove(long sentAtMillis) {
    long b = bucketOf(sentAtMillis);
    int[] n = buckets.get(b);
    if (n != null && --n[0] == 0) {
      buckets.remove(b);
    }
  }

  /** The rows sent after {@code sentAfterMillis}: those delayed now, given the rule's bound. */
  long sentAfter(long sentAfterMillis, long nowMillis) {
    forgetOlderThanLongestDelay(nowMillis);
    long n = 0;
    for (int[] c : buckets.tailMap(bucketOf(sentAfterMillis), false).values()) {
      n += c[0];
    }
    return n;
  }

  private void forgetOlderThanLongestDelay(long nowMillis) {
    long visibleWhateverTheDelay = nowMillis - Limits.DELAY_SECONDS_MAX * 1000L - bucketMillis;
    while (!buckets.isEmpty() && buckets.firstKey() < visibleWhateverTheDelay) {
      buckets.pollFirstEntry();
    }
  }

  /** Start-up: bucket start → rows, as the durable store counted them. */
  void recovered(Map<Long, Integer> bySentBucket) {
    buckets.clear();
    bySentBucket.forEach((b, n) -> buckets.computeIfAbsent(bucketOf(b), k -> new int[1])[0] += n);
  }

  void clear() {
    buckets.clear();
  }
}
