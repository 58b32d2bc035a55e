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
      assertEquals(List.of(1, 2, 3), versions);
      List<String> tables = new ArrayList<>();
      for (Row r : a.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'sluice_%' ORDER BY 1").execute()
          .await(10, TimeUnit.SECONDS)) {
        tables.add(r.getString(0));
      }
      assertTrue(tables.containsAll(List.of("sluice_queues", "sluice_messages", "sluice_dedup", "sluice_settings",
          "sluice_owner")),
          tables.toString());
    } finally {
      a.close().await(10, TimeUnit.SECONDS);
      b.close().await(10, TimeUnit.SECONDS);
    }
  }
}
