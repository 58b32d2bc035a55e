package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Map;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/** HTTPS from a PEM certificate and key: the AWS SDK v2 trusting that certificate talks to it. */
class TlsIT {
  static final Path CERT = Path.of("src/test/resources/tls/test-cert.pem");
  static final Path KEY = Path.of("src/test/resources/tls/test-key.pem");

  static TrustManagerFactory trusting(Path cert) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = Files.newInputStream(cert)) {
      store.setCertificateEntry("sluice-test", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    return tmf;
  }

  @Test
  void theSdkTalksToTheHttpsListener() throws Exception {
    TrustManagerFactory tmf = trusting(CERT);
    try (TestServer s = TestServer.start(Map.of("SLUICE_TLS_CERT_PATH", CERT.toString(),
        "SLUICE_TLS_KEY_PATH", KEY.toString()))) {
      URI https = URI.create("https://127.0.0.1:" + s.sluice.port());
      try (SqsClient sqs = SqsClient.builder().endpointOverride(https).region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
          .httpClient(UrlConnectionHttpClient.builder().tlsTrustManagersProvider(tmf::getTrustManagers).build())
          .build()) {
        String url = sqs.createQueue(b -> b.queueName("over-tls")).queueUrl();
        assertTrue(url.startsWith("https://127.0.0.1:"), "queue URLs keep the scheme: " + url);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("encrypted in transit"));
        assertEquals("encrypted in transit", sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).body());
      }
      try (SqsClient untrusting = SqsClient.builder().endpointOverride(https).region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
          .httpClient(UrlConnectionHttpClient.create()).build()) {
        assertThrows(Exception.class, untrusting::listQueues, "a client that does not trust the certificate fails");
      }
    }
  }
}
