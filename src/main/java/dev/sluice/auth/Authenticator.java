package dev.sluice.auth;

import java.util.Map;

/**
 * Whether requests must be signed: with credentials configured every SQS request is checked by
 * {@link SigV4Verifier}; without, any signature (or none) is accepted, as local SQS tools do (the
 * start-up log lists the SQS APIs among the open surfaces, see {@link Surfaces}).
 */
public final class Authenticator {
  private final SigV4Verifier verifier;

  private Authenticator(SigV4Verifier verifier) {
    this.verifier = verifier;
  }

  public static Authenticator of(Map<String, String> credentials) {
    return new Authenticator(credentials.isEmpty() ? null : new SigV4Verifier(credentials));
  }

  public boolean on() {
    return verifier != null;
  }

  /**
   * Checks what the request's headers and query say, before its body is read; throws the SQS error
   * when it must not pass. The body is checked afterwards by the returned signature.
   */
  public SigV4Verifier.Signature precheck(SignedRequest r) {
    return verifier.precheck(r, System.currentTimeMillis());
  }
}
