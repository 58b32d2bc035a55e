package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.persistence.ShardLeaseSql.Claimed;
import dev.sluice.persistence.ShardLeaseSql.LeaseRow;
import dev.sluice.persistence.ShardLeaseSql.MemberRow;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lease statements of cluster mode against a real PostgreSQL, judged by its clock: joining
 * records the shard count once and refuses another; a shard is taken over only when released or
 * expired, every change of owner moves its epoch on and each acquisition gets a run of its own; a
 * renewal keeps only the leases still held at their epochs; member rows expire with the leases.
 * The cases share one database, each on shards of its own.
 */
@NeedsTools(Tool.POSTGRESQL)
class ShardLeaseSqlIT {
  static final int SHARDS = 16;
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
    // A single-node server used this database before: it holds epoch 1.
    pool.preparedQuery(DatabaseOwnership.CLAIM).execute(Tuple.of("single", 0L)).await(10, TimeUnit.SECONDS);
    ShardLeaseSql.join(pool, SHARDS, "node-a", "host-a", "127.0.0.1:5702", "hash", 60_000)
        .await(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    pool.close().await(10, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  static LeaseRow lease(int shard) throws Exception {
    return ShardLeaseSql.leases(pool).await(10, TimeUnit.SECONDS).get(shard);
  }

  static long ownerEpoch() throws Exception {
    return pool.query("SELECT epoch FROM sluice_owner").execute().await(10, TimeUnit.SECONDS).iterator().next()
        .getLong(0);
  }

  @Test
  void joiningRecordsTheShardCountOnceFencesTheSingleNodeServerOnceAndRefusesAnotherCount() throws Exception {
    List<LeaseRow> leases = ShardLeaseSql.leases(pool).await(10, TimeUnit.SECONDS);
    assertEquals(SHARDS, leases.size());
    assertEquals(2, ownerEpoch(), "the cluster took the database from the single-node server");
    ShardLeaseSql.join(pool, SHARDS, "node-b", "host-b", "127.0.0.1:5712", "hash", 60_000)
        .await(10, TimeUnit.SECONDS);
    assertEquals(2, ownerEpoch(), "a second node does not move it again");
    assertEquals(SHARDS, ShardLeaseSql.leases(pool).await(10, TimeUnit.SECONDS).size());

    Throwable refused = assertThrows(ExecutionException.class, () -> ShardLeaseSql.join(pool, 32, "node-c", "host-c",
        "127.0.0.1:5722", "hash", 60_000).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
        .getCause();
    ShardLeaseSql.ShardCountMismatch mismatch = assertInstanceOf(ShardLeaseSql.ShardCountMismatch.class, refused);
    assertEquals(SHARDS, mismatch.recorded());
    assertTrue(mismatch.getMessage().contains("cluster.shards is 32, but this database's cluster has 16"
        + " (SLUICE_CLUSTER_SHARDS)"), mismatch.getMessage());
    assertFalse(ShardLeaseSql.members(pool).await(10, TimeUnit.SECONDS).stream()
        .anyMatch(m -> m.nodeId().equals("node-c")), "the refused node wrote no member row");
  }

  @Test
  void aShardIsTakenOverOnlyOnceReleasedOrExpiredAndEveryAcquisitionHasItsOwnRun() throws Exception {
    Claimed first = ShardLeaseSql.claim(pool, 1, "node-a", 400).await(10, TimeUnit.SECONDS).orElseThrow();
    assertEquals(1, first.epoch(), "from epoch 0");
    assertEquals(Optional.empty(), ShardLeaseSql.claim(pool, 1, "node-b", 400).await(10, TimeUnit.SECONDS),
        "held: no take-over");
    LeaseRow held = lease(1);
    assertEquals("node-a", held.owner());
    assertTrue(held.remainingMillis() > 0 && held.remainingMillis() <= 400, "remaining " + held.remainingMillis());

    Thread.sleep(600);
    assertTrue(lease(1).remainingMillis() < 0, "expired by PostgreSQL's clock");
    Claimed taken = ShardLeaseSql.claim(pool, 1, "node-b", 60_000).await(10, TimeUnit.SECONDS).orElseThrow();
    assertEquals(2, taken.epoch());
    assertTrue(taken.run() > first.run(), "a run of its own: its keys start above every earlier one");
    assertEquals(Set.of(), ShardLeaseSql.renew(pool, new int[] {1}, new long[] {1}, "node-a", 400, false)
        .await(10, TimeUnit.SECONDS), "the old owner's renewal finds the shard lost");
    assertEquals("node-b", lease(1).owner());
  }

  @Test
  void aReleaseMovesTheEpochOnOnlyForItsHolderAndTheShardIsFreeAtOnce() throws Exception {
    Claimed claimed = ShardLeaseSql.claim(pool, 2, "node-a", 60_000).await(10, TimeUnit.SECONDS).orElseThrow();
    assertEquals(Optional.empty(), ShardLeaseSql.release(pool, 2, claimed.epoch(), "node-b")
        .await(10, TimeUnit.SECONDS), "not its holder");
    assertEquals(Optional.empty(), ShardLeaseSql.release(pool, 2, claimed.epoch() - 1, "node-a")
        .await(10, TimeUnit.SECONDS), "not at that epoch");
    assertEquals(Optional.of(claimed.epoch() + 1), ShardLeaseSql.release(pool, 2, claimed.epoch(), "node-a")
        .await(10, TimeUnit.SECONDS));
    LeaseRow released = lease(2);
    assertTrue(released.released());
    assertNull(released.owner());
    assertNull(released.remainingMillis());
    assertEquals(Optional.empty(), ShardLeaseSql.release(pool, 2, claimed.epoch() + 1, "node-a")
        .await(10, TimeUnit.SECONDS), "released once");
    assertEquals(claimed.epoch() + 2, ShardLeaseSql.claim(pool, 2, "node-b", 60_000).await(10, TimeUnit.SECONDS)
        .orElseThrow().epoch(), "claimed at once, not after the lease");
  }

  @Test
  void aRenewalKeepsOnlyTheLeasesHeldAtTheirEpochsAndTheMemberRowLive() throws Exception {
    Claimed c5 = ShardLeaseSql.claim(pool, 5, "node-r", 500).await(10, TimeUnit.SECONDS).orElseThrow();
    Claimed c6 = ShardLeaseSql.claim(pool, 6, "node-r", 500).await(10, TimeUnit.SECONDS).orElseThrow();
    pool.preparedQuery(ShardLeaseSql.JOIN).execute(Tuple.of("node-r", "h", "127.0.0.1:1", "hash", 0L, 500L))
        .await(10, TimeUnit.SECONDS);
    for (int i = 0; i < 4; i++) {
      Thread.sleep(250);
      assertEquals(Set.of(5, 6), ShardLeaseSql.renew(pool, new int[] {5, 6, 7}, new long[] {c5.epoch(), c6.epoch(),
          1}, "node-r", 500, false).await(10, TimeUnit.SECONDS), "held ones only (7 was never claimed)");
    }
    assertTrue(lease(5).remainingMillis() > 0, "renewed past its first lease");
    assertTrue(member("node-r").live());

    Thread.sleep(700);
    assertFalse(member("node-r").live(), "expired with its leases");
    assertTrue(lease(5).remainingMillis() < 0);
    // Nobody took them meanwhile: a late renewal revives them, which is safe.
    assertEquals(Set.of(5, 6), ShardLeaseSql.renew(pool, new int[] {5, 6}, new long[] {c5.epoch(), c6.epoch()},
        "node-r", 500, false).await(10, TimeUnit.SECONDS));
    assertTrue(member("node-r").live());
    ShardLeaseSql.leaving(pool, "node-r").await(10, TimeUnit.SECONDS);
    assertFalse(member("node-r").live(), "leaving: the others stop counting it at once");
    assertEquals(Set.of(5, 6), ShardLeaseSql.renew(pool, new int[] {5, 6}, new long[] {c5.epoch(), c6.epoch()},
        "node-r", 500, true).await(10, TimeUnit.SECONDS));
    assertFalse(member("node-r").live(), "its renewals keep its leases while it hands them over, not its membership");
    ShardLeaseSql.leave(pool, "node-r").await(10, TimeUnit.SECONDS);
    assertFalse(ShardLeaseSql.members(pool).await(10, TimeUnit.SECONDS).stream()
        .anyMatch(m -> m.nodeId().equals("node-r")));
  }

  static MemberRow member(String nodeId) throws Exception {
    return ShardLeaseSql.members(pool).await(10, TimeUnit.SECONDS).stream().filter(m -> m.nodeId().equals(nodeId))
        .findFirst().orElseThrow();
  }
}
