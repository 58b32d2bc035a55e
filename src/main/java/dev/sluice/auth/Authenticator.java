package dev.sluice.auth;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.config.Credential;
import dev.sluice.config.SecurityConfig;
import dev.sluice.config.SqsConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who a request acts as, and whether it may be served at all. With credentials configured every SQS
 * request is checked by {@link SigV4Verifier} and acts as its credential's account; without, any
 * signature (or none) is accepted, as local SQS tools do (the start-up log lists the SQS APIs among
 * the open surfaces, see {@link Surfaces}), and every request acts as the default account. Either
 * way a request acts in the region its signature is scoped to (the default region when unsigned),
 * which must be one this server serves. Immutable.
 */
public final class Authenticator {
  private final SigV4Verifier verifier;
  private final Map<String, String> accountsByKeyId;
  private final SqsConfig sqs;

  private Authenticator(SigV4Verifier verifier, Map<String, String> accountsByKeyId, SqsConfig sqs) {
    this.verifier = verifier;
    this.accountsByKeyId = accountsByKeyId;
    this.sqs = sqs;
  }

  public static Authenticator of(SecurityConfig security, SqsConfig sqs) {
    Map<String, String> accounts = new LinkedHashMap<>();
    for (Credential c : security.accessKeys()) {
      accounts.put(c.accessKeyId(), c.accountId());
    }
    Map<String, String> secrets = security.credentials();
    return new Authenticator(secrets.isEmpty() ? null : new SigV4Verifier(secrets), Map.copyOf(accounts), sqs);
  }

  public boolean on() {
    return verifier != null;
  }

  /**
   * What a request may go on with: who it acts as, the signature its body must match (null when
   * off), and the service it is signed for ({@code sqs}, {@code sns}; null when unsigned).
   */
  public record Admission(Identity identity, SigV4Verifier.Signature signature, String service) {}

  /**
   * Checks what the request's headers and query say, before its body is read, and settles who it
   * acts as; throws the SQS error when it must not pass. With authentication on, the body is
   * checked afterwards by the admission's signature.
   */
  public Admission admit(SignedRequest r) {
    if (verifier == null) {
      CredentialScope scope = CredentialScope.of(r);
      return new Admission(new Identity(scope == null ? null : scope.accessKeyId(), sqs.accountId(), regionOf(scope)),
          null, scope == null ? null : scope.service());
    }
    SigV4Verifier.Signature signature = verifier.precheck(r, System.currentTimeMillis());
    CredentialScope scope = signature.scope();
    return new Admission(
        new Identity(scope.accessKeyId(), accountsByKeyId.get(scope.accessKeyId()), regionOf(scope)), signature,
        scope.service());
  }

  /**
   * Who an unsigned SNS link (a SubscribeURL or UnsubscribeURL followed while authentication is on)
   * acts as: the account and region of the ARN it names (the defaults when it names none the server
   * serves, and the action then refuses the ARN). Such a request may do only its link's action,
   * which the engine decides on the token or the subscription, never on a credential.
   */
  public Admission admitLink(String arn) {
    String[] p = arn == null ? new String[0] : arn.split(":", -1);
    boolean named = p.length >= 6 && p[4].matches("\\d{12}") && sqs.servesRegionNamed(p[3]);
    return new Admission(named ? new Identity(null, p[4], p[3]) : unadmitted(), null, "sns");
  }

  /** Who a request refused before it was admitted is answered as: the defaults. */
  public Identity unadmitted() {
    return new Identity(null, sqs.accountId(), sqs.region());
  }

  /**
   * The region of a request signed with {@code scope} (null: unsigned, the default region). A region
   * this server does not serve (sqs.regions), or no region at all, is refused as an AWS endpoint
   * refuses a signature scoped to a region it does not serve: SignatureDoesNotMatch, "Credential
   * should be scoped to a valid region, not '…'. " (AWS's text, trailing space included, as the SQS
   * error quoted in boto/boto pull request 3688 and aws/aws-sdk-cpp issue 93 shows it).
   */
  String regionOf(CredentialScope scope) {
    String region = scope == null ? sqs.region() : scope.region();
    if (!sqs.servesRegionNamed(region)) {
      throw new SqsException(ErrorCode.SIGNATURE_DOES_NOT_MATCH,
          "Credential should be scoped to a valid region, not '" + region + "'. ");
    }
    return region;
  }
}
