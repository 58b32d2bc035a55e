package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The push bridge asks the same question as the SQS APIs: a WebSocket opened with a URL presigned
 * by a credential (the AWS SDK for Java v2's own SigV4 signer) subscribes as that credential, so it
 * consumes only queues it may ReceiveMessage from: its own account's, and another account's once
 * that queue's policy grants it. A URL presigned with a wrong secret opens nothing.
 */
class BridgePermissionsIT {
  static final String A = "111111111111";
  static final String B = "222222222222";
  /** The default account (sqs.accountId), which the management token and the TCP bridge act as. */
  static final String DEFAULT_ACCOUNT = "000000000000";
  static TestServer server;
  static int tcpPort;

  @BeforeAll
  static void start() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      tcpPort = s.getLocalPort();
    }
    server = TestServer.start(Map.of("SLUICE_MANAGEMENT_TOKEN", "t0ken", "SLUICE_PUSH_TCP_PORT",
        Integer.toString(tcpPort), "SLUICE_CREDENTIALS", "["
        + PermissionsIT.key("AKIDTEAMA", "team-a-secret", A, null) + ","
        + PermissionsIT.key("AKIDTEAMB", "team-b-secret", B, null) + ","
        + PermissionsIT.key("AKIDPRODUCER", "producer-secret", A, "[{\"Effect\":\"Allow\",\"Action\":"
            + "\"sqs:SendMessage\",\"Resource\":\"*\"}]") + "]"));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** The bridge's WebSocket, opened with {@code /eventbus} presigned by this key for us-east-1. */
  static BridgeClient presigned(String keyId, String secret) throws Exception {
    return BridgeClient.webSocket(server.sluice.port(), "/eventbus", "?" + presignedQuery(keyId, secret));
  }

  /** The query of {@code /eventbus} presigned by this key for us-east-1. */
  static String presignedQuery(String keyId, String secret) {
    int port = server.sluice.port();
    SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.GET)
        .uri(URI.create("http://127.0.0.1:" + port + "/eventbus")).build();
    SdkHttpRequest signed = AwsV4HttpSigner.create().sign(r -> r
        .identity(AwsCredentialsIdentity.create(keyId, secret)).request(unsigned)
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sqs")
        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
        .putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
        .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, Duration.ofMinutes(5))).request();
    return signed.getUri().getRawQuery();
  }

  static JsonObject subscribe(BridgeClient c, String queueUrl) throws Exception {
    return c.request("sluice.subscribe", new JsonObject().put("queueUrl", queueUrl).put("prefetch", 1));
  }

  static void assertDenied(JsonObject reply) {
    assertEquals("err", reply.getString("type"), reply.encode());
    assertEquals(403, reply.getInteger("failureCode"), reply.encode());
    assertTrue(reply.getString("message").startsWith("AccessDeniedException: User: "), reply.encode());
  }

  @Test
  void aSubscriberConsumesOnlyWhatItsCredentialMayReceive() throws Exception {
    try (SqsClient teamA = PermissionsIT.client(server, "AKIDTEAMA", "team-a-secret")) {
      String url = teamA.createQueue(b -> b.queueName("pushed")).queueUrl();
      teamA.sendMessage(b -> b.queueUrl(url).messageBody("for whoever may"));
      try (BridgeClient b = presigned("AKIDTEAMB", "team-b-secret");
          BridgeClient producer = presigned("AKIDPRODUCER", "producer-secret")) {
        assertDenied(subscribe(b, url));
        assertDenied(subscribe(producer, url));
        teamA.addPermission(p -> p.queueUrl(url).label("b-receives").awsAccountIds(B).actions("ReceiveMessage"));
        JsonObject sub = PushIT.ok(subscribe(b, url));
        b.register(sub.getString("address"));
        JsonObject pushed = b.pushed(sub.getString("address"), 10_000);
        assertNotNull(pushed, "B, once granted, is pushed A's message");
        assertEquals("for whoever may", pushed.getJsonObject("body").getString("body"));
      }
      try (BridgeClient a = presigned("AKIDTEAMA", "team-a-secret")) {
        PushIT.ok(subscribe(a, url)); // its own account's queue
      }
    }
  }

  /**
   * sluice.credit passes both bridges and needs no SQS action: only that the subscription is the
   * connection's own (team B may only ReceiveMessage; the TCP bridge acts as the default account).
   */
  @Test
  void creditPassesBothBridgesForTheConnectionsOwnSubscriptionOnly() throws Exception {
    try (SqsClient teamA = PermissionsIT.client(server, "AKIDTEAMA", "team-a-secret")) {
      String url = teamA.createQueue(b -> b.queueName("credited")).queueUrl();
      teamA.addPermission(p -> p.queueUrl(url).label("receivers").awsAccountIds(B, DEFAULT_ACCOUNT)
          .actions("ReceiveMessage"));
      teamA.sendMessage(b -> b.queueUrl(url).messageBody("one"));
      teamA.sendMessage(b -> b.queueUrl(url).messageBody("two"));
      try (BridgeClient ws = presigned("AKIDTEAMB", "team-b-secret");
          BridgeClient tcp = BridgeClient.tcp(tcpPort, "t0ken")) {
        List<JsonObject> subs = new ArrayList<>();
        for (BridgeClient c : List.of(ws, tcp)) {
          JsonObject sub = PushIT.ok(c.request("sluice.subscribe", new JsonObject().put("queueUrl", url)
              .put("prefetch", 1).put("credit", "demand")));
          c.register(sub.getString("address"));
          assertEquals(new JsonObject(), PushIT.ok(c.request("sluice.credit",
              new JsonObject().put("subscription", sub.getString("subscription")).put("credits", 1))));
          assertNotNull(c.pushed(sub.getString("address"), 5000), c == ws ? "WebSocket" : "TCP");
          subs.add(sub);
        }
        for (int i = 0; i < 2; i++) {
          BridgeClient other = i == 0 ? tcp : ws;
          JsonObject foreign = other.request("sluice.credit",
              new JsonObject().put("subscription", subs.get(i).getString("subscription")).put("credits", 1));
          assertEquals("err", foreign.getString("type"), foreign.encode());
          assertTrue(foreign.getString("message").startsWith("ResourceNotFoundException: "), foreign.encode());
        }
      }
    }
  }

  @Test
  void withoutCredentialsAPresignedUrlIsNoWayAroundTheToken() throws Exception {
    try (TestServer tokenOnly = TestServer.start(Map.of("SLUICE_MANAGEMENT_TOKEN", "t0ken"))) {
      Exception refused = assertThrows(Exception.class, () -> BridgeClient.webSocket(tokenOnly.sluice.port(),
          "/eventbus", "?X-Amz-Credential=AKID%2F20261125%2Fus-east-1%2Fsqs%2Faws4_request").close());
      assertTrue(String.valueOf(refused.getMessage()).contains("401"), String.valueOf(refused));
      BridgeClient.webSocket(tokenOnly.sluice.port(), "/eventbus", "?token=t0ken").close();
    }
  }

  @Test
  void aPresignedUrlOpensAWebSocketOnlyNotASessionOtherRequestsCouldJoin() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String query = presignedQuery("AKIDTEAMB", "team-b-secret");
    String base = "http://127.0.0.1:" + server.sluice.port() + "/eventbus";
    HttpResponse<String> info = http.send(HttpRequest.newBuilder(
        URI.create(base + "/info?" + query)).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, info.statusCode(), "SockJS asks for /info first");
    HttpResponse<String> xhr = http.send(HttpRequest.newBuilder(
        URI.create(base + "/000/abcdefgh/xhr?" + query)).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(403, xhr.statusCode(), xhr.body());
  }

  @Test
  void aUrlPresignedWithTheWrongSecretOpensNothing() {
    Exception refused = assertThrows(Exception.class, () -> presigned("AKIDTEAMB", "not-the-secret").close());
    assertTrue(String.valueOf(refused.getMessage()).contains("403"), String.valueOf(refused));
    assertThrows(Exception.class, () -> presigned("AKIDNOBODY", "secret").close());
  }
}
