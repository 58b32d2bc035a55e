package dev.sluice.loadtest;

import java.io.PrintStream;

/**
 * Latency histogram in microseconds, on HdrHistogram (three significant digits, growing as values
 * need, clamped at an hour), cheap enough to record every request. One per event loop (it is not
 * thread-safe); merged at the end.
 */
final class Histogram {
  /** An hour, in microseconds: no request of a load test waits longer. */
  private static final long HIGHEST_MICROS = 3_600_000_000L;
  private final org.HdrHistogram.Histogram recorded = new org.HdrHistogram.Histogram(3);

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
    return String.format("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, p99.99 %.2f ms, max %.2f ms (n=%d)",
        ms(0.50), ms(0.90), ms(0.99), ms(0.999), ms(0.9999), ms(1.0), count());
  }

  double ms(double q) {
    return quantile(q) / 1000.0;
  }

  /** HdrHistogram's percentile distribution text ({@code .hgrm}), in milliseconds. */
  void writeDistribution(PrintStream out) {
    recorded.outputPercentileDistribution(out, 1000.0);
  }

  /** The recorder itself, for HdrHistogram's interval log writer; callers set its timestamps. */
  org.HdrHistogram.Histogram recorder() {
    return recorded;
  }
}
