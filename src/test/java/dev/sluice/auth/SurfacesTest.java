package dev.sluice.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the start-up log reports as open, and who may open the bridge from a browser. */
class SurfacesTest {
  static Surfaces of(Map<String, String> env) {
    return Surfaces.of(ConfigLoader.load(new String[0], env));
  }

  @Test
  void theEmbeddedDefaultNamesEverySurfaceItLeavesOpen() {
    List<String> open = of(Map.of()).open();
    assertEquals(3, open.size(), open.toString());
    assertTrue(open.get(0).startsWith("the SQS APIs"), open.toString());
    assertTrue(open.get(1).startsWith("/metrics"), open.toString());
    assertTrue(open.get(2).startsWith("the push bridge at /eventbus"), open.toString());
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

  @Test
  void metricsOffIsNotReportedOpen() {
    List<String> open = of(Map.of("SLUICE_METRICS_ENABLED", "false", "SLUICE_PUSH_ENABLED", "false")).open();
    assertEquals(1, open.size(), open.toString());
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
