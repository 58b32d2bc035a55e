package dev.sluice.loadtest;

import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The outbox drain: {@code --prefill N} rows committed to the outbox in one transaction, then the
 * time the relay takes to move them all into the queue, with no consumer: the relay has the cores
 * to itself, and the queue's count reaching exactly N says that every row became one message. Once
 * a second: outbox rows left, messages in the queue, the server's RSS ({@code --server-pid}), to
 * {@code --csv FILE} or stdout ({@link DrainSamples}). The rows left are N less the rows the relay
 * says it relayed or moved to the dead table since the commit (its admin API, {@link RelayStatus}):
 * a count(*) of a million-row table every second would cost the relay a share of the cores it is
 * measured on; the count is made once the relay says it is done, and decides. With a server PID, the live heap after a full
 * GC ({@code jcmd GC.class_histogram}) before the fill, once half the rows are gone, and at the end:
 * a relay that kept something per row would show it there, whatever the RSS (which the JVM need
 * not give back).
 */
final class OutboxDrain {
  private static final int TOP_CLASSES = 5;

  private OutboxDrain() {}

  /** Whether the drain completed: the outbox empty and the queue holding exactly the rows committed. */
  static boolean run(List<Worker> workers, String queueUrl, String queue, OutboxDatabase db, Options o)
      throws Exception {
    long rows = Long.parseLong(o.string("prefill", "1000000"));
    String pid = o.string("server-pid", "");
    SqsCalls sqs = workers.get(0).sqs;
    long leftBefore = db.rows();
    long queuedBefore = QueueCounts.of(sqs, queueUrl).total();
    if (leftBefore != 0 || queuedBefore != 0) {
      throw new IllegalStateException("the drain needs an empty outbox and queue: " + leftBefore + " rows, "
          + queuedBefore + " messages");
    }
    ClassHistogram heapBefore = pid.isEmpty() ? null : ClassHistogram.of(pid);
    RelayStatus base = RelayStatus.read(o.url(), o.string("token", System.getenv().getOrDefault(
        "SLUICE_MANAGEMENT_TOKEN", "")));
    long fillStart = System.nanoTime();
    db.fillInOneTransaction(queue, rows, o.bodyBytes());
    long committed = System.nanoTime();
    long committedEpochMillis = System.currentTimeMillis();
    System.out.printf(Locale.ROOT, "outbox drain: %d rows of %d bytes committed in one transaction in %.1f s%n",
        rows, o.bodyBytes(), (committed - fillStart) / 1e9);
    DrainSamples samples = new DrainSamples();
    ClassHistogram heapHalfway = null;
    long deadline = committed + TimeUnit.SECONDS.toNanos(o.integer("max-seconds", 3_600));
    long left = rows;
    long queued = 0;
    double seconds = 0;
    String csv = o.string("csv", "");
    try (PrintStream out = csv.isEmpty() ? null : new PrintStream(new FileOutputStream(csv), true,
        StandardCharsets.UTF_8)) {
      PrintStream lines = out == null ? System.out : out;
      lines.println(DrainSamples.HEADER);
      lines.println(samples.add(new DrainSamples.Sample(0, rows, 0, ServerRss.kb(pid))));
      for (long tick = 1; (left > 0 || queued < rows) && System.nanoTime() < deadline; tick++) {
        TimeUnit.NANOSECONDS.sleep(Math.max(0, committed + TimeUnit.SECONDS.toNanos(tick) - System.nanoTime()));
        left = rowsLeft(rows, base, o, db);
        queued = QueueCounts.of(sqs, queueUrl).total();
        seconds = (System.nanoTime() - committed) / 1e9;
        lines.println(samples.add(new DrainSamples.Sample(seconds, left, queued, ServerRss.kb(pid))));
        if (heapBefore != null && heapHalfway == null && left <= rows / 2) {
          heapHalfway = ClassHistogram.of(pid); // one full GC mid-drain: its pause shows in that second's rate
        }
      }
    }
    left = db.rows(); // the exact count decides
    ClassHistogram heapAfter = pid.isEmpty() ? null : ClassHistogram.of(pid);
    boolean complete = left == 0 && queued == rows;
    long[] rss = samples.rssRangeKb();
    long dead = db.deadRows(o.string("dead-table", db.table() + "_dead"));
    System.out.printf(Locale.ROOT, "outbox drain: %d rows relayed in %.1f s from the commit: %.0f rows/s (median"
            + " of the seconds %.0f rows/s); outbox rows left %d, queue holds %d of %d%s, dead rows %s; server RSS"
            + " %s; live heap after a full GC: before %s, half-way %s, after %s; commit at epoch ms %d%n",
        rows - left, seconds, seconds > 0 ? (rows - left) / seconds : 0.0, samples.medianRowsPerSecond(), left,
        queued, rows, complete ? "" : " INCOMPLETE", dead < 0 ? "n/a (no dead table)" : Long.toString(dead),
        rss[0] < 0 ? "n/a" : String.format(Locale.ROOT, "%d-%d MB", rss[0] >> 10, rss[1] >> 10),
        mb(heapBefore), mb(heapHalfway), mb(heapAfter), committedEpochMillis);
    if (heapBefore != null && heapAfter != null) {
      printGrowth("half-way", heapHalfway, heapBefore);
      printGrowth("after", heapAfter, heapBefore);
    }
    return complete;
  }

  /** From the relay's counters since {@code base}; a count(*) when they cannot be read. */
  private static long rowsLeft(long rows, RelayStatus base, Options o, OutboxDatabase db) throws Exception {
    RelayStatus now = base == null ? null : RelayStatus.read(o.url(), o.string("token",
        System.getenv().getOrDefault("SLUICE_MANAGEMENT_TOKEN", "")));
    if (now == null) {
      return db.rows();
    }
    long gone = now.relayed() + now.dead() - base.relayed() - base.dead();
    return Math.max(0, rows - gone);
  }

  private static void printGrowth(String when, ClassHistogram h, ClassHistogram before) {
    if (h == null) {
      return;
    }
    StringBuilder sb = new StringBuilder("outbox drain: live heap grown by class, " + when + " vs before:");
    for (ClassHistogram.Entry e : h.grownSince(before, TOP_CLASSES)) {
      sb.append(String.format(Locale.ROOT, " %s %+d B (%+d)", e.className(), e.bytes(), e.instances()));
    }
    System.out.println(sb);
  }

  private static String mb(ClassHistogram h) {
    return h == null ? "n/a" : String.format(Locale.ROOT, "%.1f MB", h.totalBytes() / 1048576.0);
  }
}
