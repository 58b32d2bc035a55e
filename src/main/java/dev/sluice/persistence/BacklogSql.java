package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads of a queue's messages held only in PostgreSQL, in delivery order: the next page after the
 * queue's in-memory frontier, bounded above so that it never reaches a row whose write may not have
 * committed yet (src/site/markdown/design/paged-backlog.md, "Reading a page"). A standard queue's
 * order is (first_visible_at, message_key), an index range scan on {@code sluice_messages_delivery};
 * a FIFO queue's is (sequence_number, message_key), an index range scan on the partial index
 * {@code sluice_messages_fifo} (queue_id, sequence_number) WHERE sequence_number > 0. Rows below the
 * queue's purge key are the reaper's and never read.
 */
public final class BacklogSql {
  static final String COLUMNS = "message_key, message_id, sent_at, sequence_number, visible_at, receive_count,"
      + " first_receive_at, receipt_sequence, first_visible_at, arrival, content";
  /**
   * Rows in ((after), (upTo)], at most $7 of them, and only as many as fit in $8 bytes of content
   * (at least one): a running sum over the index order, which the LIMIT below it stops early.
   * {@code octet_length} of a bytea reads the stored length without decompressing the value.
   */
  static final String STANDARD_PAGE = "SELECT " + COLUMNS + ", total FROM (SELECT " + COLUMNS + ","
      + " octet_length(content) AS size, sum(octet_length(content)) OVER (ORDER BY first_visible_at, message_key"
      + " ROWS UNBOUNDED PRECEDING) AS total FROM sluice_messages WHERE queue_id = $1"
      + " AND (first_visible_at, message_key) > ($2, $3) AND (first_visible_at, message_key) <= ($4, $5)"
      + " AND message_key >= $6 ORDER BY first_visible_at, message_key LIMIT $7) p"
      + " WHERE total - size < $8 ORDER BY first_visible_at, message_key";
  /**
   * {@link #STANDARD_PAGE} by sequence number. {@code sequence_number > 0} (true of every FIFO row)
   * lets PostgreSQL use the partial index, whose range the row comparisons bound on sequence_number
   * (checked with EXPLAIN: Index Cond on queue_id and both bounds); the key only breaks ties, which
   * an incremental sort of the index order settles.
   */
  static final String FIFO_PAGE = "SELECT " + COLUMNS + ", total FROM (SELECT " + COLUMNS + ","
      + " octet_length(content) AS size, sum(octet_length(content)) OVER (ORDER BY sequence_number, message_key"
      + " ROWS UNBOUNDED PRECEDING) AS total FROM sluice_messages WHERE queue_id = $1 AND sequence_number > 0"
      + " AND (sequence_number, message_key) > ($2, $3) AND (sequence_number, message_key) <= ($4, $5)"
      + " AND message_key >= $6 ORDER BY sequence_number, message_key LIMIT $7) p"
      + " WHERE total - size < $8 ORDER BY sequence_number, message_key";

  private BacklogSql() {}

  /**
   * One page of a queue: its rows with place in delivery order ((first_visible_at, message_key), or
   * on a {@code fifo} queue (sequence_number, message_key)) in ({@code after}, {@code upTo}], at or
   * above {@code purgedBelowKey}, at most {@code limit} rows and about {@code maxBytes} of content,
   * in order; {@link #decode} them.
   */
  public static Future<RowSet<Row>> page(SqlClient client, boolean fifo, long queueId, long afterMajor,
      long afterMinor, long upToMajor, long upToMinor, long purgedBelowKey, int limit, long maxBytes) {
    return client.preparedQuery(fifo ? FIFO_PAGE : STANDARD_PAGE)
        .execute(Tuple.of(queueId, afterMajor, afterMinor, upToMajor, upToMinor, purgedBelowKey, limit, maxBytes));
  }

  /**
   * The rows {@link #page} read, content as the column's bytes (the model writes them into its slab
   * undecoded): pure, so it may run on any thread.
   */
  public static Page decode(RowSet<Row> rows, int limit, long maxBytes) {
    List<PagedRow> out = new ArrayList<>(rows.size());
    long total = 0;
    for (Row r : rows) {
      out.add(new PagedRow(r.getLong(0), r.getUUID(1), r.getLong(2), r.getLong(3), r.getLong(4),
          r.getInteger(5), r.getLong(6), r.getInteger(7), r.getLong(8), r.getShort(9),
          r.getBuffer(10).getBytes()));
      total = r.getLong(11);
    }
    // Short of the row limit and of the byte limit: every row in range came.
    return new Page(out, out.size() >= limit || total >= maxBytes);
  }

  /** The rows of one page, and whether it stopped at a limit (rows or bytes) rather than at its range's end. */
  public record Page(List<PagedRow> rows, boolean reachedLimit) {}

  /**
   * A row read back by a page: its place, identity, delivery state and content (format version 1
   * bytes, {@code model.PackedContent}).
   */
  public record PagedRow(long messageKey, UUID messageId, long sentAt, long sequenceNumber, long visibleAt,
      int receiveCount, long firstReceiveAt, int receiptSequence, long firstVisibleAt, short arrival,
      byte[] content) {}
}
