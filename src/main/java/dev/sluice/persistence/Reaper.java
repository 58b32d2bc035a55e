package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.function.LongConsumer;

/**
 * Deletes the rows that purges and queue deletions left behind ({@code sluice_reaping}: a queue's
 * rows below a key), a chunk at a time in key order, so that purging or deleting a queue of millions
 * of messages is a few statements for the writer and minutes of background work here, never one
 * statement that holds every other write up. Nothing reads these rows any more, and their count
 * went with the purge or deletion, so the reaper touches no tally. Fenced like every write. One
 * chunk runs at a time, on one connection of the pool; between chunks it yields a little to the
 * writer, and when nothing is left it looks again every {@link #IDLE_MILLIS}. A chunk waits at most
 * {@link #LOCK_WAIT_MILLIS} for a row lock someone else holds, then tries again later: a chunk
 * queued behind a long transaction would hold its connection, and closing the pool at a stop waits
 * for every statement under way, so the stop would wait for that transaction.
 */
final class Reaper {
  static final int CHUNK_ROWS = 10_000;
  static final long IDLE_MILLIS = 1_000;
  static final long BETWEEN_CHUNKS_MILLIS = 5;
  static final long LOCK_WAIT_MILLIS = 1_000;
  /** For the chunk's transaction only (SET LOCAL): the writer's statements keep waiting as they must. */
  static final String LOCK_WAIT = "SET LOCAL lock_timeout = " + LOCK_WAIT_MILLIS;

  /**
   * The next queue to reap after queue $1, round the table: any order does if it is stable, and
   * going round lets one queue whose rows someone holds locked wait its turn instead of every
   * other queue waiting for it.
   */
  static final String NEXT = "(SELECT queue_id, below_key FROM sluice_reaping WHERE queue_id > $1 ORDER BY queue_id"
      + " LIMIT 1) UNION ALL (SELECT queue_id, below_key FROM sluice_reaping ORDER BY queue_id LIMIT 1) LIMIT 1";
  /**
   * One chunk, by key order after the last one deleted ($2): the planner then walks the primary key
   * instead of scanning the table (measured: a sequential scan without the ORDER BY).
   */
  static final String CHUNK = "WITH f AS (SELECT sluice_fence($4) AS epoch),"
      + " d AS (DELETE FROM sluice_messages USING f WHERE ctid = ANY(ARRAY(SELECT ctid FROM sluice_messages"
      + " WHERE queue_id = $1 AND message_key > $2 AND message_key < $3 ORDER BY message_key LIMIT " + CHUNK_ROWS
      + ")) RETURNING message_key) SELECT count(*), max(message_key) FROM d";
  /** Done with a queue, unless a later purge raised its key meanwhile. */
  static final String DONE = "WITH f AS (SELECT sluice_fence($3) AS epoch)"
      + " DELETE FROM sluice_reaping USING f WHERE queue_id = $1 AND below_key = $2";

  private final Vertx vertx;
  private final Pool pool;
  private final long epoch;
  private final LongConsumer fenced;
  private volatile long reaped;
  private boolean stopped;
  /** The queue reaped last (or tried), so that the next look starts after it. */
  private long lastQueue = Long.MIN_VALUE;

  /** {@code fenced} hears the epoch PostgreSQL refused: another server owns the database. */
  Reaper(Vertx vertx, Pool pool, long epoch, LongConsumer fenced) {
    this.vertx = vertx;
    this.pool = pool;
    this.epoch = epoch;
    this.fenced = fenced;
  }

  void start() {
    vertx.setTimer(IDLE_MILLIS, t -> next());
  }

  void stop() {
    stopped = true;
  }

  /** Rows deleted so far by this server. */
  long reaped() {
    return reaped;
  }

  private void next() {
    if (stopped) {
      return;
    }
    pool.preparedQuery(NEXT).execute(Tuple.of(lastQueue)).onComplete((rows, failure) -> {
      if (failure != null || !rows.iterator().hasNext()) {
        again(IDLE_MILLIS); // nothing to do, or PostgreSQL away: look again later
        return;
      }
      Row r = rows.iterator().next();
      lastQueue = r.getLong(0);
      reap(r.getLong(0), r.getLong(1), Long.MIN_VALUE);
    });
  }

  private void reap(long queueId, long belowKey, long after) {
    if (stopped) {
      return;
    }
    pool.withTransaction(c -> c.query(LOCK_WAIT).execute()
        .compose(set -> c.preparedQuery(CHUNK).execute(Tuple.of(queueId, after, belowKey, epoch)))).compose(rows -> {
      Row r = rows.iterator().next();
      long n = r.getLong(0);
      reaped += n;
      if (n == CHUNK_ROWS) {
        long last = r.getLong(1);
        vertx.setTimer(BETWEEN_CHUNKS_MILLIS, t -> reap(queueId, belowKey, last));
        return Future.succeededFuture(false);
      }
      return pool.preparedQuery(DONE).execute(Tuple.of(queueId, belowKey, epoch)).map(true);
    }).onComplete((finished, failure) -> {
      if (failure != null) {
        if (BatchWriter.fenced(failure)) {
          stopped = true;
          fenced.accept(epoch);
        } else {
          again(IDLE_MILLIS);
        }
      } else if (finished) {
        again(BETWEEN_CHUNKS_MILLIS);
      }
    });
  }

  private void again(long millis) {
    if (!stopped) {
      vertx.setTimer(millis, t -> next());
    }
  }
}
