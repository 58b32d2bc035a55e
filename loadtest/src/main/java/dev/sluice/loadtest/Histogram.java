package dev.sluice.loadtest;

/**
 * Latency histogram in microseconds with ~1% resolution (log-linear buckets), cheap enough to
 * record every request. One per event loop; merged at the end.
 */
final class Histogram {
  private static final int SUB = 128;
  private final long[] counts = new long[64 * SUB];
  private long total;

  void record(long micros) {
    long v = Math.max(0, micros);
    int exp = 63 - Long.numberOfLeadingZeros(v | 1);
    int index = exp < 7 ? (int) v : (exp - 6) * SUB + (int) ((v >>> (exp - 7)) - SUB);
    counts[Math.min(index, counts.length - 1)]++;
    total++;
  }

  void merge(Histogram other) {
    for (int i = 0; i < counts.length; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
  }

  long count() {
    return total;
  }

  /** The value at the given quantile, in microseconds (upper bound of its bucket). */
  long quantile(double q) {
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= Math.max(1, rank)) {
        return upperBound(i);
      }
    }
    return 0;
  }

  private static long upperBound(int index) {
    if (index < SUB) {
      return index;
    }
    int exp = index / SUB + 6;
    long sub = index % SUB + SUB;
    return ((sub + 1) << (exp - 7)) - 1;
  }

  String summary() {
    return String.format("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms (n=%d)",
        quantile(0.50) / 1000.0, quantile(0.90) / 1000.0, quantile(0.99) / 1000.0, quantile(1.0) / 1000.0, total);
  }
}
