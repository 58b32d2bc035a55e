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
  void privateAddressesAreRefusedByDefaultOnlyWhereCredentialsAreConfigured() {
    assertTrue(ConfigLoader.load(new String[0], Map.of()).outbound().allowPrivateAddresses(), "a laptop, CI");
    Map<String, String> shared = Map.of("SLUICE_CREDENTIALS", "AKIDX:secret", "SLUICE_MANAGEMENT_TOKEN", "t0ken");
    assertEquals(false, ConfigLoader.load(new String[0], shared).outbound().allowPrivateAddresses());
    Map<String, String> opened = new java.util.HashMap<>(shared);
    opened.put("SLUICE_OUTBOUND_ALLOW_PRIVATE_ADDRESSES", "true");
    assertTrue(ConfigLoader.load(new String[0], opened).outbound().allowPrivateAddresses());
    assertEquals(false, ConfigLoader.load(new String[0], Map.of("SLUICE_OUTBOUND_ALLOW_PRIVATE_ADDRESSES", "false"))
        .outbound().allowPrivateAddresses());
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
  void aQueueMayHaveARedeliveryBackoffOfWholeSecondsAndNothingElse() {
    List<QueueDefinition> queues = ConfigLoader.load(new String[0], Map.of("SLUICE_QUEUES",
        "[{name: jobs, redeliveryBackoff: {baseSeconds: 5, maxSeconds: 300}}, {name: other}]")).ops().queues();
    assertEquals(new QueueDefinition.Backoff(5, 300), queues.get(0).redeliveryBackoff());
    assertEquals(null, queues.get(1).redeliveryBackoff());
    for (String bad : List.of("[{name: a, redeliveryBackoff: 5}]", "[{name: a, redeliveryBackoff: {baseSeconds: 5}}]",
        "[{name: a, redeliveryBackoff: {baseSeconds: 5, maxSeconds: 9, jitter: 1}}]",
        "[{name: a, redeliveryBackoff: {baseSeconds: 1.5, maxSeconds: 9}}]")) {
      ConfigException e = assertThrows(ConfigException.class,
          () -> ConfigLoader.load(new String[0], Map.of("SLUICE_QUEUES", bad)), bad);
      assertTrue(e.getMessage().contains("'queues[0].redeliveryBackoff'"), bad + " -> " + e.getMessage());
    }
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
  void theConsoleSectionIsReadWithinItsBounds() {
    ConsoleConfig defaults = ConfigLoader.load(new String[0], Map.of()).console();
    assertEquals(new ConsoleConfig(true, 5000, 2000, 32), defaults);
    ConsoleConfig set = ConfigLoader.load(new String[0], Map.of("SLUICE_CONSOLE_ENABLED", "false",
        "SLUICE_CONSOLE_SAMPLE_MILLIS", "1000", "SLUICE_CONSOLE_HISTORY_SERIES", "0",
        "SLUICE_CONSOLE_MAX_STREAMS", "1000")).console();
    assertEquals(new ConsoleConfig(false, 1000, 0, 1000), set);
    for (Map.Entry<String, String> bad : Map.of("SLUICE_CONSOLE_SAMPLE_MILLIS", "999",
        "SLUICE_CONSOLE_HISTORY_SERIES", "100001", "SLUICE_CONSOLE_MAX_STREAMS", "0",
        "SLUICE_CONSOLE_ENABLED", "yes").entrySet()) {
      ConfigException e = assertThrows(ConfigException.class,
          () -> ConfigLoader.load(new String[0], Map.of(bad.getKey(), bad.getValue())), bad.toString());
      assertTrue(e.getMessage().contains("(" + bad.getKey() + ")"), e.getMessage());
    }
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

  /** Cluster mode on, with what it needs of other sections; each case adds or overrides keys. */
  static Map<String, String> clustered(String... keysAndValues) {
    Map<String, String> env = new java.util.HashMap<>(Map.of("SLUICE_CLUSTER_ENABLED", "true", "SLUICE_STORAGE",
        "postgres", "SLUICE_PG_URL", "postgresql://sluice:pw@db.internal:5432/sluice"));
    for (int i = 0; i < keysAndValues.length; i += 2) {
      env.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return env;
  }

  static final String SECRET = "0123456789abcdef0123456789abcdef";

  /** Loading {@code env} fails with a message holding each of {@code fragments}. */
  static String refused(Map<String, String> env, String... fragments) {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(new String[0], env), env.toString());
    for (String f : fragments) {
      assertTrue(e.getMessage().contains(f), env + " -> " + e.getMessage());
    }
    return e.getMessage();
  }

  @Test
  void clusterKeysHaveTheirDefaults() {
    ClusterConfig c = ConfigLoader.load(new String[0], Map.of()).cluster();
    assertTrue(!c.enabled());
    assertEquals(64, c.shards());
    assertEquals("sluice", c.name());
    assertEquals("127.0.0.1", c.host());
    assertEquals(5701, c.port());
    assertEquals(5702, c.eventBusPort());
    assertEquals("", c.advertisedHost());
    assertEquals(0, c.advertisedEventBusPort());
    assertEquals(List.of(), c.members());
    assertEquals("", c.kubernetesService());
    assertEquals(3000, c.leaseMillis());
    assertEquals(5000, c.memberTimeoutMillis());
    assertEquals(5000, c.retryMillis());
    assertEquals("", c.secret());
    assertTrue(!c.tls());
  }

  @Test
  void clusterKeysComeFromTheEnvironmentAndTheFile() throws Exception {
    ClusterConfig c = ConfigLoader.load(new String[0], clustered("SLUICE_CLUSTER_SHARDS", "128",
        "SLUICE_CLUSTER_NAME", "orders", "SLUICE_CLUSTER_HOST", "10.0.0.1", "SLUICE_CLUSTER_PORT", "6701",
        "SLUICE_CLUSTER_EVENT_BUS_PORT", "0", "SLUICE_CLUSTER_ADVERTISED_HOST", "node-1.example.internal",
        "SLUICE_CLUSTER_ADVERTISED_EVENT_BUS_PORT", "30702",
        "SLUICE_CLUSTER_MEMBERS", "10.0.0.1, node-2.example.internal:6701,[fd00::3]:6701",
        "SLUICE_CLUSTER_LEASE_MILLIS", "1000", "SLUICE_CLUSTER_MEMBER_TIMEOUT_MILLIS", "2000",
        "SLUICE_CLUSTER_RETRY_MILLIS", "0", "SLUICE_CLUSTER_SECRET", SECRET)).cluster();
    assertTrue(c.enabled());
    assertEquals(128, c.shards());
    assertEquals("orders", c.name());
    assertEquals("10.0.0.1", c.host());
    assertEquals(6701, c.port());
    assertEquals(0, c.eventBusPort(), "a free port");
    assertEquals("node-1.example.internal", c.advertisedHost());
    assertEquals(30702, c.advertisedEventBusPort());
    assertEquals(List.of("10.0.0.1", "node-2.example.internal:6701", "[fd00::3]:6701"), c.members());
    assertEquals(1000, c.leaseMillis());
    assertEquals(2000, c.memberTimeoutMillis());
    assertEquals(0, c.retryMillis());
    assertTrue(!c.toString().contains(SECRET), c.toString());

    Path file = dir.resolve("cluster.yaml");
    Files.writeString(file, "cluster:\n  host: 10.0.0.2\n  members: [10.0.0.1, 10.0.0.2]\n");
    Path service = dir.resolve("service.yaml");
    Files.writeString(service, "cluster:\n  host: 10.0.0.2\n  kubernetesService: sluice-cluster-members\n");
    assertEquals(List.of("10.0.0.1", "10.0.0.2"), ConfigLoader.load(new String[] {"--config", file.toString()},
        clustered("SLUICE_CLUSTER_SECRET", SECRET)).cluster().members(), "a YAML list in a file");
    assertEquals("10.0.0.3", ConfigLoader.load(new String[] {"--config", file.toString()},
        Map.of("SLUICE_CLUSTER_HOST", "10.0.0.3")).cluster().host(), "the variable overrides the file");
    assertEquals("sluice-cluster-members", ConfigLoader.load(new String[] {"--config", service.toString()},
        clustered("SLUICE_CLUSTER_SECRET", SECRET)).cluster().kubernetesService());
  }

  @Test
  void clusterModeRefusesWhatItCannotRunWithNamingBothKeys() {
    refused(clustered("SLUICE_STORAGE", "memory"),
        "'cluster.enabled' (SLUICE_CLUSTER_ENABLED) requires storage: postgres (SLUICE_STORAGE)");
    refused(clustered("SLUICE_ENGINE_SHARDS", "4"),
        "'cluster.enabled' (SLUICE_CLUSTER_ENABLED) requires engine.shards: 0 (SLUICE_ENGINE_SHARDS)");
    refused(clustered("SLUICE_ENGINE_DISPATCH", "eventbus"),
        "'cluster.enabled' (SLUICE_CLUSTER_ENABLED) requires engine.dispatch: direct (SLUICE_ENGINE_DISPATCH)");
    refused(clustered("SLUICE_QUEUES", "[{\"name\":\"orders\"}]"),
        "'cluster.enabled' (SLUICE_CLUSTER_ENABLED) requires queues: [] (SLUICE_QUEUES)");
    assertEquals(0, ConfigLoader.load(new String[0], clustered("SLUICE_PG_HEAD_WINDOW_MESSAGES", "0")).storage()
        .headWindowMessages(), "allowed, if costly on every hand-over");
    // Off, the same values are nobody's business but their own sections'.
    assertEquals(4, ConfigLoader.load(new String[0], Map.of("SLUICE_ENGINE_SHARDS", "4")).engine().shards());
  }

  @Test
  void beyondLoopbackClusterModeNeedsASecretAndAWayToFindTheOthers() {
    refused(clustered("SLUICE_CLUSTER_HOST", "10.0.0.1", "SLUICE_CLUSTER_MEMBERS", "10.0.0.2"),
        "'cluster.secret' (SLUICE_CLUSTER_SECRET) is required when cluster.host (10.0.0.1) is not a loopback address");
    refused(clustered("SLUICE_CLUSTER_HOST", "10.0.0.1", "SLUICE_CLUSTER_SECRET", SECRET),
        "'cluster.members' (SLUICE_CLUSTER_MEMBERS) or 'cluster.kubernetesService' (SLUICE_CLUSTER_KUBERNETES_SERVICE)"
            + " is required");
    ClusterConfig alone = ConfigLoader.load(new String[0], clustered()).cluster();
    assertTrue(alone.enabled() && alone.members().isEmpty() && alone.secret().isEmpty(),
        "on loopback, a node may run alone and without a secret (a local trial)");
    assertEquals("::1", ConfigLoader.load(new String[0], clustered("SLUICE_CLUSTER_HOST", "::1")).cluster().host());
    ClusterConfig off = ConfigLoader.load(new String[0], Map.of("SLUICE_CLUSTER_HOST", "10.0.0.1")).cluster();
    assertTrue(!off.enabled(), "nothing listens while cluster mode is off, so nothing is required");
  }

  @Test
  void badClusterValuesAreRefusedWhetherClusterModeIsOnOrNot() {
    Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put("SLUICE_CLUSTER_ENABLED=yes", "'cluster.enabled' (SLUICE_CLUSTER_ENABLED)");
    cases.put("SLUICE_CLUSTER_SHARDS=0",
        "'cluster.shards' (SLUICE_CLUSTER_SHARDS): expected an integer between 1 and 1024");
    cases.put("SLUICE_CLUSTER_SHARDS=1025", "'cluster.shards' (SLUICE_CLUSTER_SHARDS)");
    cases.put("SLUICE_CLUSTER_NAME=", "'cluster.name' (SLUICE_CLUSTER_NAME)");
    cases.put("SLUICE_CLUSTER_HOST=0.0.0.0", "'cluster.host' (SLUICE_CLUSTER_HOST)");
    cases.put("SLUICE_CLUSTER_HOST=::", "'cluster.host' (SLUICE_CLUSTER_HOST)");
    cases.put("SLUICE_CLUSTER_HOST=0:0:0:0:0:0:0:0", "'cluster.host' (SLUICE_CLUSTER_HOST)");
    cases.put("SLUICE_CLUSTER_HOST=localhost", "'cluster.host' (SLUICE_CLUSTER_HOST)");
    cases.put("SLUICE_CLUSTER_HOST=256.0.0.1", "'cluster.host' (SLUICE_CLUSTER_HOST)");
    cases.put("SLUICE_CLUSTER_PORT=0", "'cluster.port' (SLUICE_CLUSTER_PORT): expected an integer between 1 and 65535");
    cases.put("SLUICE_CLUSTER_PORT=65536", "'cluster.port' (SLUICE_CLUSTER_PORT)");
    cases.put("SLUICE_CLUSTER_EVENT_BUS_PORT=-1", "'cluster.eventBusPort' (SLUICE_CLUSTER_EVENT_BUS_PORT)");
    cases.put("SLUICE_CLUSTER_EVENT_BUS_PORT=5701", "'cluster.eventBusPort' (SLUICE_CLUSTER_EVENT_BUS_PORT): expected a"
        + " port other than cluster.port");
    cases.put("SLUICE_CLUSTER_ADVERTISED_HOST=0.0.0.0", "'cluster.advertisedHost' (SLUICE_CLUSTER_ADVERTISED_HOST)");
    cases.put("SLUICE_CLUSTER_ADVERTISED_HOST=node one", "'cluster.advertisedHost' (SLUICE_CLUSTER_ADVERTISED_HOST)");
    cases.put("SLUICE_CLUSTER_ADVERTISED_EVENT_BUS_PORT=65536",
        "'cluster.advertisedEventBusPort' (SLUICE_CLUSTER_ADVERTISED_EVENT_BUS_PORT)");
    cases.put("SLUICE_CLUSTER_MEMBERS=10.0.0.1:70000", "'cluster.members' (SLUICE_CLUSTER_MEMBERS)");
    cases.put("SLUICE_CLUSTER_MEMBERS=fd00::1", "'cluster.members' (SLUICE_CLUSTER_MEMBERS)");
    cases.put("SLUICE_CLUSTER_MEMBERS=[::]:5701", "'cluster.members' (SLUICE_CLUSTER_MEMBERS)");
    cases.put("SLUICE_CLUSTER_MEMBERS=node one", "'cluster.members' (SLUICE_CLUSTER_MEMBERS)");
    cases.put("SLUICE_CLUSTER_KUBERNETES_SERVICE=-members", "'cluster.kubernetesService'"
        + " (SLUICE_CLUSTER_KUBERNETES_SERVICE)");
    cases.put("SLUICE_CLUSTER_LEASE_MILLIS=999", "'cluster.leaseMillis' (SLUICE_CLUSTER_LEASE_MILLIS): expected an"
        + " integer between 1000 and 600000");
    cases.put("SLUICE_CLUSTER_MEMBER_TIMEOUT_MILLIS=1999", "'cluster.memberTimeoutMillis'"
        + " (SLUICE_CLUSTER_MEMBER_TIMEOUT_MILLIS): expected an integer between 2000 and 600000");
    cases.put("SLUICE_CLUSTER_RETRY_MILLIS=-1", "'cluster.retryMillis' (SLUICE_CLUSTER_RETRY_MILLIS): expected an"
        + " integer between 0 and 600000");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      String[] kv = c.getKey().split("=", 2);
      refused(Map.of(kv[0], kv[1]), c.getValue());
      refused(clustered(kv[0], kv[1]), c.getValue());
    }
  }

  @Test
  void theClusterSecretIsLongEnoughAndNeverEchoed() {
    String e = refused(Map.of("SLUICE_CLUSTER_SECRET", "short-secret"),
        "'cluster.secret' (SLUICE_CLUSTER_SECRET): expected at least 32 characters");
    assertTrue(!e.contains("short-secret"), e);
    assertEquals(SECRET, ConfigLoader.load(new String[0], Map.of("SLUICE_CLUSTER_SECRET", SECRET)).cluster().secret());
  }

  @Test
  void clusterMembersAndAKubernetesServiceAreNotBothGiven() {
    refused(Map.of("SLUICE_CLUSTER_MEMBERS", "10.0.0.1", "SLUICE_CLUSTER_KUBERNETES_SERVICE", "sluice-cluster-members"),
        "'cluster.kubernetesService' (SLUICE_CLUSTER_KUBERNETES_SERVICE): expected empty, since cluster.members is"
            + " set");
  }

  @Test
  void clusterTlsNeedsAllThreeFilesAndThemReadable() throws Exception {
    Path pem = Files.writeString(dir.resolve("node.pem"), "not checked here");
    refused(Map.of("SLUICE_CLUSTER_TLS_CERT_PATH", pem.toString()),
        "'cluster.tlsKeyPath' (SLUICE_CLUSTER_TLS_KEY_PATH): expected a PEM file, since cluster.tlsCertPath is set");
    refused(Map.of("SLUICE_CLUSTER_TLS_CERT_PATH", pem.toString(), "SLUICE_CLUSTER_TLS_KEY_PATH", pem.toString()),
        "'cluster.tlsCaPath' (SLUICE_CLUSTER_TLS_CA_PATH)");
    refused(Map.of("SLUICE_CLUSTER_TLS_CA_PATH", pem.toString()),
        "'cluster.tlsCertPath' (SLUICE_CLUSTER_TLS_CERT_PATH)");
    refused(Map.of("SLUICE_CLUSTER_TLS_CERT_PATH", pem.toString(), "SLUICE_CLUSTER_TLS_KEY_PATH", pem.toString(),
        "SLUICE_CLUSTER_TLS_CA_PATH", "/nonexistent/ca.pem"), "'cluster.tlsCaPath'", "readable PEM file");
    assertTrue(ConfigLoader.load(new String[0], Map.of("SLUICE_CLUSTER_TLS_CERT_PATH", pem.toString(),
        "SLUICE_CLUSTER_TLS_KEY_PATH", pem.toString(), "SLUICE_CLUSTER_TLS_CA_PATH", pem.toString())).cluster().tls());
  }
}
