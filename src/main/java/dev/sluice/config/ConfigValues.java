package dev.sluice.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Turns flat key → string values into typed sections, failing on the first bad value by name. */
final class ConfigValues {
  private final Map<String, String> values;

  private ConfigValues(Map<String, String> values) {
    this.values = values;
  }

  /**
   * {@code env}: the environment, which a trigger's header values and an outbox source's user and
   * password may name ({@code ${env:NAME}}).
   */
  static SluiceConfig toConfig(Map<String, String> values, Map<String, String> env) {
    ConfigValues v = new ConfigValues(values);
    HttpConfig http = new HttpConfig(
        v.string(ConfigKey.HTTP_HOST, false),
        (int) v.number(ConfigKey.HTTP_PORT, 0, 65535),
        (int) v.number(ConfigKey.HTTP_INSTANCES, 0, 1024),
        (int) v.number(ConfigKey.HTTP_MAX_BODY_BYTES, 1_048_576, Integer.MAX_VALUE),
        v.baseUrl(ConfigKey.HTTP_PUBLIC_BASE_URL),
        v.number(ConfigKey.HTTP_MAX_INFLIGHT_BODY_BYTES, 0, Long.MAX_VALUE),
        (int) v.number(ConfigKey.HTTP_MAX_CONNECTIONS, 1, 10_000_000),
        (int) v.number(ConfigKey.HTTP_HEADER_TIMEOUT_MILLIS, 100, 3_600_000),
        (int) v.number(ConfigKey.HTTP_BODY_TIMEOUT_MILLIS, 100, 3_600_000),
        (int) v.number(ConfigKey.HTTP_IDLE_TIMEOUT_MILLIS, 100, 3_600_000));
    String account = v.string(ConfigKey.SQS_ACCOUNT_ID, false);
    if (!account.matches("\\d{12}")) {
      throw v.invalid(ConfigKey.SQS_ACCOUNT_ID, "a 12-digit account id");
    }
    SqsConfig sqs = v.sqs(account);
    String dispatch = v.string(ConfigKey.ENGINE_DISPATCH, false);
    if (!dispatch.equals("direct") && !dispatch.equals("eventbus")) {
      throw v.invalid(ConfigKey.ENGINE_DISPATCH, "direct or eventbus");
    }
    EngineConfig engine = new EngineConfig(
        (int) v.number(ConfigKey.ENGINE_EVENT_LOOPS, 0, 1024),
        (int) v.number(ConfigKey.ENGINE_SHARDS, 0, 1024),
        dispatch,
        v.number(ConfigKey.ENGINE_MEMORY_BUDGET_BYTES, 0, Long.MAX_VALUE),
        (int) v.number(ConfigKey.ENGINE_MAX_PARKED_RECEIVES, 1, 10_000_000),
        (int) v.number(ConfigKey.ENGINE_MAX_PARKED_RECEIVES_PER_QUEUE, 1, 10_000_000),
        (int) v.number(ConfigKey.ENGINE_MAX_INFLIGHT_PER_QUEUE, 1, 10_000_000),
        (int) v.number(ConfigKey.ENGINE_MAX_QUEUES, 1, 10_000_000));
    OpsConfig ops = new OpsConfig(
        v.oneOf(ConfigKey.METRICS_ENABLED, "true", "false").equals("true"),
        (int) v.number(ConfigKey.SHUTDOWN_GRACE_MILLIS, 1_000, 600_000),
        QueueDefinitions.parse(v.raw(ConfigKey.QUEUES), sqs),
        TopicDefinitions.parse(v.raw(ConfigKey.TOPICS), sqs),
        TriggerDefinitions.parse(v.raw(ConfigKey.TRIGGERS), sqs, env));
    StorageConfig storage = v.storage();
    ClusterConfig cluster = ClusterSection.read(v, storage, engine);
    if (cluster.enabled() && !ops.queues().isEmpty()) {
      // A node starts holding no shard, so it cannot create queues at start-up; create them through the API.
      throw ClusterSection.requiredByCluster(ConfigKey.QUEUES, "[]",
          "predefined queues are not created in cluster mode yet");
    }
    if (cluster.enabled() && !ops.topics().isEmpty()) {
      throw ClusterSection.requiredByCluster(ConfigKey.TOPICS, "[]", "SNS topics are not served in cluster mode yet");
    }
    InvokeConfig invoke = new InvokeConfig(v.oneOf(ConfigKey.INVOKE_ENABLED, "true", "false").equals("true"),
        (int) v.number(ConfigKey.INVOKE_MAX_TRIGGERS, 0, 100_000),
        (int) v.number(ConfigKey.INVOKE_MAX_CONCURRENT_INVOKES, 1, 100_000),
        v.oneOf(ConfigKey.INVOKE_ALLOW_PRIVATE_ADDRESSES, "true", "false").equals("true"));
    if (cluster.enabled() && !ops.triggers().isEmpty()) {
      throw ClusterSection.requiredByCluster(ConfigKey.TRIGGERS, "[]", "triggers are not served in cluster mode yet");
    }
    if (!invoke.enabled() && !ops.triggers().isEmpty()) {
      throw v.invalid(ConfigKey.TRIGGERS, "[] while invoke.enabled is false");
    }
    SecurityConfig security = v.security(http.host(), account);
    // auto: a server with credentials serves several parties, none of whom may reach its network through it.
    String privateAddresses = v.oneOf(ConfigKey.OUTBOUND_ALLOW_PRIVATE_ADDRESSES, "auto", "true", "false");
    OutboundConfig outbound = new OutboundConfig(
        (int) v.number(ConfigKey.OUTBOUND_CONNECT_TIMEOUT_MILLIS, 100, 600_000),
        (int) v.number(ConfigKey.OUTBOUND_REQUEST_TIMEOUT_MILLIS, 100, 600_000),
        (int) v.number(ConfigKey.OUTBOUND_MAX_CONNECTIONS_PER_ENDPOINT, 1, 10_000),
        (int) v.number(ConfigKey.OUTBOUND_MAX_QUEUED_PER_ENDPOINT, 0, 1_000_000),
        privateAddresses.equals("auto") ? security.accessKeys().isEmpty() : privateAddresses.equals("true"));
    ConsoleConfig console = new ConsoleConfig(v.oneOf(ConfigKey.CONSOLE_ENABLED, "true", "false").equals("true"),
        (int) v.number(ConfigKey.CONSOLE_SAMPLE_MILLIS, 1_000, 60_000),
        (int) v.number(ConfigKey.CONSOLE_HISTORY_SERIES, 0, 100_000),
        (int) v.number(ConfigKey.CONSOLE_MAX_STREAMS, 1, 1_000));
    OutboxConfig outbox = new OutboxConfig(v.oneOf(ConfigKey.OUTBOX_ENABLED, "true", "false").equals("true"),
        OutboxDefinitions.parse(v.raw(ConfigKey.OUTBOX_SOURCES), sqs, env));
    return new SluiceConfig(http, sqs, engine, storage, v.push(), outbound, invoke, ops, security, cluster, console,
        outbox);
  }

  /** The default region must be one the server serves, or unsigned requests could use none. */
  private SqsConfig sqs(String account) {
    String region = string(ConfigKey.SQS_REGION, false);
    if (!SqsConfig.isRegionName(region)) {
      throw invalid(ConfigKey.SQS_REGION, "a region name such as us-east-1");
    }
    List<String> regions = new ArrayList<>();
    for (String part : string(ConfigKey.SQS_REGIONS, true).split(",")) {
      String r = part.trim();
      if (r.isEmpty()) {
        continue;
      }
      if (!SqsConfig.isRegionName(r)) {
        throw invalid(ConfigKey.SQS_REGIONS, "a comma-separated list of region names such as us-east-1,eu-west-1");
      }
      regions.add(r);
    }
    if (!regions.isEmpty() && !regions.contains(region)) {
      throw invalid(ConfigKey.SQS_REGIONS, "a list that holds sqs.region (" + region + "), the region of unsigned"
          + " requests");
    }
    return new SqsConfig(account, region, List.copyOf(regions));
  }

  private StorageConfig storage() {
    String mode = oneOf(ConfigKey.STORAGE, "memory", "postgres");
    String durability = oneOf(ConfigKey.DURABILITY, "commit", "relaxed");
    String url = string(ConfigKey.PG_URL, true);
    if (mode.equals("postgres") && !url.matches("postgres(ql)?://[^\\s/]+(/[^\\s/?]+)?")) {
      throw invalidSecret(ConfigKey.PG_URL, "with storage: postgres, expected"
          + " postgresql://user[:password]@host:port/database");
    }
    return new StorageConfig(mode, durability, url,
        (int) number(ConfigKey.PG_POOL_SIZE, 1, 64),
        (int) number(ConfigKey.PG_BATCH_SIZE, 1, 100_000),
        (int) number(ConfigKey.PG_FLUSH_INTERVAL_MILLIS, 0, 10_000),
        (int) number(ConfigKey.PG_SEND_TIMEOUT_MILLIS, 100, 600_000),
        (int) number(ConfigKey.PG_LEASE_MILLIS, 400, 600_000),
        number(ConfigKey.PG_MAX_WRITER_BACKLOG_BYTES, 0, Long.MAX_VALUE),
        (int) number(ConfigKey.PG_HEAD_WINDOW_MESSAGES, 0, 10_000_000),
        (int) number(ConfigKey.PG_READ_POOL_SIZE, 1, 64));
  }

  private PushConfig push() {
    String enabled = oneOf(ConfigKey.PUSH_ENABLED, "true", "false");
    String path = string(ConfigKey.PUSH_PATH, false);
    if (!path.matches("/[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*")) {
      throw invalid(ConfigKey.PUSH_PATH, "an absolute path such as /eventbus");
    }
    return new PushConfig(enabled.equals("true"), path, string(ConfigKey.PUSH_TCP_HOST, false),
        (int) number(ConfigKey.PUSH_TCP_PORT, 0, 65535),
        (int) number(ConfigKey.PUSH_MAX_FRAME_BYTES, 1024, 16 * 1_048_576),
        (int) number(ConfigKey.PUSH_MAX_PREFETCH, 1, 100_000), origins(ConfigKey.PUSH_ALLOWED_ORIGINS));
  }

  /** A comma-separated list of scheme://host[:port] origins, or "*". */
  private List<String> origins(ConfigKey k) {
    List<String> out = new ArrayList<>();
    for (String part : string(k, true).split(",")) {
      String o = part.trim();
      while (o.endsWith("/")) {
        o = o.substring(0, o.length() - 1);
      }
      if (o.isEmpty()) {
        continue;
      }
      if (!o.equals("*") && !o.matches("https?://[^/\\s]+")) {
        throw invalid(k, "a comma-separated list of origins such as https://app.example.com, or *");
      }
      out.add(o.toLowerCase(java.util.Locale.ROOT));
    }
    return List.copyOf(out);
  }

  private SecurityConfig security(String host, String defaultAccountId) {
    // Its value is never echoed: it holds secrets.
    List<Credential> credentials = CredentialDefinitions.parse(string(ConfigKey.CREDENTIALS, true), defaultAccountId);
    String token = string(ConfigKey.MANAGEMENT_TOKEN, true);
    if (token.isEmpty() && (!HttpConfig.isLoopback(host) || !credentials.isEmpty())) {
      // With credentials the SQS API is closed to strangers; /metrics and the bridges must not stay open by
      // accident beside it (a bridge subscriber reads and deletes messages of any queue).
      throw new ConfigException("Configuration key '" + ConfigKey.MANAGEMENT_TOKEN.path() + "' ("
          + ConfigKey.MANAGEMENT_TOKEN.envVar() + ") is required when "
          + (credentials.isEmpty() ? "http.host (" + host + ") is not a loopback address"
              : "credentials are set")
          + ": set a token to protect /metrics and the push bridges, or 'off' to leave them open");
    }
    List<String> tls = pemFiles(ConfigKey.TLS_CERT_PATH, ConfigKey.TLS_KEY_PATH);
    return new SecurityConfig(credentials, token.equals("off") ? "" : token, tls.get(0), tls.get(1));
  }

  /** PEM files that work only together: all of them set and readable, or none set. */
  List<String> pemFiles(ConfigKey... keys) {
    List<String> paths = new ArrayList<>();
    ConfigKey firstSet = null;
    for (ConfigKey k : keys) {
      String path = string(k, true);
      paths.add(path);
      firstSet = firstSet == null && !path.isEmpty() ? k : firstSet;
    }
    for (int i = 0; firstSet != null && i < keys.length; i++) {
      if (paths.get(i).isEmpty()) {
        throw invalid(keys[i], "a PEM file, since " + firstSet.path() + " is set");
      }
    }
    for (int i = 0; firstSet != null && i < keys.length; i++) {
      if (!Files.isReadable(Path.of(paths.get(i)))) {
        throw invalid(keys[i], "a readable PEM file");
      }
    }
    return paths;
  }

  String oneOf(ConfigKey k, String... allowed) {
    String s = string(k, false);
    if (!Arrays.asList(allowed).contains(s)) {
      throw invalid(k, String.join(", ", Arrays.asList(allowed).subList(0, allowed.length - 1)) + " or "
          + allowed[allowed.length - 1]);
    }
    return s;
  }

  private String raw(ConfigKey k) {
    String s = values.get(k.path());
    if (s == null) {
      throw new ConfigException("Missing configuration key '" + k.path() + "' (" + k.envVar() + ")");
    }
    return s.trim();
  }

  String string(ConfigKey k, boolean mayBeEmpty) {
    String s = raw(k);
    if (s.isEmpty() && !mayBeEmpty) {
      throw invalid(k, "a non-empty value");
    }
    return s;
  }

  long number(ConfigKey k, long min, long max) {
    String s = raw(k);
    try {
      long n = Long.parseLong(s);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(k, "an integer between " + min + " and " + max);
  }

  private String baseUrl(ConfigKey k) {
    String s = string(k, true);
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    if (!s.isEmpty() && !s.matches("https?://[^/\\s]+")) {
      throw invalid(k, "empty, or a URL such as http://host:9324 with no path");
    }
    return s;
  }


  /** As {@link #invalid}, without the value, which holds a secret. */
  static ConfigException invalidSecret(ConfigKey k, String expected) {
    return new ConfigException("Invalid value for configuration key '" + k.path() + "' (" + k.envVar() + "): "
        + expected);
  }

  ConfigException invalid(ConfigKey k, String expected) {
    return new ConfigException(
        "Invalid value '" + values.get(k.path()) + "' for configuration key '" + k.path() + "' ("
            + k.envVar() + "): expected " + expected);
  }
}
