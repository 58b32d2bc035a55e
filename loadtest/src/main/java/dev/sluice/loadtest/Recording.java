package dev.sluice.loadtest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.HistogramLogWriter;

/**
 * What one run recorded on one worker (then merged over all): counts, and latency histograms in
 * microseconds. In an open loop {@code latency} counts from when a request was due (the figure
 * free of coordinated omission), {@code service} from when it was actually sent, and {@code lag}
 * is the difference, the generator's own lateness; in a closed loop there is only service time,
 * recorded as {@code latency}. Per-second histograms (by due time, or by answer time in a closed
 * loop) show spikes over the run and line up with the server's GC log.
 */
final class Recording {
  final boolean openLoop;
  private final long windowFromNanos;
  final Histogram latency = new Histogram();
  final Histogram service = new Histogram();
  final Histogram lag = new Histogram();
  private final List<Histogram> perSecond = new ArrayList<>();
  long operations;
  long messages;
  long errors;
  /** Due requests an open loop could not start (its worker had too many open): the run is invalid. */
  long unstarted;
  /** CPU time the server and this generator spent over the window, in nanoseconds; -1 when not read. */
  long serverCpuNanos = -1;
  long ownCpuNanos = -1;

  Recording(boolean openLoop, long windowFromNanos) {
    this.openLoop = openLoop;
    this.windowFromNanos = windowFromNanos;
  }

  /** One successful request: due (or, closed loop, sent) at {@code dueAt}, sent, answered at {@code end}. */
  void succeeded(long dueAt, long sentAt, long end, int moved) {
    operations++;
    messages += moved;
    long micros = (end - dueAt) / 1000;
    latency.record(micros);
    if (openLoop) {
      service.record((end - sentAt) / 1000);
      lag.record((sentAt - dueAt) / 1000);
    }
    second(openLoop ? dueAt : end).record(micros);
  }

  private Histogram second(long atNanos) {
    int index = (int) Math.max(0, (atNanos - windowFromNanos) / 1_000_000_000L);
    while (perSecond.size() <= index) {
      perSecond.add(new Histogram());
    }
    return perSecond.get(index);
  }

  void cpuSpent(long serverNanos, long ownNanos) {
    serverCpuNanos = serverNanos;
    ownCpuNanos = ownNanos;
  }

  void merge(Recording other) {
    latency.merge(other.latency);
    service.merge(other.service);
    lag.merge(other.lag);
    for (int i = 0; i < other.perSecond.size(); i++) {
      second(windowFromNanos + i * 1_000_000_000L).merge(other.perSecond.get(i));
    }
    operations += other.operations;
    messages += other.messages;
    errors += other.errors;
    unstarted += other.unstarted;
  }

  /**
   * Writes {@code latency.hgrm} (and {@code service.hgrm}, {@code lag.hgrm} of an open loop),
   * {@code per-second.csv}, {@code start-time} (epoch milliseconds) and {@code latency.hlog}
   * (HdrHistogram's interval log, one histogram a second, stamped from {@code windowStartEpochMillis})
   * into {@code dir}.
   */
  void write(Path dir, long windowStartEpochMillis) throws IOException {
    Files.createDirectories(dir);
    writeDistribution(dir.resolve("latency.hgrm"), latency);
    if (openLoop) {
      writeDistribution(dir.resolve("service.hgrm"), service);
      writeDistribution(dir.resolve("lag.hgrm"), lag);
    }
    StringBuilder csv = new StringBuilder("second,count,p50_ms,p99_ms,max_ms\n");
    for (int i = 0; i < perSecond.size(); i++) {
      Histogram h = perSecond.get(i);
      csv.append(String.format("%d,%d,%.3f,%.3f,%.3f%n", i, h.count(), h.ms(0.5), h.ms(0.99), h.ms(1.0)));
    }
    Files.writeString(dir.resolve("per-second.csv"), csv);
    // When second 0 began, so a plot can place the server's GC pauses (their log has wall-clock times).
    Files.writeString(dir.resolve("start-time"), windowStartEpochMillis + "\n");
    try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve("latency.hlog")))) {
      HistogramLogWriter log = new HistogramLogWriter(out);
      log.outputLogFormatVersion();
      log.outputStartTime(windowStartEpochMillis);
      log.setBaseTime(windowStartEpochMillis);
      log.outputLegend();
      for (int i = 0; i < perSecond.size(); i++) {
        org.HdrHistogram.Histogram h = perSecond.get(i).recorder();
        h.setStartTimeStamp(windowStartEpochMillis + i * 1000L);
        h.setEndTimeStamp(windowStartEpochMillis + (i + 1) * 1000L);
        log.outputIntervalHistogram(h);
      }
    }
  }

  private static void writeDistribution(Path file, Histogram h) throws IOException {
    try (PrintStream out = new PrintStream(Files.newOutputStream(file))) {
      h.writeDistribution(out);
    }
  }
}
