package dev.sluice.persistence;

import java.util.concurrent.atomic.AtomicLong;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import dev.sluice.persistence.WriteTransaction.Submission;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Context;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The write-behind writer (src/site/markdown/durability.md): shards submit their changes from any event loop; this
 * verticle's own loop gathers them into transactions (group commit: whatever arrives while
 * transactions are being written goes into the next one, up to {@code batchSize} changes, and a
 * lone change waits at most {@code flushIntervalMillis} for company). Up to
 * {@code maxTransactions} transactions are written at once, on separate connections, so that a
 * batch does not wait for the previous one's round trips and commit; a batch that shares a message
 * or a queue with one still being written waits for it (see {@link WriteTransaction#mustWaitFor}).
 * A submission's future completes, on its caller's context, once the transaction holding it has
 * committed. When PostgreSQL is unreachable a batch is retried with growing pauses and nothing
 * submitted is dropped; the writer recovers by itself when the database is back.
 *
 * <p>A loop-owned batcher rather than a Mutiny stream: time-based grouping in Mutiny runs on its own
 * scheduler thread, and here the batches, their retries and the pool all stay on one event loop.
 */
public final class PersistenceVerticle extends VerticleBase {
  static final long RETRY_MIN_MILLIS = 50;
  static final long RETRY_MAX_MILLIS = 2000;

  private final Pool pool;
  private final WriteFence fence;
  private final DatabaseFence databaseFence;
  /** Set once PostgreSQL has refused a write of this server's epoch: every later batch fails at once. */
  private Throwable fencedBy;
  /** Cluster mode: the shard epochs PostgreSQL refused. */
  private final StaleShards stale = new StaleShards();
  private volatile Consumer<Map<Integer, Long>> shardsFenced = stale -> {};
  private final int flushIntervalMillis;
  private final int maxTransactions;
  private final WriterInbox inbox;
  private final AtomicBoolean wakeUpScheduled = new AtomicBoolean();
  private final List<WriteTransaction> writing = new ArrayList<>();
  /** Built but waiting for a transaction it depends on; nothing more is taken meanwhile. */
  private WriteTransaction waiting;
  private boolean flushTimerArmed;
  private long retryMillis = RETRY_MIN_MILLIS;
  private volatile long oldestPendingNanos;
  private volatile long transactions;
  private volatile long failures;
  /** Changes submitted and not yet committed or refused. */
  private final AtomicLong pendingChanges = new AtomicLong();
  /** Their bytes of message content. */
  private final AtomicLong pendingBytes = new AtomicLong();
  private final BatchObserver observer;

  public PersistenceVerticle(Pool pool, WriteFence fence, int batchSize, int flushIntervalMillis, int maxTransactions,
      BatchObserver observer) {
    this.fence = fence;
    this.databaseFence = new DatabaseFence(fence.epoch());
    this.observer = observer;
    this.pool = pool;
    this.inbox = new WriterInbox(batchSize);
    this.flushIntervalMillis = flushIntervalMillis;
    this.maxTransactions = maxTransactions;
  }

  /** How often the writer reports a backlog in the log, and from how old a backlog. */
  static final long LAG_REPORT_INTERVAL_MILLIS = 5_000;
  static final long LAG_REPORTED_FROM_MILLIS = 1_000;
  private static final System.Logger LOG = System.getLogger(PersistenceVerticle.class.getName());

  private Context loop;

  @Override
  public Future<?> start() {
    loop = context;
    // Relaxed durability answers before commit, so a backlog is the window a crash would lose.
    vertx.setPeriodic(LAG_REPORT_INTERVAL_MILLIS, id -> {
      long lag = lagMillis();
      if (lag >= LAG_REPORTED_FROM_MILLIS) {
        // Behind with no failure is PostgreSQL slower than the load (the written-behind deletes of
        // a fast drain, say); failed transactions are logged where they fail, and retried.
        LOG.log(System.Logger.Level.WARNING, "PostgreSQL writes are " + lag + " ms behind (" + failures
            + " failed transactions so far)");
      }
    });
    return Future.succeededFuture();
  }

  /**
   * From any thread: adds {@code count} changes holding {@code bytes} of message content (applied
   * to a batch by {@code changes}); the future completes on the caller's context once they are
   * committed, or fails if PostgreSQL refused them for good.
   */
  public Future<Void> submit(Consumer<ChangeBatch> changes, int count, long bytes) {
    return submit(null, changes, count, bytes);
  }

  /**
   * {@link #submit(Consumer, int, long)} for a cluster node: the changes are written only while
   * every shard of {@code shards} is still at its epoch, and fail with {@link BatchWriter#FENCED}
   * otherwise (the shard moved to another node, which has the rest).
   */
  public Future<Void> submit(ShardFence shards, Consumer<ChangeBatch> changes, int count, long bytes) {
    Promise<Void> committed = EventLoops.promiseOnCaller();
    pendingChanges.addAndGet(count);
    pendingBytes.addAndGet(bytes);
    inbox.add(new Submission(shards, changes, count, bytes, committed, System.nanoTime()));
    if (wakeUpScheduled.compareAndSet(false, true)) {
      loop.runOnContext(v -> {
        wakeUpScheduled.set(false);
        if (writing.isEmpty() && waiting == null && !flushTimerArmed && flushIntervalMillis > 0) {
          // Idle: a lone change waits briefly for others to share its transaction.
          flushTimerArmed = true;
          vertx.setTimer(flushIntervalMillis, t -> {
            flushTimerArmed = false;
            pump();
          });
        } else if (!flushTimerArmed) {
          pump();
        }
      });
    }
    return committed.future();
  }

  /**
   * Told, on the writer's loop, the shards and epochs PostgreSQL refused a write for (cluster mode):
   * another node holds them now, and this one must stop serving them.
   */
  public void onShardsFenced(Consumer<Map<Integer, Long>> listener) {
    shardsFenced = listener;
  }

  /** How long a stopping writer keeps writing what it was given before it lets go, by default. */
  static final long DRAIN_ON_STOP_MILLIS = 10_000;
  private volatile long drainMillis = DRAIN_ON_STOP_MILLIS;

  /** How long the writer may keep writing once undeployed (the rest of the stop's grace period). */
  public void drainFor(long millis) {
    drainMillis = millis;
  }

  /**
   * Undeployed (the server is stopping): writes what is still waiting first, for at most
   * {@link #drainFor} ms, so that a clean stop loses nothing even under relaxed durability.
   */
  @Override
  public Future<?> stop() {
    Promise<Void> drained = Promise.promise();
    long deadline = System.nanoTime() + drainMillis * 1_000_000;
    awaitDrained(drained, deadline);
    return drained.future();
  }

  private void awaitDrained(Promise<Void> drained, long deadlineNanos) {
    if ((writing.isEmpty() && waiting == null && inbox.isEmpty())
        || System.nanoTime() > deadlineNanos) {
      drained.complete();
    } else {
      vertx.setTimer(10, t -> awaitDrained(drained, deadlineNanos));
    }
  }

  /** On the loop: starts as many transactions as may run now. */
  private void pump() {
    while (writing.size() < maxTransactions) {
      if (waiting == null) {
        waiting = inbox.take(stale, this::refuse);
        if (waiting == null) {
          break;
        }
      }
      WriteTransaction tx = waiting;
      if (fencedBy != null) {
        // Another server owns the database: asking PostgreSQL again is pointless.
        waiting = null;
        tx.startedNanos = System.nanoTime();
        refuse(tx, fencedBy);
        continue;
      }
      if (tx.mustWaitFor(writing)) {
        break; // resumed when a transaction ends
      }
      waiting = null;
      tx.startedNanos = System.nanoTime();
      tx.lane = freeLane();
      writing.add(tx);
      write(tx, false);
    }
    oldestPendingNanos = oldestPending();
  }

  /** The lowest lane no batch being written holds (a batch written alone takes lane 0). */
  private int freeLane() {
    int lane = 0;
    while (laneTaken(lane)) {
      lane++;
    }
    return lane;
  }

  private boolean laneTaken(int lane) {
    for (WriteTransaction tx : writing) {
      if (tx.lane == lane) {
        return true;
      }
    }
    return false;
  }

  private void write(WriteTransaction tx, boolean retried) {
    BatchWriter.write(pool, tx.batch, retried, tx.fence(databaseFence), fence.idleLimitMillis(), tx.lane)
        .onComplete((ok, failure) -> {
      if (failure == null) {
        transactions++;
        recordWritten(tx);
        retryMillis = RETRY_MIN_MILLIS;
        writing.remove(tx);
        // The lag is brought up to date before anyone hears of the commit, so that a caller
        // reading it right after sees this batch gone.
        oldestPendingNanos = oldestPending();
        tx.taken.forEach(t -> t.committed().tryComplete());
        pump();
      } else if (BatchWriter.fenced(failure) && !tx.shardEpochs.isEmpty()) {
        // Cluster mode: some of the batch's shards moved to another node. Nothing of it was
        // written (one statement, or a transaction refused at its first): the submissions of
        // those shards fail, and the rest are written again as a new batch.
        failures++;
        writeAllBut(tx, failure, ShardFence.staleIn(((PgException) failure).getDetail()));
        pump();
      } else if (BatchWriter.fenced(failure)) {
        // Nothing of the batch was written, and nothing after it will be: its sends fail (they were
        // never acknowledged) and the server learns it no longer owns the database.
        failures++;
        fencedBy = failure;
        refuse(tx, failure);
        fence.refused().accept(fence.epoch());
        pump();
      } else if (BatchWriter.refusedForGood(failure)) {
        // Retrying would fail the same way and hold this slot for ever: the batch's sends were
        // never acknowledged, so they fail; its written-behind changes are lost (at-least-once).
        failures++;
        LOG.log(System.Logger.Level.ERROR, "PostgreSQL refused a batch of " + tx.taken.size()
            + " submissions; they fail: " + failure.getMessage());
        refuse(tx, failure);
        pump();
      } else {
        // PostgreSQL is down or the transaction failed: keep the batch and try again later.
        failures++;
        if (retryMillis == RETRY_MIN_MILLIS) {
          // The first failure after a success says why; the lag report then counts the retries.
          LOG.log(System.Logger.Level.WARNING, "PostgreSQL write failed, retrying: " + failure.getMessage());
        }
        long pause = retryMillis;
        retryMillis = Math.min(RETRY_MAX_MILLIS, retryMillis * 2);
        vertx.setTimer(pause, t -> {
          if (fencedBy == null) {
            write(tx, true);
          } else {
            refuse(tx, fencedBy);
            pump();
          }
        });
      }
    });
  }

  /** Gives up on a batch: its submissions fail with {@code failure}. */
  private void refuse(WriteTransaction tx, Throwable failure) {
    writing.remove(tx);
    recordWritten(tx);
    oldestPendingNanos = oldestPending();
    tx.taken.forEach(t -> t.committed().tryFail(failure));
  }

  /** Gives up on submissions not (or no longer) in a batch being written. */
  private void refuse(List<Submission> submissions, Throwable failure) {
    recordWritten(submissions, System.nanoTime());
    submissions.forEach(t -> t.committed().tryFail(failure));
  }

  /**
   * A batch refused because the shards and epochs of {@code stale} moved on: those are remembered,
   * the submissions carrying any of them fail, the listener hears of those it had not, and the others go
   * into a new batch in the same lane. Should the refusal name none of the batch's submissions
   * (it cannot, but a loop writing the same batch for ever must not follow), the batch fails whole.
   */
  private void writeAllBut(WriteTransaction tx, Throwable failure, Map<Integer, Long> refusedPairs) {
    Map<Integer, Long> news = stale.refused(refusedPairs, failure);
    writing.remove(tx);
    WriteTransaction again = new WriteTransaction();
    List<Submission> refused = new ArrayList<>();
    for (Submission s : tx.taken) {
      if (stale.refusalOf(s.shards()) != null) {
        refused.add(s);
      } else {
        again.add(s);
      }
    }
    if (refused.isEmpty()) {
      refuse(tx.taken, failure);
      again.taken.clear();
    } else {
      refuse(refused, failure);
      if (!news.isEmpty()) {
        shardsFenced.accept(news);
      }
    }
    oldestPendingNanos = oldestPending();
    if (!again.taken.isEmpty()) {
      again.sealed();
      again.lane = tx.lane;
      again.startedNanos = tx.startedNanos;
      writing.add(again);
      write(again, false); // the refused statement rolled back whole: its outcome is known
    }
  }

  private void recordWritten(WriteTransaction tx) {
    recordWritten(tx.taken, tx.startedNanos);
  }

  private void recordWritten(List<Submission> submissions, long startedNanos) {
    int changes = 0;
    long bytes = 0;
    for (Submission s : submissions) {
      changes += s.count();
      bytes += s.bytes();
    }
    pendingChanges.addAndGet(-changes);
    pendingBytes.addAndGet(-bytes);
    observer.written(changes, System.nanoTime() - startedNanos);
  }

  private long oldestPending() {
    long oldest = 0;
    for (WriteTransaction tx : writing) {
      long at = tx.taken.get(0).atNanos();
      oldest = oldest == 0 ? at : Math.min(oldest, at);
    }
    if (waiting != null) {
      long at = waiting.taken.get(0).atNanos();
      oldest = oldest == 0 ? at : Math.min(oldest, at);
    }
    Submission carried = inbox.carried();
    if (carried != null) {
      oldest = oldest == 0 ? carried.atNanos() : Math.min(oldest, carried.atNanos());
    }
    return oldest;
  }

  /** How long the oldest change not yet committed has waited, in ms (0 when all are committed). */
  public long lagMillis() {
    long oldest = oldestPendingNanos;
    Submission head = inbox.head();
    long since = oldest != 0 ? oldest : head != null ? head.atNanos() : 0;
    return since == 0 ? 0 : (System.nanoTime() - since) / 1_000_000;
  }

  /** Bytes of message content submitted and not yet committed (or refused). */
  public long pendingBytes() {
    return pendingBytes.get();
  }

  /** Changes submitted and not yet committed (or refused). */
  public long pendingChanges() {
    return pendingChanges.get();
  }

  /** The token this writer's transactions carry. */
  WriteFence fence() {
    return fence;
  }

  public long transactions() {
    return transactions;
  }

  public long failures() {
    return failures;
  }
}
