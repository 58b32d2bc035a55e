package dev.sluice.auth;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/** Requests signed by the AWS SDK for Java v2's own signer for a region, now, seen as the server sees them. */
final class SignedFor {
  static final String BODY = "{\"QueueName\":\"orders\"}";

  private SignedFor() {}

  /** A JSON-protocol POST signed in its Authorization header. */
  static SignedRequest header(String keyId, String secret, String region) {
    return sign(keyId, secret, region, false);
  }

  /** A Query GET presigned in its query string (X-Amz-Credential and the rest). */
  static SignedRequest presigned(String keyId, String secret, String region) {
    return sign(keyId, secret, region, true);
  }

  private static SignedRequest sign(String keyId, String secret, String region, boolean presigned) {
    SdkHttpRequest unsigned = presigned
        ? SdkHttpRequest.builder().method(SdkHttpMethod.GET)
            .uri(URI.create("http://127.0.0.1:9324/?Action=ListQueues")).build()
        : SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(URI.create("http://127.0.0.1:9324/"))
            .putHeader("Content-Type", "application/x-amz-json-1.0")
            .putHeader("X-Amz-Target", "AmazonSQS.CreateQueue").build();
    var result = AwsV4HttpSigner.create().sign(r -> {
      r.identity(AwsCredentialsIdentity.create(keyId, secret)).request(unsigned)
          .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sqs")
          .putProperty(AwsV4HttpSigner.REGION_NAME, region)
          .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(Instant.now(), ZoneOffset.UTC));
      if (presigned) {
        r.putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
            .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, Duration.ofMinutes(5));
      } else {
        r.payload(ContentStreamProvider.fromUtf8String(BODY));
      }
    });
    return SigV4VerifierTest.view(result.request(), presigned ? "" : BODY);
  }
}
