package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.testtools.ServerJar;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The packaged jar as its own process on a free port of 127.0.0.1, configured by environment
 * variables as a user would, with SDK v2 clients pointed at it; closing it stops the process and
 * checks that its log holds no warning or error.
 */
final class PackagedServer implements AutoCloseable {
  final URI endpoint;
  private final Process process;
  private final Path log;

  private PackagedServer(URI endpoint, Process process, Path log) {
    this.endpoint = endpoint;
    this.process = process;
    this.log = log;
  }

  static PackagedServer start(String logPrefix, Map<String, String> env) throws Exception {
    int port = QuickstartIT.freePort();
    Map<String, String> all = new HashMap<>(env);
    all.put("SLUICE_HTTP_PORT", Integer.toString(port));
    all.put("SLUICE_HTTP_HOST", "127.0.0.1");
    Path log = ServerJar.newLog(logPrefix);
    return launch(port, log, ServerJar.logging(log, all));
  }

  /** Starts {@code server}, a command serving on {@code port} and writing to {@code log}, once ready. */
  static PackagedServer launch(int port, Path log, ProcessBuilder server) throws Exception {
    Process p = server.start();
    QuickstartIT.awaitPort(port, p);
    return new PackagedServer(URI.create("http://127.0.0.1:" + port), p, log);
  }

  /** The file its output goes to. */
  Path log() {
    return log;
  }

  /** An SNS client signing with the key pair, retrying as the SDK does by default. */
  SnsClient sns(String keyId, String secret, Region region) {
    return SnsClient.builder().endpointOverride(endpoint).region(region)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
        .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD).apiCallTimeout(Duration.ofSeconds(30)))
        .httpClient(UrlConnectionHttpClient.builder().build())
        .build();
  }

  SqsClient sqs(String keyId, String secret) {
    return SqsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(30)))
        .httpClient(UrlConnectionHttpClient.builder().build())
        .build();
  }

  @Override
  public void close() throws java.io.IOException {
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    assertEquals(List.of(), QuickstartIT.unexpectedLogLines(log));
  }
}
