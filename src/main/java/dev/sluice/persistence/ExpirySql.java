package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Retention of a queue's rows held only in PostgreSQL (src/site/markdown/design/paged-backlog.md,
 * "Retention of PG-only rows"): one transaction deletes a chunk of the rows after the queue's
 * in-memory frontier whose retention ended, takes them off the queue's tally in the same statement,
 * and measures the oldest sent time among the rows left.
 *
 * <p>The search is bounded by indexes, never by the backlog. Rows that kept an earlier queue's sent
 * time (dead letters: arrival 1) are found by sent time ({@code sluice_messages_kept}); any other
 * row is first visible at or after it was sent, so its place in delivery order bounds the search
 * ({@code sluice_messages_delivery}): such a row is deleted once it is visible as well as expired
 * (a delayed one up to its delay late; a read takes it back and drops it meanwhile). The queue's row
 * is locked first, so that a purge (which sets the purge key and zeroes the tally in one
 * transaction) never interleaves with the tally taken off here. Fenced: a former owner deletes
 * nothing.
 */
public final class ExpirySql {
  /** Tally rows of expiries, beside the writer lanes' (0..n-1); start-up folds them like any other. */
  static final int EXPIRY_SLOT = 32767;

  static final String LOCK = "SELECT purged_below_key FROM sluice_queues WHERE id = $1 FOR UPDATE";

  private static final String STANDARD_AFTER = "(first_visible_at, message_key) > ($2::bigint, $3::bigint)";
  private static final String FIFO_AFTER = "(sequence_number, message_key) > ($2::bigint, $3::bigint)";

  /** $1 queue, ($2, $3) the frontier, $4 the cutoff sent time, $5 the purge key, $6 the limit, from $7 the fence. */
  static String delete(boolean fifo, Fence fence) {
    String after = fifo ? FIFO_AFTER : STANDARD_AFTER;
    return "WITH f AS (SELECT " + fence.call(7) + " AS epoch),"
        + " victims AS ((SELECT ctid FROM sluice_messages WHERE queue_id = $1 AND first_visible_at <= $4::bigint"
        + " AND " + after + " AND arrival <> 1 AND message_key >= $5::bigint"
        + " ORDER BY first_visible_at, message_key LIMIT $6)"
        + " UNION ALL (SELECT ctid FROM sluice_messages WHERE queue_id = $1 AND arrival = 1 AND sent_at <= $4::bigint"
        + " AND " + after + " AND message_key >= $5::bigint ORDER BY sent_at LIMIT $6)),"
        + " d AS (DELETE FROM sluice_messages m USING f WHERE m.ctid IN (SELECT ctid FROM victims)"
        + " RETURNING m.first_visible_at, m.sent_at, m.arrival),"
        + " t AS (INSERT INTO sluice_queue_tallies AS t (queue_id, slot, messages)"
        + " SELECT $1, " + EXPIRY_SLOT + ", -count(*) FROM d HAVING count(*) > 0"
        + " ON CONFLICT (queue_id, slot) DO UPDATE SET messages = t.messages + EXCLUDED.messages)"
        + " SELECT first_visible_at, sent_at, arrival FROM d";
  }

  /**
   * The oldest sent time after the frontier: the first row in delivery order (the oldest of the
   * rows first visible when sent, as their order is their sent time's) and the oldest dead letter.
   * Rows sent with a delay may be older than both by up to their delay.
   */
  static String oldest(boolean fifo) {
    String after = fifo ? FIFO_AFTER : STANDARD_AFTER;
    String order = fifo ? "sequence_number, message_key" : "first_visible_at, message_key";
    return "SELECT least((SELECT sent_at FROM sluice_messages WHERE queue_id = $1 AND " + after
        + (fifo ? " AND sequence_number > 0" : "") + " AND message_key >= $4::bigint ORDER BY " + order + " LIMIT 1),"
        + " (SELECT min(sent_at) FROM sluice_messages WHERE queue_id = $1 AND arrival = 1 AND " + after
        + " AND message_key >= $4::bigint))";
  }

  private ExpirySql() {}

  /** What one expiry deleted, and the oldest sent time left (Long.MAX_VALUE when no row is). */
  public record Expired(List<DeletedRow> deleted, long oldestSentAt) {}

  public record DeletedRow(long firstVisibleAt, long sentAt, short arrival) {}

  /**
   * Deletes at most {@code limit} of the queue's expired rows after ({@code afterMajor},
   * {@code afterMinor}) (FIFO: by sequence number) sent at or before {@code cutoffSentAt}, behind
   * {@code fence}, and measures the oldest left.
   */
  public static Future<Expired> expire(Pool pool, Fence fence, long queueId, boolean fifo, long afterMajor,
      long afterMinor, long cutoffSentAt, long purgedBelowKey, int limit) {
    return pool.withTransaction(c -> c.preparedQuery(LOCK).execute(Tuple.of(queueId)).compose(lock -> {
      if (lock.size() == 0) {
        return Future.succeededFuture(new Expired(List.of(), Long.MAX_VALUE)); // deleted: the reaper's
      }
      long purged = Math.max(purgedBelowKey, lock.iterator().next().getLong(0));
      return c.preparedQuery(delete(fifo, fence))
          .execute(fence.addTo(Tuple.of(queueId, afterMajor, afterMinor, cutoffSentAt, purged, limit)))
          .compose(rows -> {
            List<DeletedRow> deleted = new ArrayList<>(rows.size());
            for (Row r : rows) {
              deleted.add(new DeletedRow(r.getLong(0), r.getLong(1), r.getShort(2)));
            }
            return oldestLeft(c, queueId, fifo, afterMajor, afterMinor, purged)
                .map(oldest -> new Expired(deleted, oldest));
          });
    }));
  }

  private static Future<Long> oldestLeft(SqlConnection c, long queueId, boolean fifo, long afterMajor, long afterMinor,
      long purged) {
    return c.preparedQuery(oldest(fifo)).execute(Tuple.of(queueId, afterMajor, afterMinor, purged)).map(rows -> {
      Long v = rows.iterator().next().getLong(0);
      return v == null ? Long.MAX_VALUE : v;
    });
  }
}
