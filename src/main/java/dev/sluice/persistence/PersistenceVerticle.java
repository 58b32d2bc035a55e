package dev.sluice.persistence;

import java.util.concurrent.atomic.AtomicLong;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Context;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The write-behind writer (src/site/markdown/durability.md): shards submit their changes from any event loop; this
 * verticle's own loop gathers them into transactions (group commit: whatever arrives while
 * transactions are being written goes into the next one, up to {@code batchSize} changes, and a
 * lone change waits at most {@code flushIntervalMillis} for company). Up to
 * {@code maxTransactions} transactions are written at once, on separate connections, so that a
 * batch does not wait for the previous one's round trips and commit; a batch that shares a message
 * or a queue with one still being written waits for it (see {@link #mustWait}). A submission's future completes, on its
 * caller's context, once the transaction holding it has committed. When PostgreSQL is unreachable
 * a batch is retried with growing pauses and nothing submitted is dropped; the writer recovers by
 * itself when the database is back.
 *
 * <p>A loop-owned batcher rather than a Mutiny stream: time-based grouping in Mutiny runs on its own
 * scheduler thread, and here the batches, their retries and the pool all stay on one event loop.
 */
public final class PersistenceVerticle extends VerticleBase {
  /**
   * Changes submitted together, and who waits for their commit. {@code shards}: in cluster mode,
   * the shards (with the epochs of their leases) the changes are written for; null for a
   * single-node server, whose writes carry the database's epoch.
   */
  private record Submission(ShardFence shards, Consumer<ChangeBatch> changes, int count, long bytes,
      Promise<Void> committed, long atNanos) {}

  /** A batch taken from the inbox, from when it is built until it has committed. */
  private static final class Transaction {
    final ChangeBatch batch = new ChangeBatch();
    final List<Submission> taken = new ArrayList<>();
    /** The union of the submissions' shard fences, by shard; empty: the database's fence. */
    final Map<Integer, Long> shardEpochs = new TreeMap<>();
    Set<MessageRef> messages = Set.of();
    boolean alone;
    long startedNanos;
    /** The writer lane it is written in: batches written at once have different ones. */
    int lane;

    void add(Submission s) {
      s.changes().accept(batch);
      taken.add(s);
      if (s.shards() != null) {
        for (int i = 0; i < s.shards().size(); i++) {
          shardEpochs.put(s.shards().shard(i), s.shards().epoch(i));
        }
      }
    }

    /** Once everything is taken. */
    Transaction sealed() {
      alone = batch.changesQueues();
      messages = batch.messageRefs();
      return this;
    }

    /** What PostgreSQL checks before it writes the batch. */
    Fence fence(DatabaseFence database) {
      return shardEpochs.isEmpty() ? database : ShardFence.of(shardEpochs);
    }
  }

  /**
   * Message content per batch, whatever {@code batchSize} says: PostgreSQL takes at most 1 GB in
   * one array or message, and large messages after an outage must not build a batch it refuses.
   */
  static final long MAX_BATCH_BYTES = 64L << 20;
  static final long RETRY_MIN_MILLIS = 50;
  static final long RETRY_MAX_MILLIS = 2000;

  private final Pool pool;
  private final WriteFence fence;
  private final DatabaseFence databaseFence;
  /** Set once PostgreSQL has refused a write of this server's epoch: every later batch fails at once. */
  private Throwable fencedBy;
  /** Cluster mode: the shard epochs PostgreSQL refused. */
  private final StaleShards stale = new StaleShards();
  /** A submission taken while building a batch that must go into the next one instead. */
  private Submission carried;
  private volatile Consumer<Map<Integer, Long>> shardsFenced = stale -> {};
  private final int batchSize;
  private final int flushIntervalMillis;
  private final int maxTransactions;
  private final ConcurrentLinkedQueue<Submission> inbox = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean wakeUpScheduled = new AtomicBoolean();
  private final List<Transaction> writing = new ArrayList<>();
  /** Built but waiting for a transaction it depends on; nothing more is taken meanwhile. */
  private Transaction waiting;
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
    this.batchSize = batchSize;
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
    if ((writing.isEmpty() && waiting == null && carried == null && inbox.isEmpty())
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
        waiting = take();
        if (waiting == null) {
          break;
        }
      }
      Transaction tx = waiting;
      if (fencedBy != null) {
        // Another server owns the database: asking PostgreSQL again is pointless.
        waiting = null;
        tx.startedNanos = System.nanoTime();
        refuse(tx, fencedBy);
        continue;
      }
      if (mustWait(tx)) {
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
    for (Transaction tx : writing) {
      if (tx.lane == lane) {
        return true;
      }
    }
    return false;
  }

  /** The next batch from the inbox, or null when nothing waits. */
  private Transaction take() {
    Transaction tx = new Transaction();
    int count = 0;
    long bytes = 0;
    while (count < batchSize && bytes < MAX_BATCH_BYTES) {
      Submission s = carried != null ? carried : inbox.poll();
      carried = null;
      if (s == null) {
        break;
      }
      Throwable refusal = stale.refusalOf(s.shards());
      if (refusal != null) {
        refuse(List.of(s), refusal); // its shard moved on: PostgreSQL would refuse it, and the batch with it
        continue;
      }
      if (epochMovedOn(tx, s)) {
        carried = s; // a newer epoch of a shard in this batch: they cannot share one fence
        break;
      }
      tx.add(s);
      count += s.count();
      bytes += s.bytes();
    }
    return tx.taken.isEmpty() ? null : tx.sealed();
  }

  /** Whether {@code s} carries another epoch than {@code tx} for one of its shards. */
  private static boolean epochMovedOn(Transaction tx, Submission s) {
    if (s.shards() == null) {
      return false;
    }
    for (int i = 0; i < s.shards().size(); i++) {
      Long held = tx.shardEpochs.get(s.shards().shard(i));
      if (held != null && held != s.shards().epoch(i)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code next} must wait for the transactions being written: when either side changes
   * queues (written alone), or when both write the same message ({@link ChangeBatch#touchesAny}).
   */
  private boolean mustWait(Transaction next) {
    if (writing.isEmpty()) {
      return false;
    }
    if (next.alone) {
      return true;
    }
    for (Transaction tx : writing) {
      if (tx.alone || next.batch.touchesAny(tx.messages)) {
        return true;
      }
    }
    return false;
  }

  private void write(Transaction tx, boolean retried) {
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
      } else if (refusedForGood(failure)) {
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
  private void refuse(Transaction tx, Throwable failure) {
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
  private void writeAllBut(Transaction tx, Throwable failure, Map<Integer, Long> refusedPairs) {
    Map<Integer, Long> news = stale.refused(refusedPairs, failure);
    writing.remove(tx);
    Transaction again = new Transaction();
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

  private void recordWritten(Transaction tx) {
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

  /**
   * SQLSTATE classes that no retry cures: data exceptions (22), integrity violations (23), program
   * limits exceeded (54). Connection failures and everything else are retried.
   */
  static boolean refusedForGood(Throwable failure) {
    if (failure instanceof PgException pg && pg.getSqlState() != null) {
      String sqlClass = pg.getSqlState().substring(0, Math.min(2, pg.getSqlState().length()));
      return sqlClass.equals("22") || sqlClass.equals("23") || sqlClass.equals("54");
    }
    return false;
  }

  private long oldestPending() {
    long oldest = 0;
    for (Transaction tx : writing) {
      long at = tx.taken.get(0).atNanos();
      oldest = oldest == 0 ? at : Math.min(oldest, at);
    }
    if (waiting != null) {
      long at = waiting.taken.get(0).atNanos();
      oldest = oldest == 0 ? at : Math.min(oldest, at);
    }
    if (carried != null) {
      oldest = oldest == 0 ? carried.atNanos() : Math.min(oldest, carried.atNanos());
    }
    return oldest;
  }

  /** How long the oldest change not yet committed has waited, in ms (0 when all are committed). */
  public long lagMillis() {
    long oldest = oldestPendingNanos;
    Submission head = inbox.peek();
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
