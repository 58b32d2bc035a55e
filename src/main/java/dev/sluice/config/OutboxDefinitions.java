package dev.sluice.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads the {@code outbox.sources} list, from the file or from SLUICE_OUTBOX_SOURCES (JSON, which is
 * YAML too), checking every field and naming the offending key, e.g. {@code outbox.sources[0].table}.
 * No message quotes a user or password: they may be secrets, given directly or as {@code ${env:NAME}}.
 */
final class OutboxDefinitions {
  private static final String KEY = "outbox.sources";
  private static final Set<String> FIELDS = Set.of("name", "url", "user", "password", "sslMode", "caPath", "table",
      "batchSize", "pollIntervalMillis", "notifyChannel", "createTable", "accountId", "region");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,80}");
  /** No user information: the user and password have keys of their own, so that a URL never carries a secret. */
  private static final Pattern URL =
      Pattern.compile("postgres(?:ql)?://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+])(?::(\\d{1,5}))?/([^\\s/?#]+)");

  private OutboxDefinitions() {}

  static List<OutboxSource> parse(String text, SqsConfig sqs, Map<String, String> env) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (RuntimeException e) {
      throw QueueDefinitions.invalid(KEY, "a list of outbox sources (" + ConfigKey.OUTBOX_SOURCES.envVar()
          + " holds it as JSON): " + e.getMessage());
    }
    if (root == null) {
      return List.of();
    }
    if (!(root instanceof List<?> list)) {
      throw QueueDefinitions.invalid(KEY, "a list of outbox sources");
    }
    List<OutboxSource> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      OutboxSource s = source(KEY + "[" + i + "]", list.get(i), sqs, env);
      if (!names.add(s.name())) {
        throw QueueDefinitions.invalid(s.key() + ".name", "a name no earlier source has; '" + s.name()
            + "' is used twice");
      }
      out.add(s);
    }
    return List.copyOf(out);
  }

  private static OutboxSource source(String key, Object node, SqsConfig sqs, Map<String, String> env) {
    if (!(node instanceof Map<?, ?> map)) {
      throw QueueDefinitions.invalid(key, "a mapping with name, url, user and password, and optionally " + FIELDS);
    }
    for (Object field : map.keySet()) {
      if (!FIELDS.contains(String.valueOf(field))) {
        throw new ConfigException("Unknown configuration key '" + key + "." + field + "'; an outbox source takes "
            + FIELDS);
      }
    }
    String name = text(map, key, "name", null);
    if (!NAME.matcher(name).matches()) {
      throw QueueDefinitions.invalid(key + ".name", "1 to 80 letters, digits, '-' or '_'");
    }
    Matcher url = URL.matcher(text(map, key, "url", null));
    if (!url.matches()) {
      throw QueueDefinitions.invalid(key + ".url", "postgresql://host:port/database of the application's database,"
          + " without a user or password (they are the keys user and password)");
    }
    int port = url.group(2) == null ? 5432 : Integer.parseInt(url.group(2));
    if (port < 1 || port > 65535) {
      throw QueueDefinitions.invalid(key + ".url", "a port between 1 and 65535");
    }
    String host = url.group(1).startsWith("[") ? url.group(1).substring(1, url.group(1).length() - 1) : url.group(1);
    String user = TriggerDefinitions.resolve(key + ".user", text(map, key, "user", null), env);
    if (user.isEmpty()) {
      throw QueueDefinitions.invalid(key + ".user", "the database user the relay connects as");
    }
    String password = TriggerDefinitions.resolve(key + ".password", text(map, key, "password", ""), env);
    OutboxSource.SslMode ssl = sslMode(key, text(map, key, "sslMode", "disable"));
    String caPath = text(map, key, "caPath", "");
    if (ssl == OutboxSource.SslMode.VERIFY_FULL && caPath.isEmpty()) {
      throw QueueDefinitions.invalid(key + ".caPath", "a PEM file of the authority the database's certificate chains"
          + " to, since sslMode is verify-full");
    }
    if (!caPath.isEmpty() && !Files.isReadable(Path.of(caPath))) {
      throw QueueDefinitions.invalid(key + ".caPath", "a readable PEM file");
    }
    if (!caPath.isEmpty() && ssl == OutboxSource.SslMode.DISABLE) {
      throw QueueDefinitions.invalid(key + ".sslMode", "require or verify-full, since caPath is set");
    }
    String table = text(map, key, "table", "sluice_outbox");
    if (!OutboxSource.isTableName(table)) {
      throw QueueDefinitions.invalid(key + ".table", "a table name, optionally schema-qualified (schema.table), each"
          + " part [a-z_][a-z0-9_]* of at most 58 characters");
    }
    String channel = text(map, key, "notifyChannel", "sluice_outbox");
    if (!channel.isEmpty() && !OutboxSource.isIdentifier(channel)) {
      throw QueueDefinitions.invalid(key + ".notifyChannel", "a channel name [a-z_][a-z0-9_]* of at most 58"
          + " characters, or \"\" to poll only");
    }
    QueueDefinitions.Place place = QueueDefinitions.place(key, map, sqs, "accountId", "region");
    return new OutboxSource(key, name, host, port, url.group(3), user, password, ssl, caPath, table,
        integer(map, key, "batchSize", 100, 1, 1000), integer(map, key, "pollIntervalMillis", 1000, 10, 3_600_000),
        channel, bool(map, key, "createTable"), place.accountId(), place.region());
  }

  private static OutboxSource.SslMode sslMode(String key, String value) {
    for (OutboxSource.SslMode m : OutboxSource.SslMode.values()) {
      if (m.configName().equals(value)) {
        return m;
      }
    }
    throw QueueDefinitions.invalid(key + ".sslMode", "disable, require or verify-full");
  }

  /** A scalar field as text; {@code fallback} when absent, or required when it is null. */
  private static String text(Map<?, ?> map, String key, String field, String fallback) {
    Object v = map.get(field);
    if (v == null && fallback == null) {
      throw QueueDefinitions.invalid(key + "." + field, "a value (it is required)");
    }
    if (v == null) {
      return fallback;
    }
    if (v instanceof Map<?, ?> || v instanceof List<?>) {
      throw QueueDefinitions.invalid(key + "." + field, "a single value");
    }
    return String.valueOf(v).trim();
  }

  private static int integer(Map<?, ?> map, String key, String field, int fallback, int min, int max) {
    Object v = map.get(field);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(String.valueOf(v).trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw QueueDefinitions.invalid(key + "." + field, "an integer between " + min + " and " + max);
  }

  private static boolean bool(Map<?, ?> map, String key, String field) {
    Object v = map.get(field);
    if (v == null) {
      return false;
    }
    String s = String.valueOf(v).trim();
    if (!s.equals("true") && !s.equals("false")) {
      throw QueueDefinitions.invalid(key + "." + field, "true or false");
    }
    return s.equals("true");
  }
}
