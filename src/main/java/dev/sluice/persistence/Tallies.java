package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The per-queue tallies ({@code sluice_queue_tallies}) at start-up: one row per queue and writer
 * lane, summed here, checked against the rows a full load counted, and folded back into one row per
 * queue so that lanes of earlier runs do not pile up.
 */
public final class Tallies {
  /**
   * Every lane's row replaced by one per live queue ($2, $3: ids and counts) keeping the highest
   * frontier; rows of queues that no longer exist go. Fenced.
   */
  static final String FOLD = "WITH f AS (SELECT sluice_fence($1) AS epoch),"
      + " old AS (DELETE FROM sluice_queue_tallies t USING f RETURNING t.queue_id, t.frontier_major, t.frontier_minor),"
      + " fr AS (SELECT DISTINCT ON (queue_id) queue_id, frontier_major, frontier_minor FROM old"
      + " ORDER BY queue_id, frontier_major DESC, frontier_minor DESC),"
      + " c AS (SELECT * FROM unnest($2::bigint[], $3::bigint[]) AS c(queue_id, n))"
      + " INSERT INTO sluice_queue_tallies (queue_id, slot, messages, frontier_major, frontier_minor)"
      + " SELECT c.queue_id, 0, c.n, coalesce(fr.frontier_major, -9223372036854775808),"
      + " coalesce(fr.frontier_minor, -9223372036854775808) FROM c LEFT JOIN fr ON fr.queue_id = c.queue_id";

  /** Per queue: every lane's messages summed, and the highest frontier of any lane. */
  static final String READ = "SELECT DISTINCT ON (queue_id) queue_id, sum(messages) OVER (PARTITION BY queue_id),"
      + " frontier_major, frontier_minor FROM sluice_queue_tallies ORDER BY queue_id, frontier_major DESC,"
      + " frontier_minor DESC";

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
  public static Future<Map<Long, Tally>> read(Pool pool) {
    return pool.query(READ).execute().map(rows -> {
      Map<Long, Tally> out = new java.util.HashMap<>();
      for (Row r : rows) {
        out.put(r.getLong(0), new Tally(r.getLong(1), r.getLong(2), r.getLong(3)));
      }
      return out;
    });
  }

  /**
   * Folds every lane's row into one per queue of {@code counts} (its messages given there), keeping
   * the highest frontier; rows of queues that no longer exist go. As the owner at {@code epoch}.
   */
  public static Future<Void> fold(Pool pool, long epoch, Map<Long, Long> counts) {
    Long[] ids = counts.keySet().toArray(Long[]::new);
    Long[] n = counts.values().toArray(Long[]::new);
    return pool.preparedQuery(FOLD).execute(Tuple.of(epoch).addArrayOfLong(ids).addArrayOfLong(n)).mapEmpty();
  }

  /**
   * Compares the tallies with {@code counted} (every live queue's id and the rows a full load found
   * for it), answers one line per queue where they differ, and writes the counted numbers back as
   * the queues' tallies, as the owner at {@code epoch}.
   */
  public static Future<List<String>> settle(Pool pool, long epoch, Map<Long, Long> counted) {
    return read(pool).compose(tallies -> {
      List<String> mismatches = new ArrayList<>();
      counted.forEach((queue, n) -> {
        long t = tallies.getOrDefault(queue, Tally.NONE).messages();
        if (t != n) {
          mismatches.add("queue " + queue + " holds " + n + " messages, its tally says " + t);
        }
      });
      return fold(pool, epoch, counted).map(folded -> mismatches);
    });
  }
}
