package dev.sluice.testtools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Checks a durable database at rest: every live queue's tally (summed over the writer lanes) equals
 * the rows it really holds (of the queue, at or above its purge key). A tally that drifts would give
 * wrong counts for ever once the backlog is paged, so every durable test ends with this check.
 */
public final class TallyCheck {
  static final String TALLIED = "SELECT queue_id, sum(messages) FROM sluice_queue_tallies GROUP BY queue_id";
  static final String HELD = "SELECT q.id, count(m.queue_id) FROM sluice_queues q LEFT JOIN sluice_messages m"
      + " ON m.queue_id = q.id AND m.message_key >= q.purged_below_key GROUP BY q.id";

  private TallyCheck() {}

  public static void assertExact(String pgUrl) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Pool pool = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pgUrl)).using(vertx).build();
      boolean schema = pool.query("SELECT to_regclass('sluice_queue_tallies') IS NOT NULL").execute()
          .await(10, TimeUnit.SECONDS).iterator().next().getBoolean(0);
      if (!schema) {
        return; // no server ever migrated this database
      }
      Map<Long, Long> tallied = byQueue(pool, TALLIED);
      Map<Long, Long> held = byQueue(pool, HELD);
      held.forEach((queue, n) -> assertEquals(n, tallied.getOrDefault(queue, 0L),
          "queue " + queue + ": rows held vs its tally (tallies " + tallied + ", rows " + held + ")"));
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static Map<Long, Long> byQueue(Pool pool, String sql) throws Exception {
    Map<Long, Long> out = new TreeMap<>();
    for (Row r : pool.query(sql).execute().await(10, TimeUnit.SECONDS)) {
      out.put(r.getLong(0), r.getLong(1));
    }
    return out;
  }
}
