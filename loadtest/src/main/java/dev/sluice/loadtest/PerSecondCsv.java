package dev.sluice.loadtest;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Writes {@code t_seconds,msgs_per_s,total} once a second, to stdout or to {@code --csv FILE}, until
 * closed. {@code t_seconds} counts from the start, or from {@code --t0-epoch-ms} when given, so that
 * a script can put several runs and its own samples (the server's RSS) on one time axis. Each rate
 * is over the interval actually elapsed since the line before.
 */
final class PerSecondCsv implements AutoCloseable {
  private final PrintStream out;
  private final boolean ownsOut;
  private final LongSupplier total;
  private final long originMillis;
  private final ScheduledExecutorService ticker;
  private long lastTotal;
  private long lastNanos = System.nanoTime();

  PerSecondCsv(Options o, LongSupplier total) throws IOException {
    String file = o.string("csv", "");
    this.ownsOut = !file.isEmpty();
    this.out = ownsOut ? new PrintStream(new FileOutputStream(file), true, StandardCharsets.UTF_8) : System.out;
    this.total = total;
    String t0 = o.string("t0-epoch-ms", "");
    this.originMillis = t0.isEmpty() ? System.currentTimeMillis() : Long.parseLong(t0);
    out.println("t_seconds,msgs_per_s,total");
    ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "per-second-csv");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleAtFixedRate(this::line, 1, 1, TimeUnit.SECONDS);
  }

  private synchronized void line() {
    long now = System.nanoTime();
    long sum = total.getAsLong();
    out.printf(Locale.ROOT, "%.1f,%.0f,%d%n", (System.currentTimeMillis() - originMillis) / 1000.0,
        (sum - lastTotal) / ((now - lastNanos) / 1e9), sum);
    lastTotal = sum;
    lastNanos = now;
  }

  /** Stops the ticks and writes the last, partial second (if it lasted 100 ms or more). */
  @Override
  public void close() {
    ticker.shutdownNow();
    synchronized (this) {
      if (System.nanoTime() - lastNanos >= TimeUnit.MILLISECONDS.toNanos(100)) {
        line();
      }
    }
    if (ownsOut) {
      out.close();
    } else {
      out.flush();
    }
  }
}
