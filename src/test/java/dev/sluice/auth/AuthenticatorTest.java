package dev.sluice.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Who a request acts as: the region of its signature whether authentication is on or off (the
 * default when unsigned), the account of its credential (the default with authentication off), and
 * AWS's refusal of a region the server does not serve.
 */
class AuthenticatorTest {
  static final String TWO_ACCOUNTS = "[{\"accessKeyId\":\"AKIDA\",\"secretAccessKey\":\"a-secret\","
      + "\"accountId\":\"111111111111\"},{\"accessKeyId\":\"AKIDB\",\"secretAccessKey\":\"b-secret\"}]";

  static Authenticator of(Map<String, String> env) {
    Map<String, String> all = new HashMap<>(env);
    all.putIfAbsent("SLUICE_MANAGEMENT_TOKEN", "off");
    SluiceConfig cfg = ConfigLoader.load(new String[0], all);
    return Authenticator.of(cfg.security(), cfg.sqs());
  }

  @Test
  void withAuthenticationOffARequestActsAsTheDefaultAccountInItsSignaturesRegion() {
    Authenticator off = of(Map.of("SLUICE_SQS_ACCOUNT_ID", "999999999999"));
    Identity west = off.admit(SignedFor.header("anything", "any", "us-west-2")).identity();
    assertEquals(new Identity("anything", "999999999999", "us-west-2"), west);
    assertEquals("eu-west-1", off.admit(SignedFor.presigned("k", "s", "eu-west-1")).identity().region());
    Identity unsigned = off.admit(CredentialScopeTest.request(Map.of(), "Action=ListQueues")).identity();
    assertEquals(new Identity(null, "999999999999", "us-east-1"), unsigned, "the defaults");
    assertNull(off.admit(SignedFor.header("k", "s", "us-east-1")).signature(), "nothing to check against the body");
  }

  @Test
  void withCredentialsARequestActsAsItsKeysAccount() {
    Authenticator on = of(Map.of("SLUICE_CREDENTIALS", TWO_ACCOUNTS));
    Authenticator.Admission a = on.admit(SignedFor.header("AKIDA", "a-secret", "us-west-2"));
    assertEquals(new Identity("AKIDA", "111111111111", "us-west-2"), a.identity());
    assertEquals(new Identity("AKIDB", "000000000000", "us-east-1"),
        on.admit(SignedFor.header("AKIDB", "b-secret", "us-east-1")).identity(), "no accountId: the default");
    assertEquals("000000000000", of(Map.of("SLUICE_CREDENTIALS", "AKIDC:c-secret"))
        .admit(SignedFor.presigned("AKIDC", "c-secret", "eu-west-1")).identity().accountId(), "KEYID:SECRET");
  }

  @Test
  void aRegionTheServerDoesNotServeIsRefusedAsAwsRefusesIt() {
    for (Authenticator a : new Authenticator[] {
        of(Map.of("SLUICE_SQS_REGIONS", "us-east-1,us-west-2")),
        of(Map.of("SLUICE_SQS_REGIONS", "us-east-1,us-west-2", "SLUICE_CREDENTIALS", TWO_ACCOUNTS))}) {
      assertEquals("us-west-2", a.admit(SignedFor.header("AKIDA", "a-secret", "us-west-2")).identity().region());
      SqsException e = assertThrows(SqsException.class,
          () -> a.admit(SignedFor.header("AKIDA", "a-secret", "eu-west-1")));
      assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, e.code());
      assertEquals("Credential should be scoped to a valid region, not 'eu-west-1'. ", e.getMessage());
      assertEquals(ErrorCode.SIGNATURE_DOES_NOT_MATCH, assertThrows(SqsException.class,
          () -> a.admit(SignedFor.presigned("AKIDA", "a-secret", "eu-west-1"))).code());
    }
  }

  @Test
  void aScopeWithoutAUsableRegionIsRefusedEvenWhenAnyRegionIsServed() {
    Authenticator any = of(Map.of());
    SqsException e = assertThrows(SqsException.class, () -> any.admit(CredentialScopeTest.request(Map.of(
        "authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/us:east/sqs/aws4_request, SignedHeaders=host,"
            + " Signature=00"), null)));
    assertEquals("Credential should be scoped to a valid region, not 'us:east'. ", e.getMessage());
  }
}
