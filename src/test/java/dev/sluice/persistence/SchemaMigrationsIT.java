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
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The numbered schema scripts against a real PostgreSQL of the test's own. */
@NeedsTools(Tool.POSTGRESQL)
class SchemaMigrationsIT {
  static ThrowawayPostgres pg;
  static Vertx vertx;

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

  static Pool pool() {
    return PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(2))
        .connectingTo(PgConnectOptions.fromUri(pg.url()))
        .using(vertx)
        .build();
  }

  @Test
  void aFreshDatabaseGetsEveryScriptOnceAndTwoServersStartingTogetherAgree() throws Exception {
    SchemaMigrations scripts = SchemaMigrations.load();
    Pool a = pool();
    Pool b = pool();
    try {
      // Two servers starting at once against one database: each version is applied once.
      List<Future<Integer>> both = List.of(scripts.migrate(a), scripts.migrate(b));
      Future.all(both).await(30, TimeUnit.SECONDS);
      assertEquals(scripts.latestVersion(), both.get(0).result());
      assertEquals(scripts.latestVersion(), both.get(1).result());
      assertEquals(scripts.latestVersion(), scripts.migrate(a).await(30, TimeUnit.SECONDS));

      List<Integer> versions = new ArrayList<>();
      for (Row r : a.query("SELECT version FROM sluice_schema_version ORDER BY version").execute()
          .await(10, TimeUnit.SECONDS)) {
        versions.add(r.getInteger(0));
      }
      assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), versions);
      List<String> tables = new ArrayList<>();
      for (Row r : a.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'sluice_%' ORDER BY 1").execute()
          .await(10, TimeUnit.SECONDS)) {
        tables.add(r.getString(0));
      }
      assertTrue(tables.containsAll(List.of("sluice_queues", "sluice_messages", "sluice_dedup", "sluice_settings",
          "sluice_owner", "sluice_cluster", "sluice_cluster_members", "sluice_shard_leases", "sluice_topics",
          "sluice_subscriptions", "sluice_triggers", "sluice_relay_receipts")),
          tables.toString());
    } finally {
      a.close().await(10, TimeUnit.SECONDS);
      b.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void version4GivesStoredRowsTheirPlaceInDeliveryOrderAndTheirQueuesExactTalliesAndAFrontierCoveringThem()
      throws Exception {
    SchemaMigrations scripts = SchemaMigrations.load();
    Pool pool = pool();
    try {
      pool.query("CREATE SCHEMA upgrade").execute().await(10, TimeUnit.SECONDS);
      Pool upgrade = PgBuilder.pool().with(new PoolOptions().setMaxSize(1))
          .connectingTo(PgConnectOptions.fromUri(pg.url()).addProperty("search_path", "upgrade")).using(vertx).build();
      try {
        assertEquals(3, scripts.upTo(3).migrate(upgrade).await(30, TimeUnit.SECONDS));
        // As version 3 left them: a standard queue with a delayed, a visible and a received row;
        // a FIFO queue with two rows; an empty queue.
        upgrade.query("INSERT INTO sluice_queues (id, account_id, region, name, created_at, modified_at,"
            + " attributes, tags) VALUES (1, 'a', 'r', 'std', 1, 1, '{}', '{}'), (2, 'a', 'r', 'q.fifo', 1, 1,"
            + " '{}', '{}'), (3, 'a', 'r', 'empty', 1, 1, '{}', '{}');"
            + " INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number, visible_at,"
            + " receive_count, first_receive_at, receipt_sequence, content) VALUES"
            + " (1, 10, gen_random_uuid(), 1000, 0, 5000, 0, 0, 0, '\\x01'),"
            + " (1, 11, gen_random_uuid(), 2000, 0, 0, 0, 0, 0, '\\x01'),"
            + " (1, 12, gen_random_uuid(), 3000, 0, 9000, 2, 3500, 2, '\\x01'),"
            + " (2, 20, gen_random_uuid(), 1000, 7, 0, 0, 0, 0, '\\x01'),"
            + " (2, 21, gen_random_uuid(), 1100, 8, 0, 0, 0, 0, '\\x01')").execute().await(10, TimeUnit.SECONDS);
        assertEquals(4, scripts.upTo(4).migrate(upgrade).await(30, TimeUnit.SECONDS));
        List<String> places = new ArrayList<>();
        for (Row r : upgrade.query("SELECT message_key, first_visible_at, arrival FROM sluice_messages ORDER BY 1")
            .execute().await(10, TimeUnit.SECONDS)) {
          places.add(r.getLong(0) + ":" + r.getLong(1) + ":" + r.getShort(2));
        }
        // delayed: when its delay ends; received: its sent time (it was visible then)
        assertEquals(List.of("10:5000:0", "11:2000:0", "12:3000:0", "20:1000:0", "21:1100:0"), places);
        List<String> tallies = new ArrayList<>();
        for (Row r : upgrade.query("SELECT queue_id, slot, messages, frontier_major, frontier_minor"
            + " FROM sluice_queue_tallies ORDER BY 1").execute().await(10, TimeUnit.SECONDS)) {
          tallies.add(r.getLong(0) + ":" + r.getShort(1) + ":" + r.getLong(2) + ":" + r.getLong(3) + ":" + r.getLong(4));
        }
        assertEquals(List.of("1:0:3:5000:" + Long.MAX_VALUE, "2:0:2:8:" + Long.MAX_VALUE,
            "3:0:0:" + Long.MIN_VALUE + ":" + Long.MAX_VALUE), tallies);
      } finally {
        upgrade.close().await(10, TimeUnit.SECONDS);
      }
    } finally {
      pool.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void version5GivesEveryStoredQueueAFifoDelayRuleThatNeverChanged() throws Exception {
    SchemaMigrations scripts = SchemaMigrations.load();
    Pool pool = pool();
    try {
      pool.query("CREATE SCHEMA upgrade5").execute().await(10, TimeUnit.SECONDS);
      Pool upgrade = PgBuilder.pool().with(new PoolOptions().setMaxSize(1))
          .connectingTo(PgConnectOptions.fromUri(pg.url()).addProperty("search_path", "upgrade5")).using(vertx)
          .build();
      try {
        assertEquals(4, scripts.upTo(4).migrate(upgrade).await(30, TimeUnit.SECONDS));
        // As version 4 left them: a FIFO queue (its delay may have changed: version 4 did not keep
        // that) and a standard queue.
        upgrade.query("INSERT INTO sluice_queues (id, account_id, region, name, created_at, modified_at,"
            + " attributes, tags) VALUES (1, 'a', 'r', 'q.fifo', 1, 1, '{\"DelaySeconds\":\"60\"}', '{}'),"
            + " (2, 'a', 'r', 'std', 1, 1, '{}', '{}')").execute().await(10, TimeUnit.SECONDS);
        assertEquals(5, scripts.upTo(5).migrate(upgrade).await(30, TimeUnit.SECONDS));
        List<String> rules = new ArrayList<>();
        for (Row r : upgrade.query("SELECT id, delay_released_through, delay_changed_at FROM sluice_queues"
            + " ORDER BY 1").execute().await(10, TimeUnit.SECONDS)) {
          rules.add(r.getLong(0) + ":" + r.getLong(1) + ":" + r.getLong(2));
        }
        // Never changed: every row is visible its delay after it was sent, as version 4 restored it.
        assertEquals(List.of("1:" + Long.MIN_VALUE + ":" + Long.MIN_VALUE, "2:" + Long.MIN_VALUE + ":" + Long.MIN_VALUE),
            rules);
      } finally {
        upgrade.close().await(10, TimeUnit.SECONDS);
      }
    } finally {
      pool.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void version7LeavesStoredQueuesAndTheDatabaseWithItsOwner() throws Exception {
    SchemaMigrations scripts = SchemaMigrations.load();
    Pool pool = pool();
    try {
      pool.query("CREATE SCHEMA upgrade7").execute().await(10, TimeUnit.SECONDS);
      Pool upgrade = PgBuilder.pool().with(new PoolOptions().setMaxSize(1))
          .connectingTo(PgConnectOptions.fromUri(pg.url()).addProperty("search_path", "upgrade7")).using(vertx)
          .build();
      try {
        assertEquals(6, scripts.upTo(6).migrate(upgrade).await(30, TimeUnit.SECONDS));
        upgrade.query("INSERT INTO sluice_queues (id, account_id, region, name, created_at, modified_at,"
            + " attributes, tags) VALUES (1, 'a', 'r', 'std', 1, 1, '{}', '{}');"
            + " UPDATE sluice_owner SET epoch = 5, released = false, holder = 'single'").execute()
            .await(10, TimeUnit.SECONDS);
        assertEquals(7, scripts.upTo(7).migrate(upgrade).await(30, TimeUnit.SECONDS));
        // The first cluster start takes the database; until then nothing changed.
        assertEquals(1L, upgrade.query("SELECT count(*) FROM sluice_queues").execute()
            .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
        assertEquals("5:single", upgrade.query("SELECT epoch || ':' || holder FROM sluice_owner").execute()
            .await(10, TimeUnit.SECONDS).iterator().next().getString(0));
        assertEquals(0L, upgrade.query("SELECT count(*) FROM sluice_shard_leases").execute()
            .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
        // The single-node claim, which now also moves shard epochs on, works on a database without leases.
        assertEquals(6L, upgrade.preparedQuery(DatabaseOwnership.CLAIM).execute(Tuple.of("next", 0L))
            .await(10, TimeUnit.SECONDS).iterator().next().getLong(0));
      } finally {
        upgrade.close().await(10, TimeUnit.SECONDS);
      }
    } finally {
      pool.close().await(10, TimeUnit.SECONDS);
    }
  }
}
