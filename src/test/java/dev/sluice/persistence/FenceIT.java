package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fence in PostgreSQL: a write carrying an epoch the database has moved past is refused with
 * SQLSTATE SLFEN and writes nothing, and a claim and the writes in flight when it comes are ordered
 * (the claim waits for them and sees them; a write that waited for a claim is refused).
 */
@NeedsTools(Tool.POSTGRESQL)
class FenceIT {
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static Pool pool;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(4)).connectingTo(PgConnectOptions.fromUri(pg.url()))
        .using(vertx).build();
    SchemaMigrations.load().migrate(pool).await(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    pool.close().await(10, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  @BeforeEach
  void emptyTables() throws Exception {
    pool.query("DELETE FROM sluice_messages; DELETE FROM sluice_queues; DELETE FROM sluice_dedup").execute()
        .await(10, TimeUnit.SECONDS);
  }

  /** Claims the database as another server would: answers the new epoch. */
  static long claim(String holder) throws Exception {
    return pool.preparedQuery(DatabaseOwnership.CLAIM).execute(Tuple.of(holder, System.currentTimeMillis()))
        .await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
  }

  static long count(String table) throws Exception {
    return pool.query("SELECT count(*) FROM " + table).execute().await(10, TimeUnit.SECONDS).iterator().next()
        .getLong(0);
  }

  static MessageRow row(long queueId, long key) {
    return new MessageRow(queueId, key, new UUID(3, key), 1, 0, 0, 0, 0, 0, 1, (short) 0,
        new MessageContent("m" + key, null, null, "s", null, null, null).encode());
  }

  static ChangeBatch messages(long queueId, long fromKey, int n) {
    ChangeBatch b = new ChangeBatch();
    for (long k = fromKey; k < fromKey + n; k++) {
      b.stored(row(queueId, k));
    }
    b.deduplicationRemembered(new DedupRow(queueId, "d" + fromKey, new UUID(3, fromKey), 1, Long.MAX_VALUE));
    return b;
  }

  static Throwable failureOf(Future<?> f) {
    try {
      f.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("expected the write to be refused");
  }

  @Test
  void aBatchWrittenWithAStaleEpochIsRefusedAndWritesNothing() throws Exception {
    long stale = claim("first");
    long current = claim("second");
    assertEquals(stale + 1, current);

    Throwable refused = failureOf(BatchWriter.write(pool, messages(1, 1, 100), false, new DatabaseFence(stale), 5000, 0));
    assertTrue(BatchWriter.fenced(refused), "refused by the fence: " + refused);
    assertEquals(0, count("sluice_messages"), "no message of the refused statement");
    assertEquals(0, count("sluice_dedup"), "no deduplication row either");

    // A batch that changes queues is a transaction: refused at its first statement.
    ChangeBatch queues = messages(1, 1001, 10);
    queues.queueSaved(new QueueRow(1, "000000000000", "us-east-1", "fenced", 1, 1, "{}", "{}",
        Long.MIN_VALUE, Long.MIN_VALUE));
    queues.queuePurged(2);
    assertTrue(BatchWriter.fenced(failureOf(BatchWriter.write(pool, queues, false, new DatabaseFence(stale), 5000, 0))));
    assertEquals(0, count("sluice_queues"));
    assertEquals(0, count("sluice_messages"));

    // The same batches with the current epoch go through.
    BatchWriter.write(pool, messages(1, 1, 100), false, new DatabaseFence(current), 5000, 0).await(30, TimeUnit.SECONDS);
    BatchWriter.write(pool, queues, false, new DatabaseFence(current), 5000, 0).await(30, TimeUnit.SECONDS);
    assertEquals(1, count("sluice_queues"));
    assertEquals(110, count("sluice_messages"));
  }

  @Test
  void aWriteInFlightHoldsUpAClaimWhichThenSeesIt() throws Exception {
    long epoch = claim("writer");
    SqlConnection writer = pool.getConnection().await(10, TimeUnit.SECONDS);
    try {
      // A queue-change transaction as BatchWriter runs it, stopped before its commit.
      writer.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      writer.preparedQuery(BatchWriter.fenceTransaction(new DatabaseFence(0))).execute(Tuple.of(epoch, "5000")).await(10, TimeUnit.SECONDS);
      writer.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
          + " VALUES (5, 'in-flight', 1, 1, '{}', '{}')").execute().await(10, TimeUnit.SECONDS);

      // The claim and what the new owner reads first, in one transaction as recovery would follow it.
      SqlConnection taker = pool.getConnection().await(10, TimeUnit.SECONDS);
      try {
        Future<Long> seen = taker.query("BEGIN").execute()
            .compose(v -> taker.preparedQuery(DatabaseOwnership.CLAIM).execute(Tuple.of("taker", 0L)))
            .compose(v -> taker.query("SELECT count(*) FROM sluice_queues WHERE name = 'in-flight'").execute())
            .map(rows -> rows.iterator().next().getLong(0))
            .compose(n -> taker.query("COMMIT").execute().map(n));
        Thread.sleep(500);
        assertFalse(seen.isComplete(), "the claim waits for the write transaction holding the fence");
        writer.query("COMMIT").execute().await(10, TimeUnit.SECONDS);
        assertEquals(1, seen.await(10, TimeUnit.SECONDS), "the claim sees what committed before it");
      } finally {
        taker.close();
      }
    } finally {
      writer.close();
    }
    assertTrue(BatchWriter.fenced(failureOf(BatchWriter.write(pool, messages(5, 1, 1), false, new DatabaseFence(epoch), 5000, 0))),
        "and the old owner's next write is refused");
  }

  @Test
  void aWriteThatWaitedForAClaimIsRefused() throws Exception {
    long epoch = claim("old owner");
    SqlConnection taker = pool.getConnection().await(10, TimeUnit.SECONDS);
    try {
      taker.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      Row claimed = taker.preparedQuery(DatabaseOwnership.CLAIM).execute(Tuple.of("taker", 0L))
          .await(10, TimeUnit.SECONDS).iterator().next();
      assertEquals(epoch + 1, claimed.getLong(0));
      Future<Void> write = BatchWriter.write(pool, messages(1, 1, 10), false, new DatabaseFence(epoch), 5000, 0);
      Thread.sleep(500);
      assertFalse(write.isComplete(), "the write waits for the claim");
      taker.query("COMMIT").execute().await(10, TimeUnit.SECONDS);
      assertTrue(BatchWriter.fenced(failureOf(write)), "then reads the claimed epoch and is refused");
      assertEquals(0, count("sluice_messages"));
    } finally {
      taker.close();
    }
  }

  @Test
  void aWriteTransactionLeftIdleIsEndedSoThatItCannotHoldUpAClaim() throws Exception {
    long epoch = claim("paused owner");
    // A connection of its own, not the pool's: PostgreSQL ends it, and a pooled one handed to the
    // next test before the pool has noticed would fail that test.
    SqlConnection paused = PgConnection.connect(vertx, PgConnectOptions.fromUri(pg.url()))
        .await(10, TimeUnit.SECONDS);
    try {
      paused.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      paused.preparedQuery(BatchWriter.fenceTransaction(new DatabaseFence(0))).execute(Tuple.of(epoch, "300")).await(10, TimeUnit.SECONDS);
      long start = System.nanoTime();
      assertEquals(epoch + 1, claim("taker"), "the claim goes through once PostgreSQL ends the idle transaction");
      long waitedMillis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(waitedMillis >= 200 && waitedMillis < 5_000, "waited " + waitedMillis + " ms");
    } finally {
      paused.close();
    }
  }
}
