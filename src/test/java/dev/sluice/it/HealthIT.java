package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Sluice;
import dev.sluice.config.ConfigLoader;
import dev.sluice.persistence.SchemaMigrations;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import java.util.concurrent.TimeUnit;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Liveness and readiness. The port opens before recovery: meanwhile liveness is up, readiness
 * answers 503 with a reason and SQS calls get the retryable ServiceUnavailable. In durable mode
 * readiness also goes down while PostgreSQL is unreachable and comes back with it, while liveness
 * stays up.
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

  @Test
  void readinessIsDownUntilRecoveryEndsWhileLivenessIsUp() throws Exception {
    // Recovery cannot begin while this transaction holds the schema-migration lock.
    Vertx vertx = Vertx.vertx();
    Pool db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    SqlConnection lockHolder = db.getConnection().await(10, TimeUnit.SECONDS);
    lockHolder.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
    lockHolder.query("SELECT pg_advisory_xact_lock(" + SchemaMigrations.MIGRATION_LOCK + ")").execute()
        .await(10, TimeUnit.SECONDS);
    int port = QuickstartIT.freePort();
    Future<Sluice> starting = Sluice.start(ConfigLoader.load(new String[0], Map.of("SLUICE_HTTP_PORT",
        Integer.toString(port), "SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", pg.url())));
    TestServer probe = null;
    try {
      URI base = URI.create("http://127.0.0.1:" + port);
      HttpResponse<String> ready = awaitAnswer(base.resolve("/health/ready"));
      assertEquals(503, ready.statusCode(), ready.body());
      assertTrue(ready.body().contains("recovering"), ready.body());
      assertEquals(200, awaitAnswer(base.resolve("/health/live")).statusCode(), "alive while recovering");
      HttpResponse<String> call = HTTP.send(HttpRequest.newBuilder(base).header("X-Amz-Target", "AmazonSQS.ListQueues")
          .header("Content-Type", "application/x-amz-json-1.0").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(503, call.statusCode(), "an SQS call is refused, retryably: " + call.body());
      assertTrue(call.body().contains("ServiceUnavailable"), call.body());
      assertFalse(starting.isComplete(), "still recovering");
      lockHolder.query("COMMIT").execute().await(10, TimeUnit.SECONDS);
      probe = TestServer.wrap(starting.await(30, TimeUnit.SECONDS));
      assertEquals(200, get(probe, "/health/ready").statusCode());
    } finally {
      lockHolder.close();
      vertx.close().await(10, TimeUnit.SECONDS);
      if (probe != null) {
        probe.close();
      }
    }
  }

  @Test
  void aSecondServerOnTheSameDatabaseWaitsUntilTheFirstHasStopped() throws Exception {
    TestServer first = server();
    int port = QuickstartIT.freePort();
    Future<Sluice> second = Sluice.start(ConfigLoader.load(new String[0], Map.of("SLUICE_HTTP_PORT",
        Integer.toString(port), "SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", pg.url())));
    TestServer later = null;
    boolean firstStopped = false;
    try (SqsClient sqs = first.client()) {
      sqs.createQueue(b -> b.queueName("owned"));
      HttpResponse<String> waiting = awaitAnswer(URI.create("http://127.0.0.1:" + port + "/health/ready"));
      assertEquals(503, waiting.statusCode(), waiting.body());
      Thread.sleep(1_500);
      assertFalse(second.isComplete(), "the second server waits while the first holds the database");
      first.close();
      firstStopped = true;
      later = TestServer.wrap(second.await(30, TimeUnit.SECONDS));
      try (SqsClient after = later.client()) {
        assertEquals(1, after.listQueues().queueUrls().size(), "it recovered what the first one wrote");
      }
    } finally {
      if (!firstStopped) {
        first.close();
      }
      if (later == null) {
        later = TestServer.wrap(second.await(30, TimeUnit.SECONDS));
      }
      later.close();
    }
  }

  /** The first answer from a port that may not be open yet. */
  static HttpResponse<String> awaitAnswer(URI uri) throws Exception {
    long end = System.currentTimeMillis() + 20_000;
    while (true) {
      try {
        return HTTP.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
      } catch (java.io.IOException notYet) {
        assertTrue(System.currentTimeMillis() < end, uri + " never answered");
        Thread.sleep(50);
      }
    }
  }
}
