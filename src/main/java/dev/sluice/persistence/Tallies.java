package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The per-queue tallies ({@code sluice_queue_tallies}) when queues are loaded (at start-up, or in
 * cluster mode when a node takes over shards): one row per queue and writer lane, summed here,
 * checked against the rows a full load counted, and folded back into one row per queue so that
 * lanes of earlier runs do not pile up. Each call touches only the queues it is given, and the rows
 * of queues that no longer exist.
 */
public final class Tallies {
  /**
   * Every lane's row of the queues given ($1, $2: ids and counts) replaced by one per queue keeping
   * the highest frontier; rows of queues that no longer exist go. Fenced (from $3).
   */
  static String foldStatement(Fence fence) {
    return "WITH f AS (SELECT " + fence.call(3) + " AS epoch),"
        + " old AS (DELETE FROM sluice_queue_tallies t USING f WHERE t.queue_id = ANY($1::bigint[])"
        + " OR NOT EXISTS (SELECT 1 FROM sluice_queues q WHERE q.id = t.queue_id)"
        + " RETURNING t.queue_id, t.frontier_major, t.frontier_minor),"
        + " fr AS (SELECT DISTINCT ON (queue_id) queue_id, frontier_major, frontier_minor FROM old"
        + " ORDER BY queue_id, frontier_major DESC, frontier_minor DESC),"
        + " c AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS c(queue_id, n))"
        + " INSERT INTO sluice_queue_tallies (queue_id, slot, messages, frontier_major, frontier_minor)"
        + " SELECT c.queue_id, 0, c.n, coalesce(fr.frontier_major, -9223372036854775808),"
        + " coalesce(fr.frontier_minor, -9223372036854775808) FROM c LEFT JOIN fr ON fr.queue_id = c.queue_id";
  }

  /** Per queue of $1: every lane's messages summed, and the highest frontier of any lane. */
  static final String READ = "SELECT DISTINCT ON (queue_id) queue_id, sum(messages) OVER (PARTITION BY queue_id),"
      + " frontier_major, frontier_minor FROM sluice_queue_tallies WHERE queue_id = ANY($1::bigint[])"
      + " ORDER BY queue_id, frontier_major DESC, frontier_minor DESC";

  private Tallies() {}

  /** One queue's tally: its rows, and the persisted frontier F (the place of the highest row received). */
  public record Tally(long messages, long frontierMajor, long frontierMinor) {
    /** A queue with no tally row: nothing counted, nothing ever received. */
    public static final Tally NONE = new Tally(0, Long.MIN_VALUE, Long.MIN_VALUE);
  }

  /**
   * Every queue's tally, lanes summed (lazy start-up, where the tallies are the counts: no full load
   * checks them). Reads one row per queue and lane, whatever the backlog.
   */
  public static Future<Map<Long, Tally>> read(Pool pool, java.util.Collection<Long> queueIds) {
    return pool.preparedQuery(READ).execute(Tuple.tuple().addArrayOfLong(queueIds.toArray(Long[]::new)))
        .map(rows -> {
          Map<Long, Tally> out = new java.util.HashMap<>();
          for (Row r : rows) {
            out.put(r.getLong(0), new Tally(r.getLong(1), r.getLong(2), r.getLong(3)));
          }
          return out;
        });
  }

  /**
   * Folds every lane's row into one per queue of {@code counts} (its messages given there), keeping
   * the highest frontier; rows of queues that no longer exist go. Behind {@code fence}.
   */
  public static Future<Void> fold(Pool pool, Fence fence, Map<Long, Long> counts) {
    Long[] ids = counts.keySet().toArray(Long[]::new);
    Long[] n = counts.values().toArray(Long[]::new);
    return pool.preparedQuery(foldStatement(fence)).execute(fence.addTo(Tuple.tuple().addArrayOfLong(ids).addArrayOfLong(n)))
        .mapEmpty();
  }

  /**
   * Compares the tallies with {@code counted} (every live queue's id and the rows a full load found
   * for it), answers one line per queue where they differ, and writes the counted numbers back as
   * the queues' tallies, behind {@code fence}.
   */
  public static Future<List<String>> settle(Pool pool, Fence fence, Map<Long, Long> counted) {
    return read(pool, counted.keySet()).compose(tallies -> {
      List<String> mismatches = new ArrayList<>();
      counted.forEach((queue, n) -> {
        long t = tallies.getOrDefault(queue, Tally.NONE).messages();
        if (t != n) {
          mismatches.add("queue " + queue + " holds " + n + " messages, its tally says " + t);
        }
      });
      return fold(pool, fence, counted).map(folded -> mismatches);
    });
  }
}
