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
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The per-shard fence of cluster mode in PostgreSQL ({@code sluice_shard_fence}, schema V7): a batch
 * carrying an epoch its shard has moved past is refused whole and names the stale pairs; a
 * take-over or release waits for the writes in flight and sees them, and a write that waited for
 * one is refused; renewals neither wait for writes nor hold them up (the key-column argument); the
 * single-node claim fences every shard. Then writers, take-overs and renewals at random for a while:
 * no deadlock, and no write of an old epoch commits after the take-over that ended it.
 */
@NeedsTools(Tool.POSTGRESQL)
class ShardFenceIT {
  static final int SHARDS = 8;
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static Pool pool;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(8)).connectingTo(PgConnectOptions.fromUri(pg.url()))
        .using(vertx).build();
    SchemaMigrations.load().migrate(pool).await(30, TimeUnit.SECONDS);
    pool.preparedQuery(ShardLeaseSql.LEASE_ROWS).execute(Tuple.of(SHARDS)).await(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    pool.close().await(10, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  @BeforeEach
  void emptyTables() throws Exception {
    pool.query("DELETE FROM sluice_messages; DELETE FROM sluice_queues; DELETE FROM sluice_dedup;"
        + " DELETE FROM sluice_queue_tallies; UPDATE sluice_shard_leases SET epoch = 1, owner = 'a', released = false,"
        + " expires_at = clock_timestamp() + interval '1 hour'").execute().await(10, TimeUnit.SECONDS);
  }

  /** Moves a shard on as a take-over does (in its own transaction); answers the new epoch. */
  static long takeOver(int shard) throws Exception {
    return pool.preparedQuery(TAKE_OVER).execute(Tuple.of(shard)).await(10, TimeUnit.SECONDS).iterator().next()
        .getLong(0);
  }

  static final String TAKE_OVER = "UPDATE sluice_shard_leases SET epoch = epoch + 1, owner = 'b'"
      + " WHERE shard = $1 RETURNING epoch";

  static long count(String sql) throws Exception {
    return pool.query(sql).execute().await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
  }

  static Map<Integer, Long> fence(long epoch, int... shards) {
    Map<Integer, Long> pairs = new HashMap<>();
    for (int s : shards) {
      pairs.put(s, epoch);
    }
    return pairs;
  }

  /** A batch with one message in each shard's queue (queue id = shard), keys from {@code key}. */
  static ChangeBatch oneEach(long key, int... shards) {
    ChangeBatch b = new ChangeBatch();
    for (int s : shards) {
      b.stored(FenceIT.row(s, key));
    }
    return b;
  }

  @Test
  void aBatchWithOneStaleShardIsRefusedWholeAndNamesItInBothStatementForms() throws Exception {
    long moved = takeOver(5);
    Map<Integer, Long> pairs = fence(1, 2, 5, 7);

    Throwable refused = FenceIT.failureOf(BatchWriter.write(pool, oneEach(1, 2, 5, 7), false, ShardFence.of(pairs),
        5000, 0));
    assertTrue(BatchWriter.fenced(refused), "refused by the fence: " + refused);
    assertEquals(Map.of(5, 1L), ShardFence.staleIn(((PgException) refused).getDetail()), "DETAIL names 5@1 only");
    assertEquals(0, count("SELECT count(*) FROM sluice_messages"), "nothing of the statement");

    ChangeBatch queues = oneEach(2, 2, 5);
    queues.queueSaved(new QueueRow(2, "000000000000", "us-east-1", "fenced", 1, 1, "{}", "{}", Long.MIN_VALUE,
        Long.MIN_VALUE));
    Throwable refusedTransaction = FenceIT.failureOf(BatchWriter.write(pool, queues, false,
        ShardFence.of(fence(1, 2, 5)), 5000, 0));
    assertTrue(BatchWriter.fenced(refusedTransaction));
    assertEquals(Map.of(5, 1L), ShardFence.staleIn(((PgException) refusedTransaction).getDetail()));
    assertEquals(0, count("SELECT count(*) FROM sluice_queues"), "the transaction refused at its first statement");

    // With the current epochs both go through; a shard without a lease row is never current.
    pairs.put(5, moved);
    BatchWriter.write(pool, oneEach(1, 2, 5, 7), false, ShardFence.of(pairs), 5000, 0).await(30, TimeUnit.SECONDS);
    BatchWriter.write(pool, queues, false, ShardFence.of(Map.of(2, 1L, 5, moved)), 5000, 0)
        .await(30, TimeUnit.SECONDS);
    assertEquals(5, count("SELECT count(*) FROM sluice_messages"));
    assertEquals(1, count("SELECT count(*) FROM sluice_queues"));
    Throwable unknown = FenceIT.failureOf(BatchWriter.write(pool, oneEach(9, 2), false,
        ShardFence.of(Map.of(2, 1L, SHARDS + 3, 1L)), 5000, 0));
    assertEquals(Map.of(SHARDS + 3, 1L), ShardFence.staleIn(((PgException) unknown).getDetail()));
  }

  @Test
  void aTakeOverWaitsForAWriteInFlightAndSeesItAndTheOldEpochsNextWriteIsRefused() throws Exception {
    SqlConnection writer = pool.getConnection().await(10, TimeUnit.SECONDS);
    try {
      writer.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      ShardFence held = ShardFence.of(fence(1, 3, 4));
      writer.preparedQuery(BatchWriter.fenceTransaction(held)).execute(held.parameters().addString("5000"))
          .await(10, TimeUnit.SECONDS);
      writer.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
          + " VALUES (4, 'in-flight', 1, 1, '{}', '{}')").execute().await(10, TimeUnit.SECONDS);

      SqlConnection taker = pool.getConnection().await(10, TimeUnit.SECONDS);
      try {
        Future<Long> seen = taker.query("BEGIN").execute()
            .compose(v -> taker.preparedQuery(TAKE_OVER).execute(Tuple.of(4)))
            .compose(v -> taker.query("SELECT count(*) FROM sluice_queues WHERE name = 'in-flight'").execute())
            .map(rows -> rows.iterator().next().getLong(0))
            .compose(n -> taker.query("COMMIT").execute().map(n));
        // A release takes the same lock: it waits too.
        Future<Optional<Long>> released = ShardLeaseSql.release(pool, 3, 1, "a");
        Thread.sleep(500);
        assertFalse(seen.isComplete(), "the take-over waits for the write holding the shard's fence");
        assertFalse(released.isComplete(), "and so does a release");
        // A renewal changes no key column: it does not wait.
        assertEquals(Set.of(3, 4), ShardLeaseSql.renew(pool, new int[] {3, 4}, new long[] {1, 1}, "a", 3000, false)
            .await(2, TimeUnit.SECONDS), "a renewal goes through while the write holds the fence");
        writer.query("COMMIT").execute().await(10, TimeUnit.SECONDS);
        assertEquals(1, seen.await(10, TimeUnit.SECONDS), "the take-over sees what committed before it");
        assertTrue(released.await(10, TimeUnit.SECONDS).isPresent());
      } finally {
        taker.close();
      }
    } finally {
      writer.close();
    }
    Throwable refused = FenceIT.failureOf(BatchWriter.write(pool, oneEach(1, 4), false, ShardFence.of(4, 1), 5000, 0));
    assertTrue(BatchWriter.fenced(refused));
    assertTrue(BatchWriter.fenced(FenceIT.failureOf(BatchWriter.write(pool, oneEach(1, 3), false,
        ShardFence.of(3, 1), 5000, 0))), "a released shard's old epoch is refused too");
  }

  @Test
  void aWriteThatWaitedForATakeOverIsRefusedAndOneThatWaitedForARenewalIsNot() throws Exception {
    SqlConnection taker = pool.getConnection().await(10, TimeUnit.SECONDS);
    try {
      taker.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      taker.preparedQuery(TAKE_OVER).execute(Tuple.of(6)).await(10, TimeUnit.SECONDS);
      Future<Void> write = BatchWriter.write(pool, oneEach(1, 1, 6), false, ShardFence.of(fence(1, 1, 6)), 5000, 0);
      Thread.sleep(500);
      assertFalse(write.isComplete(), "the write waits for the take-over");
      taker.query("COMMIT").execute().await(10, TimeUnit.SECONDS);
      Throwable refused = FenceIT.failureOf(write);
      assertTrue(BatchWriter.fenced(refused), "then sees the new epoch and is refused: " + refused);
      assertEquals(0, count("SELECT count(*) FROM sluice_messages"));

      // A renewal left uncommitted holds FOR NO KEY UPDATE: a write's FOR KEY SHARE does not wait for it.
      taker.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      taker.preparedQuery(ShardLeaseSql.RENEW).execute(Tuple.tuple().addArrayOfInteger(new Integer[] {1})
          .addArrayOfLong(new Long[] {1L}).addLong(3000L).addString("a").addString("a")).await(10, TimeUnit.SECONDS);
      BatchWriter.write(pool, oneEach(2, 1), false, ShardFence.of(1, 1), 5000, 0).await(2, TimeUnit.SECONDS);
      taker.query("COMMIT").execute().await(10, TimeUnit.SECONDS);
      assertEquals(1, count("SELECT count(*) FROM sluice_messages"));
    } finally {
      taker.close();
    }
  }

  @Test
  void aSingleNodeClaimOfTheDatabaseFencesEveryShard() throws Exception {
    pool.preparedQuery(DatabaseOwnership.CLAIM).execute(Tuple.of("single", 0L)).await(10, TimeUnit.SECONDS);
    Throwable refused = FenceIT.failureOf(BatchWriter.write(pool, oneEach(1, 0, 7), false,
        ShardFence.of(fence(1, 0, 7)), 5000, 0));
    assertEquals(Map.of(0, 1L, 7, 1L), ShardFence.staleIn(((PgException) refused).getDetail()));
    assertEquals(SHARDS, count("SELECT count(*) FROM sluice_shard_leases WHERE released AND owner IS NULL"
        + " AND epoch = 2"), "every shard released, its epoch moved on");
  }

  /**
   * Three writers (batches over 1–3 random shards, some as transactions), take-overs and renewals at
   * random. Each take-over reads, in its own transaction, how many rows of older epochs its shard
   * has, as a new owner's load would; at the end that count must not have grown: no write of an
   * older epoch committed after the take-over. Rows record the epoch they were written under in
   * {@code sent_at}. Any error other than the fence (a deadlock, say) fails the test.
   */
  @Test
  void writersTakeOversAndRenewalsAtRandomNeverLetAnOldEpochCommitAfterItsTakeOver() throws Exception {
    long runMillis = 4_000;
    AtomicBoolean running = new AtomicBoolean(true);
    Map<Integer, Long> current = new ConcurrentHashMap<>();
    for (int s = 0; s < SHARDS; s++) {
      current.put(s, 1L);
    }
    List<long[]> takeOvers = new CopyOnWriteArrayList<>(); // shard, new epoch, rows of older epochs seen
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    AtomicLong written = new AtomicLong();
    AtomicLong fenced = new AtomicLong();
    AtomicLong keys = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      int lane = w;
      threads.add(new Thread(() -> {
        Random random = new Random(lane);
        Map<Integer, Long> known = new HashMap<>(current);
        while (running.get()) {
          int n = 1 + random.nextInt(3);
          Map<Integer, Long> pairs = new HashMap<>();
          while (pairs.size() < n) {
            int s = random.nextInt(SHARDS);
            pairs.put(s, known.get(s));
          }
          ChangeBatch b = new ChangeBatch();
          for (Map.Entry<Integer, Long> p : pairs.entrySet()) {
            long key = keys.incrementAndGet();
            MessageRow r = FenceIT.row(p.getKey(), key);
            b.stored(new MessageRow(r.queueId(), key, r.messageId(), p.getValue(), 0, 0, 0, 0, 0, 1, (short) 0,
                r.content()));
          }
          if (random.nextInt(4) == 0) {
            b.queueSaved(new QueueRow(100 + lane, "000000000000", "us-east-1", "q" + lane, 1, 1, "{}", "{}",
                Long.MIN_VALUE, Long.MIN_VALUE));
          }
          try {
            BatchWriter.write(pool, b, false, ShardFence.of(pairs), 5000, lane).await(30, TimeUnit.SECONDS);
            written.addAndGet(n);
          } catch (Exception e) {
            Throwable cause = e instanceof PgException ? e : e.getCause() == null ? e : e.getCause();
            if (!BatchWriter.fenced(cause)) {
              errors.add(cause);
              return;
            }
            fenced.incrementAndGet();
            for (Map.Entry<Integer, Long> stale : ShardFence.staleIn(((PgException) cause).getDetail()).entrySet()) {
              if (!pairs.get(stale.getKey()).equals(stale.getValue())) {
                errors.add(new AssertionError("DETAIL names a pair the batch did not carry: " + stale));
              }
              known.put(stale.getKey(), current.get(stale.getKey()));
            }
          }
        }
      }, "writer-" + w));
    }
    threads.add(new Thread(() -> {
      Random random = new Random(7);
      while (running.get()) {
        int shard = random.nextInt(SHARDS);
        try {
          Thread.sleep(20 + random.nextInt(80));
          long[] seen = pool.withTransaction(conn -> conn.preparedQuery(TAKE_OVER).execute(Tuple.of(shard))
              .compose(rows -> {
                long epoch = rows.iterator().next().getLong(0);
                return conn.preparedQuery("SELECT count(*) FROM sluice_messages WHERE queue_id = $1 AND sent_at < $2")
                    .execute(Tuple.of(shard, epoch)).map(c -> new long[] {shard, epoch, c.iterator().next().getLong(0)});
              })).await(30, TimeUnit.SECONDS);
          takeOvers.add(seen);
          current.put(shard, seen[1]);
        } catch (Exception e) {
          errors.add(e);
          return;
        }
      }
    }, "take-overs"));
    threads.add(new Thread(() -> {
      while (running.get()) {
        try {
          Thread.sleep(25);
          int[] shards = new int[SHARDS];
          long[] epochs = new long[SHARDS];
          for (int s = 0; s < SHARDS; s++) {
            shards[s] = s;
            epochs[s] = current.get(s);
          }
          ShardLeaseSql.renew(pool, shards, epochs, "b", 3000, false).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
          errors.add(e);
          return;
        }
      }
    }, "renewals"));
    threads.forEach(Thread::start);
    Thread.sleep(runMillis);
    running.set(false);
    for (Thread t : threads) {
      t.join(60_000);
      assertFalse(t.isAlive(), t.getName() + " finished (no deadlock)");
    }
    assertEquals(List.of(), errors, "only the fence refused writes");
    assertTrue(takeOvers.size() > 30 && written.get() > 300 && fenced.get() > 10,
        takeOvers.size() + " take-overs, " + written.get() + " rows written, " + fenced.get() + " batches fenced");
    for (long[] t : takeOvers) {
      long now = count("SELECT count(*) FROM sluice_messages WHERE queue_id = " + t[0] + " AND sent_at < " + t[1]);
      assertEquals(t[2], now, "rows of shard " + t[0] + " older than epoch " + t[1]
          + " committed after its take-over");
    }
  }
}
