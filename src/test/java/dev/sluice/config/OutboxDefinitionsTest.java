package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code outbox.sources} list: defaults, the URL's parts, {@code ${env:}} secrets, and a bad field named by key. */
class OutboxDefinitionsTest {
  @TempDir Path dir;

  static SluiceConfig load(Map<String, String> env) {
    return ConfigLoader.load(new String[0], env);
  }

  @Test
  void aMinimalSourceTakesTheDefaults() {
    SluiceConfig c = load(Map.of("SLUICE_OUTBOX_SOURCES", "[{\"name\": \"orders\", \"url\":"
        + " \"postgresql://db.internal/orders\", \"user\": \"relay\", \"password\": \"${env:ORDERS_PW}\"}]",
        "ORDERS_PW", "s3cret"));
    assertTrue(c.outbox().enabled());
    OutboxSource s = c.outbox().sources().get(0);
    assertEquals("outbox.sources[0]", s.key());
    assertEquals("orders", s.name());
    assertEquals("db.internal", s.host());
    assertEquals(5432, s.port());
    assertEquals("orders", s.database());
    assertEquals("relay", s.user());
    assertEquals("s3cret", s.password(), "the environment's value, never written in the file");
    assertEquals(OutboxSource.SslMode.DISABLE, s.sslMode());
    assertEquals("sluice_outbox", s.table());
    assertEquals("sluice_outbox_dead", s.deadTable());
    assertEquals(100, s.batchSize());
    assertEquals(1000, s.pollIntervalMillis());
    assertEquals("sluice_outbox", s.notifyChannel());
    assertFalse(s.createTable());
    assertEquals("000000000000", s.accountId());
    assertEquals("us-east-1", s.region());
    assertFalse(s.toString().contains("s3cret"), s.toString());
    assertEquals(List.of(), load(Map.of()).outbox().sources());
  }

  @Test
  void everyFieldCanBeSetFromAFile() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n");
    Path conf = Files.writeString(dir.resolve("sluice.yaml"), """
        outbox:
          sources:
            - name: billing_2
              url: postgres://[::1]:6543/billing
              user: sluice
              password: plain
              sslMode: verify-full
              caPath: %s
              table: app.events_outbox
              batchSize: 7
              pollIntervalMillis: 250
              notifyChannel: ""
              createTable: true
              accountId: "111111111111"
              region: us-east-1
        """.formatted(ca));
    OutboxSource s = load(Map.of("SLUICE_CONFIG", conf.toString())).outbox().sources().get(0);
    assertEquals("::1", s.host());
    assertEquals(6543, s.port());
    assertEquals(OutboxSource.SslMode.VERIFY_FULL, s.sslMode());
    assertEquals(ca.toString(), s.caPath());
    assertEquals("app.events_outbox", s.table());
    assertEquals("app.events_outbox_dead", s.deadTable());
    assertEquals(7, s.batchSize());
    assertEquals(250, s.pollIntervalMillis());
    assertEquals("", s.notifyChannel());
    assertTrue(s.createTable());
    assertEquals("111111111111", s.accountId());
  }

  @Test
  void offLeavesTheSourcesUnrelayed() {
    SluiceConfig c = load(Map.of("SLUICE_OUTBOX_ENABLED", "false", "SLUICE_OUTBOX_SOURCES",
        "[{name: a, url: 'postgresql://h/d', user: u}]"));
    assertEquals(1, c.outbox().sources().size());
    assertEquals(List.of(), c.outbox().relayed());
  }

  @Test
  void aBadFieldIsNamedByItsKey() {
    String ok = "name: a, url: 'postgresql://h:5432/d', user: u";
    assertRefused("outbox.sources[0].name", "[{name: 'a b', url: 'postgresql://h/d', user: u}]");
    assertRefused("outbox.sources[0].url", "[{name: a, url: 'postgresql://u:pw@h/d', user: u}]");
    assertRefused("outbox.sources[0].url", "[{name: a, url: 'mysql://h/d', user: u}]");
    assertRefused("outbox.sources[0].url", "[{name: a, url: 'postgresql://h:70000/d', user: u}]");
    assertRefused("outbox.sources[0].user", "[{name: a, url: 'postgresql://h/d'}]");
    assertRefused("outbox.sources[0].table", "[{" + ok + ", table: 'x; drop table y'}]");
    assertRefused("outbox.sources[0].table", "[{" + ok + ", table: 'Outbox'}]");
    assertRefused("outbox.sources[0].table", "[{" + ok + ", table: 'a.b.c'}]");
    assertRefused("outbox.sources[0].batchSize", "[{" + ok + ", batchSize: 1001}]");
    assertRefused("outbox.sources[0].batchSize", "[{" + ok + ", batchSize: 0}]");
    assertRefused("outbox.sources[0].notifyChannel", "[{" + ok + ", notifyChannel: 'a-b'}]");
    assertRefused("outbox.sources[0].sslMode", "[{" + ok + ", sslMode: prefer}]");
    assertRefused("outbox.sources[0].caPath", "[{" + ok + ", sslMode: verify-full}]");
    assertRefused("outbox.sources[0].caPath", "[{" + ok + ", sslMode: require, caPath: /nonexistent.pem}]");
    assertRefused("outbox.sources[0].createTable", "[{" + ok + ", createTable: yes please}]");
    assertRefused("outbox.sources[0].accountId", "[{" + ok + ", accountId: '12'}]");
    assertRefused("outbox.sources[0].region", "[{" + ok + ", region: Mars}]");
    assertRefused("outbox.sources[0].colour", "[{" + ok + ", colour: blue}]");
    assertRefused("outbox.sources[1].name", "[{" + ok + "}, {" + ok + "}]");
    assertRefused("outbox.sources", "{" + ok + "}");
  }

  @Test
  void anUnsetPasswordVariableIsNamedButNoSecretIsShown() {
    ConfigException e = assertThrows(ConfigException.class, () -> load(Map.of("SLUICE_OUTBOX_SOURCES",
        "[{name: a, url: 'postgresql://h/d', user: u, password: '${env:UNSET_OUTBOX_PW}'}]")));
    assertTrue(e.getMessage().contains("'outbox.sources[0].password'"), e.getMessage());
    ConfigException url = assertThrows(ConfigException.class, () -> load(Map.of("SLUICE_OUTBOX_SOURCES",
        "[{name: a, url: 'postgresql://u:hunter2@h/d', user: u}]")));
    assertFalse(url.getMessage().contains("hunter2"), url.getMessage());
  }

  @Test
  void tableNamesAreLowerCaseIdentifiersOptionallyQualified() {
    assertTrue(OutboxSource.isTableName("sluice_outbox"));
    assertTrue(OutboxSource.isTableName("app.outbox_2"));
    assertTrue(OutboxSource.isTableName("_x"));
    assertFalse(OutboxSource.isTableName(""));
    assertFalse(OutboxSource.isTableName("app."));
    assertFalse(OutboxSource.isTableName("2x"));
    assertFalse(OutboxSource.isTableName("\"quoted\""));
    assertFalse(OutboxSource.isTableName("x".repeat(59)));
    assertTrue(OutboxSource.isTableName("x".repeat(58)));
  }

  static void assertRefused(String key, String sources) {
    Map<String, String> env = new HashMap<>();
    env.put("SLUICE_OUTBOX_SOURCES", sources);
    ConfigException e = assertThrows(ConfigException.class, () -> load(env), sources);
    assertTrue(e.getMessage().contains("'" + key + "'"), key + " in: " + e.getMessage());
  }
}
