package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The application's side of the outbox benchmark: its own PostgreSQL, where it commits rows into the
 * outbox table that Sluice's relay reads and empties. The table is the relay's (made by it at
 * start-up with {@code createTable}); this class only waits for it, writes rows as an application
 * would, and counts what is left.
 */
final class OutboxDatabase implements AutoCloseable {
  /** A table name goes into SQL text: only a plain, optionally schema-qualified, identifier. */
  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");
  private static final int FILL_CHUNK = 100_000;

  private final Pool pool;
  private final String table;
  private final String insertCommit;

  OutboxDatabase(Vertx vertx, String url, String table, int connections) {
    if (!IDENTIFIER.matcher(table).matches()) {
      throw new IllegalArgumentException("not a plain table name: " + table);
    }
    this.table = table;
    this.pool = PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(connections).setMaxWaitQueueSize(-1))
        .connectingTo(PgConnectOptions.fromUri(url))
        .using(vertx)
        .build();
    // Connections: commits wait on fsync, and PostgreSQL flushes the commits of every waiting
    // session at once; 16 fell short of 1,000 commits/s on 2 busy cores where 48 kept up.
    // One statement, so one transaction of all its rows in autocommit: one round trip per commit
    // keeps the load generator's share of the two cores small at 1,000 commits a second.
    this.insertCommit = "INSERT INTO " + table + " (queue_name, body) SELECT $1, unnest($2::text[])";
  }

  String table() {
    return table;
  }

  /** Waits until the relay has made the table (it does at start-up), at most {@code seconds}. */
  void awaitTable(long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      Object found = pool.preparedQuery("SELECT to_regclass($1)::text").execute(Tuple.of(table))
          .await(10, TimeUnit.SECONDS).iterator().next().getValue(0);
      if (found != null) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no table " + table + " after " + seconds + " s: is the relay configured"
            + " with createTable?");
      }
      Thread.sleep(200);
    }
  }

  /** One transaction of the given rows, all to {@code queue}; from any thread. */
  Future<Void> commit(String queue, String[] bodies) {
    return pool.preparedQuery(insertCommit).execute(Tuple.tuple().addString(queue).addArrayOfString(bodies)).mapEmpty();
  }

  /**
   * Commits {@code rows} rows to {@code queue} in ONE transaction (INSERT ... SELECT over
   * generate_series, {@value #FILL_CHUNK} rows a statement), so that the whole outbox becomes
   * visible to the relay at one instant, the drain's time zero. Bodies are {@code bodyBytes} long.
   */
  void fillInOneTransaction(String queue, long rows, int bodyBytes) throws Exception {
    String insert = "INSERT INTO " + table + " (queue_name, body) SELECT $1, rpad('d' || n || ' ', $4, 'x')"
        + " FROM generate_series($2::bigint, $3::bigint) n";
    pool.withTransaction(c -> {
      Future<Void> chain = Future.succeededFuture();
      for (long first = 0; first < rows; first += FILL_CHUNK) {
        long last = Math.min(rows, first + FILL_CHUNK) - 1;
        long from = first;
        chain = chain.compose(v -> c.preparedQuery(insert).execute(Tuple.of(queue, from, last, bodyBytes)).mapEmpty());
      }
      return chain;
    }).await(30, TimeUnit.MINUTES);
  }

  /** Rows in the outbox now (committed, not yet relayed and deleted). */
  long rows() throws Exception {
    return count(table);
  }

  /** Deletes every row (a throwaway database's leftovers); how many there were. */
  long deleteAll() throws Exception {
    return pool.query("DELETE FROM " + table).execute().await(10, TimeUnit.MINUTES).rowCount();
  }

  /** Rows the relay gave up on, when its dead table exists; -1 when it does not. */
  long deadRows(String deadTable) throws Exception {
    if (!IDENTIFIER.matcher(deadTable).matches()) {
      throw new IllegalArgumentException("not a plain table name: " + deadTable);
    }
    Object found = pool.preparedQuery("SELECT to_regclass($1)::text").execute(Tuple.of(deadTable))
        .await(10, TimeUnit.SECONDS).iterator().next().getValue(0);
    return found == null ? -1 : count(deadTable);
  }

  private long count(String name) throws Exception {
    return pool.query("SELECT count(*) FROM " + name).execute().await(60, TimeUnit.SECONDS).iterator().next()
        .getLong(0);
  }

  @Override
  public void close() throws Exception {
    pool.close().await(10, TimeUnit.SECONDS);
  }
}
