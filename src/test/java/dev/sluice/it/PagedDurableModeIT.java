package dev.sluice.it;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link DurableModeIT}'s cases, unchanged, on a server whose standard queues keep a head window of
 * 3 messages (design step 4): acknowledgments, the writer's metrics and PostgreSQL outages behave
 * the same when most of a queue is in PostgreSQL only and its pages are read back on the read pool.
 */
@NeedsTools(Tool.POSTGRESQL)
class PagedDurableModeIT extends DurableModeIT {

  /** Replaces the server {@link DurableModeIT#start} started (which runs first) with a paged one. */
  @BeforeAll
  static void startPaged() throws Exception {
    sqs.close();
    server.close();
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
    pg = ThrowawayPostgres.start();
    server = TestServer.start(Map.of("SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", pg.url(),
        "SLUICE_PG_SEND_TIMEOUT_MILLIS", "500", "SLUICE_PG_HEAD_WINDOW_MESSAGES", "3"));
    sqs = server.client();
    vertx = Vertx.vertx();
    db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
  }

  /** Runs before {@link DurableModeIT#stop}, which then has nothing left to stop. */
  @AfterAll
  static void stopPaged() throws Exception {
    sqs.close();
    server.close();
    server = null;
    vertx.close().await(10, TimeUnit.SECONDS);
    TallyCheck.assertExact(pg.url());
    pg.close();
  }
}
