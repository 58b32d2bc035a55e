package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  @Test
  void defaultsComeFromTheBundledFile() {
    SluiceConfig c = ConfigLoader.load(new String[0], Map.of());
    assertEquals("127.0.0.1", c.http().host());
    assertEquals(9324, c.http().port());
    assertEquals("000000000000", c.sqs().accountId());
    assertEquals("direct", c.engine().dispatch());
  }

  @Test
  void environmentVariablesOverrideTheFile() throws Exception {
    Path file = dir.resolve("my.yaml");
    Files.writeString(file, "http:\n  port: 7000\n  host: 0.0.0.0\n");
    SluiceConfig c = ConfigLoader.load(new String[] {"--config", file.toString()},
        Map.of("SLUICE_HTTP_PORT", "7001", "SLUICE_HTTP_PUBLIC_BASE_URL", "http://sqs.internal:9324/"));
    assertEquals(7001, c.http().port());
    assertEquals("0.0.0.0", c.http().host());
    assertEquals("http://sqs.internal:9324", c.http().publicBaseUrl());
  }

  @Test
  void anUnknownKeyFailsNamingIt() throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, "http:\n  prot: 7000\n");
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[] {"--config", file.toString()}, Map.of()));
    assertTrue(e.getMessage().contains("'http.prot'"), e.getMessage());
  }

  @Test
  void aBadValueFailsNamingTheKeyAndItsVariable() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_HTTP_PORT", "http")));
    assertTrue(e.getMessage().contains("'http.port' (SLUICE_HTTP_PORT)"), e.getMessage());
    assertThrows(ConfigException.class, () -> ConfigLoader.load(new String[0], Map.of("SLUICE_ENGINE_DISPATCH", "bus")));
    assertThrows(ConfigException.class, () -> ConfigLoader.load(new String[0], Map.of("SLUICE_SQS_ACCOUNT_ID", "12")));
  }

  @Test
  void environmentVariableNamesFollowOneRule() {
    assertEquals("SLUICE_HTTP_MAX_BODY_BYTES", ConfigKey.HTTP_MAX_BODY_BYTES.envVar());
    assertEquals("SLUICE_ENGINE_MAX_PARKED_RECEIVES_PER_QUEUE", ConfigKey.ENGINE_MAX_PARKED_RECEIVES_PER_QUEUE.envVar());
  }

  @Test
  void postgresStorageNeedsAUrlAndNeverEchoesItsPassword() {
    SluiceConfig c = ConfigLoader.load(new String[0], Map.of("SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", "postgresql://sluice:s3cret@db.internal:5432/queues", "SLUICE_DURABILITY", "relaxed"));
    assertTrue(c.storage().durable());
    assertTrue(!c.storage().answerAfterCommit());
    assertEquals("postgresql://sluice:***@db.internal:5432/queues", c.storage().pgUrlForLogs());
    ConfigException missing = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_STORAGE", "postgres")));
    assertTrue(missing.getMessage().contains("SLUICE_PG_URL"), missing.getMessage());
    ConfigException bad = assertThrows(ConfigException.class, () -> ConfigLoader.load(new String[0],
        Map.of("SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", "mysql://u:s3cret@h/db")));
    assertTrue(!bad.getMessage().contains("s3cret"), bad.getMessage());
    assertThrows(ConfigException.class, () -> ConfigLoader.load(new String[0], Map.of("SLUICE_STORAGE", "disk")));
  }
}
