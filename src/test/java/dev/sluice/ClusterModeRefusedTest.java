package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Until the cluster steps are wired, cluster mode is a configuration error: Main exits 2, naming the key. */
class ClusterModeRefusedTest {
  @Test
  void aValidClusteredConfigurationIsRefusedBeforeAnythingStarts() {
    SluiceConfig cfg = ConfigLoader.load(new String[0], Map.of("SLUICE_CLUSTER_ENABLED", "true",
        "SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", "postgresql://sluice:pw@db.internal:5432/sluice"));
    var start = Sluice.start(cfg);
    assertTrue(start.failed(), "failed at once: no Vert.x, no port, no database connection");
    // Main turns a ConfigException out of the start into exit code 2, as it does for a refused predefined queue.
    ConfigException e = assertThrows(ConfigException.class, () -> start.await(5, TimeUnit.SECONDS));
    assertTrue(e.getMessage().contains("'cluster.enabled' (SLUICE_CLUSTER_ENABLED): cluster mode is not available in"
        + " this build yet"), e.getMessage());
  }
}
