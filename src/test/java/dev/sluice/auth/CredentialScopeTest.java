package dev.sluice.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The region (and key) a request is signed for, read from its Authorization header or presigned query. */
class CredentialScopeTest {
  /** A request with only these headers and this raw query. */
  static SignedRequest request(Map<String, String> headers, String rawQuery) {
    return new SignedRequest() {
      public String method() {
        return "GET";
      }

      public String rawPath() {
        return "/";
      }

      public String rawQuery() {
        return rawQuery;
      }

      public List<String> headers(String name) {
        return headers.containsKey(name) ? List.of(headers.get(name)) : List.of();
      }

      public byte[] body() {
        return new byte[0];
      }
    };
  }

  @Test
  void theAuthorizationHeaderNamesKeyDateRegionAndService() {
    CredentialScope s = CredentialScope.of(SignedFor.header("AKIDWEST", "secret", "us-west-2"));
    assertEquals("AKIDWEST", s.accessKeyId());
    assertEquals("us-west-2", s.region());
    assertEquals("sqs", s.service());
    assertEquals(8, s.date().length());
  }

  @Test
  void aPresignedQueryNamesItInXAmzCredential() {
    CredentialScope s = CredentialScope.of(SignedFor.presigned("AKIDEU", "secret", "eu-central-1"));
    assertEquals("AKIDEU", s.accessKeyId());
    assertEquals("eu-central-1", s.region());
  }

  @Test
  void aHandWrittenHeaderIsReadToo() {
    CredentialScope s = CredentialScope.of(request(Map.of("authorization",
        "AWS4-HMAC-SHA256 Credential=AKID/20260101/ap-southeast-2/sqs/aws4_request, SignedHeaders=host,"
            + " Signature=00"), null));
    assertEquals(new CredentialScope("AKID", "20260101", "ap-southeast-2", "sqs"), s);
    assertEquals("ap-southeast-2", CredentialScope.of(request(Map.of(),
        "Action=ListQueues&X-Amz-Credential=AKID%2F20260101%2Fap-southeast-2%2Fsqs%2Faws4_request")).region());
  }

  @Test
  void anUnsignedOrUnreadableRequestHasNoScope() {
    assertNull(CredentialScope.of(request(Map.of(), null)));
    assertNull(CredentialScope.of(request(Map.of(), "Action=ListQueues")));
    assertNull(CredentialScope.of(request(Map.of("authorization", "Bearer token"), null)));
    assertNull(CredentialScope.of(request(Map.of("authorization",
        "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/sqs, SignedHeaders=host, Signature=00"), null)),
        "four parts, no aws4_request");
    assertNull(CredentialScope.of(request(Map.of(), "X-Amz-Credential=%zz")), "a broken escape is no signature");
  }
}
