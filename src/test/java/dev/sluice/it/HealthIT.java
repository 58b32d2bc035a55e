package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Liveness and readiness: both up once the port is open (it opens after recovery); in durable mode
 * readiness goes down with a reason while PostgreSQL is unreachable and comes back with it, while
 * liveness stays up.
 */
class HealthIT extends DurableServerIT {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static HttpResponse<String> get(TestServer s, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(s.endpoint + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> awaitStatus(TestServer s, String path, int status) throws Exception {
    long end = System.currentTimeMillis() + 10_000;
    HttpResponse<String> r;
    while ((r = get(s, path)).statusCode() != status) {
      assertTrue(System.currentTimeMillis() < end, path + " stayed " + r.statusCode() + ": " + r.body());
      Thread.sleep(100);
    }
    return r;
  }

  @Test
  void aMemoryServerIsLiveAndReady() throws Exception {
    try (TestServer s = TestServer.start()) {
      assertEquals(200, get(s, "/health/live").statusCode());
      HttpResponse<String> ready = get(s, "/health/ready");
      assertEquals(200, ready.statusCode());
      assertEquals("{\"status\":\"UP\"}", ready.body());
    }
  }

  @Test
  void aDurableServerIsNotReadyWhilePostgresIsDown() throws Exception {
    try (TestServer s = server()) {
      assertEquals(200, get(s, "/health/ready").statusCode());
      pg.stopNow();
      try {
        HttpResponse<String> down = awaitStatus(s, "/health/ready", 503);
        assertTrue(down.body().contains("\"status\":\"DOWN\"") && down.body().contains("PostgreSQL"), down.body());
        assertEquals(200, get(s, "/health/live").statusCode(), "alive all the same");
      } finally {
        pg.restart();
      }
      awaitStatus(s, "/health/ready", 200);
    }
  }
}
