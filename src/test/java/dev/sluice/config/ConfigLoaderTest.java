package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        Map.of("SLUICE_HTTP_PORT", "7001", "SLUICE_HTTP_PUBLIC_BASE_URL", "http://sqs.internal:9324/",
            "SLUICE_MANAGEMENT_TOKEN", "t0ken"));
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

  @Test
  void queuesAreReadFromTheFileWithAttributesTagsAndDeadLetterQueues() throws Exception {
    Path file = dir.resolve("queues.yaml");
    Files.writeString(file, """
        queues:
          - name: orders-dlq.fifo
            attributes: {FifoQueue: true, MessageRetentionPeriod: 1209600}
          - name: orders.fifo
            attributes:
              FifoQueue: true
              VisibilityTimeout: 60
            tags: {team: payments}
            deadLetterQueue: orders-dlq.fifo
            maxReceiveCount: 5
          - name: audit
            attributes:
              RedrivePolicy: {deadLetterTargetArn: "arn:aws:sqs:us-east-1:000000000000:audit-dlq", maxReceiveCount: 3}
        """);
    List<QueueDefinition> queues = ConfigLoader.load(new String[] {"--config", file.toString()}, Map.of()).ops().queues();
    assertEquals(3, queues.size());
    QueueDefinition orders = queues.get(1);
    assertEquals("orders.fifo", orders.name());
    assertEquals(Map.of("FifoQueue", "true", "VisibilityTimeout", "60"), orders.attributes());
    assertEquals(Map.of("team", "payments"), orders.tags());
    assertEquals("orders-dlq.fifo", orders.deadLetterQueue());
    assertEquals(5, orders.maxReceiveCount());
    assertEquals("queues[1]", orders.key());
    assertEquals("{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:audit-dlq\",\"maxReceiveCount\":3}",
        queues.get(2).attributes().get("RedrivePolicy"), "a mapping value becomes its JSON");
  }

  @Test
  void queuesCanComeFromTheEnvironmentAsJson() {
    List<QueueDefinition> queues = ConfigLoader.load(new String[0], Map.of("SLUICE_QUEUES",
        "[{\"name\": \"jobs\", \"attributes\": {\"DelaySeconds\": \"5\"}}]")).ops().queues();
    assertEquals(1, queues.size());
    assertEquals(Map.of("DelaySeconds", "5"), queues.get(0).attributes());
    assertTrue(ConfigLoader.load(new String[0], Map.of()).ops().queues().isEmpty(), "none by default");
  }

  @Test
  void aBadQueueDefinitionFailsNamingTheKey() throws Exception {
    Map<String, String> cases = Map.of(
        "[{name: a, colour: red}]", "'queues[0].colour'",
        "[{name: a}, {attributes: {}}]", "'queues[1].name'",
        "[{name: a}, {name: a}]", "'queues[1].name'",
        "[{name: a, deadLetterQueue: b}]", "'queues[0].maxReceiveCount'",
        "[{name: a, deadLetterQueue: b, maxReceiveCount: 0}]", "'queues[0].maxReceiveCount'",
        "[{name: a, tags: [x]}]", "'queues[0].tags'",
        "{name: a}", "'queues'");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      ConfigException e = assertThrows(ConfigException.class,
          () -> ConfigLoader.load(new String[0], Map.of("SLUICE_QUEUES", c.getKey())), c.getKey());
      assertTrue(e.getMessage().contains(c.getValue()), c.getKey() + " -> " + e.getMessage());
    }
  }

  @Test
  void shutdownGraceAndMetricsSwitchAreRead() {
    OpsConfig ops = ConfigLoader.load(new String[0], Map.of("SLUICE_SHUTDOWN_GRACE_MILLIS", "5000",
        "SLUICE_METRICS_ENABLED", "false")).ops();
    assertEquals(5000, ops.shutdownGraceMillis());
    assertTrue(!ops.metricsEnabled());
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_SHUTDOWN_GRACE_MILLIS", "soon")));
    assertTrue(e.getMessage().contains("'shutdown.graceMillis' (SLUICE_SHUTDOWN_GRACE_MILLIS)"), e.getMessage());
  }

  @Test
  void credentialsAreKeyIdSecretPairsAndNeverEchoed() {
    SecurityConfig sec = ConfigLoader.load(new String[0],
        Map.of("SLUICE_CREDENTIALS", "AKID1:secret/one, AKID2:two:with:colons", "SLUICE_MANAGEMENT_TOKEN", "off"))
        .security();
    assertEquals(Map.of("AKID1", "secret/one", "AKID2", "two:with:colons"), sec.credentials());
    assertTrue(!sec.toString().contains("secret/one"), sec.toString());
    assertTrue(ConfigLoader.load(new String[0], Map.of()).security().credentials().isEmpty(), "off by default");
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_CREDENTIALS", "AKID1=hunter2")));
    assertTrue(e.getMessage().contains("'credentials' (SLUICE_CREDENTIALS)") && !e.getMessage().contains("hunter2"),
        e.getMessage());
  }

  @Test
  void beyondLoopbackTheManagementEndpointsNeedATokenOrAnExplicitOff() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_HTTP_HOST", "0.0.0.0")));
    assertTrue(e.getMessage().contains("'managementToken' (SLUICE_MANAGEMENT_TOKEN)"), e.getMessage());
    assertEquals("t0ken", ConfigLoader.load(new String[0], Map.of("SLUICE_HTTP_HOST", "0.0.0.0",
        "SLUICE_MANAGEMENT_TOKEN", "t0ken")).security().managementToken());
    assertEquals("", ConfigLoader.load(new String[0], Map.of("SLUICE_HTTP_HOST", "0.0.0.0",
        "SLUICE_MANAGEMENT_TOKEN", "off")).security().managementToken());
    assertEquals("", ConfigLoader.load(new String[0], Map.of()).security().managementToken(), "open on loopback");
  }

  @Test
  void withCredentialsTheManagementEndpointsNeedATokenOrAnExplicitOffEvenOnLoopback() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_CREDENTIALS", "AKID1:s3cret")));
    assertTrue(e.getMessage().contains("'managementToken' (SLUICE_MANAGEMENT_TOKEN) is required when credentials are"
        + " set"), e.getMessage());
    assertTrue(!e.getMessage().contains("s3cret"), e.getMessage());
    assertEquals("t0ken", ConfigLoader.load(new String[0], Map.of("SLUICE_CREDENTIALS", "AKID1:s3cret",
        "SLUICE_MANAGEMENT_TOKEN", "t0ken")).security().managementToken());
    assertEquals("", ConfigLoader.load(new String[0], Map.of("SLUICE_CREDENTIALS", "AKID1:s3cret",
        "SLUICE_MANAGEMENT_TOKEN", "off")).security().managementToken());
  }

  @Test
  void theBridgesAllowedOriginsAreAListOfOriginsOrAStar() {
    assertEquals(List.of(), ConfigLoader.load(new String[0], Map.of()).push().allowedOrigins(), "own origin only");
    assertEquals(List.of("https://app.example.com", "http://localhost:3000"), ConfigLoader.load(new String[0],
        Map.of("SLUICE_PUSH_ALLOWED_ORIGINS", "https://App.example.com/, http://localhost:3000")).push().allowedOrigins());
    assertEquals(List.of("*"), ConfigLoader.load(new String[0], Map.of("SLUICE_PUSH_ALLOWED_ORIGINS", "*"))
        .push().allowedOrigins());
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_PUSH_ALLOWED_ORIGINS", "app.example.com/path")));
    assertTrue(e.getMessage().contains("'push.allowedOrigins' (SLUICE_PUSH_ALLOWED_ORIGINS)"), e.getMessage());
  }

  @Test
  void connectionLimitsAndTimeoutsHaveTheirDefaultsAndBounds() {
    HttpConfig http = ConfigLoader.load(new String[0], Map.of()).http();
    assertEquals(10_000, http.maxConnections());
    assertEquals(10_000, http.headerTimeoutMillis());
    assertEquals(30_000, http.bodyTimeoutMillis());
    assertEquals(75_000, http.idleTimeoutMillis());
    assertEquals(3_407_872, http.maxBodyBytes(), "a 1 MiB batch, escaped three times over, and its envelope");
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_HTTP_MAX_CONNECTIONS", "0")));
    assertTrue(e.getMessage().contains("'http.maxConnections' (SLUICE_HTTP_MAX_CONNECTIONS)"), e.getMessage());
  }

  @Test
  void tlsNeedsBothFilesAndThemReadable() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(new String[0], Map.of("SLUICE_TLS_CERT_PATH", "/nonexistent/cert.pem")));
    assertTrue(e.getMessage().contains("'tls.keyPath'"), e.getMessage());
    ConfigException missing = assertThrows(ConfigException.class, () -> ConfigLoader.load(new String[0],
        Map.of("SLUICE_TLS_CERT_PATH", "/nonexistent/cert.pem", "SLUICE_TLS_KEY_PATH", "/nonexistent/key.pem")));
    assertTrue(missing.getMessage().contains("readable PEM file"), missing.getMessage());
  }
}
