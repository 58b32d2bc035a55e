package dev.sluice.loadtest;

/**
 * Latency histogram in microseconds, on HdrHistogram (three significant digits, values up to an
 * hour), cheap enough to record every request. One per event loop (it is not thread-safe); merged
 * at the end. Callers record from a request's intended start, so open-loop figures are corrected
 * for coordinated omission.
 */
final class Histogram {
  /** An hour, in microseconds: no request of a load test waits longer. */
  private static final long HIGHEST_MICROS = 3_600_000_000L;
  private final org.HdrHistogram.Histogram recorded = new org.HdrHistogram.Histogram(HIGHEST_MICROS, 3);

  void record(long micros) {
    recorded.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, micros)));
  }

  void merge(Histogram other) {
    recorded.add(other.recorded);
  }

  long count() {
    return recorded.getTotalCount();
  }

  /** The value at the given quantile, in microseconds (the highest value equivalent to it). */
  long quantile(double q) {
    if (recorded.getTotalCount() == 0) {
      return 0;
    }
    return q >= 1.0 ? recorded.getMaxValue() : recorded.getValueAtPercentile(q * 100);
  }

  String summary() {
    return String.format("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms (n=%d)",
        quantile(0.50) / 1000.0, quantile(0.90) / 1000.0, quantile(0.99) / 1000.0, quantile(1.0) / 1000.0, count());
  }
}
