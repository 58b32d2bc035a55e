package dev.sluice.auth;

import java.util.Map;

/**
 * Whether requests must be signed: with credentials configured every SQS request is checked by
 * {@link SigV4Verifier}; without, any signature (or none) is accepted, as local SQS tools do, and
 * the log says so once.
 */
public final class Authenticator {
  private static final System.Logger LOG = System.getLogger(Authenticator.class.getName());
  private final SigV4Verifier verifier;

  private Authenticator(SigV4Verifier verifier) {
    this.verifier = verifier;
  }

  public static Authenticator of(Map<String, String> credentials) {
    if (credentials.isEmpty()) {
      LOG.log(System.Logger.Level.WARNING, "Authentication is off: no credentials are configured (credentials,"
          + " SLUICE_CREDENTIALS), so requests with any signature or none are accepted");
      return new Authenticator(null);
    }
    LOG.log(System.Logger.Level.INFO, "Authentication is on: SigV4 with " + credentials.size() + " access key(s)");
    return new Authenticator(new SigV4Verifier(credentials));
  }

  public boolean on() {
    return verifier != null;
  }

  /** The access key id that signed the request; throws the SQS error when it must not pass. */
  public String authenticate(SignedRequest r) {
    return verifier.verify(r, System.currentTimeMillis());
  }
}
