package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Coalesced batches written to a real PostgreSQL with one statement per kind of change. */
@NeedsTools(Tool.POSTGRESQL)
class BatchWriterIT {
  /** The epoch of a migrated database nobody has claimed yet: the fence lets its writes through. */
  static final long UNCLAIMED = 0;
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static Pool pool;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2)).connectingTo(PgConnectOptions.fromUri(pg.url()))
        .using(vertx).build();
    SchemaMigrations.load().migrate(pool).await(30, TimeUnit.SECONDS);
    pool.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
        + " VALUES (7, 'orders', 1, 1, '{}', '{}');"
        + " INSERT INTO sluice_shard_leases (shard, epoch, owner, released) VALUES (0, 4, 'node', false)")
        .execute().await(10, TimeUnit.SECONDS);
  }

  /**
   * Both kinds of fence, each letting these writes through: a single-node server's (the database
   * nobody claimed) and a cluster node's (shard 0, whose lease is at epoch 4). Their statements
   * number their parameters differently, so the batch tests run under both.
   */
  static List<Fence> fences() {
    return List.of(new DatabaseFence(UNCLAIMED), ShardFence.of(0, 4));
  }

  @AfterAll
  static void stop() throws Exception {
    pool.close().await(10, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  static MessageRow row(long key) {
    return row(7, key, "body " + key + " ünïcode \uD83D\uDE00");
  }

  static MessageRow row(long queueId, long key, String body) {
    return new MessageRow(queueId, key, new UUID(1, key), 1000 + key, 100 + key, 0, 0, 0, 0, 1000 + key, (short) 0,
        new MessageContent(body, null, "Root=1", "sender", "g", "d" + key, null).encode());
  }

  static String body(Row r) {
    return MessageContent.decode(r.getBuffer("content").getBytes()).body();
  }

  static List<String> stored() throws Exception {
    List<String> out = new ArrayList<>();
    for (Row r : pool.query("SELECT message_key, content, visible_at, receive_count, receipt_sequence,"
        + " sequence_number FROM sluice_messages ORDER BY message_key").execute().await(10, TimeUnit.SECONDS)) {
      out.add(r.getLong(0) + "|" + body(r) + "|" + r.getLong(2) + "|" + r.getInteger(3) + "|"
          + r.getInteger(4) + "|" + r.getLong(5));
    }
    return out;
  }

  /** Per queue, the messages its tallies count, summed over the lanes. */
  static Map<Long, Long> tallied() throws Exception {
    Map<Long, Long> out = new TreeMap<>();
    for (Row r : pool.query("SELECT queue_id, sum(messages) FROM sluice_queue_tallies GROUP BY queue_id")
        .execute().await(10, TimeUnit.SECONDS)) {
      out.put(r.getLong(0), r.getLong(1));
    }
    return out;
  }

  static void assertTalliesExact() throws Exception {
    TallyCheck.assertExact(pg.url());
  }

  static String frontier(long queueId) throws Exception {
    Row r = pool.preparedQuery("SELECT frontier_major, frontier_minor FROM sluice_queue_tallies WHERE queue_id = $1"
        + " ORDER BY frontier_major DESC, frontier_minor DESC LIMIT 1").execute(Tuple.of(queueId))
        .await(10, TimeUnit.SECONDS).iterator().next();
    return r.getLong(0) + "/" + r.getLong(1);
  }

  static void write(ChangeBatch b, int lane) throws Exception {
    write(b, false, new DatabaseFence(UNCLAIMED), lane);
  }

  static void write(ChangeBatch b, boolean retried, Fence fence, int lane) throws Exception {
    BatchWriter.write(pool, b, retried, fence, 5000, lane).await(30, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @MethodSource("fences")
  void insertsUpdatesAndDeletesLandAsCoalesced(Fence fence) throws Exception {
    ChangeBatch first = new ChangeBatch();
    for (long k = 1; k <= 1000; k++) {
      first.stored(row(k));
    }
    first.changed(new DeliveryState(7, 2, 9000, 1, 2000, 1));
    first.deleted(7, 3);
    write(first, false, fence, 0);
    assertEquals(999, stored().size());
    assertEquals("2|body 2 ünïcode \uD83D\uDE00|9000|1|1|102", stored().get(1));

    ChangeBatch second = new ChangeBatch();
    second.changed(new DeliveryState(7, 1, 5000, 1, 2000, 1));
    second.changed(new DeliveryState(7, 2, 0, 1, 2000, 1));
    for (long k = 4; k <= 1000; k++) {
      second.deleted(7, k);
    }
    write(second, false, fence, 0);
    assertEquals(List.of("1|body 1 ünïcode \uD83D\uDE00|5000|1|1|101", "2|body 2 ünïcode \uD83D\uDE00|0|1|1|102"),
        stored());
    assertTalliesExact();
    cleanUp(7, 1, 2);
  }

  @ParameterizedTest
  @MethodSource("fences")
  void outboxReceiptsCommitWithTheirMessagesOutliveThemAndGoWhenForgottenOrWithTheirQueue(Fence fence)
      throws Exception {
    pool.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
        + " VALUES (41, 'relayed', 1, 1, '{}', '{}') ON CONFLICT (id) DO NOTHING").execute()
        .await(10, TimeUnit.SECONDS);
    ChangeBatch sent = new ChangeBatch();
    sent.stored(row(41, 1, "row 5"));
    sent.relayReceiptRecorded(new RelayReceiptRow(41, "app", 5, new UUID(1, 1)));
    sent.stored(row(41, 2, "row 6"));
    sent.relayReceiptRecorded(new RelayReceiptRow(41, "app", 6, new UUID(1, 2)));
    write(sent, false, fence, 1);
    write(sent, true, fence, 1); // a retry after an unknown outcome finds them there: the same
    assertEquals(List.of("app:5:00000000-0000-0001-0000-000000000001", "app:6:00000000-0000-0001-0000-000000000002"),
        receipts(41));

    ChangeBatch consumed = new ChangeBatch();
    consumed.deleted(41, 1);
    consumed.deleted(41, 2);
    consumed.relayReceiptForgotten(41, "app", 5);
    write(consumed, false, fence, 1);
    assertEquals(List.of("app:6:00000000-0000-0001-0000-000000000002"), receipts(41));

    ChangeBatch gone = new ChangeBatch();
    gone.queueDeleted(41);
    write(gone, false, fence, 1);
    assertEquals(List.of(), receipts(41));
    assertTalliesExact();
  }

  private static List<String> receipts(long queueId) throws Exception {
    List<String> out = new ArrayList<>();
    for (Row r : pool.preparedQuery("SELECT source, row_id, message_id FROM sluice_relay_receipts WHERE queue_id = $1"
        + " ORDER BY source, row_id").execute(Tuple.of(queueId)).await(10, TimeUnit.SECONDS)) {
      out.add(r.getString(0) + ":" + r.getLong(1) + ":" + r.getUUID(2));
    }
    return out;
  }

  private static void cleanUp(long queueId, long... keys) throws Exception {
    ChangeBatch b = new ChangeBatch();
    for (long k : keys) {
      b.deleted(queueId, k);
    }
    write(b, 0);
  }

  @ParameterizedTest
  @MethodSource("fences")
  void talliesCountWhatReallyChangedInEveryLaneAndTheFrontierOnlyRises(Fence fence) throws Exception {
    pool.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
        + " VALUES (31, 'dead', 1, 1, '{}', '{}') ON CONFLICT (id) DO NOTHING").execute()
        .await(10, TimeUnit.SECONDS);
    ChangeBatch lane0 = new ChangeBatch();
    ChangeBatch lane1 = new ChangeBatch();
    for (long k = 1; k <= 10; k++) {
      (k % 2 == 0 ? lane0 : lane1).stored(row(7, 7000 + k, "m"));
    }
    lane0.received(7, 500, 3);
    lane1.received(7, 400, 9);
    write(lane0, false, fence, 0);
    write(lane1, false, fence, 1);
    assertTalliesExact();
    assertEquals("500/3", frontier(7));

    // A move: the new row and the delete of its origin in one write, +1 and -1; a delete of a row
    // that is not there (deleted already) counts nothing.
    ChangeBatch move = new ChangeBatch();
    move.stored(row(31, 1, "moved"));
    move.deleted(7, 7001);
    move.deleted(7, 123456);
    move.received(7, 500, 2);
    write(move, false, fence, 1);
    assertTalliesExact();
    assertEquals(1L, tallied().get(31L));
    assertEquals("500/3", frontier(7));

    // Retried after an unknown outcome (the first attempt committed): counted once.
    ChangeBatch again = new ChangeBatch();
    again.stored(row(7, 7100, "again"));
    again.deleted(7, 7002);
    write(again, false, fence, 0);
    write(again, true, fence, 0);
    assertTalliesExact();
    cleanUp(7, 7003, 7004, 7005, 7006, 7007, 7008, 7009, 7010, 7100);
    cleanUp(31, 1);
    assertTalliesExact();
  }

  @ParameterizedTest
  @MethodSource("fences")
  void queueRowsPurgesAndQueueDeletionsLandInOrder(Fence fence) throws Exception {
    ChangeBatch b = new ChangeBatch();
    b.queueSaved(new QueueRow(11, "000000000000", "us-east-1", "other", 5, 5, "{\"DelaySeconds\":\"0\"}", "{}",
        Long.MIN_VALUE, Long.MIN_VALUE));
    b.stored(row(11, 1, "before purge"));
    write(b, false, fence, 0);
    ChangeBatch purge = new ChangeBatch();
    purge.queueSaved(
        new QueueRow(11, "000000000000", "us-east-1", "other", 5, 6, "{\"DelaySeconds\":\"1\"}", "{\"team\":\"a\"}",
            4, 6));
    purge.queuePurged(11);
    purge.stored(row(11, 2, "after purge"));
    purge.deduplicationRemembered(new DedupRow(11, "d2", new UUID(3, 2), 102, Long.MAX_VALUE));
    write(purge, false, fence, 0);
    assertEquals("after purge", body(pool.query("SELECT content FROM sluice_messages m JOIN sluice_queues q"
        + " ON q.id = m.queue_id AND m.message_key >= q.purged_below_key WHERE queue_id = 11")
        .execute().await(10, TimeUnit.SECONDS).iterator().next()));
    assertTalliesExact();
    // A late delete of a purged row (a dead letter's origin) leaves the count alone.
    cleanUp(11, 1);
    assertTalliesExact();
    assertEquals(1L, tallied().get(11L));
    assertEquals("{\"team\":\"a\"}", pool.query("SELECT tags FROM sluice_queues WHERE id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getString(0));
    // A saved row carries the queue's FIFO delay rule (schema V5), which start-up restores first.
    assertEquals("4/6", pool.query("SELECT delay_released_through || '/' || delay_changed_at FROM sluice_queues"
        + " WHERE id = 11").execute().await(10, TimeUnit.SECONDS).iterator().next().getString(0));
    ChangeBatch delete = new ChangeBatch();
    delete.queueDeleted(11);
    write(delete, false, fence, 0);
    assertEquals(null, tallied().get(11L));
    reapAll();
    assertEquals(0L, pool.query("SELECT count(*) FROM sluice_messages WHERE queue_id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
    assertEquals(0L, pool.query("SELECT count(*) FROM sluice_queues WHERE id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
    assertEquals(0L, pool.query("SELECT count(*) FROM sluice_dedup WHERE queue_id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
  }

  static long count(String sql) throws Exception {
    return pool.query(sql).execute().await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
  }

  /** Runs a reaper until nothing is left to reap. */
  static void reapAll() throws Exception {
    Reaper reaper = new Reaper(vertx, pool, UNCLAIMED, epoch -> {});
    reaper.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (count("SELECT count(*) FROM sluice_reaping") > 0) {
        assertTrue(System.nanoTime() < deadline, "the reaper did not finish");
        Thread.sleep(50);
      }
    } finally {
      reaper.stop();
    }
  }

  @Test
  void purgingOrDeletingABigQueueIsAFewStatementsAndTheReaperDeletesItsRowsInChunks() throws Exception {
    pool.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
        + " VALUES (41, 'big', 1, 1, '{}', '{}')").execute().await(10, TimeUnit.SECONDS);
    int rows = 3 * Reaper.CHUNK_ROWS + 17;
    pool.query("INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number, visible_at,"
        + " receive_count, first_receive_at, receipt_sequence, content, first_visible_at, arrival)"
        + " SELECT 41, k, gen_random_uuid(), 1, 0, 0, 0, 0, 0, '\\x00', 1, 0 FROM generate_series(1, " + rows + ") k;"
        + " INSERT INTO sluice_queue_tallies (queue_id, slot, messages) VALUES (41, 0, " + rows + ")")
        .execute().await(30, TimeUnit.SECONDS);
    ChangeBatch purge = new ChangeBatch();
    purge.queuePurged(41);
    purge.stored(row(41, rows + 1, "after"));
    write(purge, 0);
    assertTalliesExact();
    assertEquals(1L, tallied().get(41L));
    assertEquals(rows + 1L, count("SELECT below_key FROM sluice_reaping WHERE queue_id = 41"));

    // A reaper stopped part-way (the server stopped) leaves the rest to the next one.
    Reaper first = new Reaper(vertx, pool, UNCLAIMED, epoch -> {});
    first.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (first.reaped() == 0) {
      assertTrue(System.nanoTime() < deadline, "the reaper did not start");
      Thread.sleep(20);
    }
    first.stop();
    reapAll();
    assertEquals(1L, count("SELECT count(*) FROM sluice_messages WHERE queue_id = 41"));
    assertTalliesExact();

    ChangeBatch delete = new ChangeBatch();
    delete.queueDeleted(41);
    write(delete, 0);
    reapAll();
    assertEquals(0L, count("SELECT count(*) FROM sluice_messages WHERE queue_id = 41"));
    assertEquals(0L, count("SELECT count(*) FROM sluice_queue_tallies WHERE queue_id = 41"));
  }

  @Test
  void rowsSomeoneHoldsLockedHoldUpOnlyTheirOwnQueuesReaping() throws Exception {
    for (long q : new long[] {51, 52}) {
      pool.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
          + " VALUES (" + q + ", 'locked-" + q + "', 1, 1, '{}', '{}')").execute().await(10, TimeUnit.SECONDS);
      pool.query("INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number,"
          + " visible_at, receive_count, first_receive_at, receipt_sequence, content, first_visible_at, arrival)"
          + " SELECT " + q + ", k, gen_random_uuid(), 1, 0, 0, 0, 0, 0, '\\x00', 1, 0 FROM generate_series(1, 100) k;"
          + " INSERT INTO sluice_queue_tallies (queue_id, slot, messages) VALUES (" + q + ", 0, 100)")
          .execute().await(30, TimeUnit.SECONDS);
    }
    ChangeBatch purge = new ChangeBatch();
    purge.queuePurged(51);
    purge.queuePurged(52);
    write(purge, 0);
    // Queue 51 comes first in the reaper's order, and its rows are locked by a transaction that stays open.
    SqlConnection holder = pool.getConnection().await(10, TimeUnit.SECONDS);
    Transaction held = holder.begin().await(10, TimeUnit.SECONDS);
    holder.query("SELECT 1 FROM sluice_messages WHERE queue_id = 51 FOR UPDATE").execute().await(10, TimeUnit.SECONDS);
    Reaper reaper = new Reaper(vertx, pool, UNCLAIMED, epoch -> {});
    reaper.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (count("SELECT count(*) FROM sluice_messages WHERE queue_id = 52") > 0) {
        assertTrue(System.nanoTime() < deadline, "queue 52 was reaped while 51's rows were locked");
        Thread.sleep(50);
      }
      assertEquals(100L, count("SELECT count(*) FROM sluice_messages WHERE queue_id = 51"));
      held.rollback().await(10, TimeUnit.SECONDS);
      while (count("SELECT count(*) FROM sluice_messages WHERE queue_id = 51") > 0) {
        assertTrue(System.nanoTime() < deadline, "queue 51 was reaped once its rows were free");
        Thread.sleep(50);
      }
    } finally {
      reaper.stop();
      holder.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aQueueDeletedAndCreatedAgainUnderTheSameNameInOneBatchIsWritten() throws Exception {
    ChangeBatch first = new ChangeBatch();
    first.queueSaved(new QueueRow(21, "000000000000", "us-east-1", "again", 1, 1, "{}", "{}",
        Long.MIN_VALUE, Long.MIN_VALUE));
    write(first, false, new DatabaseFence(UNCLAIMED), 0);
    // A writer far behind (an outage of a minute or more) gets both in one batch: the name is
    // unique, so the old row must go before the new one comes.
    ChangeBatch both = new ChangeBatch();
    both.queueDeleted(21);
    both.queueSaved(new QueueRow(22, "000000000000", "us-east-1", "again", 2, 2, "{}", "{}",
        Long.MIN_VALUE, Long.MIN_VALUE));
    write(both, false, new DatabaseFence(UNCLAIMED), 0);
    assertEquals(22L, pool.query("SELECT id FROM sluice_queues WHERE name = 'again'").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
  }

  @Test
  void aBatchRetriedAfterAnUnknownOutcomeWritesItsStateAgainWithoutFailing() throws Exception {
    ChangeBatch b = new ChangeBatch();
    b.stored(row(7, 5000, "retried"));
    write(b, false, new DatabaseFence(UNCLAIMED), 0);
    // As if the first attempt's COMMIT reached the server but its answer was lost.
    assertThrows(Exception.class, () -> BatchWriter.write(pool, b, false, new DatabaseFence(UNCLAIMED), 5000, 0).await(30, TimeUnit.SECONDS));
    write(b, true, new DatabaseFence(UNCLAIMED), 0);
    assertEquals(1L, pool.query("SELECT count(*) FROM sluice_messages WHERE message_key = 5000").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
    ChangeBatch cleanUp = new ChangeBatch();
    cleanUp.deleted(7, 5000);
    write(cleanUp, false, new DatabaseFence(UNCLAIMED), 0);
  }
  /**
   * A delete finds each row by its queue and key in the plan PostgreSQL caches for the writer's
   * prepared statement (a generic plan, estimated without the arrays' sizes), whether or not the
   * messages have statistics yet; the queues table, a few rows, never gets them from autovacuum.
   * When the purge key was joined from the queue row, that plan found the rows by queue alone (or
   * scanned the table) and filtered them by key: every delete cost the queue's depth, a ceiling of
   * about 4,300 msgs/s on durable send-receive-delete loops on two cores.
   */
  @Test
  void aDeleteFindsEachRowByItsKeyInTheCachedPlan() throws Exception {
    io.vertx.sqlclient.SqlConnection conn = pool.getConnection().await(10, TimeUnit.SECONDS);
    try {
      // Fresh copies of the two tables (as a new database has them: no statistics, whatever the
      // other tests did), a queue of a thousand rows, in a transaction that leaves nothing behind.
      run(conn, "BEGIN");
      run(conn, "CREATE SCHEMA plan_check");
      run(conn, "SET LOCAL search_path = plan_check");
      run(conn, "CREATE TABLE sluice_queues (LIKE public.sluice_queues INCLUDING ALL)");
      run(conn, "CREATE TABLE sluice_messages (LIKE public.sluice_messages INCLUDING ALL)");
      run(conn, "INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
          + " VALUES (7, 'orders', 1, 1, '{}', '{}')");
      run(conn, "INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number,"
          + " visible_at, receive_count, first_receive_at, receipt_sequence, first_visible_at, content)"
          + " SELECT 7, k, gen_random_uuid(), 0, 0, 0, 0, 0, 0, 0, '\\x00'::bytea FROM generate_series(1, 1000) k");
      run(conn, "SET LOCAL plan_cache_mode = force_generic_plan");
      run(conn, "PREPARE planned_delete(bigint[], bigint[]) AS " + BatchWriter.delete(1));
      String byKey = "Index Cond: ((queue_id = d.queue_id) AND (message_key = d.message_key))";
      String plan = run(conn, "EXPLAIN EXECUTE planned_delete('{7}', '{1}')");
      assertTrue(plan.contains(byKey), "before any statistics:\n" + plan);
      run(conn, "ANALYZE sluice_messages");
      plan = run(conn, "EXPLAIN EXECUTE planned_delete('{7}', '{1}')");
      assertTrue(plan.contains(byKey), "with the messages' statistics:\n" + plan);
    } finally {
      run(conn, "ROLLBACK");
      run(conn, "DEALLOCATE ALL");
      conn.close().await(10, TimeUnit.SECONDS);
    }
  }

  /** Runs {@code sql} on {@code conn}; answers the first column of its rows, a line each. */
  private static String run(io.vertx.sqlclient.SqlConnection conn, String sql) throws Exception {
    StringBuilder out = new StringBuilder();
    conn.query(sql).execute().await(10, TimeUnit.SECONDS).forEach(r -> out.append(r.getValue(0)).append('\n'));
    return out.toString();
  }
}
