package dev.sluice.outbox;

import dev.sluice.config.OutboxSource;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;

/**
 * How a relay reaches its source's database: the source's host, database, credentials and TLS as
 * vertx-pg-client takes them, named after the source in pg_stat_activity. Stateless.
 */
final class OutboxConnections {
  private OutboxConnections() {}

  static PgConnectOptions options(OutboxSource s) {
    PgConnectOptions o = new PgConnectOptions().setHost(s.host()).setPort(s.port()).setDatabase(s.database())
        .setUser(s.user()).setPassword(s.password())
        .addProperty("application_name", "sluice outbox " + s.name())
        // The lease is a session's advisory lock: a relay's host that vanished without closing its
        // connection must lose it in about 25 s, not the two hours of the kernel's keepalive default.
        .addProperty("tcp_keepalives_idle", "10").addProperty("tcp_keepalives_interval", "5")
        .addProperty("tcp_keepalives_count", "3");
    switch (s.sslMode()) {
      case DISABLE -> o.setSslMode(SslMode.DISABLE);
      case REQUIRE -> o.setSslMode(SslMode.REQUIRE).setSslOptions(s.caPath().isEmpty()
          // libpq's require: encrypted, the certificate not checked.
          ? new ClientSSLOptions().setTrustAll(true).setHostnameVerificationAlgorithm("")
          : new ClientSSLOptions().setTrustOptions(new PemTrustOptions().addCertPath(s.caPath()))
              .setHostnameVerificationAlgorithm(""));
      case VERIFY_FULL -> o.setSslMode(SslMode.VERIFY_FULL).setSslOptions(new ClientSSLOptions()
          .setTrustOptions(new PemTrustOptions().addCertPath(s.caPath())).setHostnameVerificationAlgorithm("HTTPS"));
    }
    return o;
  }

  /**
   * {@code message} (a driver's error, which may quote the user, e.g. "password authentication
   * failed for user x") with the source's user and password blotted out, fit for logs and the admin API.
   */
  static String redacted(OutboxSource s, String message) {
    String out = message == null ? "" : message;
    if (!s.password().isEmpty()) {
      out = out.replace(s.password(), "***");
    }
    return out.replace(s.user(), "***");
  }
}
