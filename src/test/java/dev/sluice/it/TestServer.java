package dev.sluice.it;

import dev.sluice.Sluice;
import dev.sluice.config.ConfigLoader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A whole Sluice server in this JVM on a free port, configured through the same environment
 * variables a user would set, and AWS SDK v2 clients pointed at it (MD5 checks left on).
 */
final class TestServer implements AutoCloseable {
  final Sluice sluice;
  final URI endpoint;

  private TestServer(Sluice sluice) {
    this.sluice = sluice;
    this.endpoint = URI.create("http://127.0.0.1:" + sluice.port());
  }

  static TestServer start() {
    return start(Map.of());
  }

  static TestServer start(Map<String, String> env) {
    Map<String, String> all = new HashMap<>(env);
    all.putIfAbsent("SLUICE_HTTP_PORT", "0");
    all.putIfAbsent("SLUICE_HTTP_HOST", "127.0.0.1");
    try {
      return new TestServer(Sluice.start(ConfigLoader.load(new String[0], all)).await(30, TimeUnit.SECONDS));
    } catch (Exception e) {
      throw new IllegalStateException("Sluice did not start", e);
    }
  }

  /** A server started elsewhere, to use this class's clients and close. */
  static TestServer wrap(Sluice sluice) {
    return new TestServer(sluice);
  }

  SqsClient client() {
    return SqsClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  /**
   * A client that retries a retryable error up to ten times (the SDK's standard backoff), for tests
   * where the server refuses calls for a while on purpose, as while it moves a shard.
   */
  SqsClient patientClient() {
    return SqsClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
            .maxAttempts(10).build()))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  /** A client that gives up at the first error, to see each answer as the server gave it. */
  SqsClient clientWithoutRetries() {
    return client("AKIDTEST", "secret");
  }

  /** A client signing with the given key pair and giving up at the first error. */
  SqsClient client(String keyId, String secret) {
    return SqsClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  SqsAsyncClient asyncClient(int maxConnections) {
    return SqsAsyncClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(NettyNioAsyncHttpClient.builder().maxConcurrency(maxConnections)
            .readTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  String queueUrl(String name) {
    return endpoint + "/000000000000/" + name;
  }

  /** Waits until exactly {@code expected} receives are parked server-wide. */
  void awaitParked(int expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    int parked = -1;
    while (System.nanoTime() < deadline) {
      parked = sluice.engine().sample().await(5, TimeUnit.SECONDS).parkedReceives();
      if (parked == expected) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("expected " + expected + " parked receives, found " + parked);
  }

  /**
   * Sends a raw request ({@code head}: request line and headers, each ending in CRLF, without
   * Content-Length) whose receive parks, waits until it is parked, then closes the connection
   * unanswered and waits until the server has let the receive go.
   */
  void parkAndHangUp(String head, String body) throws Exception {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket("127.0.0.1", endpoint.getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write((head + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      out.write(bytes);
      out.flush();
      awaitParked(1);
    }
    awaitParked(0);
  }

  private boolean stopped;

  /** Stops the server with {@code graceMillis} to finish what it holds; {@link #close} then does nothing. */
  void stop(long graceMillis) throws TimeoutException {
    stopped = true;
    sluice.stop(graceMillis).await(graceMillis + 10_000, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws TimeoutException {
    if (!stopped) {
      sluice.stop().await(10, TimeUnit.SECONDS);
    }
  }
}
