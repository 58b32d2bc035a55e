package dev.sluice.config;

import java.util.regex.Pattern;

/**
 * One outbox source of the configuration ({@code outbox.sources}): the application's PostgreSQL
 * (host, port, database, credentials, TLS), its outbox table and how the relay reads it, and the
 * account and region whose queues its rows name. {@code key} is where it was defined, e.g.
 * {@code outbox.sources[0]}. The password never leaves this record but to connect: {@link #toString}
 * leaves it out, as the admin API and the logs do.
 */
public record OutboxSource(String key, String name, String host, int port, String database, String user,
    String password, SslMode sslMode, String caPath, String table, int batchSize, int pollIntervalMillis,
    String notifyChannel, boolean createTable, String accountId, String region) {

  /** How the connection to the application's database is secured, as libpq's sslmode of the same names. */
  public enum SslMode {
    /** Plain TCP. */
    DISABLE("disable"),
    /** TLS, the server's certificate not checked (unless caPath is set: then it must chain to it). */
    REQUIRE("require"),
    /** TLS, the certificate chaining to caPath and naming the host. */
    VERIFY_FULL("verify-full");

    private final String configName;

    SslMode(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  /**
   * One part of a table or channel name: lower case, so that PostgreSQL reads it the same quoted or
   * not, and short enough that the dead-row table's name ({@code _dead} appended) still fits its 63 bytes.
   */
  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,57}");

  /** A table name as {@code table} takes it: {@code name} or {@code schema.name}, each part an identifier. */
  public static boolean isTableName(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length > 2) {
      return false;
    }
    for (String part : parts) {
      if (!isIdentifier(part)) {
        return false;
      }
    }
    return true;
  }

  /** A bare identifier: {@code [a-z_][a-z0-9_]*}, at most 58 characters. */
  public static boolean isIdentifier(String s) {
    return IDENTIFIER.matcher(s).matches();
  }

  /** The table rows that cannot become messages are moved to: the outbox table's name with {@code _dead}. */
  public String deadTable() {
    return table + "_dead";
  }

  @Override
  public String toString() {
    return "OutboxSource[" + key + " " + name + " postgresql://" + host + ":" + port + "/" + database + " table "
        + table + "]";
  }
}
