package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retention of rows held only in PostgreSQL on a real PostgreSQL: which rows an expiry deletes
 * (after the frontier only, dead letters by sent time, others once visible, never below a purge
 * key), its limit, the tallies it keeps exact, the oldest it measures, and that its searches are
 * index ranges, not scans of the backlog.
 */
@NeedsTools(Tool.POSTGRESQL)
class ExpirySqlIT {
  static final long UNCLAIMED = 0;
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static Pool pool;

  @BeforeAll
  static void startPostgres() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2)).connectingTo(PgConnectOptions.fromUri(pg.url()))
        .using(vertx).build();
    SchemaMigrations.load().migrate(pool).await(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    pool.close().await(10, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  static void queue(long id, String name) throws Exception {
    pool.preparedQuery("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
        + " VALUES ($1, $2, 1, 1, '{}', '{}')").execute(Tuple.of(id, name)).await(10, TimeUnit.SECONDS);
  }

  static MessageRow row(long queueId, long key, long sentAt, long sequence, long firstVisibleAt, int arrival) {
    return new MessageRow(queueId, key, new UUID(queueId, key), sentAt, sequence, 0, 0, 0, 0, firstVisibleAt,
        (short) arrival, new MessageContent("m" + key, null, null, "s", null, null, null).encode());
  }

  static void store(List<MessageRow> rows) throws Exception {
    ChangeBatch b = new ChangeBatch();
    rows.forEach(b::stored);
    BatchWriter.write(pool, b, false, new DatabaseFence(UNCLAIMED), 5000, 0).await(30, TimeUnit.SECONDS);
  }

  static List<Long> keys(long queueId) throws Exception {
    List<Long> out = new ArrayList<>();
    for (Row r : pool.preparedQuery("SELECT message_key FROM sluice_messages WHERE queue_id = $1 ORDER BY message_key")
        .execute(Tuple.of(queueId)).await(10, TimeUnit.SECONDS)) {
      out.add(r.getLong(0));
    }
    return out;
  }

  static ExpirySql.Expired expire(long queueId, boolean fifo, long afterMajor, long afterMinor, long cutoff,
      long purgedBelowKey, int limit) throws Exception {
    return ExpirySql.expire(pool, new DatabaseFence(UNCLAIMED), queueId, fifo, afterMajor, afterMinor, cutoff, purgedBelowKey, limit)
        .await(30, TimeUnit.SECONDS);
  }

  @Test
  void aStandardQueuesExpiredRowsAfterItsFrontierGoInChunksAndTheOldestLeftIsMeasured() throws Exception {
    queue(7, "orders");
    List<MessageRow> rows = new ArrayList<>();
    for (long k = 1; k <= 100; k++) {
      rows.add(row(7, k, 1000 + k, 0, 1000 + k, 0));
    }
    rows.add(row(7, 101, 1001, 0, 5000, 0)); // sent early, delayed: not visible by the cutoff
    rows.add(row(7, 102, 500, 0, 1200, 1)); // a dead letter: its sent time is its first queue's
    store(rows);
    // Rows up to (1010, 10) are resident: not the expiry's to delete, whatever their age.
    ExpirySql.Expired first = expire(7, false, 1010, 10, 1050, 0, 15);
    assertEquals(16, first.deleted().size(), "15 by place, and the dead letter by sent time");
    assertTrue(first.deleted().stream().anyMatch(d -> d.arrival() == 1 && d.sentAt() == 500));
    assertEquals(1026, first.oldestSentAt(), "the first row left after the frontier");
    TallyCheck.assertExact(pg.url());
    ExpirySql.Expired second = expire(7, false, 1010, 10, 1050, 0, 5000);
    assertEquals(25, second.deleted().size());
    assertEquals(1051, second.oldestSentAt(), "the delayed row sent at 1001 is not seen: up to its delay");
    List<Long> left = keys(7);
    assertEquals(10 + 50 + 1, left.size());
    assertTrue(left.contains(101L), "not visible by the cutoff: left for a later expiry, or a read");
    assertTrue(left.containsAll(List.of(1L, 10L)), "resident rows stay");
    TallyCheck.assertExact(pg.url());
    assertEquals(0, expire(7, false, 1010, 10, 1050, 0, 5000).deleted().size(), "nothing more is due");
  }

  @Test
  void rowsBelowAPurgeKeyAreTheReapersAndNeverCountedOffTwice() throws Exception {
    queue(8, "purged");
    List<MessageRow> rows = new ArrayList<>();
    for (long k = 1; k <= 20; k++) {
      rows.add(row(8, k, 1000 + k, 0, 1000 + k, 0));
    }
    store(rows);
    // A purge committed after the queue asked (its request still says 0): zeroed tally, key 11.
    pool.query("UPDATE sluice_queues SET purged_below_key = 11 WHERE id = 8").execute().await(10, TimeUnit.SECONDS);
    pool.query("UPDATE sluice_queue_tallies SET messages = 0 WHERE queue_id = 8").execute()
        .await(10, TimeUnit.SECONDS);
    pool.query("UPDATE sluice_queue_tallies SET messages = 10 WHERE queue_id = 8 AND slot = 0").execute()
        .await(10, TimeUnit.SECONDS);
    ExpirySql.Expired expired = expire(8, false, Long.MIN_VALUE, Long.MIN_VALUE, 2000, 0, 5000);
    assertEquals(10, expired.deleted().size(), "keys 11..20 only");
    assertEquals(Long.MAX_VALUE, expired.oldestSentAt());
    assertEquals(0L, pool.query("SELECT sum(messages) FROM sluice_queue_tallies WHERE queue_id = 8").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
  }

  @Test
  void aFifoQueuesRowsGoBySequenceAfterItsFrontier() throws Exception {
    queue(9, "orders.fifo");
    List<MessageRow> rows = new ArrayList<>();
    for (long k = 1; k <= 30; k++) {
      rows.add(row(9, k, 1000 + k, 5000 + k, 1000 + k, 0));
    }
    store(rows);
    ExpirySql.Expired expired = expire(9, true, 5010, 10, 1020, 0, 5000);
    assertEquals(10, expired.deleted().size(), "sequence 5011..5020");
    assertEquals(1021, expired.oldestSentAt());
    assertEquals(20, keys(9).size());
    TallyCheck.assertExact(pg.url());
  }

  @Test
  void aDeletedQueueHasNothingToExpire() throws Exception {
    ExpirySql.Expired expired = expire(404, false, Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 0, 5000);
    assertEquals(0, expired.deleted().size());
    assertEquals(Long.MAX_VALUE, expired.oldestSentAt());
  }

  @Test
  void everySearchIsAnIndexRange() throws Exception {
    for (boolean fifo : new boolean[] {false, true}) {
      String plan = explain("EXPLAIN " + ExpirySql.delete(fifo, new DatabaseFence(0)).replace("$1", "7").replace("$2::bigint", "1")
          .replace("$3::bigint", "1").replace("$4::bigint", "1").replace("$5::bigint", "0").replace("$6", "10")
          .replace("$7", "0"));
      assertTrue(plan.contains("sluice_messages_delivery") && plan.contains("sluice_messages_kept")
          && !plan.contains("Seq Scan on sluice_messages"), plan);
      String oldest = explain("EXPLAIN " + ExpirySql.oldest(fifo).replace("$1", "7").replace("$2::bigint", "1")
          .replace("$3::bigint", "1").replace("$4::bigint", "0"));
      assertTrue(oldest.contains("sluice_messages_kept") && !oldest.contains("Seq Scan on sluice_messages"), oldest);
    }
  }

  static String explain(String sql) throws Exception {
    // As on a large table: the planner may not pick a sequential scan however few rows there are.
    StringBuilder out = new StringBuilder();
    pool.withTransaction(c -> c.query("SET LOCAL enable_seqscan = off").execute()
        .compose(off -> c.query(sql).execute())
        .map(rows -> {
          for (Row r : rows) {
            out.append(r.getString(0)).append('\n');
          }
          return null;
        })).await(10, TimeUnit.SECONDS);
    return out.toString();
  }
}
