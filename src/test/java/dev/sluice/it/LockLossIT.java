package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * What a durable server does when it loses the connection holding its database lock and nobody
 * else takes the database: it stops serving at once (readiness down, parked long polls answered
 * empty, push subscriptions ended with their messages visible again, every call refused with the
 * retryable 503), then takes the lock back at the same epoch and serves again.
 */
@Isolated
class LockLossIT extends DurableServerIT {

  @Test
  void aServerThatLosesItsLockStopsServingUntilItHasTakenItBack() throws Exception {
    Vertx vertx = Vertx.vertx();
    Pool db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    try (TestServer server = server(Map.of("SLUICE_PG_LEASE_MILLIS", "1000"));
        SqsClient sqs = server.clientWithoutRetries();
        SqsAsyncClient async = server.asyncClient(4);
        BridgeClient push = BridgeClient.webSocket(server.sluice.port(), "/eventbus")) {
      String idle = sqs.createQueue(b -> b.queueName("lock-idle")).queueUrl();
      String pushed = sqs.createQueue(b -> b.queueName("lock-pushed")).queueUrl();
      CompletableFuture<ReceiveMessageResponse> parked =
          async.receiveMessage(b -> b.queueUrl(idle).waitTimeSeconds(20));
      server.awaitParked(1);
      JsonObject sub = PushIT.ok(push.request("sluice.subscribe", new JsonObject().put("queueUrl", pushed)
          .put("prefetch", 1).put("visibilityTimeout", 600)));
      push.register(sub.getString("address"));
      sqs.sendMessage(b -> b.queueUrl(pushed).messageBody("in flight when the lock goes"));
      assertNotNull(push.pushed(sub.getString("address"), 5000), "pushed, not acknowledged");

      long terminated = db.query("SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory'"
          + " AND granted AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = x'511ce0002'::bigint")
          .execute().await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
      assertEquals(1, terminated, "the server's lock session");

      assertEquals(List.of(), parked.get(5, TimeUnit.SECONDS).messages(), "the parked long poll is answered empty");
      JsonObject ended = push.pushed(sub.getString("address"), 5000);
      assertNotNull(ended, "the subscription hears that it ended");
      assertEquals("ServiceUnavailable", ended.getJsonObject("body").getString("code"), ended.encode());
      SqsException refused = assertThrows(SqsException.class,
          () -> sqs.sendMessage(b -> b.queueUrl(idle).messageBody("refused")));
      assertEquals(503, refused.statusCode());
      assertEquals("ServiceUnavailable", refused.awsErrorDetails().errorCode());
      assertEquals(503, assertThrows(SqsException.class, () -> sqs.receiveMessage(b -> b.queueUrl(idle)))
          .statusCode(), "receives are refused too");
      assertEquals(503, assertThrows(SqsException.class, () -> sqs.listQueues()).statusCode(), "and every other call");
      JsonObject subscribe = push.request("sluice.subscribe", new JsonObject().put("queueUrl", idle));
      assertTrue(subscribe.getString("message", "").startsWith("ServiceUnavailable: "), subscribe.encode());
      HttpResponse<String> ready = HealthIT.get(server, "/health/ready");
      assertEquals(503, ready.statusCode());
      assertTrue(ready.body().contains("lock") && ready.body().contains("PostgreSQL"), ready.body());

      // Nobody else took the database: the lock comes back at the same epoch, and so does serving.
      HealthIT.awaitStatus(server, "/health/ready", 200);
      assertEquals(1, db.query("SELECT epoch FROM sluice_owner").execute().await(10, TimeUnit.SECONDS).iterator()
          .next().getLong(0), "the same epoch, the same fencing token");
      List<Message> back = sqs.receiveMessage(b -> b.queueUrl(pushed).visibilityTimeout(60)).messages();
      assertEquals(1, back.size(), "the pushed message was visible again at once, not after 600 s");
      sqs.sendMessage(b -> b.queueUrl(idle).messageBody("served again"));
      assertEquals("served again", sqs.receiveMessage(b -> b.queueUrl(idle)).messages().get(0).body());
      JsonObject again = PushIT.ok(push.request("sluice.subscribe", new JsonObject().put("queueUrl", idle)));
      assertNotNull(again.getString("subscription"), "subscribing works again");
    } finally {
      db.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
