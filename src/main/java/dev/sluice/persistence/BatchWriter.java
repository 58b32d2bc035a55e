package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Writes one {@link ChangeBatch} in one transaction, with one array-based statement per kind of
 * change whatever the batch size, each a single round trip ({@code unnest} of parallel arrays), so
 * a batch of thousands of messages costs a handful of statements.
 * Every statement is idempotent, so a batch may be retried after a failure whatever its outcome.
 * Stateless; the caller runs one batch at a time.
 */
public final class BatchWriter {
  static final String INSERT = "INSERT INTO sluice_messages (queue_id, message_key, message_id, body, attributes,"
      + " trace_header, sender_id, sent_at, group_id, dedup_id, sequence_number, dlq_source_arn, visible_at,"
      + " receive_count, first_receive_at, receipt_sequence)"
      + " SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::uuid[], $4::text[], $5::text[], $6::text[],"
      + " $7::text[], $8::bigint[], $9::text[], $10::text[], $11::bigint[], $12::text[], $13::bigint[],"
      + " $14::integer[], $15::bigint[], $16::integer[])"
      // A retried batch whose first attempt did commit (the connection broke after COMMIT) must
      // not fail: the row takes the batch's state again.
      + " ON CONFLICT (queue_id, message_key) DO UPDATE SET visible_at = EXCLUDED.visible_at,"
      + " receive_count = EXCLUDED.receive_count, first_receive_at = EXCLUDED.first_receive_at,"
      + " receipt_sequence = EXCLUDED.receipt_sequence";
  static final String UPDATE = "UPDATE sluice_messages m SET visible_at = u.visible_at,"
      + " receive_count = u.receive_count, first_receive_at = u.first_receive_at,"
      + " receipt_sequence = u.receipt_sequence"
      + " FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::integer[], $5::bigint[], $6::integer[])"
      + " AS u(queue_id, message_key, visible_at, receive_count, first_receive_at, receipt_sequence)"
      + " WHERE m.queue_id = u.queue_id AND m.message_key = u.message_key";
  static final String UPSERT_QUEUES = "INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
      + " SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[])"
      + " ON CONFLICT (id) DO UPDATE SET modified_at = EXCLUDED.modified_at, attributes = EXCLUDED.attributes,"
      + " tags = EXCLUDED.tags";
  static final String PURGE = "DELETE FROM sluice_messages WHERE queue_id = ANY($1::bigint[])";
  static final String PURGE_DEDUP = "DELETE FROM sluice_dedup WHERE queue_id = ANY($1::bigint[])";
  static final String DEDUP = "INSERT INTO sluice_dedup (queue_id, dedup_key, message_id, sequence_number, expires_at)"
      + " SELECT * FROM unnest($1::bigint[], $2::text[], $3::uuid[], $4::bigint[], $5::bigint[])"
      + " ON CONFLICT (queue_id, dedup_key) DO UPDATE SET message_id = EXCLUDED.message_id,"
      + " sequence_number = EXCLUDED.sequence_number, expires_at = EXCLUDED.expires_at";
  static final String DELETE_QUEUES = "DELETE FROM sluice_queues WHERE id = ANY($1::bigint[])";
  static final String DELETE = "DELETE FROM sluice_messages m USING unnest($1::bigint[], $2::bigint[])"
      + " AS d(queue_id, message_key) WHERE m.queue_id = d.queue_id AND m.message_key = d.message_key";

  private BatchWriter() {}

  public static Future<Void> write(Pool pool, ChangeBatch batch) {
    if (batch.isEmpty()) {
      return Future.succeededFuture();
    }
    // Queue rows first (messages refer to them), purges before the messages stored after them,
    // deleted queues last (their messages go with them).
    return pool.withTransaction(conn -> queues(conn, batch.queueRows())
        .compose(v -> byIds(conn, PURGE, batch.purgedQueues()))
        .compose(v -> byIds(conn, PURGE_DEDUP, batch.purgedQueues()))
        .compose(v -> deduplication(conn, batch.deduplication()))
        .compose(v -> inserts(conn, batch.inserts()))
        .compose(v -> updates(conn, batch.updates()))
        .compose(v -> deletes(conn, batch.deletes()))
        .compose(v -> byIds(conn, DELETE_QUEUES, batch.deletedQueues())));
  }

  private static Future<Void> queues(SqlConnection conn, List<QueueRow> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    Tuple t = Tuple.tuple()
        .addArrayOfLong(longs(rows, QueueRow::id))
        .addArrayOfString(strings(rows, QueueRow::name))
        .addArrayOfLong(longs(rows, QueueRow::createdAt))
        .addArrayOfLong(longs(rows, QueueRow::modifiedAt))
        .addArrayOfString(strings(rows, QueueRow::attributesJson))
        .addArrayOfString(strings(rows, QueueRow::tagsJson));
    return conn.preparedQuery(UPSERT_QUEUES).execute(t).mapEmpty();
  }

  private static Future<Void> deduplication(SqlConnection conn, List<DedupRow> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    Tuple t = Tuple.tuple()
        .addArrayOfLong(longs(rows, DedupRow::queueId))
        .addArrayOfString(strings(rows, DedupRow::dedupKey))
        .addArrayOfUUID(rows.stream().map(DedupRow::messageId).toArray(UUID[]::new))
        .addArrayOfLong(longs(rows, DedupRow::sequenceNumber))
        .addArrayOfLong(longs(rows, DedupRow::expiresAt));
    return conn.preparedQuery(DEDUP).execute(t).mapEmpty();
  }

  private static Future<Void> byIds(SqlConnection conn, String sql, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    return conn.preparedQuery(sql).execute(Tuple.tuple().addArrayOfLong(ids.toArray(Long[]::new))).mapEmpty();
  }

  private static Future<Void> inserts(SqlConnection conn, List<MessageRow> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    Tuple t = Tuple.tuple()
        .addArrayOfLong(longs(rows, MessageRow::queueId))
        .addArrayOfLong(longs(rows, MessageRow::messageKey))
        .addArrayOfUUID(rows.stream().map(MessageRow::messageId).toArray(UUID[]::new))
        .addArrayOfString(strings(rows, MessageRow::body))
        .addArrayOfString(strings(rows, MessageRow::attributesJson))
        .addArrayOfString(strings(rows, MessageRow::traceHeader))
        .addArrayOfString(strings(rows, MessageRow::senderId))
        .addArrayOfLong(longs(rows, MessageRow::sentAt))
        .addArrayOfString(strings(rows, MessageRow::groupId))
        .addArrayOfString(strings(rows, MessageRow::dedupId))
        .addArrayOfLong(longs(rows, MessageRow::sequenceNumber))
        .addArrayOfString(strings(rows, MessageRow::deadLetterSourceArn))
        .addArrayOfLong(longs(rows, MessageRow::visibleAt))
        .addArrayOfInteger(ints(rows, MessageRow::receiveCount))
        .addArrayOfLong(longs(rows, MessageRow::firstReceiveAt))
        .addArrayOfInteger(ints(rows, MessageRow::receiptSequence));
    return conn.preparedQuery(INSERT).execute(t).mapEmpty();
  }

  private static Future<Void> updates(SqlConnection conn, List<DeliveryState> states) {
    if (states.isEmpty()) {
      return Future.succeededFuture();
    }
    Tuple t = Tuple.tuple()
        .addArrayOfLong(longs(states, DeliveryState::queueId))
        .addArrayOfLong(longs(states, DeliveryState::messageKey))
        .addArrayOfLong(longs(states, DeliveryState::visibleAt))
        .addArrayOfInteger(ints(states, DeliveryState::receiveCount))
        .addArrayOfLong(longs(states, DeliveryState::firstReceiveAt))
        .addArrayOfInteger(ints(states, DeliveryState::receiptSequence));
    return conn.preparedQuery(UPDATE).execute(t).mapEmpty();
  }

  private static Future<Void> deletes(SqlConnection conn, long[][] refs) {
    if (refs[0].length == 0) {
      return Future.succeededFuture();
    }
    Tuple t = Tuple.tuple().addArrayOfLong(boxed(refs[0])).addArrayOfLong(boxed(refs[1]));
    return conn.preparedQuery(DELETE).execute(t).mapEmpty();
  }

  private static <T> Long[] longs(List<T> items, Function<T, Long> f) {
    return items.stream().map(f).toArray(Long[]::new);
  }

  private static <T> Integer[] ints(List<T> items, Function<T, Integer> f) {
    return items.stream().map(f).toArray(Integer[]::new);
  }

  private static <T> String[] strings(List<T> items, Function<T, String> f) {
    return items.stream().map(f).toArray(String[]::new);
  }

  private static Long[] boxed(long[] values) {
    Long[] out = new Long[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }
}
