package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The schema, as numbered SQL files in the jar ({@code db/migration/V1__*.sql}, V2, …), applied in
 * order at start-up. Each applied version is recorded in {@code sluice_schema_version}; the whole
 * run is one transaction holding an advisory lock, so two servers starting against one database
 * apply each version once. Scripts are read from the jar by {@link #load} on the calling
 * thread, before anything runs on an event loop.
 */
public final class SchemaMigrations {
  /** One numbered script. */
  public record Script(int version, String name, String sql) {}

  private static final String DIRECTORY = "db/migration/";
  /** The advisory lock key that serialises migrations (any constant shared by every Sluice). */
  public static final long MIGRATION_LOCK = 0x51_1ce_0001L;
  /** The scripts in the jar, by version; the list of names is kept here, as a jar cannot be listed. */
  static final List<String> FILES =
      List.of("V1__queues_and_messages.sql", "V2__database_owner.sql", "V3__queue_accounts_and_regions.sql",
          "V4__paged_backlog.sql", "V5__fifo_delay_rule.sql", "V6__kept_sent_time_index.sql", "V7__cluster.sql",
          "V8__topics.sql", "V9__subscription_confirmation.sql", "V10__triggers.sql",
          "V11__relay_receipts.sql", "V12__redelivery_backoff.sql");

  private final List<Script> scripts;

  private SchemaMigrations(List<Script> scripts) {
    this.scripts = scripts;
  }

  /** Reads every script from the classpath (blocking: call it before start-up goes asynchronous). */
  public static SchemaMigrations load() {
    List<Script> scripts = new ArrayList<>();
    for (String file : FILES) {
      int version = Integer.parseInt(file.substring(1, file.indexOf("__")));
      if (version != scripts.size() + 1) {
        throw new IllegalStateException("schema scripts must be numbered 1, 2, 3…: " + file);
      }
      try (InputStream in = SchemaMigrations.class.getClassLoader().getResourceAsStream(DIRECTORY + file)) {
        if (in == null) {
          throw new IllegalStateException("schema script missing from the jar: " + DIRECTORY + file);
        }
        scripts.add(new Script(version, file, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new SchemaMigrations(scripts);
  }

  /** The scripts up to {@code version}: a database as an earlier Sluice left it, for upgrade tests. */
  SchemaMigrations upTo(int version) {
    return new SchemaMigrations(scripts.subList(0, version));
  }

  public int latestVersion() {
    return scripts.size();
  }

  /** Applies the scripts the database has not seen yet; answers the version it is at afterwards. */
  public Future<Integer> migrate(Pool pool) {
    // Concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog, so the lock comes
    // first: an advisory lock held until this transaction ends. Every start after the first finds
    // the version table there, and PostgreSQL says so with a NOTICE, which the client would log as
    // a warning; notices are of no use to a migration, so this transaction does not ask for them.
    return pool.withTransaction(conn -> conn
        .query("SET LOCAL client_min_messages = warning").execute()
        .compose(quiet -> conn.query("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")").execute())
        .compose(locked -> conn.query("CREATE TABLE IF NOT EXISTS sluice_schema_version ("
            + "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            .execute())
        .compose(created -> conn.query("SELECT coalesce(max(version), 0) FROM sluice_schema_version").execute())
        .compose(rows -> {
          int current = rows.iterator().next().getInteger(0);
          if (current > latestVersion()) {
            return Future.failedFuture(new IllegalStateException("the database schema is at version " + current
                + ", newer than this Sluice knows (" + latestVersion() + "): run a newer Sluice"));
          }
          return applyFrom(conn, current);
        }));
  }

  private Future<Integer> applyFrom(SqlConnection conn, int current) {
    if (current == latestVersion()) {
      return Future.succeededFuture(current);
    }
    Script next = scripts.get(current);
    // The simple query protocol runs a script of several statements in one round trip.
    return conn.query(next.sql()).execute()
        .compose(applied -> conn.preparedQuery("INSERT INTO sluice_schema_version (version, name) VALUES ($1, $2)")
            .execute(Tuple.of(next.version(), next.name())))
        .compose(recorded -> applyFrom(conn, next.version()));
  }
}
