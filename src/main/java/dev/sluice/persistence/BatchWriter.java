package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.UUID;

/**
 * Writes one {@link ChangeBatch} atomically, with one array-based statement per kind of change
 * whatever the batch size ({@code unnest} of parallel arrays), so a batch of thousands of messages
 * costs a handful of statements.
 *
 * <p>A batch of message changes only (the common case: sends, receives, deletes, FIFO
 * deduplication ids, outbox receipts) is a single statement whose parts are data-modifying CTEs: one round trip,
 * atomic on its own, no BEGIN or COMMIT to wait for. Its parts cannot touch the same row (the batch
 * is coalesced per message and per deduplication key). A batch that changes queues (rows, purges,
 * deletions) is a transaction of ordered statements instead, as its purge must not see the rows the
 * same batch inserts after it.
 *
 * <p>A batch may be retried after a failure whatever its outcome: every statement is idempotent,
 * the message insert in its retried form.
 *
 * <p>Every write carries its {@link Fence}: the database's epoch of a single-node server
 * ({@link DatabaseOwnership}), or the epochs of the shards a cluster node writes for. The single
 * statement has a part calling the fencing function that its result reads, and the transaction runs
 * it first. A batch of a writer that no longer owns what it writes for fails with {@link #FENCED}
 * and writes nothing.
 */
public final class BatchWriter {
  /** Insert columns, in the order of the arrays {@link #addInserts} appends. */
  private static final String INSERT_COLUMNS = "queue_id, message_key, message_id, sent_at, sequence_number,"
      + " visible_at, receive_count, first_receive_at, receipt_sequence, first_visible_at, arrival, content, in_backoff";
  private static final String[] INSERT_TYPES = {"bigint", "bigint", "uuid", "bigint", "bigint", "bigint", "integer",
      "bigint", "integer", "bigint", "smallint", "bytea", "boolean"};
  private static final String[] FRONTIER_TYPES = {"bigint", "bigint", "bigint"};
  private static final String[] UPDATE_TYPES = {"bigint", "bigint", "bigint", "integer", "bigint", "integer",
      "boolean"};
  private static final String[] DELETE_TYPES = {"bigint", "bigint"};

  static String insert(int firstParam, boolean retried) {
    return "INSERT INTO sluice_messages (" + INSERT_COLUMNS + ") SELECT * FROM " + unnest(firstParam, INSERT_TYPES)
        // A batch retried after a failure may have committed on its first attempt (the connection
        // broke after COMMIT): its rows take the batch's state again instead of failing. Only
        // retries pay for the conflict check.
        + (retried ? " ON CONFLICT (queue_id, message_key) DO UPDATE SET visible_at = EXCLUDED.visible_at,"
            + " receive_count = EXCLUDED.receive_count, first_receive_at = EXCLUDED.first_receive_at,"
            + " receipt_sequence = EXCLUDED.receipt_sequence, in_backoff = EXCLUDED.in_backoff" : "")
        // Only rows inserted now count: a retried batch's rows already there were counted once.
        + " RETURNING queue_id, (xmax = 0) AS fresh";
  }

  static String update(int firstParam) {
    return "UPDATE sluice_messages m SET visible_at = u.visible_at, receive_count = u.receive_count,"
        + " first_receive_at = u.first_receive_at, receipt_sequence = u.receipt_sequence,"
        + " in_backoff = u.in_backoff FROM " + unnest(firstParam, UPDATE_TYPES)
        + " AS u(queue_id, message_key, visible_at, receive_count, first_receive_at, receipt_sequence, in_backoff)"
        + " WHERE m.queue_id = u.queue_id AND m.message_key = u.message_key";
  }

  /**
   * Rows below their queue's purge key are not the queue's any more (their count went with the
   * purge) but the reaper's: a late delete of one (a dead letter's origin row) must not count it
   * again. Rows of deleted queues, which have no queue row, likewise.
   */
  static String delete(int firstParam) {
    // The purge key is read per deleted key, not joined: joined, the planner's generic plan found
    // the rows by queue alone and filtered the keys, a delete costing the queue's whole depth.
    return "DELETE FROM sluice_messages m USING " + unnest(firstParam, DELETE_TYPES) + " AS d(queue_id, message_key)"
        + " WHERE m.queue_id = d.queue_id AND m.message_key = d.message_key"
        + " AND d.message_key >= (SELECT s.purged_below_key FROM sluice_queues s WHERE s.id = d.queue_id)"
        + " RETURNING m.queue_id";
  }

  /** SQLSTATE of a write refused by {@code sluice_fence}: another server has claimed the database. */
  public static final String FENCED = "SLFEN";

  /** True when {@code failure} is PostgreSQL refusing a write of a server that lost the database. */
  public static boolean fenced(Throwable failure) {
    return failure instanceof PgException pg && FENCED.equals(pg.getSqlState());
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

  /**
   * The tallies of the queues a batch changes ({@code sluice_queue_tallies}): the rows its insert
   * ({@code i}) really added minus those its delete ({@code d}) really removed, and the frontier its
   * receives reached ($firstParam..+2), added to the writer lane's row ($slot): a batch retried after
   * an unknown outcome counts nothing twice, and lanes written at once never wait on each other's
   * row. Rows leave {@code sluice_messages} only through this statement or a purge that zeroes the
   * tallies with them; anything else would make the counts wrong for ever.
   */
  static String tallies(int firstParam, int slotParam) {
    String min = "-9223372036854775808";
    return "fr AS (SELECT * FROM " + unnest(firstParam, FRONTIER_TYPES) + " AS fr(queue_id, major, minor)),"
        + " delta AS (SELECT queue_id, sum(n) AS n FROM (SELECT queue_id, 1 AS n FROM i WHERE fresh"
        + " UNION ALL SELECT queue_id, -1 FROM d) x GROUP BY queue_id),"
        + " t AS (INSERT INTO sluice_queue_tallies AS t (queue_id, slot, messages, frontier_major, frontier_minor)"
        + " SELECT coalesce(delta.queue_id, fr.queue_id), $" + slotParam + "::smallint, coalesce(delta.n, 0),"
        + " coalesce(fr.major, " + min + "), coalesce(fr.minor, " + min + ")"
        + " FROM delta FULL JOIN fr ON fr.queue_id = delta.queue_id"
        + " ON CONFLICT (queue_id, slot) DO UPDATE SET messages = t.messages + EXCLUDED.messages,"
        + " frontier_major = CASE WHEN (EXCLUDED.frontier_major, EXCLUDED.frontier_minor)"
        + " > (t.frontier_major, t.frontier_minor) THEN EXCLUDED.frontier_major ELSE t.frontier_major END,"
        + " frontier_minor = CASE WHEN (EXCLUDED.frontier_major, EXCLUDED.frontier_minor)"
        + " > (t.frontier_major, t.frontier_minor) THEN EXCLUDED.frontier_minor ELSE t.frontier_minor END)";
  }

  /**
   * The message changes of a batch as one statement; empty parts cost an empty array each. The
   * fence (its call's parameters first, from $1) is a plain CTE, which PostgreSQL evaluates only
   * when read: the final SELECT reads it; data-modifying CTEs run whether read or not. The writer
   * lane is the parameter after the fence's.
   */
  static String messages(Fence fence, boolean retried) {
    int lane = fence.parameterCount() + 1;
    int p = lane + 1;
    String ins = insert(p, retried);
    p += INSERT_TYPES.length;
    String upd = update(p);
    p += UPDATE_TYPES.length;
    String del = delete(p);
    p += DELETE_TYPES.length;
    String dedup = DedupWrites.cte(p);
    p += DedupWrites.PARAMETERS;
    String receipts = RelayReceiptWrites.ctes(p);
    p += RelayReceiptWrites.PARAMETERS;
    return "WITH f AS (SELECT " + fence.call(1) + " AS epoch), i AS (" + ins + "), u AS (" + upd + "), d AS ("
        + del + "), q AS (" + dedup + "), " + receipts + ", " + tallies(p, lane) + " SELECT epoch FROM f";
  }

  /**
   * First statement of a queue-change transaction. The transaction holds the fence's row locks
   * until it ends, and a claim or take-over waits for it; so that a paused process cannot hold one
   * up for ever between two statements, PostgreSQL ends the transaction if it idles that long (the
   * parameter after the fence's, in ms).
   */
  static String fenceTransaction(Fence fence) {
    return "SELECT " + fence.call(1) + ", set_config('idle_in_transaction_session_timeout', $"
        + (fence.parameterCount() + 1) + ", true)";
  }

  /** The statements a batch runs under one kind of fence, built once. */
  private record Fenced(String messages, String messagesRetried, String transaction) {
    static Fenced by(Fence fence) {
      return new Fenced(BatchWriter.messages(fence, false), BatchWriter.messages(fence, true),
          fenceTransaction(fence));
    }
  }

  private static final Fenced BY_DATABASE = Fenced.by(new DatabaseFence(0));
  private static final Fenced BY_SHARDS = Fenced.by(ShardFence.of(0, 0));
  /**
   * Queue rows, with a FIFO queue's delay rule: it changes with the attributes (a DelaySeconds
   * change), in the same row, so a start-up never finds one without the other; and the redelivery
   * backoff (NULL: none).
   */
  static final String UPSERT_QUEUES = "INSERT INTO sluice_queues (id, account_id, region, name, created_at,"
      + " modified_at, attributes, tags, delay_released_through, delay_changed_at, redelivery_backoff)"
      + " SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[],"
      + " $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::text[]) ON CONFLICT (id) DO UPDATE SET"
      + " modified_at = EXCLUDED.modified_at, attributes = EXCLUDED.attributes, tags = EXCLUDED.tags,"
      + " delay_released_through = EXCLUDED.delay_released_through, delay_changed_at = EXCLUDED.delay_changed_at,"
      + " redelivery_backoff = EXCLUDED.redelivery_backoff";
  /**
   * PurgeQueue in a bounded number of statements, whatever the backlog: the queue's rows that exist
   * now (all stored before the purge: this runs alone, after every earlier batch committed) fall
   * below its purge key, nothing reads them any more, its count is zero, and the {@link Reaper}
   * deletes them later in chunks. The key is one past the largest key stored (an index probe).
   */
  static final String PURGE = "WITH p AS (SELECT q.id, GREATEST(q.purged_below_key, coalesce((SELECT"
      + " max(m.message_key) + 1 FROM sluice_messages m WHERE m.queue_id = q.id), 0)) AS k"
      + " FROM sluice_queues q WHERE q.id = ANY($1::bigint[])),"
      + " s AS (UPDATE sluice_queues q SET purged_below_key = p.k FROM p WHERE q.id = p.id),"
      + " t AS (UPDATE sluice_queue_tallies SET messages = 0 WHERE queue_id = ANY($1::bigint[]))"
      + " INSERT INTO sluice_reaping (queue_id, below_key) SELECT id, k FROM p ON CONFLICT (queue_id)"
      + " DO UPDATE SET below_key = GREATEST(sluice_reaping.below_key, EXCLUDED.below_key)";
  /** DeleteQueue, bounded as a purge: the queue's rows go to the {@link Reaper}, all of them. */
  static final String DELETE_QUEUES = "WITH q AS (DELETE FROM sluice_queues WHERE id = ANY($1::bigint[]) RETURNING id),"
      + " t AS (DELETE FROM sluice_queue_tallies WHERE queue_id = ANY($1::bigint[]))"
      + " INSERT INTO sluice_reaping (queue_id, below_key) SELECT id, 9223372036854775807 FROM unnest($1::bigint[]) id"
      + " ON CONFLICT (queue_id) DO UPDATE SET below_key = EXCLUDED.below_key";

  private BatchWriter() {}

  /**
   * Writes a batch behind {@code fence}; {@code retried} when an earlier attempt of it failed with
   * an unknown outcome. A queue-change transaction that idles {@code idleLimitMillis} between two
   * statements is ended by PostgreSQL.
   */
  public static Future<Void> write(Pool pool, ChangeBatch batch, boolean retried, Fence fence, long idleLimitMillis,
      int lane) {
    if (batch.isEmpty()) {
      return Future.succeededFuture();
    }
    Fenced statements = fence instanceof ShardFence ? BY_SHARDS : BY_DATABASE;
    if (!batch.changesQueues()) {
      return messages(pool, batch, retried, fence, statements, lane);
    }
    // Deleted queues first, with their deduplication history and outbox receipts (a queue re-created with the same
    // name in this batch has a new id, but account, region and name are unique together); then
    // queue rows; purges before the messages stored after them. A deleted queue has no other change
    // in the batch.
    return pool.withTransaction(conn -> conn.preparedQuery(statements.transaction())
        .execute(fence.parameters().addString(Long.toString(idleLimitMillis))).<Void>mapEmpty()
        .compose(v -> byIds(conn, DedupWrites.DELETE_OF_QUEUES, batch.deletedQueues()))
        .compose(v -> byIds(conn, RelayReceiptWrites.DELETE_OF_QUEUES, batch.deletedQueues()))
        .compose(v -> byIds(conn, DELETE_QUEUES, batch.deletedQueues()))
        .compose(v -> queues(conn, batch.queueRows()))
        .compose(v -> byIds(conn, PURGE, batch.purgedQueues()))
        .compose(v -> byIds(conn, DedupWrites.DELETE_OF_QUEUES, batch.purgedQueues()))
        .compose(v -> messages(conn, batch, retried, fence, statements, lane)));
  }

  /** The batch's message changes, deduplication ids, outbox receipts and tallies: one statement. */
  private static Future<Void> messages(SqlClient client, ChangeBatch batch, boolean retried, Fence fence,
      Fenced statements, int lane) {
    Tuple t = fence.parameters().addInteger(lane);
    addInserts(t, batch.inserts());
    addUpdates(t, batch.updates());
    addDeletes(t, batch.deletes());
    DedupWrites.addParameters(t, batch.deduplication());
    RelayReceiptWrites.addParameters(t, batch);
    addFrontiers(t, batch.frontiers());
    return client.preparedQuery(retried ? statements.messagesRetried() : statements.messages()).execute(t)
        .mapEmpty();
  }

  private static Future<Void> queues(SqlClient conn, List<QueueRow> rows) {
    int n = rows.size();
    if (n == 0) {
      return Future.succeededFuture();
    }
    Long[] ids = new Long[n];
    String[] accounts = new String[n];
    String[] regions = new String[n];
    String[] names = new String[n];
    Long[] created = new Long[n];
    Long[] modified = new Long[n];
    String[] attributes = new String[n];
    String[] tags = new String[n];
    Long[] releasedThrough = new Long[n];
    Long[] changedAt = new Long[n];
    String[] backoffs = new String[n];
    for (int i = 0; i < n; i++) {
      QueueRow r = rows.get(i);
      ids[i] = r.id();
      accounts[i] = r.accountId();
      regions[i] = r.region();
      names[i] = r.name();
      created[i] = r.createdAt();
      modified[i] = r.modifiedAt();
      attributes[i] = r.attributesJson();
      tags[i] = r.tagsJson();
      releasedThrough[i] = r.delayReleasedThrough();
      changedAt[i] = r.delayChangedAt();
      backoffs[i] = r.redeliveryBackoffJson();
    }
    return conn.preparedQuery(UPSERT_QUEUES).execute(Tuple.tuple().addArrayOfLong(ids).addArrayOfString(accounts)
        .addArrayOfString(regions).addArrayOfString(names)
        .addArrayOfLong(created).addArrayOfLong(modified).addArrayOfString(attributes).addArrayOfString(tags)
        .addArrayOfLong(releasedThrough).addArrayOfLong(changedAt).addArrayOfString(backoffs))
        .mapEmpty();
  }

  private static Future<Void> byIds(SqlClient conn, String sql, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    return conn.preparedQuery(sql).execute(Tuple.tuple().addArrayOfLong(ids.toArray(Long[]::new))).mapEmpty();
  }

  // Plain loops into the arrays the client encodes: these run for every message written.

  private static void addInserts(Tuple t, List<MessageRow> rows) {
    int n = rows.size();
    Long[] queueIds = new Long[n];
    Long[] keys = new Long[n];
    UUID[] ids = new UUID[n];
    Long[] sentAt = new Long[n];
    Long[] sequence = new Long[n];
    Long[] visibleAt = new Long[n];
    Integer[] receiveCount = new Integer[n];
    Long[] firstReceiveAt = new Long[n];
    Integer[] receiptSequence = new Integer[n];
    Long[] firstVisibleAt = new Long[n];
    Short[] arrival = new Short[n];
    Buffer[] content = new Buffer[n];
    Boolean[] inBackoff = new Boolean[n];
    for (int i = 0; i < n; i++) {
      MessageRow r = rows.get(i);
      queueIds[i] = r.queueId();
      keys[i] = r.messageKey();
      ids[i] = r.messageId();
      sentAt[i] = r.sentAt();
      sequence[i] = r.sequenceNumber();
      visibleAt[i] = r.visibleAt();
      receiveCount[i] = r.receiveCount();
      firstReceiveAt[i] = r.firstReceiveAt();
      receiptSequence[i] = r.receiptSequence();
      firstVisibleAt[i] = r.firstVisibleAt();
      arrival[i] = r.arrival();
      content[i] = Buffer.buffer(r.content());
      inBackoff[i] = r.inBackoff();
    }
    t.addArrayOfLong(queueIds).addArrayOfLong(keys).addArrayOfUUID(ids).addArrayOfLong(sentAt)
        .addArrayOfLong(sequence).addArrayOfLong(visibleAt).addArrayOfInteger(receiveCount)
        .addArrayOfLong(firstReceiveAt).addArrayOfInteger(receiptSequence).addArrayOfLong(firstVisibleAt)
        .addArrayOfShort(arrival).addArrayOfBuffer(content).addArrayOfBoolean(inBackoff);
  }

  private static void addFrontiers(Tuple t, List<Frontier> frontiers) {
    int n = frontiers.size();
    Long[] queueIds = new Long[n];
    Long[] major = new Long[n];
    Long[] minor = new Long[n];
    for (int i = 0; i < n; i++) {
      queueIds[i] = frontiers.get(i).queueId();
      major[i] = frontiers.get(i).major();
      minor[i] = frontiers.get(i).minor();
    }
    t.addArrayOfLong(queueIds).addArrayOfLong(major).addArrayOfLong(minor);
  }

  private static void addUpdates(Tuple t, List<DeliveryState> states) {
    int n = states.size();
    Long[] queueIds = new Long[n];
    Long[] keys = new Long[n];
    Long[] visibleAt = new Long[n];
    Integer[] receiveCount = new Integer[n];
    Long[] firstReceiveAt = new Long[n];
    Integer[] receiptSequence = new Integer[n];
    Boolean[] inBackoff = new Boolean[n];
    for (int i = 0; i < n; i++) {
      DeliveryState s = states.get(i);
      queueIds[i] = s.queueId();
      keys[i] = s.messageKey();
      visibleAt[i] = s.visibleAt();
      receiveCount[i] = s.receiveCount();
      firstReceiveAt[i] = s.firstReceiveAt();
      receiptSequence[i] = s.receiptSequence();
      inBackoff[i] = s.inBackoff();
    }
    t.addArrayOfLong(queueIds).addArrayOfLong(keys).addArrayOfLong(visibleAt).addArrayOfInteger(receiveCount)
        .addArrayOfLong(firstReceiveAt).addArrayOfInteger(receiptSequence).addArrayOfBoolean(inBackoff);
  }

  private static void addDeletes(Tuple t, long[][] refs) {
    t.addArrayOfLong(boxed(refs[0])).addArrayOfLong(boxed(refs[1]));
  }

  static String unnest(int firstParam, String[] types) {
    StringBuilder sb = new StringBuilder("unnest(");
    for (int i = 0; i < types.length; i++) {
      sb.append(i == 0 ? "" : ", ").append('$').append(firstParam + i).append("::").append(types[i]).append("[]");
    }
    return sb.append(')').toString();
  }

  private static Long[] boxed(long[] values) {
    Long[] out = new Long[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }
}
