package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.QueueState;
import dev.sluice.persistence.Tallies;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Lazy start-up with paging on (design §2.15, steps 4 and 6): once the rows up to each queue's
 * persisted frontier F are restored ({@link BacklogRecoverySql#RESIDENT}), the rest of its backlog
 * stays in PostgreSQL, counted from the tallies (less the rows restored). The delayed part: on a
 * standard queue by due-time bucket, from a histogram of the rows after F not visible yet; on a FIFO
 * queue by sent-time bucket, from a histogram of the rows after F its delay may still hold back
 * (the queue's delay rule decides which are delayed at any moment). Its oldest sent time from the
 * first row after F; a FIFO queue's last sequence number from one index probe. Nothing here reads
 * the backlog itself: each statement is bounded by the sends of the longest delay (15 minutes) at
 * most.
 */
final class BacklogRecovery {
  private static final System.Logger LOG = System.getLogger(BacklogRecovery.class.getName());

  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final long bucketMillis;

  /**
   * The shards' clock, not the wall clock: rows are counted due by it here and read by it later, so
   * a clock step between start and recovery cannot count a row due that no read may reach yet.
   */
  private final LongSupplier clock;

  BacklogRecovery(ShardDispatcher dispatcher, ShardRouter router, long bucketMillis,
      LongSupplier clock) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.bucketMillis = bucketMillis;
    this.clock = clock;
  }

  /**
   * Gives every queue of {@code queues} its backlog: {@code tallies} as read before the load,
   * {@code restored} the rows the load put back per queue id, {@code fifoVisibleThrough} per FIFO
   * queue the latest sent time whose never-received rows are visible for good (see
   * {@link Recovery}).
   */
  Future<Void> run(Pool pool, Map<Long, QueueKey> queues, Map<Long, Long> fifoVisibleThrough,
      Map<Long, Tallies.Tally> tallies, Map<Long, Long> restored) {
    long now = clock.getAsLong();
    Map<Long, Map<Long, Integer>> future = new HashMap<>();
    Map<Long, Long> firstSent = new HashMap<>();
    Map<Long, Long> lastSequence = new HashMap<>();
    Tuple ids = Tuple.tuple().addArrayOfLong(queues.keySet().toArray(Long[]::new));
    return pool.preparedQuery(BacklogRecoverySql.FUTURE).execute(Tuple.of(now, bucketMillis)
            .addArrayOfLong(queues.keySet().toArray(Long[]::new)))
        .compose(rows -> {
          histogram(rows, future);
          return fifoFuture(pool, fifoVisibleThrough);
        })
        .compose(rows -> {
          histogram(rows, future);
          return pool.preparedQuery(BacklogRecoverySql.FIRST_SENT).execute(ids);
        })
        .compose(rows -> {
          byQueue(rows, firstSent);
          return pool.preparedQuery(BacklogRecoverySql.FIFO_FIRST_SENT).execute(ids);
        })
        .compose(rows -> {
          byQueue(rows, firstSent);
          return pool.preparedQuery(BacklogRecoverySql.LAST_SEQUENCE).execute(ids);
        })
        .compose(rows -> {
          byQueue(rows, lastSequence);
          return restore(queues, tallies, restored, future, firstSent, lastSequence, now);
        });
  }

  /**
   * The FIFO histogram, from the bucket holding each queue's bound on: rows sent at or before it are
   * visible now, and stay so whatever DelaySeconds becomes (a change releases every row visible
   * then), so they are never counted delayed again. A queue without a delay therefore reads about
   * nothing, one with a delay the sends of that delay.
   */
  private Future<RowSet<Row>> fifoFuture(Pool pool, Map<Long, Long> fifoVisibleThrough) {
    Long[] ids = new Long[fifoVisibleThrough.size()];
    Long[] sentFrom = new Long[ids.length];
    int i = 0;
    for (Map.Entry<Long, Long> e : fifoVisibleThrough.entrySet()) {
      ids[i] = e.getKey();
      sentFrom[i++] = Math.floorDiv(e.getValue(), bucketMillis) * bucketMillis;
    }
    return pool.preparedQuery(BacklogRecoverySql.FIFO_FUTURE)
        .execute(Tuple.tuple().addArrayOfLong(ids).addArrayOfLong(sentFrom).addLong(bucketMillis));
  }

  private static void histogram(RowSet<Row> rows, Map<Long, Map<Long, Integer>> out) {
    for (Row r : rows) {
      out.computeIfAbsent(r.getLong(0), q -> new HashMap<>()).put(r.getLong(1), r.getLong(2).intValue());
    }
  }

  /** Rows of (queue id, value); a null value (a FIFO queue without rows) is left out. */
  private static void byQueue(RowSet<Row> rows, Map<Long, Long> out) {
    for (Row r : rows) {
      if (r.getLong(1) != null) {
        out.put(r.getLong(0), r.getLong(1));
      }
    }
  }

  private Future<Void> restore(Map<Long, QueueKey> queues, Map<Long, Tallies.Tally> tallies,
      Map<Long, Long> restored, Map<Long, Map<Long, Integer>> future, Map<Long, Long> firstSent,
      Map<Long, Long> lastSequence, long now) {
    List<Future<Void>> done = new ArrayList<>();
    Map<Integer, List<Backlog>> work = new LinkedHashMap<>();
    queues.forEach((id, key) -> {
      Tallies.Tally t = tallies.getOrDefault(id, Tallies.Tally.NONE);
      long pagedOut = t.messages() - restored.getOrDefault(id, 0L);
      if (pagedOut < 0) {
        LOG.log(System.Logger.Level.WARNING, "Tally mismatch: queue " + id + " restored "
            + restored.getOrDefault(id, 0L) + " rows up to its frontier, its tally says " + t.messages());
      }
      work.computeIfAbsent(router.shardOf(key), s -> new ArrayList<>()).add(new Backlog(key, t, Math.max(0, pagedOut),
          future.getOrDefault(id, Map.of()), firstSent.getOrDefault(id, Long.MAX_VALUE),
          lastSequence.getOrDefault(id, 0L)));
    });
    work.forEach((shard, backlogs) -> done.add(dispatcher.call(shard, (s, reply) -> {
      for (Backlog b : backlogs) {
        QueueState q = s.find(b.queue());
        if (q != null) {
          // First: a FIFO queue's first page is bounded by the last sequence number given out.
          q.restoreLastSequenceNumber(b.lastSequence());
          q.restoreBacklog(b.tally().frontierMajor(), b.tally().frontierMinor(), b.pagedOut(), b.future(),
              b.firstSentAt(), now, s.now());
        }
      }
      reply.succeed(null);
    })));
    return Future.all(done).mapEmpty();
  }

  /** What one queue's backlog is at start-up; {@code lastSequence} 0 on a standard queue. */
  private record Backlog(QueueKey queue, Tallies.Tally tally, long pagedOut, Map<Long, Integer> future,
      long firstSentAt, long lastSequence) {}
}
