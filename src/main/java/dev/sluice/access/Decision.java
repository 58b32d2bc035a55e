package dev.sluice.access;

/**
 * The answer to one access question: allowed, or denied with the {@link AccessDenial} to render.
 * Immutable.
 */
public record Decision(boolean allowed, AccessDenial denial) {
  static final Decision ALLOW = new Decision(true, null);

  static Decision deny(AccessRequest r, String action, DenialReason reason) {
    return new Decision(false, new AccessDenial(r.requester().principalArn(), action, r.queueArn(), reason));
  }
}
