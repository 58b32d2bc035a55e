package dev.sluice.it;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * One throwaway PostgreSQL per test class, and durable servers on it that tests start and stop
 * (restarts are what these classes test).
 */
@NeedsTools(Tool.POSTGRESQL)
@ResourceLock("DurableServerIT.pg")
abstract class DurableServerIT {
  static ThrowawayPostgres pg;

  @BeforeAll
  static void startPostgres() throws Exception {
    pg = ThrowawayPostgres.start();
  }

  /** Whatever the test did, the tallies at rest say what the tables hold. */
  @AfterEach
  void talliesAreExact() throws Exception {
    TallyCheck.assertExact(pg.url());
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    pg.close();
  }

  static TestServer server() {
    return server(Map.of());
  }

  /** A durable server on the class's PostgreSQL, with {@code settings} on top. */
  static TestServer server(Map<String, String> settings) {
    Map<String, String> env = new HashMap<>(Map.of("SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", pg.url()));
    env.putAll(settings);
    return TestServer.start(env);
  }
}
