package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.QueueState;
import dev.sluice.persistence.Tallies;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lazy start-up with paging on (design §2.15, step 4): once the rows up to each standard queue's
 * persisted frontier F are restored, the rest of its backlog stays in PostgreSQL, counted from the
 * tallies (less the rows restored); the delayed part by due-time bucket from a histogram of rows
 * after F that are not visible yet (bounded by the sends of the longest delay, 15 minutes), and its
 * oldest sent time from the first row after F. Nothing here reads the backlog itself.
 */
final class BacklogRecovery {
  private static final System.Logger LOG = System.getLogger(BacklogRecovery.class.getName());

  /** Each queue's persisted frontier F, the highest of its lanes; queues without one have none. */
  static final String FRONTIERS = "WITH f AS (SELECT DISTINCT ON (queue_id) queue_id, frontier_major, frontier_minor"
      + " FROM sluice_queue_tallies ORDER BY queue_id, frontier_major DESC, frontier_minor DESC)";
  static final String AFTER_FRONTIER = " AND (m.first_visible_at, m.message_key)"
      + " > (coalesce(f.frontier_major, -9223372036854775808), coalesce(f.frontier_minor, -9223372036854775808))";
  /**
   * The resident region: FIFO queues whole (they do not page yet), standard queues up to F, which
   * holds every row ever received (an index range on sluice_messages_delivery). Order as for the
   * full load: FIFO messages by sequence.
   */
  static final String RESIDENT = FRONTIERS + " SELECT q.account_id, q.region, q.name, m.message_key, m.message_id,"
      + " m.sent_at, m.sequence_number, m.visible_at, m.receive_count, m.first_receive_at, m.receipt_sequence,"
      + " m.content, m.first_visible_at, m.arrival, m.queue_id FROM sluice_queues q LEFT JOIN f ON f.queue_id = q.id"
      + " CROSS JOIN LATERAL (SELECT * FROM sluice_messages a WHERE a.queue_id = q.id"
      + " AND a.message_key >= q.purged_below_key AND q.name LIKE '%.fifo'"
      + " UNION ALL SELECT * FROM sluice_messages b WHERE b.queue_id = q.id AND b.message_key >= q.purged_below_key"
      + " AND q.name NOT LIKE '%.fifo' AND (b.first_visible_at, b.message_key) <= (f.frontier_major, f.frontier_minor)) m"
      + " ORDER BY m.queue_id, m.sequence_number, m.message_key";
  /**
   * Rows after F not visible at $1, by bucket of $2 ms: the delayed part of each standard queue's
   * backlog, an index range over the sends of the longest delay.
   */
  static final String FUTURE = FRONTIERS + " SELECT q.id, h.b, h.n FROM sluice_queues q LEFT JOIN f ON f.queue_id = q.id"
      + " CROSS JOIN LATERAL (SELECT m.first_visible_at / $2 * $2 AS b, count(*) AS n FROM sluice_messages m"
      + " WHERE m.queue_id = q.id AND m.first_visible_at > $1 AND m.message_key >= q.purged_below_key"
      // One lower bound for the index range, the later of F and now: given two, PostgreSQL starts
      // the range at F and filters the rest, reading the whole backlog (0.2 s per million rows).
      + " AND (m.first_visible_at, m.message_key) > (greatest($1, coalesce(f.frontier_major, -9223372036854775808)),"
      + " CASE WHEN $1 > coalesce(f.frontier_major, -9223372036854775808) THEN 9223372036854775807"
      + " ELSE coalesce(f.frontier_minor, -9223372036854775808) END) GROUP BY 1) h WHERE q.name NOT LIKE '%.fifo'";
  /**
   * The sent time of each standard queue's first row after F: its oldest unless delays or dead
   * letters put an older one later (refreshing it exactly is step 5, §2.7).
   */
  static final String FIRST_SENT = FRONTIERS + " SELECT q.id, p.sent_at FROM sluice_queues q"
      + " LEFT JOIN f ON f.queue_id = q.id CROSS JOIN LATERAL (SELECT m.sent_at FROM sluice_messages m"
      + " WHERE m.queue_id = q.id AND m.message_key >= q.purged_below_key" + AFTER_FRONTIER
      + " ORDER BY m.first_visible_at, m.message_key LIMIT 1) p WHERE q.name NOT LIKE '%.fifo'";

  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final long bucketMillis;

  BacklogRecovery(ShardDispatcher dispatcher, ShardRouter router, long bucketMillis) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.bucketMillis = bucketMillis;
  }

  /**
   * Gives every standard queue of {@code queues} its backlog: {@code tallies} as read before the
   * load, {@code restored} the rows the load put back per queue id.
   */
  Future<Void> run(Pool pool, Map<Long, QueueKey> queues, Map<Long, Tallies.Tally> tallies,
      Map<Long, Long> restored) {
    long now = System.currentTimeMillis();
    Map<Long, Map<Long, Integer>> future = new HashMap<>();
    Map<Long, Long> firstSent = new HashMap<>();
    return pool.preparedQuery(FUTURE).execute(Tuple.of(now, bucketMillis))
        .compose(rows -> {
          for (Row r : rows) {
            future.computeIfAbsent(r.getLong(0), q -> new HashMap<>()).put(r.getLong(1), r.getLong(2).intValue());
          }
          return pool.query(FIRST_SENT).execute();
        })
        .compose(rows -> {
          for (Row r : rows) {
            firstSent.put(r.getLong(0), r.getLong(1));
          }
          return restore(queues, tallies, restored, future, firstSent, now);
        });
  }

  private Future<Void> restore(Map<Long, QueueKey> queues, Map<Long, Tallies.Tally> tallies,
      Map<Long, Long> restored, Map<Long, Map<Long, Integer>> future, Map<Long, Long> firstSent, long now) {
    List<Future<Void>> done = new ArrayList<>();
    Map<Integer, List<Backlog>> work = new LinkedHashMap<>();
    queues.forEach((id, key) -> {
      if (key.name().endsWith(".fifo")) {
        return; // loaded whole: FIFO queues do not page yet
      }
      Tallies.Tally t = tallies.getOrDefault(id, Tallies.Tally.NONE);
      long pagedOut = t.messages() - restored.getOrDefault(id, 0L);
      if (pagedOut < 0) {
        LOG.log(System.Logger.Level.WARNING, "Tally mismatch: queue " + id + " restored "
            + restored.getOrDefault(id, 0L) + " rows up to its frontier, its tally says " + t.messages());
      }
      work.computeIfAbsent(router.shardOf(key), s -> new ArrayList<>()).add(new Backlog(key, t, Math.max(0, pagedOut),
          future.getOrDefault(id, Map.of()), firstSent.getOrDefault(id, Long.MAX_VALUE)));
    });
    work.forEach((shard, backlogs) -> done.add(dispatcher.call(shard, (s, reply) -> {
      for (Backlog b : backlogs) {
        QueueState q = s.find(b.queue());
        if (q != null) {
          q.restoreBacklog(b.tally().frontierMajor(), b.tally().frontierMinor(), b.pagedOut(), b.future(),
              b.firstSentAt(), now, s.now());
        }
      }
      reply.succeed(null);
    })));
    return Future.all(done).mapEmpty();
  }

  /** What one queue's backlog is at start-up. */
  private record Backlog(QueueKey queue, Tallies.Tally tally, long pagedOut, Map<Long, Integer> future,
      long firstSentAt) {}
}
