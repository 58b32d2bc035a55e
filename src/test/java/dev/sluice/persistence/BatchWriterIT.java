package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
        + " VALUES (7, 'orders', 1, 1, '{}', '{}')").execute().await(10, TimeUnit.SECONDS);
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
    return new MessageRow(queueId, key, new UUID(1, key), 1000 + key, 100 + key, 0, 0, 0, 0,
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

  @Test
  void insertsUpdatesAndDeletesLandAsCoalesced() throws Exception {
    ChangeBatch first = new ChangeBatch();
    for (long k = 1; k <= 1000; k++) {
      first.stored(row(k));
    }
    first.changed(new DeliveryState(7, 2, 9000, 1, 2000, 1));
    first.deleted(7, 3);
    BatchWriter.write(pool, first, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    assertEquals(999, stored().size());
    assertEquals("2|body 2 ünïcode \uD83D\uDE00|9000|1|1|102", stored().get(1));

    ChangeBatch second = new ChangeBatch();
    second.changed(new DeliveryState(7, 1, 5000, 1, 2000, 1));
    second.changed(new DeliveryState(7, 2, 0, 1, 2000, 1));
    for (long k = 4; k <= 1000; k++) {
      second.deleted(7, k);
    }
    BatchWriter.write(pool, second, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    assertEquals(List.of("1|body 1 ünïcode \uD83D\uDE00|5000|1|1|101", "2|body 2 ünïcode \uD83D\uDE00|0|1|1|102"),
        stored());
  }

  @Test
  void queueRowsPurgesAndQueueDeletionsLandInOrder() throws Exception {
    ChangeBatch b = new ChangeBatch();
    b.queueSaved(new QueueRow(11, "000000000000", "us-east-1", "other", 5, 5, "{\"DelaySeconds\":\"0\"}", "{}"));
    b.stored(row(11, 1, "before purge"));
    BatchWriter.write(pool, b, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    ChangeBatch purge = new ChangeBatch();
    purge.queueSaved(
        new QueueRow(11, "000000000000", "us-east-1", "other", 5, 6, "{\"DelaySeconds\":\"1\"}", "{\"team\":\"a\"}"));
    purge.queuePurged(11);
    purge.stored(row(11, 2, "after purge"));
    purge.deduplicationRemembered(new DedupRow(11, "d2", new UUID(3, 2), 102, Long.MAX_VALUE));
    BatchWriter.write(pool, purge, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    assertEquals("after purge", body(pool.query("SELECT content FROM sluice_messages WHERE queue_id = 11")
        .execute().await(10, TimeUnit.SECONDS).iterator().next()));
    assertEquals("{\"team\":\"a\"}", pool.query("SELECT tags FROM sluice_queues WHERE id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getString(0));
    ChangeBatch delete = new ChangeBatch();
    delete.queueDeleted(11);
    BatchWriter.write(pool, delete, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    assertEquals(0L, pool.query("SELECT count(*) FROM sluice_messages WHERE queue_id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
    assertEquals(0L, pool.query("SELECT count(*) FROM sluice_queues WHERE id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
    assertEquals(0L, pool.query("SELECT count(*) FROM sluice_dedup WHERE queue_id = 11").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
  }

  @Test
  void aQueueDeletedAndCreatedAgainUnderTheSameNameInOneBatchIsWritten() throws Exception {
    ChangeBatch first = new ChangeBatch();
    first.queueSaved(new QueueRow(21, "000000000000", "us-east-1", "again", 1, 1, "{}", "{}"));
    BatchWriter.write(pool, first, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    // A writer far behind (an outage of a minute or more) gets both in one batch: the name is
    // unique, so the old row must go before the new one comes.
    ChangeBatch both = new ChangeBatch();
    both.queueDeleted(21);
    both.queueSaved(new QueueRow(22, "000000000000", "us-east-1", "again", 2, 2, "{}", "{}"));
    BatchWriter.write(pool, both, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    assertEquals(22L, pool.query("SELECT id FROM sluice_queues WHERE name = 'again'").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
  }

  @Test
  void aBatchRetriedAfterAnUnknownOutcomeWritesItsStateAgainWithoutFailing() throws Exception {
    ChangeBatch b = new ChangeBatch();
    b.stored(row(7, 5000, "retried"));
    BatchWriter.write(pool, b, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    // As if the first attempt's COMMIT reached the server but its answer was lost.
    assertThrows(Exception.class, () -> BatchWriter.write(pool, b, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS));
    BatchWriter.write(pool, b, true, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
    assertEquals(1L, pool.query("SELECT count(*) FROM sluice_messages WHERE message_key = 5000").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
    ChangeBatch cleanUp = new ChangeBatch();
    cleanUp.deleted(7, 5000);
    BatchWriter.write(pool, cleanUp, false, UNCLAIMED, 5000).await(30, TimeUnit.SECONDS);
  }
}
