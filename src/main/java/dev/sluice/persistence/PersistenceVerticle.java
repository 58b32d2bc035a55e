package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.ContextInternal;
import io.vertx.sqlclient.Pool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The write-behind writer (DESIGN.md §3): shards submit their changes from any event loop; this
 * verticle's own loop gathers them into transactions and writes one at a time (group commit:
 * whatever arrives while a transaction is being written goes into the next one, up to
 * {@code batchSize} changes, and a lone change waits at most {@code flushIntervalMillis} for
 * company). A submission's future completes, on its caller's context, once the transaction holding
 * it has committed. When PostgreSQL is unreachable the batch is retried with growing pauses and
 * nothing submitted is dropped; the writer recovers by itself when the database is back.
 *
 * <p>A loop-owned batcher rather than a Mutiny stream: time-based grouping in Mutiny runs on its own
 * scheduler thread, and here the batch, its retries and the pool all stay on one event loop.
 */
public final class PersistenceVerticle extends VerticleBase {
  /** Changes submitted together, and who waits for their commit. */
  private record Submission(Consumer<ChangeBatch> changes, int count, Promise<Void> committed, long atNanos) {}

  static final long RETRY_MIN_MILLIS = 50;
  static final long RETRY_MAX_MILLIS = 2000;

  private final Pool pool;
  private final int batchSize;
  private final int flushIntervalMillis;
  private final ConcurrentLinkedQueue<Submission> inbox = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean wakeUpScheduled = new AtomicBoolean();
  private ContextInternal loop;
  private boolean writing;
  private long retryMillis = RETRY_MIN_MILLIS;
  private volatile long oldestPendingNanos;
  private volatile long transactions;
  private volatile long failures;

  public PersistenceVerticle(Pool pool, int batchSize, int flushIntervalMillis) {
    this.pool = pool;
    this.batchSize = batchSize;
    this.flushIntervalMillis = flushIntervalMillis;
  }

  /** How often the writer reports a backlog in the log, and from how old a backlog. */
  static final long LAG_REPORT_INTERVAL_MILLIS = 5_000;
  static final long LAG_REPORTED_FROM_MILLIS = 1_000;
  private static final System.Logger LOG = System.getLogger(PersistenceVerticle.class.getName());

  @Override
  public Future<?> start() {
    loop = (ContextInternal) context;
    // Relaxed durability answers before commit, so a backlog is the window a crash would lose.
    vertx.setPeriodic(LAG_REPORT_INTERVAL_MILLIS, id -> {
      long lag = lagMillis();
      if (lag >= LAG_REPORTED_FROM_MILLIS) {
        LOG.log(System.Logger.Level.WARNING, "PostgreSQL writes are " + lag + " ms behind (" + failures
            + " failed transactions so far); retrying");
      }
    });
    return Future.succeededFuture();
  }

  /**
   * From any thread: adds {@code count} changes (applied to a batch by {@code changes}); the future
   * completes on the caller's context once they are committed.
   */
  public Future<Void> submit(Consumer<ChangeBatch> changes, int count) {
    ContextInternal caller = ContextInternal.current();
    Promise<Void> committed = caller != null ? caller.promise() : Promise.promise();
    inbox.add(new Submission(changes, count, committed, System.nanoTime()));
    if (wakeUpScheduled.compareAndSet(false, true)) {
      loop.runOnContext(v -> {
        wakeUpScheduled.set(false);
        if (!writing) {
          writing = true;
          // A lone change waits briefly for others to share its transaction.
          if (flushIntervalMillis > 0) {
            vertx.setTimer(flushIntervalMillis, t -> writeNext());
          } else {
            writeNext();
          }
        }
      });
    }
    return committed.future();
  }

  /** How long a stopping writer keeps writing what it was given before it lets go. */
  static final long DRAIN_ON_STOP_MILLIS = 10_000;

  /**
   * Undeployed (the server is stopping): writes what is still waiting first, for at most
   * {@link #DRAIN_ON_STOP_MILLIS}, so that a clean stop loses nothing even under relaxed durability.
   */
  @Override
  public Future<?> stop() {
    Promise<Void> drained = Promise.promise();
    long deadline = System.nanoTime() + DRAIN_ON_STOP_MILLIS * 1_000_000;
    awaitDrained(drained, deadline);
    return drained.future();
  }

  private void awaitDrained(Promise<Void> drained, long deadlineNanos) {
    if ((!writing && inbox.isEmpty()) || System.nanoTime() > deadlineNanos) {
      drained.complete();
    } else {
      vertx.setTimer(10, t -> awaitDrained(drained, deadlineNanos));
    }
  }

  /** On the loop: writes the next transaction, or goes idle when nothing waits. */
  private void writeNext() {
    List<Submission> taken = new ArrayList<>();
    ChangeBatch batch = new ChangeBatch();
    int count = 0;
    Submission s;
    while (count < batchSize && (s = inbox.poll()) != null) {
      s.changes().accept(batch);
      count += s.count();
      taken.add(s);
    }
    if (taken.isEmpty()) {
      writing = false;
      oldestPendingNanos = 0;
      return;
    }
    oldestPendingNanos = taken.get(0).atNanos();
    write(batch, taken);
  }

  private void write(ChangeBatch batch, List<Submission> taken) {
    BatchWriter.write(pool, batch).onComplete((ok, failure) -> {
      if (failure == null) {
        transactions++;
        retryMillis = RETRY_MIN_MILLIS;
        taken.forEach(t -> t.committed().tryComplete());
        writeNext();
      } else {
        // PostgreSQL is down or the transaction failed: keep the batch and try again later.
        failures++;
        long pause = retryMillis;
        retryMillis = Math.min(RETRY_MAX_MILLIS, retryMillis * 2);
        vertx.setTimer(pause, t -> write(batch, taken));
      }
    });
  }

  /** How long the oldest change not yet committed has waited, in ms (0 when all are committed). */
  public long lagMillis() {
    long oldest = oldestPendingNanos;
    Submission head = inbox.peek();
    long since = oldest != 0 ? oldest : head != null ? head.atNanos() : 0;
    return since == 0 ? 0 : (System.nanoTime() - since) / 1_000_000;
  }

  public long transactions() {
    return transactions;
  }

  public long failures() {
    return failures;
  }
}
