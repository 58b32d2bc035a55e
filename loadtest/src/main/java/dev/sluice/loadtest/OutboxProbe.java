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
        o.integer("app-connections", 64))) {
      db.awaitTable(o.integer("table-wait-seconds", 60));
      clearLeftovers(db, o.integer("leftover-seconds", 10));
      String phase = o.string("phase", "latency");
      boolean complete = switch (phase) {
        case "latency" -> latency(workers, queueUrl, queue, db, o);
        case "drain" -> OutboxDrain.run(workers, queueUrl, queue, db, o);
        default -> throw new IllegalArgumentException("--phase latency or drain, not " + phase);
      };
      RelayStatus relay = RelayStatus.read(o.url(), token(o));
      System.out.println("outbox " + phase + ": " + (relay == null ? "relay status not read" : relay));
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
    RelayStatus relayAtFrom = null;
    ProcessCpu cpu = new ProcessCpu(o.string("server-pid", ""));
    long serverCpuAtFrom = -1;
    for (long t = start; t <= end; t += TimeUnit.MILLISECONDS.toNanos(SAMPLE_MILLIS)) {
      TimeUnit.NANOSECONDS.sleep(Math.max(0, t - System.nanoTime()));
      boolean inWindow = t >= from;
      if (t == from) {
        relayAtFrom = RelayStatus.read(o.url(), token(o));
        serverCpuAtFrom = cpu.serverNanos();
      }
      long rows = db.rows();
      long visible = QueueCounts.of(workers.get(0).sqs, queueUrl).visible();
      trace.add(rows + "/" + visible);
      if (inWindow) {
        maxRowsInWindow = Math.max(maxRowsInWindow, rows);
        maxVisibleInWindow = Math.max(maxVisibleInWindow, visible);
        rowsAtEnd = rows;
      }
    }
    RelayStatus relayAtEnd = RelayStatus.read(o.url(), token(o));
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
    boolean complete = s.missing() == 0 && s.duplicates() == 0 && s.foreign() == 0 && commits.failed() == 0
        && commits.unstarted() == 0;
    System.out.printf(Locale.ROOT, "outbox latency: %.0f rows/s offered in commits of %d (%.0f commits/s), %d-byte"
            + " bodies, %d consumers, for %d s after %d s of warm-up: %d rows committed, %d received, %d missing,"
            + " %d duplicates, %d foreign, %d commits failed, %d not started; relayed %.0f rows/s (received in the"
            + " window); intended commit → received p50 %s, p99 %s, p99.9 %s, max %s; commit acknowledged →"
            + " received p50 %s, p99 %s; intended → commit acknowledged p50 %s, p99 %s, max %s; outbox rows at the"
            + " window's end %d (max %d), after grace %d; queue visible max %d; %.2f messages per receive"
            + " (%.0f%% full); relay wake-ups %s; server CPU %s"
            + " per row received%s%n",
        rate, rowsPerCommit, rate / rowsPerCommit, o.bodyBytes(), o.integer("consumers", 32), o.durationSeconds(),
        o.warmupSeconds(), s.committedInWindow(), s.receivedInWindow(), s.missing(), s.duplicates(), s.foreign(),
        commits.failed(), commits.unstarted(), s.receivedDuringWindow() / seconds, ms(r.latency, 0.50),
        ms(r.latency, 0.99), ms(r.latency, 0.999), ms(r.latency, 1.0), ms(r.service, 0.50), ms(r.service, 0.99),
        ms(s.commitLag(), 0.50), ms(s.commitLag(), 0.99), ms(s.commitLag(), 1.0), rowsAtEnd, maxRowsInWindow, rowsAfterGrace,
        maxVisibleInWindow, consumers.messagesPerReceive(),
        consumers.receives.get() == 0 ? 0.0 : 100.0 * consumers.fullReceives.get() / consumers.receives.get(),
        relayAtEnd == null ? "n/a" : relayAtEnd.wakeupsPerSecondSince(relayAtFrom, seconds), serverCpu < 0 || s.receivedDuringWindow() == 0 ? "n/a"
            : String.format(Locale.ROOT, "%.0f us", serverCpu / 1e3 / s.receivedDuringWindow()),
        commits.unstarted() > 0 ? "; INVALID RUN: the commits fell behind their schedule ("
            + OutboxCommitter.MAX_OUTSTANDING + " open): more than the application's database took beside the"
            + " relay" : "");
    System.out.println("outbox rows/queue visible every second from the first commit: " + String.join(" ", trace));
    String out = o.string("out", "");
    if (!out.isEmpty()) {
      r.write(Path.of(out), fromEpochMillis);
    }
    return complete;
  }

  /**
   * Rows an earlier run left (it failed, or outran the relay) would be this run's backlog: the relay
   * gets {@code seconds} to finish them, then the rest are deleted, and the line says how many.
   */
  private static void clearLeftovers(OutboxDatabase db, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (db.rows() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    long deleted = db.deleteAll();
    if (deleted > 0) {
      System.out.println("outbox: " + deleted + " rows an earlier run left were deleted unrelayed");
    }
  }

  private static String token(Options o) {
    return o.string("token", System.getenv().getOrDefault("SLUICE_MANAGEMENT_TOKEN", ""));
  }

  private static String ms(Histogram h, double q) {
    return String.format(Locale.ROOT, "%.2f ms", h.quantile(q) / 1000.0);
  }
}
