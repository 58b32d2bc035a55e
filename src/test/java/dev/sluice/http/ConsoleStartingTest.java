package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.auth.Surfaces;
import dev.sluice.config.ConfigLoader;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console on the start-up router, over real HTTP: its API answers the retryable 503 in JSON,
 * behind the same guard as once serving, and its pages' routes are there.
 */
class ConsoleStartingTest {
  static Vertx vertx;
  static HttpServer server;
  // HTTP/1.1, as Sluice serves it (cleartext HTTP/2 is off there).
  static HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    HealthEndpoints health = new HealthEndpoints(() -> "Sluice is starting");
    server = vertx.createHttpServer()
        .requestHandler(HttpRoutes.starting(vertx, health,
            Surfaces.of(ConfigLoader.load(new String[0], Map.of())).console()))
        .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpRequest.Builder at(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path));
  }

  @Test
  void theApiAnswersTheRetryable503BehindItsGuard() throws Exception {
    for (HttpRequest.Builder b : new HttpRequest.Builder[] {at("/console/api/status").GET(),
        at("/console/api/sqs/us-east-1").POST(HttpRequest.BodyPublishers.ofString("{}"))
            .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", "AmazonSQS.ListQueues")}) {
      HttpResponse<String> r = send(b.header("X-Sluice-Console", "1"));
      assertEquals(503, r.statusCode(), r.body());
      assertEquals("1", r.headers().firstValue("Retry-After").orElse(null));
      assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(null));
      assertEquals("DENY", r.headers().firstValue("X-Frame-Options").orElse(null));
      assertEquals("ServiceUnavailable", new JsonObject(r.body()).getString("__type"));
    }
    HttpResponse<String> unguarded = send(at("/console/api/status").GET());
    assertEquals(403, unguarded.statusCode(), "the guard comes first, starting or not");
  }

  @Test
  void thePagesRoutesAreMountedWhileStarting() throws Exception {
    HttpResponse<String> redirect = send(at("/console").GET());
    assertEquals(301, redirect.statusCode());
    assertEquals("/console/", redirect.headers().firstValue("Location").orElse(null));
    assertTrue(send(at("/console/").GET()).statusCode() != 301, "the page itself is not redirected");
    HttpResponse<String> missing = send(at("/console/no-such-asset.css").GET());
    assertEquals(404, missing.statusCode());
    assertTrue(missing.headers().firstValue("Content-Security-Policy").orElse("").startsWith("default-src 'none'"));
  }
}
