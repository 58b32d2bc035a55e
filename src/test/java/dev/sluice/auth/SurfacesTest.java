package dev.sluice.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the start-up log reports as open, the cluster ports and what guards them, and who may open
 * the bridge from a browser.
 */
class SurfacesTest {
  @TempDir Path dir;

  static Surfaces of(Map<String, String> env) {
    return Surfaces.of(ConfigLoader.load(new String[0], env));
  }

  @Test
  void theEmbeddedDefaultNamesEverySurfaceItLeavesOpen() {
    List<String> open = of(Map.of()).open();
    assertEquals(5, open.size(), open.toString());
    assertTrue(open.get(0).startsWith("the SQS APIs"), open.toString());
    assertTrue(open.get(1).startsWith("/metrics"), open.toString());
    assertTrue(open.get(2).startsWith("the triggers' admin API"), open.toString());
    assertTrue(open.get(3).startsWith("the push bridge at /eventbus"), open.toString());
    assertTrue(open.get(4).startsWith("the console at /console"), open.toString());
    assertFalse(of(Map.of()).openBeyondLoopback(), "on loopback: reported, not warned about");
  }

  @Test
  void openSurfacesBeyondLoopbackAreWarnedAbout() {
    assertTrue(of(Map.of("SLUICE_HTTP_HOST", "0.0.0.0", "SLUICE_MANAGEMENT_TOKEN", "t0ken")).openBeyondLoopback(),
        "the SQS APIs without credentials on every interface");
    assertTrue(of(Map.of("SLUICE_PUSH_TCP_PORT", "7001", "SLUICE_PUSH_TCP_HOST", "0.0.0.0")).openBeyondLoopback(),
        "an open TCP bridge on every interface");
    assertFalse(of(Map.of("SLUICE_HTTP_HOST", "0.0.0.0", "SLUICE_MANAGEMENT_TOKEN", "t0ken",
        "SLUICE_CREDENTIALS", "AKID:secret")).openBeyondLoopback(), "nothing open");
  }

  @Test
  void theTcpBridgeAndAStarOriginAreNamedToo() {
    List<String> open = of(Map.of("SLUICE_PUSH_TCP_PORT", "7001", "SLUICE_PUSH_ALLOWED_ORIGINS", "*")).open();
    assertTrue(open.stream().anyMatch(s -> s.startsWith("the TCP bridge on 127.0.0.1:7001")), open.toString());
    assertTrue(open.stream().anyMatch(s -> s.contains("push.allowedOrigins: *")), open.toString());
  }

  @Test
  void withCredentialsAndATokenNothingIsOpen() {
    Surfaces s = of(Map.of("SLUICE_CREDENTIALS", "AKID:secret", "SLUICE_MANAGEMENT_TOKEN", "t0ken",
        "SLUICE_PUSH_TCP_PORT", "7001"));
    assertEquals(List.of(), s.open());
    assertTrue(s.sqs().on());
    assertTrue(s.managementToken().required());
  }

  static final Map<String, String> CLUSTERED = Map.of("SLUICE_CLUSTER_ENABLED", "true", "SLUICE_STORAGE", "postgres",
      "SLUICE_PG_URL", "postgresql://sluice:pw@db.internal:5432/sluice");

  static Map<String, String> clustered(Map<String, String> more) {
    Map<String, String> env = new java.util.HashMap<>(CLUSTERED);
    env.putAll(more);
    return env;
  }

  @Test
  void outsideClusterModeNoClusterPortIsListed() {
    assertEquals(List.of(), of(Map.of()).clusterPorts());
  }

  @Test
  void theClusterPortsAreListedWithWhatGuardsThem() throws Exception {
    Path pem = Files.writeString(dir.resolve("node.pem"), "not read here");
    Surfaces s = of(clustered(Map.of("SLUICE_CLUSTER_HOST", "10.0.0.1", "SLUICE_CLUSTER_MEMBERS", "10.0.0.2",
        "SLUICE_CLUSTER_SECRET", "0123456789abcdef0123456789abcdef", "SLUICE_CLUSTER_TLS_CERT_PATH", pem.toString(),
        "SLUICE_CLUSTER_TLS_KEY_PATH", pem.toString(), "SLUICE_CLUSTER_TLS_CA_PATH", pem.toString())));
    List<String> ports = s.clusterPorts();
    assertEquals(2, ports.size(), ports.toString());
    assertTrue(ports.get(0).startsWith("the Hazelcast member port on 10.0.0.1:5701"), ports.toString());
    assertTrue(ports.get(0).contains("authenticates no member") && ports.get(0).contains("private network"),
        "nothing but the network guards it in open-source Hazelcast: " + ports);
    assertTrue(ports.get(1).startsWith("the event-bus port on 10.0.0.1:5702"), ports.toString());
    assertTrue(ports.get(1).contains("HMAC with cluster.secret") && ports.get(1).contains("member and sequence")
        && ports.get(1).contains("mutual TLS"), ports.toString());
    assertTrue(s.open().stream().noneMatch(o -> o.contains("cluster")), "a secret guards the event bus: " + s.open());
    assertFalse(s.openBeyondLoopback(), "the Hazelcast port is described, not warned about at every start");
  }

  @Test
  void withoutASecretTheEventBusIsOpenOnLoopbackAndSaysSo() {
    Surfaces s = of(clustered(Map.of("SLUICE_CLUSTER_EVENT_BUS_PORT", "0")));
    assertTrue(s.clusterPorts().get(1).startsWith("the event-bus port on 127.0.0.1 (a free port): calls forwarded"
        + " between nodes, unauthenticated"), s.clusterPorts().toString());
    assertTrue(s.clusterPorts().get(1).contains("readable on the network path"), s.clusterPorts().toString());
    assertTrue(s.open().stream().anyMatch(o -> o.startsWith("the cluster event-bus port on 127.0.0.1 (a free port)"
        + " (no cluster.secret")), s.open().toString());
    assertFalse(s.openBeyondLoopback(), "a secret is required beyond loopback, so this stays on loopback");
  }

  @Test
  void metricsOffIsNotReportedOpen() {
    List<String> open = of(Map.of("SLUICE_METRICS_ENABLED", "false", "SLUICE_PUSH_ENABLED", "false")).open();
    assertEquals(3, open.size(), open.toString());
    assertTrue(open.stream().noneMatch(o -> o.startsWith("/metrics")), open.toString());
  }

  @Test
  void anOpenConsoleIsNamedAndWarnedAboutBeyondLoopback() {
    assertTrue(of(Map.of("SLUICE_CONSOLE_ENABLED", "false")).open().stream()
        .noneMatch(o -> o.startsWith("the console")), "a console not served is not open");
    Surfaces off = of(Map.of("SLUICE_HTTP_HOST", "0.0.0.0", "SLUICE_MANAGEMENT_TOKEN", "off",
        "SLUICE_CREDENTIALS", "AKID:secret", "SLUICE_METRICS_ENABLED", "false", "SLUICE_PUSH_ENABLED", "false",
        "SLUICE_INVOKE_ENABLED", "false"));
    assertEquals(1, off.open().size(), off.open().toString());
    assertTrue(off.open().get(0).startsWith("the console at /console (no managementToken"), off.open().toString());
    assertTrue(off.openBeyondLoopback(), "the console alone, open beyond loopback, is warned about");
    Surfaces guarded = of(Map.of("SLUICE_MANAGEMENT_TOKEN", "t0ken"));
    assertTrue(guarded.console().token().required());
    assertTrue(guarded.open().stream().noneMatch(o -> o.startsWith("the console")), guarded.open().toString());
  }

  @Test
  void withoutATokenTheConsoleAcceptsOnlyHostsARebindingPageCannotHave() {
    ConsolePolicy local = of(Map.of()).console();
    assertTrue(local.enabled());
    for (String ok : List.of("localhost", "localhost:9324", "LOCALHOST:9324", "127.0.0.1:9324", "127.0.0.1",
        "10.1.2.3:80", "[::1]:9324", "[::1]", "[fe80::1]")) {
      assertTrue(local.hostAllowed(ok), ok);
    }
    for (String refused : List.of("evil.example", "evil.example:9324", "127.0.0.1.evil.example", "localhost.evil",
        "1.2.3.4.5", "256.1.1.1", "[evil.example]", "", "sqs.internal:9324")) {
      assertFalse(local.hostAllowed(refused), refused);
    }
    assertFalse(local.hostAllowed(null), "no Host");
    ConsolePolicy named = of(Map.of("SLUICE_HTTP_PUBLIC_BASE_URL", "http://SQS.internal:9324/")).console();
    assertTrue(named.hostAllowed("sqs.internal:9324"), "the host of http.publicBaseUrl");
    assertTrue(named.hostAllowed("sqs.internal"));
    assertFalse(named.hostAllowed("sqs.internal.evil.example"));
    assertFalse(of(Map.of("SLUICE_CONSOLE_ENABLED", "false")).console().enabled());
  }

  @Test
  void theConsolesPagesMayComeFromThisServerOrFromItsPublicUrlBehindAProxy() {
    ConsolePolicy local = of(Map.of()).console();
    assertTrue(local.originAllowed(null, "127.0.0.1:9324", false), "no Origin: not a page");
    assertTrue(local.originAllowed("http://127.0.0.1:9324", "127.0.0.1:9324", false));
    assertFalse(local.originAllowed("https://127.0.0.1:9324", "127.0.0.1:9324", false));
    assertFalse(local.originAllowed("http://evil.example", "127.0.0.1:9324", false));
    // A proxy ends TLS and forwards plain HTTP under another name: the pages' origin is the public URL's.
    ConsolePolicy proxied = of(Map.of("SLUICE_HTTP_PUBLIC_BASE_URL", "https://SQS.example.com",
        "SLUICE_MANAGEMENT_TOKEN", "t")).console();
    assertTrue(proxied.originAllowed("https://sqs.example.com", "10.0.0.7:9324", false));
    assertFalse(proxied.originAllowed("http://sqs.example.com", "10.0.0.7:9324", false), "not over plain HTTP");
    assertFalse(proxied.originAllowed("https://sqs.example.com.evil.example", "10.0.0.7:9324", false));
  }

  @Test
  void theBridgeAcceptsItsOwnPagesListedSitesAndProgramsOnly() {
    OriginPolicy own = new OriginPolicy(List.of());
    assertTrue(own.allows(null, "sqs.internal:9324", false), "no Origin: a program, not a page");
    assertTrue(own.allows("http://sqs.internal:9324", "sqs.internal:9324", false), "its own page");
    assertTrue(own.allows("HTTPS://SQS.internal:9324", "sqs.internal:9324", true), "case does not matter");
    assertFalse(own.allows("http://sqs.internal:9324", "sqs.internal:9324", true), "the scheme does");
    assertFalse(own.allows("https://evil.example", "sqs.internal:9324", true));
    assertFalse(own.allows("null", "sqs.internal:9324", false), "sandboxed pages send Origin: null");
    OriginPolicy listed = new OriginPolicy(List.of("https://app.example.com"));
    assertTrue(listed.allows("https://app.example.com", "sqs.internal:9324", false));
    assertFalse(listed.allows("https://app.example.com.evil.example", "sqs.internal:9324", false));
    assertTrue(new OriginPolicy(List.of("*")).allows("https://evil.example", "sqs.internal:9324", false));
  }
}
