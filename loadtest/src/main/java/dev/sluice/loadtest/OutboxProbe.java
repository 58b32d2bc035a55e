package dev.sluice.loadtest;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The outbox relay benchmark: an application commits rows into the outbox table of its own
 * PostgreSQL ({@code --app-url}), Sluice's relay moves them to the scenario's queue.
 *
 * <p><b>latency</b> ({@code --phase latency}, the default): commits of {@code --rows-per-commit}
 * rows in an open loop at {@code --rate} rows a second for {@code --warmup} + {@code --duration}
 * seconds ({@link OutboxCommitter}), each row's body carrying its intended commit time;
 * {@code --consumers} long polls receive and delete ({@link OutboxConsumers}). Latency runs from
 * the intended commit to the receive's answer, so a commit the database made late, or a relay that
 * fell behind, counts from when the row was due. Rows due in the window must each arrive exactly
 * once within {@code --grace-seconds} after it.
 *
 * <p><b>drain</b> ({@code --phase drain}): {@link OutboxDrain}, {@code --prefill N} rows at once.
 */
final class OutboxProbe {
  private static final long SAMPLE_MILLIS = 1_000;

  private OutboxProbe() {}

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    String queue = queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
    String url = o.string("app-url", System.getenv().getOrDefault("OUTBOX_APP_URL", ""));
    if (url.isEmpty()) {
      throw new IllegalArgumentException("the application's database: --app-url postgresql://... or OUTBOX_APP_URL");
    }
    Vertx vertx = workers.get(0).context().owner();
    try (OutboxDatabase db = new OutboxDatabase(vertx, url, o.string("table", "sluice_outbox"),
        o.integer("app-connections", 16))) {
      db.awaitTable(o.integer("table-wait-seconds", 60));
      awaitEmptyOutbox(db, o.integer("table-wait-seconds", 60));
      String phase = o.string("phase", "latency");
      boolean complete = switch (phase) {
        case "latency" -> latency(workers, queueUrl, queue, db, o);
        case "drain" -> OutboxDrain.run(workers, queueUrl, queue, db, o);
        default -> throw new IllegalArgumentException("--phase latency or drain, not " + phase);
      };
      if (!complete) {
        throw new IllegalStateException("the run did not complete: see the lines above");
      }
    }
  }

  private static boolean latency(List<Worker> workers, String queueUrl, String queue, OutboxDatabase db, Options o)
      throws Exception {
    double rate = o.decimal("rate", 1_000);
    int rowsPerCommit = o.integer("rows-per-commit", 1);
    long origin = System.nanoTime();
    // A second for the consumers to park their long polls before the first commit.
    long start = origin + TimeUnit.SECONDS.toNanos(1);
    long from = start + TimeUnit.SECONDS.toNanos(o.warmupSeconds());
    long end = from + TimeUnit.SECONDS.toNanos(o.durationSeconds());
    long fromEpochMillis = System.currentTimeMillis() + TimeUnit.NANOSECONDS.toMillis(from - origin);
    OutboxTimeline timeline = new OutboxTimeline(OpenLoopSchedule.of(start, rate / rowsPerCommit, 0, 1), origin,
        rowsPerCommit, from, end);
    OutboxConsumers consumers = OutboxConsumers.start(workers, queueUrl, timeline, o.integer("consumers", 32));
    // Its own event loop: the commits' timer is not held up by the consumers' answers.
    Context committerContext = workers.get(0).context().owner().getOrCreateContext();
    Future<OutboxCommitter.Result> committing = OutboxCommitter.run(committerContext, db, queue, timeline,
        o.bodyBytes());
    List<String> trace = new ArrayList<>();
    long maxRowsInWindow = 0;
    long maxVisibleInWindow = 0;
    long rowsAtEnd = -1;
    long transactionsAtFrom = -1;
    long transactionsAtEnd = -1;
    int samplesInWindow = 0;
    ProcessCpu cpu = new ProcessCpu(o.string("server-pid", ""));
    long serverCpuAtFrom = -1;
    for (long t = start; t <= end; t += TimeUnit.MILLISECONDS.toNanos(SAMPLE_MILLIS)) {
      TimeUnit.NANOSECONDS.sleep(Math.max(0, t - System.nanoTime()));
      boolean inWindow = t >= from;
      if (t == from) {
        transactionsAtFrom = db.transactions();
        serverCpuAtFrom = cpu.serverNanos();
      }
      long rows = db.rows();
      long visible = QueueCounts.of(workers.get(0).sqs, queueUrl).visible();
      trace.add(rows + "/" + visible);
      if (inWindow) {
        samplesInWindow++;
        maxRowsInWindow = Math.max(maxRowsInWindow, rows);
        maxVisibleInWindow = Math.max(maxVisibleInWindow, visible);
        rowsAtEnd = rows;
      }
    }
    transactionsAtEnd = db.transactions();
    long serverCpu = serverCpuAtFrom < 0 ? -1 : cpu.serverNanos() - serverCpuAtFrom;
    OutboxCommitter.Result commits = committing.await(o.integer("grace-seconds", 10) + 60L, TimeUnit.SECONDS);
    long graceDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.integer("grace-seconds", 10));
    long expected = timeline.committedInWindow();
    while (timeline.receivedInWindow() < expected && System.nanoTime() < graceDeadline) {
      Thread.sleep(20);
    }
    consumers.stop();
    long rowsAfterGrace = db.rows();
    OutboxTimeline.Summary s = timeline.summarize();
    Recording r = s.recording();
    double seconds = o.durationSeconds();
    // The application database's transactions besides the probe's: the relay's reads and deletes
    // (and a poller's empty polls), with the probe's own counts and statistics reads taken off.
    long commitsInWindow = s.committedInWindow() / rowsPerCommit;
    double othersPerSecond = (transactionsAtEnd - transactionsAtFrom - commitsInWindow - samplesInWindow - 1)
        / seconds;
    boolean complete = s.missing() == 0 && s.duplicates() == 0 && s.foreign() == 0 && commits.failed() == 0
        && commits.unstarted() == 0;
    System.out.printf(Locale.ROOT, "outbox latency: %.0f rows/s offered in commits of %d (%.0f commits/s), %d-byte"
            + " bodies, %d consumers, for %d s after %d s of warm-up: %d rows committed, %d received, %d missing,"
            + " %d duplicates, %d foreign, %d commits failed, %d not started; relayed %.0f rows/s (received in the"
            + " window); intended commit → received p50 %s, p99 %s, p99.9 %s, max %s; commit acknowledged →"
            + " received p50 %s, p99 %s; intended → commit acknowledged p50 %s, p99 %s, max %s; outbox rows at the"
            + " window's end %d (max %d), after grace %d; queue visible max %d; %.2f messages per receive"
            + " (%.0f%% full); application database ≈ %.0f transactions/s besides the commits; server CPU %s"
            + " per row received%s%n",
        rate, rowsPerCommit, rate / rowsPerCommit, o.bodyBytes(), o.integer("consumers", 32), o.durationSeconds(),
        o.warmupSeconds(), s.committedInWindow(), s.receivedInWindow(), s.missing(), s.duplicates(), s.foreign(),
        commits.failed(), commits.unstarted(), s.receivedDuringWindow() / seconds, ms(r.latency, 0.50),
        ms(r.latency, 0.99), ms(r.latency, 0.999), ms(r.latency, 1.0), ms(r.service, 0.50), ms(r.service, 0.99),
        ms(r.lag, 0.50), ms(r.lag, 0.99), ms(r.lag, 1.0), rowsAtEnd, maxRowsInWindow, rowsAfterGrace,
        maxVisibleInWindow, consumers.messagesPerReceive(),
        consumers.receives.get() == 0 ? 0.0 : 100.0 * consumers.fullReceives.get() / consumers.receives.get(),
        othersPerSecond, serverCpu < 0 || s.receivedDuringWindow() == 0 ? "n/a"
            : String.format(Locale.ROOT, "%.0f us", serverCpu / 1e3 / s.receivedDuringWindow()),
        commits.unstarted() > 0 ? "; INVALID RUN: the application database fell behind"
            + " (" + OutboxCommitter.MAX_OUTSTANDING + " commits open)" : "");
    System.out.println("outbox rows/queue visible every second from the first commit: " + String.join(" ", trace));
    String out = o.string("out", "");
    if (!out.isEmpty()) {
      r.write(Path.of(out), fromEpochMillis);
    }
    return complete;
  }

  /**
   * Rows an earlier run left (it failed, or its server stopped first) are relayed by this server
   * before anything is measured: they would count as this run's backlog.
   */
  private static void awaitEmptyOutbox(OutboxDatabase db, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    long left;
    while ((left = db.rows()) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(left + " rows still in the outbox after " + seconds + " s");
      }
      Thread.sleep(200);
    }
  }

  private static String ms(Histogram h, double q) {
    return String.format(Locale.ROOT, "%.2f ms", h.quantile(q) / 1000.0);
  }
}
