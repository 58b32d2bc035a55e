package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ownership of a database against a real PostgreSQL: claims, a lost lock, fencing, the lease. */
@NeedsTools(Tool.POSTGRESQL)
class DatabaseOwnershipIT {
  static final long LEASE = 1000;
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static int databases;
  PgConnectOptions options;
  Pool pool;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  /** A database of each test's own, migrated. */
  @BeforeEach
  void freshDatabase() throws Exception {
    String name = "ownership" + ++databases;
    Pool admin = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    admin.query("CREATE DATABASE " + name).execute().await(10, TimeUnit.SECONDS);
    admin.close().await(10, TimeUnit.SECONDS);
    options = PgConnectOptions.fromUri(pg.url()).setDatabase(name);
    pool = PgBuilder.pool().connectingTo(options).using(vertx).build();
    SchemaMigrations.load().migrate(pool).await(30, TimeUnit.SECONDS);
  }

  DatabaseOwnership owner(String holder) throws Exception {
    DatabaseOwnership owner = DatabaseOwnership.acquire(vertx, options, "test", LEASE).await(10, TimeUnit.SECONDS);
    owner.claim(holder).await(10, TimeUnit.SECONDS);
    return owner;
  }

  long epoch() throws Exception {
    return pool.query(DatabaseOwnership.EPOCH).execute().await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
  }

  /** Ends the backend holding the ownership lock, as an administrator or a network failure would. */
  void terminateLockSession() throws Exception {
    long terminated = pool.preparedQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_locks"
        + " WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1")
        .execute(Tuple.of(DatabaseOwnership.OWNER_LOCK)).await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
    assertEquals(1, terminated, "one session held the lock");
  }

  static void eventually(BooleanSupplier condition, String what) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < end, what);
      Thread.sleep(20);
    }
  }

  @Test
  void aFreshDatabaseIsServedAtOnceAndACleanStopSparesTheNextOwnerTheWait() throws Exception {
    DatabaseOwnership first = owner("first");
    assertNull(first.notServingReason(), "nobody owned it before: no lease to wait out");
    assertEquals(1, epoch());
    first.release(true).await(10, TimeUnit.SECONDS);
    assertTrue(pool.query("SELECT released FROM sluice_owner").execute().await(10, TimeUnit.SECONDS).iterator().next()
        .getBoolean(0), "a clean stop marks the database released");

    DatabaseOwnership second = owner("second");
    assertNull(second.notServingReason(), "serving at once after a clean stop");
    assertEquals(2, epoch());
    second.release(true).await(10, TimeUnit.SECONDS);
  }

  @Test
  void aLostLockSuspendsServingUntilItIsTakenAgainAtTheSameEpoch() throws Exception {
    DatabaseOwnership owner = owner("owner");
    List<Boolean> changes = new CopyOnWriteArrayList<>();
    owner.onServingChanged(changes::add);
    terminateLockSession();
    eventually(() -> owner.notServingReason() != null, "not serving once the lock's connection is gone");
    assertTrue(owner.notServingReason().contains("lost"), owner.notServingReason());
    eventually(() -> owner.notServingReason() == null, "serving again once the lock is taken again");
    // The listeners hear of a change just after the state has changed, on the ownership's context.
    eventually(() -> changes.size() >= 2, "the listeners were told: " + changes);
    assertEquals(List.of(false, true), changes);
    assertEquals(1, epoch(), "nobody else owned the database: same epoch, same token");
    assertFalse(owner.fenced().isComplete());
    owner.release(true).await(10, TimeUnit.SECONDS);
  }

  @Test
  void anotherServerClaimingFencesTheFirstAndTheNextTakerWaitsOutTheLease() throws Exception {
    DatabaseOwnership first = owner("first");
    // Another server takes the lock the moment the first loses it, and claims the database.
    terminateLockSession();
    PgConnection other = PgConnection.connect(vertx, options).await(10, TimeUnit.SECONDS);
    assertTrue(other.query("SELECT pg_try_advisory_lock(" + DatabaseOwnership.OWNER_LOCK + ")").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getBoolean(0));
    other.preparedQuery(DatabaseOwnership.CLAIM).execute(Tuple.of("other", 0L)).await(10, TimeUnit.SECONDS);
    first.fenced().await(10, TimeUnit.SECONDS);
    assertTrue(first.notServingReason().contains("another server"), first.notServingReason());

    // The other server dies without releasing: whoever takes over next waits out its lease.
    other.close().await(10, TimeUnit.SECONDS);
    long start = System.nanoTime();
    DatabaseOwnership next = owner("next");
    assertEquals(3, epoch());
    assertTrue(next.notServingReason().contains("previous owner's lease"), next.notServingReason());
    eventually(() -> next.notServingReason() == null, "serving once the lease has run out");
    long waitedMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(waitedMillis >= LEASE, "waited " + waitedMillis + " ms");
    assertTrue(first.notServingReason() != null, "fenced for good");
    next.release(true).await(10, TimeUnit.SECONDS);
    first.release(true).await(10, TimeUnit.SECONDS);
  }

  @Test
  void aWriteRefusedByTheFenceFencesTheOwner() throws Exception {
    DatabaseOwnership owner = owner("owner");
    Future<Void> fenced = owner.fenced();
    owner.writeRefused(0);
    Thread.sleep(200);
    assertFalse(fenced.isComplete(), "a refusal of another token says nothing of ours");
    owner.writeRefused(1);
    fenced.await(10, TimeUnit.SECONDS);
    assertTrue(owner.notServingReason().contains("refused"), owner.notServingReason());
    owner.release(true).await(10, TimeUnit.SECONDS);
  }
}
