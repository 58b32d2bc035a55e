package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Group commit and riding out a PostgreSQL outage, against a real PostgreSQL. */
@NeedsTools(Tool.POSTGRESQL)
class PersistenceVerticleIT {
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static Pool pool;
  static PersistenceVerticle writer;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
        .connectingTo(PgConnectOptions.fromUri(pg.url()).setReconnectAttempts(0)).using(vertx).build();
    SchemaMigrations.load().migrate(pool).await(30, TimeUnit.SECONDS);
    pool.query("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
        + " VALUES (9, 'q', 1, 1, '{}', '{}')").execute().await(10, TimeUnit.SECONDS);
    writer = new PersistenceVerticle(pool, new WriteFence(0, 5000, epoch -> {}), 500, 2, 2, BatchObserver.NONE);
    vertx.deployVerticle(writer).await(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  static MessageRow row(long key) {
    return new MessageRow(9, key, new UUID(2, key), 1, 0, 0, 0, 0, 0, 1, (short) 0,
        new MessageContent("m" + key, null, null, "s", null, null, null).encode());
  }

  static long rows(long from, long to) throws Exception {
    return pool.preparedQuery("SELECT count(*) FROM sluice_messages WHERE message_key BETWEEN $1 AND $2")
        .execute(io.vertx.sqlclient.Tuple.of(from, to)).await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
  }

  @Test
  void concurrentSubmissionsShareTransactionsAndCompleteOnlyOnceCommitted() throws Exception {
    long before = writer.transactions();
    List<Future<Void>> all = new ArrayList<>();
    for (long k = 1; k <= 2000; k++) {
      MessageRow r = row(k);
      all.add(writer.submit(b -> b.stored(r), 1, 0));
    }
    Future.all(all).await(30, TimeUnit.SECONDS);
    assertEquals(2000, rows(1, 2000));
    long used = writer.transactions() - before;
    assertTrue(used >= 4 && used < 100, "2000 changes in " + used + " transactions (batches of at most 500)");
    assertEquals(0, writer.lagMillis());
  }

  @Test
  void aDeleteNeverOvertakesTheInsertOfItsMessageInAnOverlappingTransaction() throws Exception {
    // Relaxed durability lets a message be received and deleted before its insert has committed;
    // with two transactions running at once, the delete's batch must wait for the insert's.
    List<Future<Void>> all = new ArrayList<>();
    for (int round = 0; round < 20; round++) {
      long first = 20_000 + round * 1000L;
      for (long k = first; k < first + 600; k++) {
        MessageRow r = row(k);
        all.add(writer.submit(b -> b.stored(r), 1, 0));
      }
      Thread.sleep(3); // the inserts are on their way when the deletes arrive
      for (long k = first; k < first + 600; k++) {
        long key = k;
        all.add(writer.submit(b -> b.deleted(9, key), 1, 0));
      }
    }
    Future.all(all).await(60, TimeUnit.SECONDS);
    assertEquals(0, rows(20_000, 40_000), "every deleted message stays deleted");
  }

  @Test
  void aBatchPostgresRefusesForGoodFailsItsSubmissionsAndTheWriterGoesOn() throws Exception {
    // PostgreSQL's text cannot hold U+0000: no retry would ever get this row in.
    Future<Void> refused = writer.submit(b -> b.deduplicationRemembered(
        new DedupRow(9, "bad\u0000key", new UUID(5, 5), 1, Long.MAX_VALUE)), 1, 0);
    assertTrue(refused.transform(r -> Future.succeededFuture(r.failed())).await(30, TimeUnit.SECONDS),
        "the refused submission fails instead of being retried for ever");
    MessageRow r = row(50_000);
    writer.submit(b -> b.stored(r), 1, 0).await(30, TimeUnit.SECONDS);
    assertEquals(1, rows(50_000, 50_000), "and the writer goes on");
  }

  @Test
  void submissionsWaitThroughAnOutageAndCommitWhenPostgresIsBack() throws Exception {
    pg.stopNow();
    List<Future<Void>> all = new ArrayList<>();
    try {
      for (long k = 10_001; k <= 10_100; k++) {
        MessageRow r = row(k);
        all.add(writer.submit(b -> b.stored(r), 1, 0));
      }
      Thread.sleep(600);
      assertTrue(all.stream().noneMatch(Future::isComplete), "nothing is acknowledged while PostgreSQL is down");
      assertTrue(writer.failures() > 0);
      assertTrue(writer.lagMillis() >= 500, "lag " + writer.lagMillis());
    } finally {
      pg.restart();
    }
    Future.all(all).await(30, TimeUnit.SECONDS);
    assertEquals(100, rows(10_001, 10_100));
  }

  static boolean fenced(Future<Void> f) throws Exception {
    return f.transform(r -> Future.succeededFuture(r.failed() && BatchWriter.fenced(r.cause())))
        .await(30, TimeUnit.SECONDS);
  }

  /**
   * Cluster mode: submissions carry their shard's epoch. When a shard moves on, the submissions of
   * its old epoch fail, those of the other shards in the same batches still commit, the writer
   * says which shard was lost, and a later submission of the old epoch fails at once; the shard's
   * new epoch writes again.
   */
  @Test
  void aShardThatMovedOnFailsOnlyItsOwnSubmissionsAndTheOthersInItsBatchesCommit() throws Exception {
    pool.query("INSERT INTO sluice_shard_leases (shard, epoch, owner, released) VALUES (1, 3, 'me', false),"
        + " (2, 3, 'me', false)").execute().await(10, TimeUnit.SECONDS);
    List<Map<Integer, Long>> told = new java.util.concurrent.CopyOnWriteArrayList<>();
    writer.onShardsFenced(told::add);
    try {
      pool.query("UPDATE sluice_shard_leases SET epoch = 4, owner = 'other' WHERE shard = 2").execute()
          .await(10, TimeUnit.SECONDS);
      List<Future<Void>> one = new ArrayList<>();
      List<Future<Void>> two = new ArrayList<>();
      for (long k = 60_000; k < 60_400; k++) {
        MessageRow r = row(k);
        // Each submission writes the same queue: the fence alone decides.
        (k % 2 == 0 ? one : two).add(writer.submit(ShardFence.of((int) (1 + k % 2), 3), b -> b.stored(r), 1, 0));
      }
      Future.all(one).await(30, TimeUnit.SECONDS);
      for (Future<Void> f : two) {
        assertTrue(fenced(f), "a submission of shard 2 at its old epoch is refused");
      }
      assertEquals(200, rows(60_000, 60_399), "shard 1's rows, and none of shard 2's");
      assertEquals(List.of(Map.of(2, 3L)), told, "told once, of shard 2 at epoch 3");

      MessageRow late = row(60_500);
      assertTrue(fenced(writer.submit(ShardFence.of(2, 3), b -> b.stored(late), 1, 0)), "later ones fail at once");
      assertEquals(1, told.size(), "without another refusal from PostgreSQL");
      MessageRow both = row(60_501);
      assertTrue(fenced(writer.submit(ShardFence.of(Map.of(1, 3L, 2, 3L)), b -> b.stored(both), 1, 0)),
          "nor with another shard");

      // Shard 2 comes back to this node at a new epoch, while a submission of its old one is queued.
      MessageRow again = row(60_502);
      MessageRow old = row(60_503);
      Future<Void> stale = writer.submit(ShardFence.of(2, 3), b -> b.stored(old), 1, 0);
      Future<Void> fresh = writer.submit(ShardFence.of(2, 4), b -> b.stored(again), 1, 0);
      fresh.await(30, TimeUnit.SECONDS);
      assertTrue(fenced(stale));
      assertEquals(1, rows(60_500, 60_503), "only the new epoch's row");
      assertEquals(0, writer.pendingChanges());
    } finally {
      writer.onShardsFenced(stale -> {});
    }
  }
}
