package dev.sluice.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * SigV4 checked against signatures made by the AWS SDK for Java v2's own signer: right key, wrong
 * secret, unknown key, skewed clocks, tampering, presigned URLs, malformed headers. Manual clock.
 */
class SigV4VerifierTest {
  static final long NOW = Instant.parse("2026-11-24T12:00:00Z").toEpochMilli();
  static final SigV4Verifier VERIFIER = new SigV4Verifier(Map.of("AKIDSLUICE", "s3cret", "AKIDOTHER", "other"));
  static final String BODY = "{\"QueueUrl\":\"http://127.0.0.1:9324/000000000000/orders\",\"MessageBody\":\"hi\"}";

  /** A request as the SDK signs it, seen the way the server sees it. */
  static SignedRequest signed(String keyId, String secret, long signedAtMillis, String body, boolean presigned) {
    return signed(keyId, secret, signedAtMillis, body, presigned, "sqs");
  }

  static SignedRequest signed(String keyId, String secret, long signedAtMillis, String body, boolean presigned,
      String service) {
    SdkHttpRequest unsigned = SdkHttpRequest.builder()
        .method(body == null ? SdkHttpMethod.GET : SdkHttpMethod.POST)
        .uri(URI.create(body == null ? "http://127.0.0.1:9324/000000000000/orders?Action=GetQueueAttributes"
            + "&AttributeName.1=All" : "http://127.0.0.1:9324/"))
        .putHeader("Content-Type", "application/x-amz-json-1.0")
        .putHeader("X-Amz-Target", "AmazonSQS.SendMessage")
        .build();
    var result = AwsV4HttpSigner.create().sign(r -> {
      r.identity(AwsCredentialsIdentity.create(keyId, secret)).request(unsigned)
          .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
          .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
          .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(Instant.ofEpochMilli(signedAtMillis), ZoneOffset.UTC));
      if (body != null) {
        r.payload(ContentStreamProvider.fromUtf8String(body));
      }
      if (presigned) {
        r.putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
            .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, Duration.ofMinutes(5));
      }
    });
    return view(result.request(), body == null ? "" : body);
  }

  static SignedRequest view(SdkHttpRequest r, String body) {
    Map<String, List<String>> headers = new HashMap<>();
    r.headers().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values));
    headers.putIfAbsent("host", List.of(r.host() + ":" + r.port()));
    return new SignedRequest() {
      public String method() {
        return r.method().name();
      }

      public String rawPath() {
        return r.encodedPath();
      }

      public String rawQuery() {
        return r.encodedQueryParameters().orElse(null);
      }

      public List<String> headers(String name) {
        return headers.getOrDefault(name, List.of());
      }

      public byte[] body() {
        return body.getBytes(StandardCharsets.UTF_8);
      }
    };
  }

  static ErrorCode refusal(SignedRequest r, long now) {
    return assertThrows(SqsException.class, () -> VERIFIER.verify(r, now)).code();
  }

  @Test
  void aRequestSignedWithAConfiguredKeyIsAcceptedAndNamesItsKey() {
    assertEquals("AKIDSLUICE", VERIFIER.verify(signed("AKIDSLUICE", "s3cret", NOW, BODY, false), NOW));
    assertEquals("AKIDOTHER", VERIFIER.verify(signed("AKIDOTHER", "other", NOW - 60_000, BODY, false), NOW));
  }

  @Test
  void oneKeySignsForSqsAndForSnsAndForNoOtherService() {
    SigV4Verifier verifier = new SigV4Verifier(Map.of("AKIDSLUICE", "s3cret"));
    // The same key, date and region for both services: each is checked with its own signing key.
    assertEquals("AKIDSLUICE", verifier.verify(signed("AKIDSLUICE", "s3cret", NOW, BODY, false, "sqs"), NOW));
    assertEquals("AKIDSLUICE", verifier.verify(signed("AKIDSLUICE", "s3cret", NOW, BODY, false, "sns"), NOW));
    assertEquals("AKIDSLUICE", verifier.verify(signed("AKIDSLUICE", "s3cret", NOW, BODY, false, "sqs"), NOW));
    assertEquals("sns", verifier.precheck(signed("AKIDSLUICE", "s3cret", NOW, BODY, false, "sns"), NOW).scope()
        .service());
    SqsException s3 = assertThrows(SqsException.class,
        () -> verifier.verify(signed("AKIDSLUICE", "s3cret", NOW, BODY, false, "s3"), NOW));
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, s3.code());
    assertEquals("Credential should be scoped to correct service: 'sqs'.", s3.getMessage());
  }

  @Test
  void aWrongSecretIsSignatureDoesNotMatch() {
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, refusal(signed("AKIDSLUICE", "guess", NOW, BODY, false), NOW));
  }

  @Test
  void anUnknownKeyIsInvalidClientTokenId() {
    assertEquals(ErrorCode.INVALID_CLIENT_TOKEN_ID, refusal(signed("AKIDNOBODY", "s3cret", NOW, BODY, false), NOW));
  }

  @Test
  void aClockMoreThan15MinutesOffIsRefusedEitherWay() {
    SqsException past = assertThrows(SqsException.class,
        () -> VERIFIER.verify(signed("AKIDSLUICE", "s3cret", NOW - 16 * 60_000, BODY, false), NOW));
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, past.code());
    assertTrue(past.getMessage().startsWith("Signature expired: 20261124T114400Z is now earlier than"
        + " 20261124T114500Z (20261124T120000Z - 15 min.)"), past.getMessage());
    SqsException future = assertThrows(SqsException.class,
        () -> VERIFIER.verify(signed("AKIDSLUICE", "s3cret", NOW + 16 * 60_000, BODY, false), NOW));
    assertTrue(future.getMessage().startsWith("Signature not yet current"), future.getMessage());
    assertEquals("AKIDSLUICE", VERIFIER.verify(signed("AKIDSLUICE", "s3cret", NOW - 14 * 60_000, BODY, false), NOW));
  }

  @Test
  void aChangedBodyOrHeaderIsSignatureDoesNotMatch() {
    SignedRequest good = signed("AKIDSLUICE", "s3cret", NOW, BODY, false);
    SignedRequest otherBody = new Delegate(good) {
      @Override
      public byte[] body() {
        return BODY.replace("hi", "ho").getBytes(StandardCharsets.UTF_8);
      }
    };
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, refusal(otherBody, NOW));
    SignedRequest otherTarget = new Delegate(good) {
      @Override
      public List<String> headers(String name) {
        return name.equals("x-amz-target") ? List.of("AmazonSQS.PurgeQueue") : super.headers(name);
      }
    };
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, refusal(otherTarget, NOW));
  }

  @Test
  void noSignatureAtAllIsMissingAuthenticationToken() {
    SignedRequest unsigned = new Delegate(signed("AKIDSLUICE", "s3cret", NOW, BODY, false)) {
      @Override
      public List<String> headers(String name) {
        return name.equals("authorization") ? List.of() : super.headers(name);
      }
    };
    assertEquals(ErrorCode.MISSING_AUTHENTICATION_TOKEN, refusal(unsigned, NOW));
  }

  @Test
  void aMalformedAuthorizationHeaderIsIncompleteSignature() {
    for (String header : List.of("AWS AKIDSLUICE:c2lnbmF0dXJl", "AWS4-HMAC-SHA256 Credential=AKIDSLUICE/20261124/us-east-1/sqs/aws4_request")) {
      SignedRequest r = new Delegate(signed("AKIDSLUICE", "s3cret", NOW, BODY, false)) {
        @Override
        public List<String> headers(String name) {
          return name.equals("authorization") ? List.of(header) : super.headers(name);
        }
      };
      assertEquals(ErrorCode.INCOMPLETE_SIGNATURE, refusal(r, NOW), header);
    }
  }

  @Test
  void aPresignedGetIsAcceptedUntilItExpires() {
    SignedRequest presigned = signed("AKIDSLUICE", "s3cret", NOW, null, true);
    assertTrue(presigned.rawQuery().contains("X-Amz-Signature="), presigned.rawQuery());
    assertEquals("AKIDSLUICE", VERIFIER.verify(presigned, NOW + 4 * 60_000));
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, refusal(presigned, NOW + 6 * 60_000), "expired after 5 minutes");
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH,
        refusal(signed("AKIDSLUICE", "wrong", NOW, null, true), NOW), "presigned with a wrong secret");
  }

  @Test
  void anUnsignedTargetHeaderIsRefusedSoASignatureCannotBeReplayedWithAnotherAction() {
    // Signed without X-Amz-Target, which is then added: the signature itself is valid.
    SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.POST)
        .uri(URI.create("http://127.0.0.1:9324/")).putHeader("Content-Type", "application/x-amz-json-1.0").build();
    SignedRequest withoutTarget = view(AwsV4HttpSigner.create().sign(r -> r
        .identity(AwsCredentialsIdentity.create("AKIDSLUICE", "s3cret")).request(unsigned)
        .payload(ContentStreamProvider.fromUtf8String(BODY))
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sqs").putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC))).request(), BODY);
    assertEquals("AKIDSLUICE", VERIFIER.verify(withoutTarget, NOW), "valid as long as no target is sent");
    SignedRequest replayed = new Delegate(withoutTarget) {
      @Override
      public List<String> headers(String name) {
        return name.equals("x-amz-target") ? List.of("AmazonSQS.PurgeQueue") : super.headers(name);
      }
    };
    SqsException refused = assertThrows(SqsException.class, () -> VERIFIER.verify(replayed, NOW));
    assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, refused.code());
    assertTrue(refused.getMessage().contains("'X-Amz-Target' must be a 'SignedHeader'"), refused.getMessage());
  }

  /** A GET presigned by hand with any X-Amz-Expires, correctly signed for it. */
  static SignedRequest presignedFor(String expires) {
    String date = "20261124T120000Z";
    String query = "Action=ListQueues&X-Amz-Algorithm=AWS4-HMAC-SHA256"
        + "&X-Amz-Credential=AKIDSLUICE%2F20261124%2Fus-east-1%2Fsqs%2Faws4_request&X-Amz-Date=" + date
        + "&X-Amz-Expires=" + expires + "&X-Amz-SignedHeaders=host";
    SignedRequest unsigned = new SignedRequest() {
      public String method() {
        return "GET";
      }

      public String rawPath() {
        return "/";
      }

      public String rawQuery() {
        return query;
      }

      public List<String> headers(String name) {
        return name.equals("host") ? List.of("127.0.0.1:9324") : List.of();
      }

      public byte[] body() {
        return new byte[0];
      }
    };
    String canonical = SigV4.canonicalRequest(unsigned, List.of("host"),
        SigV4.hex(SigV4.sha256(new byte[0])), "X-Amz-Signature");
    String signature = SigV4.signature(SigV4.signingKey("s3cret", "20261124", "us-east-1", "sqs"),
        SigV4.stringToSign(date, "20261124/us-east-1/sqs/aws4_request", canonical));
    return new Delegate(unsigned) {
      @Override
      public String rawQuery() {
        return query + "&X-Amz-Signature=" + signature;
      }
    };
  }

  @Test
  void aPresignedUrlMayBeValidFromOneSecondToSevenDaysOnly() {
    assertEquals("AKIDSLUICE", VERIFIER.verify(presignedFor("604800"), NOW + 1000), "seven days is allowed");
    assertEquals("AKIDSLUICE", VERIFIER.verify(presignedFor("1"), NOW), "one second is allowed");
    for (String expires : List.of("-1", "0", "604801", "1000000000000")) {
      SqsException refused = assertThrows(SqsException.class, () -> VERIFIER.verify(presignedFor(expires), NOW),
          "X-Amz-Expires=" + expires);
      assertEquals(ErrorCode.INCOMPLETE_SIGNATURE, refused.code(), expires);
      assertTrue(refused.getMessage().startsWith("X-Amz-Expires must be"), refused.getMessage());
    }
  }

  @Test
  void theHeaderChecksNeedNoBody() {
    SignedRequest good = signed("AKIDSLUICE", "s3cret", NOW, BODY, false);
    SignedRequest bodyNotRead = new Delegate(good) {
      @Override
      public byte[] body() {
        throw new AssertionError("the precheck read the body");
      }
    };
    assertEquals("AKIDSLUICE", VERIFIER.precheck(bodyNotRead, NOW).verify(good));
    assertEquals(ErrorCode.INVALID_CLIENT_TOKEN_ID, assertThrows(SqsException.class,
        () -> VERIFIER.precheck(signed("AKIDNOBODY", "s3cret", NOW, BODY, false), NOW)).code());
  }

  /** A request that answers as another does, but for what a test overrides. */
  static class Delegate implements SignedRequest {
    private final SignedRequest d;

    Delegate(SignedRequest d) {
      this.d = d;
    }

    public String method() {
      return d.method();
    }

    public String rawPath() {
      return d.rawPath();
    }

    public String rawQuery() {
      return d.rawQuery();
    }

    public List<String> headers(String name) {
      return d.headers(name);
    }

    public byte[] body() {
      return d.body();
    }
  }
}
