package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Attacks on the protected surfaces of a server with credentials and a management token: every
 * spelling of a protected path (dot segments plain and percent-encoded, doubled slashes, path
 * parameters, case, encoded letters) either reaches the surface through its guard or does not reach
 * it at all; browsers of other sites are kept off the bridge; the TCP bridge closes a connection at
 * its first unauthenticated or oversized frame, before buffering it; no spelling of the console's
 * API gets around its guard.
 */
class SurfaceGuardIT {
  static final String TOKEN = "mgmt-t0ken";
  static TestServer server;
  static int port;
  static int tcpPort;
  static String queueUrl;

  @BeforeAll
  static void start() throws Exception {
    tcpPort = QuickstartIT.freePort();
    server = TestServer.start(Map.of("SLUICE_CREDENTIALS", "AKIDSLUICE:s3cret", "SLUICE_MANAGEMENT_TOKEN", TOKEN,
        "SLUICE_PUSH_TCP_PORT", Integer.toString(tcpPort), "SLUICE_PUSH_ALLOWED_ORIGINS", "https://app.example.com"));
    port = server.sluice.port();
    try (SqsClient sqs = server.client("AKIDSLUICE", "s3cret")) {
      queueUrl = sqs.createQueue(b -> b.queueName("guarded")).queueUrl();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** Ways to write a path that a router may resolve to {@code /<surface>/<rest>}. */
  static List<String> spellings(String surface, String rest) {
    String r = rest.isEmpty() ? "" : "/" + rest;
    String upper = surface.toUpperCase();
    String firstEncoded = "%" + Integer.toHexString(surface.charAt(0)) + surface.substring(1);
    return List.of(
        "/" + surface + r,
        "/examples/../" + surface + r,
        "/examples/%2e%2e/" + surface + r,
        "/examples/%2E%2E/" + surface + r,
        "/examples/.%2e/" + surface + r,
        "/health/../" + surface + r,
        "/x/y/../../" + surface + r,
        "/../" + surface + r,
        "/./" + surface + r,
        "//" + surface + r,
        "/" + surface + "/." + r,
        "/" + surface + ";x" + r,
        "/" + surface + r + ";x=y",
        "/" + upper + r,
        "/" + firstEncoded + r,
        "/" + surface + "%2f" + rest,
        "/examples/..%2f" + surface + r);
  }

  @Test
  void noSpellingOfTheBridgePathReachesItWithoutTheToken() throws Exception {
    for (String path : spellings("eventbus", "info")) {
      RawHttp.Response r = RawHttp.get(port, path);
      assertFalse(r.body().contains("\"websocket\""), path + " reached the SockJS bridge: " + r.status() + " " + r.body());
      assertTrue(r.status() == 401 || r.status() >= 400, path + " -> " + r.status());
    }
    assertTrue(RawHttp.get(port, "/eventbus/info?token=" + TOKEN).body().contains("\"websocket\""),
        "the token opens it");
    assertTrue(RawHttp.get(port, "/examples/%2e%2e/eventbus/info?token=" + TOKEN).body().contains("\"websocket\""),
        "and where a spelling reaches the bridge, it went through the same guard");
  }

  @Test
  void noSpellingOfTheBridgeWebSocketOpensWithoutTheToken() throws Exception {
    for (String path : spellings("eventbus", "websocket")) {
      RawHttp.Response r = RawHttp.get(port, path, "Upgrade: websocket", "Connection: Upgrade",
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13");
      assertTrue(r.status() != 101, path + " upgraded to a WebSocket without the token");
    }
    assertThrows(Exception.class, () -> BridgeClient.webSocket(port, "/examples/%2e%2e/eventbus").close());
    assertThrows(Exception.class, () -> BridgeClient.webSocket(port, "/examples/../eventbus").close());
    try (BridgeClient ws = BridgeClient.webSocket(port, "/eventbus", "?token=" + TOKEN)) {
      PushIT.ok(ws.request("sluice.subscribe", new JsonObject().put("queueUrl", queueUrl)));
    }
  }

  @Test
  void noSpellingOfTheMetricsPathReachesThemWithoutTheToken() throws Exception {
    for (String path : spellings("metrics", "")) {
      RawHttp.Response r = RawHttp.get(port, path);
      assertFalse(r.body().contains("sluice_"), path + " reached /metrics: " + r.status());
    }
    RawHttp.Response withToken = RawHttp.get(port, "/x/%2e%2e/metrics", "Authorization: Bearer " + TOKEN);
    assertEquals(200, withToken.status());
    assertTrue(withToken.body().contains("sluice_"));
  }

  /** The console's API paths as written, and spellings a router might resolve to them. */
  static List<String> consoleSpellings(String rest) {
    List<String> paths = new java.util.ArrayList<>(spellings("console", "api/" + rest));
    paths.addAll(List.of("/console/api/../api/" + rest, "/console/api/%2e%2e/api/" + rest,
        "/console/api/%2E%2E/api/" + rest, "//console/api/" + rest, "/console//api/" + rest, "/Console/api/" + rest,
        "/console/API/" + rest, "/console/%61pi/" + rest, "/console/x/../api/" + rest, "/console/api/./" + rest,
        "/console/%2e%2e/console/api/" + rest, "/examples/../console/api/" + rest));
    return paths;
  }

  @Test
  void noSpellingOfTheConsoleApiReachesItWithoutTheToken() throws Exception {
    for (String path : consoleSpellings("status")) {
      RawHttp.Response r = ConsoleHttp.get(port, path, ConsoleHttp.CONSOLE);
      assertFalse(r.body().contains("tokenRequired"), path + " reached the console's status: " + r.status());
      assertTrue(r.status() >= 400, path + " -> " + r.status());
    }
    assertEquals(401, ConsoleHttp.get(port, "/console/api/%2e%2e/api/status", ConsoleHttp.CONSOLE).status(),
        "a spelling the router resolves to the API meets its guard");
    assertEquals(200, ConsoleHttp.get(port, "/console/api/%2e%2e/api/status", ConsoleHttp.CONSOLE,
        "Authorization: Bearer " + TOKEN).status(), "and passes it with the token");
  }

  @Test
  void noSpellingOfTheConsolesSqsPassthroughActsAsTheOperatorWithoutTheToken() throws Exception {
    List<String> paths = consoleSpellings("sqs/us-east-1");
    for (int i = 0; i < paths.size(); i++) {
      String body = "{\"QueueName\":\"sneaked-" + i + "\"}";
      RawHttp.Response r = ConsoleHttp.send(port, "POST", paths.get(i), body, ConsoleHttp.CONSOLE,
          "Content-Type: application/x-amz-json-1.0", "X-Amz-Target: AmazonSQS.CreateQueue");
      assertTrue(r.status() >= 400, paths.get(i) + " -> " + r.status() + " " + r.body());
    }
    try (SqsClient sqs = server.client("AKIDSLUICE", "s3cret")) {
      assertEquals(List.of(), sqs.listQueues(b -> b.queueNamePrefix("sneaked")).queueUrls());
    }
  }

  @Test
  void healthStaysOpenWhateverTheSpelling() throws Exception {
    assertEquals(200, RawHttp.get(port, "/health/ready").status());
    assertEquals(200, RawHttp.get(port, "/examples/%2e%2e/health/live").status());
  }

  @Test
  void pagesOfOtherSitesMayNotOpenTheBridgeEvenWithTheToken() throws Exception {
    String info = "/eventbus/info?token=" + TOKEN;
    assertEquals(403, RawHttp.get(port, info, "Origin: https://evil.example").status());
    assertEquals(403, RawHttp.get(port, info, "Origin: null").status());
    assertEquals(403, RawHttp.get(port, "/eventbus/websocket?token=" + TOKEN, "Origin: https://evil.example",
        "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13").status(), "a cross-site WebSocket handshake");
    assertEquals(200, RawHttp.get(port, info, "Origin: https://app.example.com").status(), "allowed by the list");
    assertEquals(200, RawHttp.get(port, info, "Origin: http://127.0.0.1:" + port).status(), "the server's own pages");
    assertEquals(200, RawHttp.get(port, info).status(), "programs send no Origin");
  }

  @Test
  void theTcpBridgeClosesAConnectionAtItsFirstFrameWithoutTheToken() throws Exception {
    try (BridgeClient tcp = BridgeClient.tcp(tcpPort)) {
      tcp.frame(new JsonObject().put("type", "send").put("address", "sluice.subscribe").put("replyAddress", "r1")
          .put("body", new JsonObject().put("queueUrl", queueUrl)));
      assertTrue(tcp.closedWithin(5_000), "an unauthenticated frame closes the connection");
    }
    try (BridgeClient tcp = BridgeClient.tcp(tcpPort)) {
      tcp.frame(new JsonObject().put("type", "send").put("address", "sluice.subscribe").put("replyAddress", "r2")
          .put("headers", new JsonObject().put("token", TOKEN)).put("body", new JsonObject().put("queueUrl", queueUrl)));
      JsonObject reply = tcp.next(f -> "r2".equals(f.getString("address")), 10_000);
      assertNotNull(reply);
      PushIT.ok(reply);
    }
  }

  @Test
  void theTcpBridgeClosesAConnectionAnnouncingAnOversizedFrameBeforeBufferingIt() throws Exception {
    long before = usedHeap();
    try (Socket s = new Socket("127.0.0.1", tcpPort)) {
      // A length of 1 GiB, then a trickle: the old parser would have waited to buffer all of it.
      s.getOutputStream().write(new byte[] {0x40, 0, 0, 0});
      s.getOutputStream().write("{\"type\":\"send\"".getBytes(StandardCharsets.UTF_8));
      s.getOutputStream().flush();
      s.setSoTimeout(5_000);
      assertEquals(-1, s.getInputStream().read(), "closed at the length prefix");
    }
    // A frame just under the limit still passes to the bridge, which answers it.
    try (BridgeClient tcp = BridgeClient.tcp(tcpPort)) {
      tcp.frame(new JsonObject().put("type", "ping"));
      tcp.frame(new JsonObject().put("type", "send").put("address", "sluice.subscribe").put("replyAddress", "r3")
          .put("headers", new JsonObject().put("token", TOKEN))
          .put("body", new JsonObject().put("queueUrl", queueUrl).put("pad", "x".repeat(60_000))));
      assertNotNull(tcp.next(f -> "r3".equals(f.getString("address")), 10_000));
    }
    assertTrue(usedHeap() - before < 256L << 20, "nothing of the announced gigabyte was allocated");
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }
}
