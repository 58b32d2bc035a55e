package dev.sluice.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The bearer token that guards /metrics and the push bridges (managementToken). Health probes stay
 * open: they reveal nothing and Kubernetes cannot send a token. Compared in constant time.
 */
public final class ManagementToken {
  private static final String BEARER = "Bearer ";
  private final byte[] token;

  /** {@code token} empty: everything is let in. */
  public ManagementToken(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  public boolean required() {
    return token.length > 0;
  }

  /** Whether an {@code Authorization: Bearer} header or a {@code token} parameter (either may be null) carries it. */
  public boolean accepts(String authorizationHeader, String tokenParameter) {
    if (!required()) {
      return true;
    }
    if (authorizationHeader != null && authorizationHeader.startsWith(BEARER)
        && matches(authorizationHeader.substring(BEARER.length()).trim())) {
      return true;
    }
    return tokenParameter != null && matches(tokenParameter);
  }

  private boolean matches(String candidate) {
    return MessageDigest.isEqual(token, candidate.getBytes(StandardCharsets.UTF_8));
  }
}
