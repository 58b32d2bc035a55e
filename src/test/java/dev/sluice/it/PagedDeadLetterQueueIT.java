package dev.sluice.it;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link DeadLetterQueueIT}'s cases, unchanged, on a durable server whose standard queues keep a
 * head window of 3 messages (design step 4): dead letters, redrive and move tasks behave the same
 * when most of a queue is in PostgreSQL only.
 */
@NeedsTools(Tool.POSTGRESQL)
class PagedDeadLetterQueueIT extends DeadLetterQueueIT {
  static ThrowawayPostgres pg;

  /** Replaces the in-memory server {@link SharedServerIT#start} started (which runs first) with a paged one. */
  @BeforeAll
  static void startPaged() throws Exception {
    sqs.close();
    server.close();
    try {
      pg = ThrowawayPostgres.start();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    server = TestServer.start(Map.of("SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", pg.url(),
        "SLUICE_PG_HEAD_WINDOW_MESSAGES", "3"));
    sqs = server.client();
  }

  /** Runs before {@link SharedServerIT#stop}, which then has nothing left to stop. */
  @AfterAll
  static void stopPaged() throws Exception {
    sqs.close();
    server.close();
    server = null;
    TallyCheck.assertExact(pg.url());
    pg.close();
  }
}
