package dev.sluice.loadtest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The outbox drain's once-a-second samples: outbox rows remaining, messages in the queue, the
 * server's RSS; as CSV lines ({@code t_seconds} from the fill's commit) with the rates of the
 * interval each line closes, and the figures the summary gives: the median rate of the intervals
 * that began and ended with rows left (a start's or an end's partial second weighs nothing), and
 * the RSS range.
 */
final class DrainSamples {
  static final String HEADER = "t_seconds,rows_remaining,rows_per_s,queue_messages,queued_per_s,rss_kb";

  record Sample(double seconds, long rowsRemaining, long queued, long rssKb) {}

  private final List<Sample> samples = new ArrayList<>();

  /** Adds a sample (the first is the fill's commit itself) and answers its CSV line. */
  String add(Sample s) {
    samples.add(s);
    Sample prev = samples.size() > 1 ? samples.get(samples.size() - 2) : null;
    double dt = prev == null ? 0 : s.seconds() - prev.seconds();
    double rowsPerSecond = dt > 0 ? (prev.rowsRemaining() - s.rowsRemaining()) / dt : 0;
    double queuedPerSecond = dt > 0 ? (s.queued() - prev.queued()) / dt : 0;
    return String.format(Locale.ROOT, "%.1f,%d,%.0f,%d,%.0f,%d", s.seconds(), s.rowsRemaining(), rowsPerSecond,
        s.queued(), queuedPerSecond, s.rssKb());
  }

  /** The median of the per-interval relay rates (outbox rows gone a second) while rows remained; 0 without any. */
  double medianRowsPerSecond() {
    List<Double> rates = new ArrayList<>();
    for (int i = 1; i < samples.size(); i++) {
      Sample prev = samples.get(i - 1);
      Sample s = samples.get(i);
      if (i > 1 && s.rowsRemaining() > 0 && s.seconds() > prev.seconds()) {
        rates.add((prev.rowsRemaining() - s.rowsRemaining()) / (s.seconds() - prev.seconds()));
      }
    }
    if (rates.isEmpty()) {
      return 0;
    }
    double[] sorted = rates.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The least and the most RSS sampled, in kilobytes ({-1, -1} when none was read). */
  long[] rssRangeKb() {
    long[] known = samples.stream().mapToLong(Sample::rssKb).filter(kb -> kb >= 0).toArray();
    return known.length == 0 ? new long[] {-1, -1}
        : new long[] {Arrays.stream(known).min().getAsLong(), Arrays.stream(known).max().getAsLong()};
  }
}
