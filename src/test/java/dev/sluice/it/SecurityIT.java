package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Authentication with credentials configured: the AWS SDK v2 with the right key works; a wrong
 * secret, an unknown key, a clock 20 minutes off and no signature get the errors AWS gives. The
 * Query protocol is signed the same way (the Java SDK v1, and a presigned GET). The management
 * token guards /metrics and both bridges, and health stays open.
 */
class SecurityIT {
  static final String TOKEN = "mgmt-t0ken";
  static TestServer server;
  static int tcpPort;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    tcpPort = QuickstartIT.freePort();
    server = TestServer.start(Map.of("SLUICE_CREDENTIALS", "AKIDSLUICE:s3cret,AKIDOTHER:0ther",
        "SLUICE_MANAGEMENT_TOKEN", TOKEN, "SLUICE_PUSH_TCP_PORT", Integer.toString(tcpPort)));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static SqsClient client(String keyId, String secret) {
    return SqsClient.builder().endpointOverride(server.endpoint).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClient(UrlConnectionHttpClient.create()).build();
  }

  static SqsException refused(String keyId, String secret) {
    try (SqsClient sqs = client(keyId, secret)) {
      return assertThrows(SqsException.class, () -> sqs.listQueues());
    }
  }

  /** A ListQueues request signed by the SDK's own signer at {@code signedAt}, sent as is. */
  static HttpResponse<String> signedAt(Instant signedAt) throws Exception {
    String body = "{}";
    SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(server.endpoint)
        .putHeader("Content-Type", "application/x-amz-json-1.0").putHeader("X-Amz-Target", "AmazonSQS.ListQueues")
        .build();
    SdkHttpRequest signed = AwsV4HttpSigner.create().sign(r -> r
        .identity(AwsCredentialsIdentity.create("AKIDSLUICE", "s3cret")).request(unsigned)
        .payload(ContentStreamProvider.fromUtf8String(body))
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sqs").putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC))).request();
    HttpRequest.Builder b = HttpRequest.newBuilder(server.endpoint).POST(HttpRequest.BodyPublishers.ofString(body));
    signed.headers().forEach((name, values) -> {
      if (!name.equalsIgnoreCase("host")) {
        values.forEach(v -> b.header(name, v));
      }
    });
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theRightKeyWorks() {
    try (SqsClient sqs = client("AKIDSLUICE", "s3cret"); SqsClient other = client("AKIDOTHER", "0ther")) {
      String url = sqs.createQueue(b -> b.queueName("signed")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello"));
      assertEquals("hello", other.receiveMessage(b -> b.queueUrl(url)).messages().get(0).body());
    }
  }

  @Test
  void aWrongSecretAnUnknownKeyAndNoSignatureGetTheirErrors() throws Exception {
    SqsException wrong = refused("AKIDSLUICE", "guess");
    assertEquals("SignatureDoesNotMatch", wrong.awsErrorDetails().errorCode());
    assertEquals(403, wrong.statusCode());
    SqsException unknown = refused("AKIDNOBODY", "s3cret");
    assertEquals("InvalidClientTokenId", unknown.awsErrorDetails().errorCode());
    assertEquals(403, unknown.statusCode());
    HttpResponse<String> none = HTTP.send(HttpRequest.newBuilder(server.endpoint)
        .header("Content-Type", "application/x-amz-json-1.0").header("X-Amz-Target", "AmazonSQS.ListQueues")
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(403, none.statusCode());
    assertEquals("MissingAuthenticationToken;Sender", none.headers().firstValue("x-amzn-query-error").orElse(""));
  }

  @Test
  void aClockMoreThan15MinutesOffIsRefusedWithTheServersDate() throws Exception {
    HttpResponse<String> skewed = signedAt(Instant.now().minus(Duration.ofMinutes(20)));
    assertEquals(403, skewed.statusCode(), skewed.body());
    assertEquals("SignatureDoesNotMatch;Sender", skewed.headers().firstValue("x-amzn-query-error").orElse(""));
    assertTrue(skewed.body().contains("Signature expired"), skewed.body());
    assertTrue(skewed.headers().firstValue("date").isPresent(), "the server's Date, for clock-skew correction");
    HttpResponse<String> tenMinutes = signedAt(Instant.now().minus(Duration.ofMinutes(10)));
    assertEquals(200, tenMinutes.statusCode(), "10 minutes is allowed: " + tenMinutes.body());
  }

  @Test
  void theManagementTokenGuardsMetricsAndTheBridgesButNotHealth() throws Exception {
    URI metrics = server.endpoint.resolve("/metrics");
    assertEquals(401, HTTP.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    assertEquals(200, HTTP.send(HttpRequest.newBuilder(metrics).header("Authorization", "Bearer " + TOKEN).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode());
    assertEquals(200, HTTP.send(HttpRequest.newBuilder(server.endpoint.resolve("/health/ready")).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode());
    assertThrows(Exception.class, () -> BridgeClient.webSocket(server.sluice.port(), "/eventbus").close(),
        "the WebSocket handshake is refused without the token");
    String queueUrl;
    try (SqsClient sqs = client("AKIDSLUICE", "s3cret")) {
      queueUrl = sqs.createQueue(b -> b.queueName("guarded")).queueUrl();
    }
    try (BridgeClient ws = BridgeClient.webSocket(server.sluice.port(), "/eventbus", "?token=" + TOKEN)) {
      PushIT.ok(ws.request("sluice.subscribe", new JsonObject().put("queueUrl", queueUrl)));
    }
    try (BridgeClient tcp = BridgeClient.tcp(tcpPort)) {
      assertEquals("err", tcp.request("sluice.subscribe", new JsonObject().put("queueUrl", queueUrl)).getString("type"),
          "a TCP frame without the token is refused");
      assertTrue(tcp.closedWithin(5_000), "and its connection closed");
    }
    try (BridgeClient tcp = BridgeClient.tcp(tcpPort)) {
      tcp.frame(new JsonObject().put("type", "send").put("address", "sluice.subscribe").put("replyAddress", "r1")
          .put("headers", new JsonObject().put("token", TOKEN)).put("body", new JsonObject().put("queueUrl", queueUrl)));
      JsonObject reply = tcp.next(f -> "r1".equals(f.getString("address")) || "err".equals(f.getString("type")), 10_000);
      PushIT.ok(reply);
    }
  }

  @Test
  void theQueryProtocolIsSignedTooAndAPresignedGetWorks() throws Exception {
    com.amazonaws.services.sqs.AmazonSQS v1 = QueryProtocolIT.v1Client(server.endpoint.toString(), "AKIDSLUICE", "s3cret");
    com.amazonaws.services.sqs.AmazonSQS wrong = QueryProtocolIT.v1Client(server.endpoint.toString(), "AKIDSLUICE", "guess");
    try {
      String url = v1.createQueue("signed-query").getQueueUrl();
      v1.sendMessage(url, "signed form body");
      assertEquals("signed form body", v1.receiveMessage(url).getMessages().get(0).getBody());
      com.amazonaws.services.sqs.model.AmazonSQSException refused = assertThrows(
          com.amazonaws.services.sqs.model.AmazonSQSException.class, () -> wrong.listQueues());
      assertEquals("SignatureDoesNotMatch", refused.getErrorCode());
      assertEquals(403, refused.getStatusCode());
    } finally {
      v1.shutdown();
      wrong.shutdown();
    }
    SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.GET)
        .uri(URI.create(server.endpoint + "/?Action=ListQueues&QueueNamePrefix=signed-query&Version=2012-11-05")).build();
    SdkHttpRequest presigned = AwsV4HttpSigner.create().sign(r -> r
        .identity(AwsCredentialsIdentity.create("AKIDSLUICE", "s3cret")).request(unsigned)
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sqs").putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
        .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AUTH_LOCATION,
            software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
        .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.EXPIRATION_DURATION,
            Duration.ofMinutes(5))).request();
    HttpResponse<String> listed = HTTP.send(HttpRequest.newBuilder(presigned.getUri()).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, listed.statusCode(), listed.body());
    assertTrue(listed.body().contains("/000000000000/signed-query</QueueUrl>"), listed.body());
    HttpResponse<String> tampered = HTTP.send(HttpRequest.newBuilder(URI.create(presigned.getUri().toString()
        .replace("QueueNamePrefix=signed-query", "QueueNamePrefix=other"))).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(403, tampered.statusCode());
    assertTrue(tampered.body().contains("<Code>SignatureDoesNotMatch</Code>"), tampered.body());
  }
}
